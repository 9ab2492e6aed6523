"""Every format's standings as they stood once a round (a league's night) was over
(EventFormat.standings_after): what the standings-over-rounds chart and the checked-rounds-only
public page read. Each test takes the standings at the moment the round closed and compares them
with what standings_after gives once later rounds are played."""

import random

import pytest

from tests.events import knockout_finished, league_in_season, swiss_under_way
from tournament.formats.league import services as league
from tournament.formats.league.simulation import create_league
from tournament.formats.progressive.simulation import create_progressive
from tournament.formats.registry import format_of
from tournament.formats.swiss.simulation import create_swiss
from tournament.models import Tournament
from tournament.play.rounds import close_round, start_play, start_round
from tournament.simulation.play import play_round

pytestmark = pytest.mark.django_db


def play_rounds(tournament: Tournament, rounds: int, seed: int) -> list[list]:
    """Play ``rounds`` rounds (nights) of ``tournament``, each closed; the standings as they stood
    just after each closed."""
    rng = random.Random(seed)
    event_format = format_of(tournament)
    round_ = tournament.rounds.order_by("number").first() or start_play(tournament=tournament)
    seen = []
    for number in range(1, rounds + 1):
        if round_ is None:
            round_ = league.open_night(tournament=tournament, night=number)
        start_round(round_=round_)
        play_round(round_, rng)
        round_ = close_round(round_=round_)
        seen.append(event_format.standings(tournament))
    return seen


@pytest.mark.parametrize("partners", ["split", "fixed"])
def test_a_progressive_events_standings_after_each_round(partners):
    tournament = create_progressive(couples=8, rounds=3, seed=3, partners=partners)
    seen = play_rounds(tournament, 3, seed=3)
    event_format = format_of(tournament)
    assert [event_format.standings_after(tournament, n) for n in (1, 2, 3)] == seen
    assert seen[0] != seen[2]  # later rounds did move the places
    assert all(len(row.standing.rounds) == 1 for row in event_format.standings_after(tournament, 1))


def test_a_swiss_events_standings_after_each_round():
    tournament = create_swiss(teams=8, rounds=3, seed=7)
    seen = play_rounds(tournament, 3, seed=7)
    event_format = format_of(tournament)
    assert [event_format.standings_after(tournament, n) for n in (1, 2, 3)] == seen
    assert seen[0] != seen[2]
    # after round 1 half the teams have won one round, half none
    assert sorted(row.standing.total for row in seen[0]) == [0] * 4 + [1] * 4


def test_a_leagues_table_after_each_night_leaves_out_the_championship():
    tournament = create_league(teams=5, seed=8, championship=2)
    seen = play_rounds(tournament, 5, seed=8)  # 5 teams meet once: 5 nights, one team resting each
    assert league.load_schedule(tournament).nights == 5
    final = league.start_championship(tournament=tournament)
    play_round(final, random.Random(8))
    event_format = format_of(tournament)
    assert [event_format.standings_after(tournament, n) for n in range(1, 6)] == seen
    # the championship decides the places, not the table after the nights
    assert event_format.standings_after(tournament, final.number) == seen[-1]


def test_a_knockouts_places_cannot_be_cut_at_a_round():
    tournament = knockout_finished()
    assert format_of(tournament).standings_after(tournament, 1) is None


@pytest.mark.parametrize("build", [swiss_under_way, league_in_season])
def test_a_team_that_joined_after_the_round_is_not_in_its_standings(build):
    tournament = build()  # a late team joined from round (night) 2 on
    event_format = format_of(tournament)
    late = tournament.teams.get(players__name="Late")
    assert late.pk in {row.standing.entrant for row in event_format.standings(tournament)}
    assert late.pk not in {row.standing.entrant for row in event_format.standings_after(tournament, 1)}
