"""A league's pages: the director's (in the "director" namespace) and everyone's ("public")."""

from django.urls import path

from tournament.formats.league import views

T = "t/<int:tournament_id>/"

director_patterns = [
    path(T + "league/", views.schedule, name="league_schedule"),
    path(T + "league/build/", views.schedule_build, name="league_build"),
    path(T + "league/matches/<int:match_id>/postpone/", views.match_postpone, name="league_postpone"),
    path(T + "league/join/", views.team_join, name="league_join"),
    path(T + "league/withdraw/", views.team_withdraw, name="league_withdraw"),
    path(T + "league/nights/<int:number>/", views.night, name="league_night"),
    path(T + "league/nights/<int:number>/open/", views.night_open, name="league_night_open"),
    path(T + "league/table/", views.table, name="league_table"),
    path(T + "league/championship/", views.championship_start, name="league_championship"),
]
public_patterns = [
    path("s/<int:tournament_id>/league/", views.public_table, name="league"),
    path("s/<int:tournament_id>/league/projector/", views.projector, name="league_projector"),
]
