"""An event's places by the club's roster people (tournament.standings.people)."""

from __future__ import annotations

import pytest

from tests.conftest import finish_game, make_tournament
from tests.events import knockout_finished
from tournament.models import Player, Team
from tournament.play.rounds import close_round, start_play, start_round
from tournament.standings.people import event_places


def _played_round(split: bool):
    tournament = make_tournament(couples=4, split=split)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    close_round(round_=round_)
    return tournament


@pytest.mark.django_db
def test_split_partners_place_each_player_as_one_roster_person():
    tournament = _played_round(split=True)
    places = event_places(tournament)
    assert places.individual
    assert len(places.places) == 8
    by_player = {p.pk: p.roster_id for p in Player.objects.filter(team__tournament=tournament)}
    for place in places.places:
        assert place.people == (by_player[place.entrant],)
        assert place.name == Player.objects.get(pk=place.entrant).name
    assert places.places[0].place == 1


@pytest.mark.django_db
def test_fixed_partners_place_each_team_as_its_two_roster_people_in_registration_order():
    tournament = _played_round(split=False)
    places = event_places(tournament)
    assert not places.individual
    for place in places.places:
        team = Team.objects.get(pk=place.entrant)
        assert place.people == tuple(team.players.order_by("id").values_list("roster_id", flat=True))
        assert None not in place.people


@pytest.mark.django_db
def test_a_knockout_places_its_teams_by_the_bracket():
    tournament = knockout_finished()
    places = event_places(tournament)
    assert not places.individual
    assert places.places[0].place == 1
    assert all(len(p.people) == 2 for p in places.places)
