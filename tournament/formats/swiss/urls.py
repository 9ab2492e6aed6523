"""A Swiss event's pages: the director's (in the "director" namespace) and everyone's ("public")."""

from django.urls import path

from tournament.formats.swiss import views

T = "t/<int:tournament_id>/"

director_patterns = [
    path(T + "swiss/", views.rounds, name="swiss"),
    path(T + "swiss/swap/", views.swap, name="swiss_swap"),
    path(T + "swiss/late/<int:team_id>/", views.missed, name="swiss_missed"),
    path(T + "swiss/standings/", views.standings, name="swiss_standings"),
]
public_patterns = [
    path("s/<int:tournament_id>/swiss/", views.public_standings, name="swiss"),
    path("s/<int:tournament_id>/swiss/projector/", views.projector, name="swiss_projector"),
]
