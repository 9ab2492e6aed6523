"""The progressive format's pages, in the director's namespace (see tournament/urls.py)."""

from django.urls import path

from tournament.formats.progressive import views

T = "t/<int:tournament_id>/"

director_patterns = [
    path(T + "rounds/<int:number>/", views.round_detail, name="round"),
    path(T + "rounds/<int:number>/swap/", views.round_swap, name="round_swap"),
]
public_patterns: list = []
