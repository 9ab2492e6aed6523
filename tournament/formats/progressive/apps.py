from django.apps import AppConfig


class ProgressiveConfig(AppConfig):
    name = "tournament.formats.progressive"
    label = "progressive"
    verbose_name = "Progressive tables"

    def ready(self) -> None:
        from tournament.formats.progressive.format import Progressive
        from tournament.formats.registry import register

        register(Progressive(split=True), Progressive(split=False))
