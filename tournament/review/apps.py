from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "tournament.review"
    label = "review"
    verbose_name = "Results checks"
