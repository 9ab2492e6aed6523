from django.apps import AppConfig


class KeyingConfig(AppConfig):
    name = "tournament.keying"
    label = "keying"
    verbose_name = "Keying paper sheets"
