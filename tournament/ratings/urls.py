"""The ratings' own page (tournament.ratings), in the "public" namespace."""

from django.urls import path

from tournament.ratings import views

public_patterns = [
    path("c/<int:club_id>/ratings/", views.about, name="ratings_about"),
]
