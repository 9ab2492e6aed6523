"""The keying pages' addresses, in the "director" namespace."""

from django.urls import path

from tournament.keying import views

G = "t/<int:tournament_id>/games/<int:game_id>/keying/"

director_patterns = [
    path(G, views.keying, name="keying"),
    path(G + "hands/", views.keying_hand, name="keying_hand"),
    path(G + "hands/<int:number>/discard/", views.keying_discard, name="keying_discard"),
]
