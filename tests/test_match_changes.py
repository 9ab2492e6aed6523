"""The director's changes before a match starts: two knockout teams swap places, a match moves to
another table (a knockout's, or a league night's), through the services and the match board."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tests.test_knockout import current_game, enter, hand, knockout_event, match, win_game
from tests.test_league import make_league
from tournament.formats.knockout.services import swap_teams
from tournament.formats.league.services import build_schedule, open_night
from tournament.formats.league.standings import league_matches
from tournament.formats.registry import format_of
from tournament.matches.services import move_to_table
from tournament.models import Seating, SeatingChange, Team

pytestmark = pytest.mark.django_db


def team(tournament, seed: int) -> Team:
    return tournament.teams.get(seed=seed)


def pairing(tournament, key: str) -> tuple[int, int]:
    """The match's teams by number (drawn in registration order: number = seed at the draw)."""
    m = match(tournament, key)
    return m.home.number, m.away.number


# --- knockout: two teams swap places ---------------------------------------------------------------


def test_two_teams_swap_matches_before_play_and_the_swap_is_recorded():
    tournament = knockout_event(teams=4)  # W1-1: seeds 1 v 4, W1-2: seeds 2 v 3
    first, third = team(tournament, 1), team(tournament, 3)
    tables = {key: match(tournament, key).table_id for key in ("W1-1", "W1-2")}
    swap_teams(tournament=tournament, first=first, second=third)
    assert match(tournament, "W1-1").home == third and match(tournament, "W1-2").away == first
    assert {key: match(tournament, key).table_id for key in tables} == tables  # the matches keep their tables
    first.refresh_from_db()
    assert first.seed == 3
    (change,) = SeatingChange.objects.filter(round__tournament=tournament)
    assert f"teams {first.number} and {third.number}" in change.description


def test_a_team_on_a_bye_swaps_into_a_round_one_match_and_the_other_takes_its_bye():
    tournament = knockout_event(teams=5)  # seeds 1–3 have byes; W1-2 is seeds 4 v 5
    top, fifth = team(tournament, 1), team(tournament, 5)
    swap_teams(tournament=tournament, first=top, second=fifth)
    bye = match(tournament, "W1-1")
    assert bye.is_bye and bye.winner == fifth
    assert top.pk in (match(tournament, "W1-2").home_id, match(tournament, "W1-2").away_id)
    assert fifth.pk in (match(tournament, "W2-1").home_id, match(tournament, "W2-1").away_id)


@pytest.mark.parametrize("started_seed", [1, 3])
def test_teams_cannot_swap_once_a_hand_is_entered_in_either_match(started_seed):
    tournament = knockout_event(teams=4)
    started = match(tournament, "W1-1" if started_seed == 1 else "W1-2")
    enter(current_game(started), hand())
    with pytest.raises(ValidationError) as refused:
        swap_teams(tournament=tournament, first=team(tournament, 1), second=team(tournament, 3))
    assert refused.value.code == "match_started"
    assert f"a hand is entered at table {started.table.number}" in refused.value.messages[0]
    assert pairing(tournament, "W1-1") == (1, 4)


def test_a_team_that_has_won_its_match_cannot_swap():
    tournament = knockout_event(teams=4)
    win_game(match(tournament, "W1-1"))
    with pytest.raises(ValidationError) as refused:
        swap_teams(tournament=tournament, first=team(tournament, 1), second=team(tournament, 2))
    assert refused.value.code in ("match_finished", "match_started")


def test_a_team_cannot_swap_with_itself():
    tournament = knockout_event(teams=4)
    with pytest.raises(ValidationError) as refused:
        swap_teams(tournament=tournament, first=team(tournament, 1), second=team(tournament, 1))
    assert refused.value.code == "not_in_bracket"


# --- moving a match to another table ---------------------------------------------------------------


def test_a_match_moves_to_a_free_table_then_swaps_tables_with_a_match_not_started():
    tournament = knockout_event(teams=4, tables_available=3)
    first, second = match(tournament, "W1-1"), match(tournament, "W1-2")
    three = tournament.tables.get(number=3)
    assert move_to_table(match=first, table=three) is None
    first.refresh_from_db()
    assert first.table == three and current_game(first).table == three
    other = move_to_table(match=first, table=second.table)
    assert other == second
    first.refresh_from_db(), second.refresh_from_db()
    assert (first.table.number, second.table.number) == (2, 3)
    assert current_game(second).table.number == 3
    descriptions = [c.description for c in SeatingChange.objects.filter(round__tournament=tournament)]
    assert descriptions[-1] == "The semi-final, match 1 and the semi-final, match 2 swapped tables 3 and 2."


def test_a_match_does_not_move_onto_the_table_of_a_match_under_way():
    tournament = knockout_event(teams=4)
    first, second = match(tournament, "W1-1"), match(tournament, "W1-2")
    enter(current_game(second), hand())
    with pytest.raises(ValidationError) as refused:
        move_to_table(match=first, table=second.table)
    assert refused.value.code == "match_started" and "table 2 is in use" in refused.value.messages[0]


