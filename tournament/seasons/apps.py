from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    name = "tournament.seasons"
    label = "seasons"
    verbose_name = "Seasons"
