"""A knockout's pages: the director's (in the "director" namespace) and everyone's ("public")."""

from django.urls import path

from tournament.formats.knockout import views

T = "t/<int:tournament_id>/"

director_patterns = [
    path(T + "bracket/", views.bracket, name="bracket"),
    path(T + "bracket/seeds/", views.seeds, name="seeds"),
    path(T + "bracket/matches/<int:match_id>/table/", views.match_table, name="match_table"),
]
public_patterns = [
    path("s/<int:tournament_id>/bracket/", views.public_bracket, name="bracket"),
    path("s/<int:tournament_id>/bracket/projector/", views.bracket_projector, name="bracket_projector"),
]
