"""The results checks' director pages (joined to the "director" namespace by tournament.urls)."""

from django.urls import path

from tournament.review import views

director_patterns = [
    path("t/<int:tournament_id>/rounds/<int:number>/flags/check/", views.flag_check, name="flag_check"),
]
