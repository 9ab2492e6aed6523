from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "tournament.formats.league"
    label = "league"
    verbose_name = "Leagues"

    def ready(self) -> None:
        from tournament.formats.league.format import League
        from tournament.formats.registry import register

        register(League())
