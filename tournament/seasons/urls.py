"""A club's seasons: the director's pages (under the club) and the public ones (no login)."""

from django.urls import path

from tournament.seasons import views

C = "clubs/<int:club_id>/seasons/"
P = "c/<int:club_id>/"

director_patterns = [
    path(C, views.seasons, name="seasons"),
    path(C + "new/", views.season_new, name="season_new"),
    path(C + "<int:season_id>/", views.season, name="season"),
    path(C + "<int:season_id>/edit/", views.season_edit, name="season_edit"),
    path(C + "<int:season_id>/season.csv", views.season_csv, name="season_csv"),
    path(C + "<int:season_id>/print/", views.season_print, name="season_print"),
]

public_patterns = [
    path(P + "seasons/", views.public_seasons, name="seasons"),
    path(P + "seasons/<int:season_id>/", views.public_season, name="season"),
    path(P + "seasons/<int:season_id>/projector/", views.season_projector, name="season_projector"),
    path(P + "players/<int:person_id>/", views.player, name="player"),
]