def test_a_league_nights_match_swaps_tables_and_its_players_seats_follow():
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    night = open_night(tournament=tournament, night=1)
    first, second = league_matches(tournament).filter(round=1).order_by("number")
    seats_before = {s.player_id: (s.table.number, s.seat) for s in Seating.objects.filter(round=night)}
    move_to_table(match=first, table=second.table)
    seats_after = {s.player_id: (s.table.number, s.seat) for s in Seating.objects.filter(round=night)}
    assert {p: (3 - t, seat) for p, (t, seat) in seats_before.items()} == seats_after


def test_a_league_refuses_to_swap_teams_between_matches():
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    a, b = tournament.teams.order_by("number")[:2]
    with pytest.raises(ValidationError) as refused:
        format_of(tournament).swap_teams(tournament=tournament, first=a, second=b)
    assert refused.value.code == "no_team_swaps" and "Postpone" in refused.value.messages[0]


# --- through the match board --------------------------------------------------------------------------


def swap_url(tournament) -> str:
    return reverse("director:match_swap", args=[tournament.pk])


def test_the_match_board_swaps_two_teams_and_says_so(director_client):
    tournament = knockout_event(teams=4)
    data = {"kind": "teams", "swap-first": team(tournament, 1).pk, "swap-second": team(tournament, 3).pk}
    response = director_client.post(swap_url(tournament), data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("director:bracket", args=[tournament.pk])
    page = response.content.decode()
    assert "swapped places" in page and "Swapped teams" in page  # the notice, and the record
    assert pairing(tournament, "W1-1") == (3, 4)


def test_the_swap_choices_name_teams_by_their_seed_as_the_bracket_does(director_client):
    tournament = knockout_event(teams=4)
    top = team(tournament, 1)
    Team.objects.filter(pk=top.pk).update(number=9)  # registered last, seeded first
    page = director_client.get(reverse("director:bracket", args=[tournament.pk])).content.decode()
    assert f'value="{top.pk}">(1) {escape(top.names)}</option>' in page
    assert f"9. {escape(top.names)}" not in page


def test_the_match_board_moves_a_match_to_another_table(director_client):
    tournament = knockout_event(teams=4, tables_available=3)
    first = match(tournament, "W1-1")
    data = {"kind": "table", "move-match": first.pk, "move-table": tournament.tables.get(number=3).pk}
    page = director_client.post(swap_url(tournament), data, follow=True).content.decode()
    assert "is at table 3 now" in page
    assert match(tournament, "W1-1").table.number == 3


def test_a_league_night_moves_a_match_from_its_page(director_client):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    first, second = league_matches(tournament).filter(round=1).order_by("number")
    night_url = reverse("director:league_night", args=[tournament.pk, 1])
    assert 'name="move-match"' in director_client.get(night_url).content.decode()
    data = {"kind": "table", "move-match": first.pk, "move-table": second.table.pk}
    response = director_client.post(swap_url(tournament), data, follow=True)
    assert response.redirect_chain[-1][0] == night_url
    assert "took its table" in response.content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "teams", "swap-first": "", "swap-second": ""}, "This field is required"),
        ({"kind": "teams", "swap-first": 999999, "swap-second": 999998}, "Select a valid choice"),
        ({"kind": "table", "move-match": "x", "move-table": ""}, "Select a valid choice"),
    ],
)
def test_the_match_board_refuses_bad_choices_and_changes_nothing(director_client, data, message):
    tournament = knockout_event(teams=4)
    page = director_client.post(swap_url(tournament), data, follow=True).content.decode()
    assert message in page
    assert pairing(tournament, "W1-1") == (1, 4) and not SeatingChange.objects.exists()


def test_the_match_board_refuses_same_team_and_a_started_match_with_the_reason(director_client):
    tournament = knockout_event(teams=4)
    same = {"kind": "teams", "swap-first": team(tournament, 1).pk, "swap-second": team(tournament, 1).pk}
    assert (
        "Choose two different teams." in director_client.post(swap_url(tournament), same, follow=True).content.decode()
    )
    enter(current_game(match(tournament, "W1-1")), hand())
    data = {"kind": "teams", "swap-first": team(tournament, 1).pk, "swap-second": team(tournament, 3).pk}
    page = director_client.post(swap_url(tournament), data, follow=True).content.decode()
    assert "has started (a hand is entered at table 1)" in page
    assert pairing(tournament, "W1-1") == (1, 4)


def test_the_match_board_swap_refuses_get_missing_tournaments_and_strangers(director_client):
    tournament = knockout_event(teams=4)
    data = {"kind": "teams", "swap-first": team(tournament, 1).pk, "swap-second": team(tournament, 3).pk}
    assert director_client.get(swap_url(tournament)).status_code == 405
    assert director_client.post(reverse("director:match_swap", args=[999999]), data).status_code == 404
    response = Client().post(swap_url(tournament), data)
    assert response.status_code == 302 and "/login/" in response.url
    assert pairing(tournament, "W1-1") == (1, 4)
