"""Entrants during an event: late couples, substitutes, a team entered by mistake, namesakes."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.conftest import a_club, finish_game, make_tournament
from tournament.formats.progressive.seating import movement_rows
from tournament.formats.progressive.standings import standings_rows
from tournament.models import Payment, Player, Seating, SeatingChange, Team
from tournament.money.services import record_payment
from tournament.play.board import game_sheet
from tournament.play.rounds import close_round, start_play, start_round
from tournament.standings.places import round_places
from tournament.teams.services import register_team, remove_team, substitute_player
from tournament.transfer.export import export_tournament
from tournament.transfer.write import import_tournament

pytestmark = pytest.mark.django_db


def _placed(round_) -> dict[str, int | None]:
    return {p.name: p.table for p in round_places(round_)}


# --- late arrivals ----------------------------------------------------------------------------------


def test_a_late_couple_joins_at_the_highest_table(finished_round, tournament):
    register_team(tournament=tournament, names=["Quinn", "Rosa"])
    following = close_round(round_=finished_round)
    placed = _placed(following)
    assert placed["Quinn"] == placed["Rosa"] == 4  # nine couples: four tables, table 1's losers sit out
    assert [p for p, table in placed.items() if table is None] == sorted(
        finished_round.seatings.filter(table__number=1, seat__in="EW").values_list("player__name", flat=True)
    )


def test_a_late_couple_sits_out_when_the_movement_says_so(db):
    tournament = make_tournament(couples=9)  # one couple sits out round 1
    first = start_play(tournament=tournament)
    start_round(round_=first)
    for game in first.games.all():
        finish_game(game)
    register_team(tournament=tournament, names=["Quinn", "Rosa"])  # ten couples now
    following = close_round(round_=first)
    placed = _placed(following)
    assert placed["Quinn"] == placed["Rosa"] == 5 and None not in placed.values()


def test_a_late_couple_is_seated_at_once_in_a_round_not_started(finished_round, tournament, director):
    following = close_round(round_=finished_round)
    team = register_team(tournament=tournament, names=["Quinn", "Rosa"], by=director)
    assert team.checked_in
    assert {"Quinn", "Rosa"} <= set(_placed(following))
    change = SeatingChange.objects.get(round=following)
    assert change.description == "Team 9 arrived late: the round was re-seated." and change.changed_by == director


def test_registering_late_tells_the_director_when_the_couple_plays(director_client, running_round, tournament):
    url = reverse("director:team_add", args=[tournament.pk])
    response = director_client.post(url, {"first": "Quinn", "second": "Rosa"}, follow=True)
    assert "Team 9 joins in round 2, at the highest table or sitting out" in response.content.decode()


# --- substitutes ------------------------------------------------------------------------------------


def test_a_substitute_sits_in_the_players_seat_and_the_scores_stay_with_the_player(finished_round, tournament):
    ada = Player.objects.get(name="Ada")
    following = close_round(round_=finished_round)
    substitute_player(player=ada, substitute="  Zoe   Park ", from_round=2)
    assert "Zoe Park" in _placed(following) and "Ada" not in _placed(following)
    assert "Ada" in _placed(finished_round)  # round 1 stays as played
    start_round(round_=following)
    seat = Seating.objects.get(round=following, player=ada)
    game = following.games.get(table=seat.table)
    assert "Zoe Park" in game_sheet(game)["seats"].values()
    finish_game(game)
    rows = {row.name: row for row in standings_rows(tournament)}
    assert "Zoe Park" not in rows
    assert [s.round for s in rows["Ada"].standing.rounds] == [1, 2]
    assert SeatingChange.objects.get(round=following).description == "Zoe Park plays for Ada from round 2."


def test_the_movement_says_a_substitute_joins_rather_than_naming_a_seat_they_never_sat_in(
    director_client, finished_round, tournament
):
    ada = Player.objects.get(name="Ada")
    following = close_round(round_=finished_round)
    substitute_player(player=ada, substitute="Zoe", from_round=2)
    seats = {s.name: s.came_from for row in movement_rows(following) for s in row.seats}
    assert seats["Zoe"] == "joins, playing for Ada"
    assert all(came.startswith(("from table", "sat out")) for name, came in seats.items() if name != "Zoe")
    html = director_client.get(reverse("director:round", args=[tournament.pk, 2])).content.decode()
    assert 'Zoe <small class="muted">joins, playing for Ada</small>' in html


def test_a_substitute_cannot_rewrite_a_closed_round(finished_round, tournament):
    close_round(round_=finished_round)
    ada = Player.objects.get(name="Ada")
    for name, first_round, field in (("Zoe", 1, "from_round"), ("Zoe", 6, "from_round"), (" ", 2, "substitute")):
        with pytest.raises(ValidationError) as refused:
            substitute_player(player=ada, substitute=name, from_round=first_round)
        assert field in refused.value.message_dict
    ada.refresh_from_db()
    assert ada.substitute == "" and ada.substitute_from is None


def test_the_substitute_page(director_client, running_round, tournament):
    team = tournament.teams.get(number=1)
    url = reverse("director:team_substitute", args=[tournament.pk, team.pk])
    page = director_client.get(url)
    assert page.status_code == 200 and 'value="2"' in page.content.decode()  # round 1 runs: from round 2
    ben = team.players.get(name="Ben")
    bad = director_client.post(url, {"player": ben.pk, "substitute": "Zed", "from_round": 6})
    assert bad.status_code == 422 and "Choose a round from 1 to 5: closed rounds stay." in bad.content.decode()
    empty = director_client.post(url, {"player": ben.pk, "substitute": "", "from_round": 2})
    assert empty.status_code == 422 and empty.context["form"].has_error("substitute")
    done = director_client.post(url, {"player": ben.pk, "substitute": "Zed", "from_round": 2}, follow=True)
    assert "Zed plays for Ben from round 2; the scores stay with Ben." in done.content.decode()
    assert director_client.get(url.replace(str(team.pk), "999")).status_code == 404
    director_client.logout()
    assert director_client.post(url, {"player": ben.pk, "substitute": "Zed", "from_round": 2}).status_code == 302


# --- a team entered by mistake ----------------------------------------------------------------------


def test_a_team_entered_by_mistake_is_removed_and_later_teams_move_up(tournament, director):
    round_ = start_play(tournament=tournament)
    remove_team(team=tournament.teams.get(number=3), by=director)
    assert list(tournament.teams.values_list("number", flat=True)) == list(range(1, 8))
    assert tournament.teams.get(number=3).names == "Gina & Hugo"
    assert {"Eve", "Finn"}.isdisjoint(_placed(round_)) and len(_placed(round_)) == 14
    assert "Team 3 was removed" in SeatingChange.objects.get(round=round_).description


def test_a_team_cannot_be_removed_once_play_starts_or_with_money_on_record(running_round, tournament):
    with pytest.raises(ValidationError) as refused:
        remove_team(team=tournament.teams.get(number=1))
    assert refused.value.code == "started"
    fresh = make_tournament(couples=2, name="Next week")
    team = fresh.teams.get(number=1)
    record_payment(team=team, amount=Decimal("20.00"), kind=Payment.Kind.PAYMENT, method="cash")
    with pytest.raises(ValidationError) as refused:
        remove_team(team=team)
    assert refused.value.code == "has_payments" and Team.objects.filter(pk=team.pk).exists()


def test_the_remove_button(director_client, tournament):
    team = tournament.teams.get(number=8)
    url = reverse("director:team_remove", args=[tournament.pk, team.pk])
    assert director_client.get(url).status_code == 405
    assert "Remove</button>" in director_client.get(reverse("director:teams", args=[tournament.pk])).content.decode()
    done = director_client.post(url, follow=True)
    assert "Removed team 8 (Olga &amp; Paul)" in done.content.decode()
    assert director_client.post(url).status_code == 404


# --- the same name twice ----------------------------------------------------------------------------


def test_the_same_name_registered_twice_is_a_warning_not_a_refusal(director_client, tournament):
    url = reverse("director:team_add", args=[tournament.pk])
    response = director_client.post(url, {"first": " ada ", "second": "Zed"}, follow=True)
    html = response.content.decode()
    assert "ada is also registered in team 1. Both are kept" in html
    assert tournament.teams.count() == 9
    quiet = director_client.post(url, {"first": "Yan", "second": "Xia"}, follow=True).content.decode()
    assert "also registered" not in quiet


def test_a_substitute_travels_with_the_export(finished_round, tournament):
    substitute_player(player=Player.objects.get(name="Ada"), substitute="Zoe", from_round=2)
    copy = import_tournament(export_tournament(tournament), club=a_club())
    ada = Player.objects.get(team__tournament=copy, name="Ada")
    assert (ada.substitute, ada.substitute_from, ada.name_in_round(1), ada.name_in_round(2)) == ("Zoe", 2, "Ada", "Zoe")
