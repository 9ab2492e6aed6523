from django.apps import AppConfig


class KnockoutConfig(AppConfig):
    name = "tournament.formats.knockout"
    label = "knockout"
    verbose_name = "Knockouts"

    def ready(self) -> None:
        from tournament.formats.knockout.format import Knockout
        from tournament.formats.registry import register

        register(Knockout(double=False), Knockout(double=True))
