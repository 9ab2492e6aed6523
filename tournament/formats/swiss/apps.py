from django.apps import AppConfig


class SwissConfig(AppConfig):
    name = "tournament.formats.swiss"
    label = "swiss"
    verbose_name = "Swiss events"

    def ready(self) -> None:
        from tournament.formats.registry import register
        from tournament.formats.swiss.format import Swiss

        register(Swiss())
