"""The director's pages over HTTP: success, bad input, wrong method, missing object, permission."""

import csv
import datetime
import io
import json
import re
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from tests.conftest import even_hand, finish_game, make_tournament, tie_then_break
from tournament.formats.registry import format_of
from tournament.models import (
    Dispute,
    HandRevision,
    Payment,
    Payout,
    Player,
    Prize,
    Round,
    SeatingChange,
    Table,
    Team,
    Tournament,
)
from tournament.money.services import record_payment
from tournament.play.games import flag_dispute
from tournament.play.rounds import start_play, start_round
from tournament.urls import director_patterns

pytestmark = pytest.mark.django_db

# (url name, needs) — kwargs are filled from the fixtures below.
GET_PAGES = ["home", "tournament_new", "import", "dashboard", "tournament_edit", "teams", "team_edit", "payments",
             "fees", "round", "game", "standings", "prizes", "export_standings", "export_hands",
             "export_json"]  # fmt: skip
POST_ONLY = ["team_add", "team_status", "team_check_in", "seat_first", "round_swap", "round_start", "round_close",
             "game_hand", "game_tie", "prize_add", "prizes_award", "prize_delete", "payout_paid"]  # fmt: skip


@pytest.fixture
def objects(running_round, tournament):
    prize = Prize.objects.create(tournament=tournament, place=1, amount=Decimal("10"))
    team = tournament.teams.get(number=1)
    payout = Payout.objects.create(prize=prize, team=team, amount=Decimal("10"))
    return {
        "tournament_id": tournament.pk,
        "team_id": team.pk,
        "number": running_round.number,
        "game_id": running_round.games.get(table__number=1).pk,
        "prize_id": prize.pk,
        "payout_id": payout.pk,
    }


PARAMS = {pattern.name: list(pattern.pattern.converters) for pattern in director_patterns}


def url(name: str, objects: dict, **override: int) -> str:
    return reverse(f"director:{name}", kwargs={p: override.get(p, objects[p]) for p in PARAMS[name]})


@pytest.mark.parametrize("name", GET_PAGES + POST_ONLY)
def test_logged_out_visitors_reach_nothing_of_the_directors(client, objects, name):
    response = client.post(url(name, objects)) if name in POST_ONLY else client.get(url(name, objects))
    assert response.status_code == 302 and response["Location"].startswith("/login/")


@pytest.mark.parametrize("name", GET_PAGES + POST_ONLY)
def test_a_logged_in_user_in_no_club_reaches_no_event(client, django_user_model, objects, name):
    """Not staff, in no club: the home page says how to join one; every event's page is a 404, and
    creating or importing one a 403."""
    client.force_login(django_user_model.objects.create_user("player", password="x" * 12))
    response = client.post(url(name, objects)) if name in POST_ONLY else client.get(url(name, objects))
    expected = {"home": 200, "tournament_new": 403, "import": 403}.get(name, 404)
    assert response.status_code == expected
    if name == "home":
        assert "You belong to no club yet" in response.content.decode()


@pytest.mark.parametrize("name", GET_PAGES)
def test_every_director_page_renders(director_client, objects, name):
    assert director_client.get(url(name, objects)).status_code == 200


@pytest.mark.parametrize("name", POST_ONLY)
def test_post_only_views_refuse_get(director_client, objects, name):
    assert director_client.get(url(name, objects)).status_code == 405


@pytest.mark.parametrize(
    ("name", "missing"),
    [("dashboard", "tournament_id"), ("team_edit", "team_id"), ("payments", "team_id"), ("round", "number"),
     ("game", "game_id"), ("team_status", "team_id"), ("game_hand", "game_id"), ("prize_delete", "prize_id"),
     ("payout_paid", "payout_id"), ("round_start", "number")],
)  # fmt: skip
def test_missing_objects_are_404(director_client, objects, name, missing):
    target = url(name, objects, **{missing: 999999})
    response = director_client.post(target) if name in POST_ONLY else director_client.get(target)
    assert response.status_code == 404


def test_a_team_of_another_tournament_is_404(director_client, objects, db):
    from tests.conftest import make_tournament

    other = make_tournament(couples=2).teams.first()
    assert director_client.get(url("team_edit", objects, team_id=other.pk)).status_code == 404


# --- tournaments ---------------------------------------------------------------------------------

NEW = {"name": "Spring Open", "date": "2026-04-01", "venue": "Hall", "preset": "friendly",
       "format": "progressive_fixed", "rounds_planned": 3, "entry_fee": "20.00", "seating_order": "random",
       "seating_seed": 4, "prize_ties": "share", "paper_size": "letter", "rule_overrides": ""}  # fmt: skip


def test_director_creates_a_tournament(director_client):
    response = director_client.post(reverse("director:tournament_new"), NEW)
    tournament = Tournament.objects.get(name="Spring Open")
    assert response.status_code == 302 and tournament.rules.set_penalty == "zero"


@pytest.mark.parametrize(
    ("change", "field", "text"),
    [({"rule_overrides": '{"bag_limit": "six"}'}, "rule_overrides", "bag_limit: must be a whole number"),
     ({"rule_overrides": '{"bagz": 1}'}, "rule_overrides", "bagz: unknown rule field"),
     ({"rule_overrides": "{oops"}, "rule_overrides", "Not valid JSON"),
     ({"entry_fee": "-5"}, "entry_fee", "greater than or equal to 0"),
     ({"name": ""}, "name", "required")],
)  # fmt: skip
def test_bad_tournament_input_is_shown_next_to_its_field(director_client, change, field, text):
    response = director_client.post(reverse("director:tournament_new"), NEW | change)
    assert response.status_code == 422
    assert text in " ".join(response.context["form"].errors[field])
    assert not Tournament.objects.filter(name="Spring Open").exists() or field != "name"


def test_director_edits_rule_overrides(director_client, tournament):
    data = NEW | {"name": tournament.name, "preset": "progressive", "format": "progressive_split",
                  "rule_overrides": '{"hands_per_round": 5}'}  # fmt: skip
    director_client.post(reverse("director:tournament_edit", args=[tournament.pk]), data)
    tournament.refresh_from_db()
    assert tournament.rules.hands_per_round == 5


def test_the_pages_write_a_date_and_a_moment_of_the_event_one_way(director_client, tournament):
    payment = record_payment(team=tournament.teams.get(number=1), amount=Decimal("20.00"), kind="payment",
                                      method="cash")  # fmt: skip
    Payment.objects.filter(pk=payment.pk).update(
        recorded_at=datetime.datetime(2026, 11, 20, 19, 5, tzinfo=datetime.UTC)
    )
    pages = {name: director_client.get(reverse(f"director:{name}", args=args)).content.decode()
             for name, args in [("home", []), ("dashboard", [tournament.pk]), ("fees", [tournament.pk]),
                                ("payments", [tournament.pk, payment.team_id])]}  # fmt: skip
    for name in ("home", "dashboard"):
        assert "Fri Nov 20, 2026" in pages[name], name
    for name in ("fees", "payments"):
        assert "Fri Nov 20, 19:05" in pages[name], name
    for name, page in pages.items():
        assert "2026-11-20" not in page.split("<main")[-1] and "Nov. 20" not in page, name


def test_saving_the_settings_says_so_on_the_dashboard(director_client, tournament):
    data = NEW | {"name": "Club night, moved", "preset": "progressive", "format": "progressive_split"}
    response = director_client.post(reverse("director:tournament_edit", args=[tournament.pk]), data, follow=True)
    assert response.redirect_chain[-1][0] == reverse("director:dashboard", args=[tournament.pk])
    assert '<p class="message success" role="status">Settings saved.</p>' in response.content.decode()


def test_the_dashboard_names_the_events_format(director_client, tournament):
    page = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    assert f" · {format_of(tournament).label} · " in page and " ·  · " not in page


# --- registration and fees -----------------------------------------------------------------------


def test_fast_registration_returns_the_list_fragment_with_the_new_team(director_client, tournament):
    response = director_client.post(
        reverse("director:team_add", args=[tournament.pk]), {"first": "Quinn", "second": "Rosa"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="registration"' in html and "<html" not in html
    assert "Quinn" in html and 'id="team-9"' in html


def test_registration_with_one_name_is_refused_next_to_the_field(director_client, tournament):
    response = director_client.post(
        reverse("director:team_add", args=[tournament.pk]), {"first": "Quinn", "second": ""}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    assert response.context["form"].errors["second"] == ["This field is required."]
    assert tournament.teams.count() == 8


def test_registration_with_the_same_name_twice_is_refused(director_client, tournament):
    response = director_client.post(reverse("director:team_add", args=[tournament.pk]), {"first": "Al", "second": "al"})
    assert response.context["form"].errors.as_data()["second"][0].code == "same_name"


def test_editing_a_team_renames_its_players(director_client, tournament):
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="female", amount=Decimal("10"))
    team = tournament.teams.get(number=1)
    a, b = team.players.all()
    data = {"form-TOTAL_FORMS": "2", "form-INITIAL_FORMS": "2", "form-0-id": a.pk, "form-0-name": "Ada L.",
            "form-0-division": "female", "form-1-id": b.pk, "form-1-name": "Ben", "form-1-division": ""}  # fmt: skip
    response = director_client.post(reverse("director:team_edit", args=[tournament.pk, team.pk]), data)
    assert response.status_code == 302
    a.refresh_from_db()
    assert (a.name, a.division) == ("Ada L.", "female")
    bad = director_client.post(reverse("director:team_edit", args=[tournament.pk, team.pk]), data | {"form-0-name": ""})
    assert bad.status_code == 422


def test_withdraw_and_reinstate(director_client, tournament):
    team = tournament.teams.get(number=2)
    target = reverse("director:team_status", args=[tournament.pk, team.pk])
    director_client.post(target, {"status": "withdrawn"})
    team.refresh_from_db()
    assert team.status == Team.Status.WITHDRAWN
    director_client.post(target, {"status": "gone fishing"})
    team.refresh_from_db()
    assert team.status == Team.Status.WITHDRAWN


def test_a_withdrawn_team_shows_withdrawn_not_checked_in(director_client, tournament):
    team = tournament.teams.get(number=2)
    Team.objects.filter(pk=team.pk).update(checked_in=True, status=Team.Status.WITHDRAWN)
    html = director_client.get(reverse("director:teams", args=[tournament.pk])).content.decode()
    row = html[html.index('id="team-2"') : html.index('id="team-3"')]
    assert '<td class="here">' in row and ">Withdrawn</span>" in row
    assert 'name="checked_in"' not in row and "Team 2 checked in" not in row
    playing = html[html.index('id="team-3"') : html.index('id="team-4"')]
    assert 'name="checked_in"' in playing  # a team still playing keeps its box


def test_checking_in_a_withdrawn_team_is_refused_and_its_box_says_withdrawn(director_client, tournament):
    team = tournament.teams.get(number=2)
    Team.objects.filter(pk=team.pk).update(status=Team.Status.WITHDRAWN)
    target = reverse("director:team_check_in", args=[tournament.pk, team.pk])
    response = director_client.post(target, {"checked_in": "on"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    html = response.content.decode()
    assert ">Withdrawn</span>" in html and "<form" not in html
    team.refresh_from_db()
    assert not team.checked_in
    page = director_client.post(target, {"checked_in": "on"}, follow=True)
    assert "Team 2 has withdrawn: reinstate it before checking it in." in page.content.decode()


def test_a_division_is_chosen_from_the_divisions_the_prizes_name(director_client, tournament):
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="female", amount=Decimal("10"))
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="Newcomer", amount=Decimal("5"))
    html = director_client.get(reverse("director:teams", args=[tournament.pk])).content.decode()
    assert '<select name="first_division"' in html and '<select name="second_division"' in html
    field = html[html.index('<select name="first_division"') :]
    assert re.findall(r"<option[^>]*>([^<]*)</option>", field[: field.index("</select>")]) == [
        "None", "female", "Newcomer"
    ]  # fmt: skip
    target = reverse("director:team_add", args=[tournament.pk])
    director_client.post(target, {"first": "Quinn", "second": "Rosa", "first_division": "female"})
    director_client.post(target, {"first": "Sam", "second": "Tess", "second_division": "newcomer"})  # its case
    assert [(p.name, p.division) for p in Player.objects.filter(team__number__gt=8).order_by("pk")] == [
        ("Quinn", "female"), ("Rosa", ""), ("Sam", ""), ("Tess", "Newcomer")
    ]  # fmt: skip


def test_a_division_no_prize_names_is_refused_naming_the_field(director_client, tournament):
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="female", amount=Decimal("10"))
    data = {"first": "Quinn", "second": "Rosa", "second_division": "femal"}
    response = director_client.post(reverse("director:team_add", args=[tournament.pk]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert response.context["form"].errors.as_data()["second_division"][0].code == "unknown_division"
    html = response.content.decode()
    assert "Player 2&#x27;s division" in html
    assert "No prize is for the division &quot;femal&quot;: choose one of the prizes&#x27; divisions, or none" in html
    assert tournament.teams.count() == 8


def test_without_a_division_prize_there_is_no_division_to_type(director_client, tournament):
    html = director_client.get(reverse("director:teams", args=[tournament.pk])).content.decode()
    assert 'name="first_division"' not in html
    assert "chosen here once a division prize is set on the Prizes tab" in html
    data = {"first": "Quinn", "second": "Rosa", "first_division": "female"}
    response = director_client.post(reverse("director:team_add", args=[tournament.pk]), data)
    assert response.context["form"].errors.as_data()["first_division"][0].code == "unknown_division"


def test_editing_a_team_offers_the_prizes_divisions_and_keeps_a_players_own(director_client, tournament):
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="female", amount=Decimal("10"))
    team = tournament.teams.get(number=1)
    a, b = team.players.all()
    Player.objects.filter(pk=b.pk).update(division="senior")  # from before the divisions were a choice
    target = reverse("director:team_edit", args=[tournament.pk, team.pk])
    html = director_client.get(target).content.decode()
    assert '<option value="female">female</option>' in html and '<option value="senior" selected>' in html
    data = {"form-TOTAL_FORMS": "2", "form-INITIAL_FORMS": "2", "form-0-id": a.pk, "form-0-name": "Ada",
            "form-0-division": "veteran", "form-1-id": b.pk, "form-1-name": "Ben",
            "form-1-division": "senior"}  # fmt: skip
    response = director_client.post(target, data)
    assert response.status_code == 422
    assert response.context["formset"].forms[0].errors.as_data()["division"][0].code == "unknown_division"
    assert director_client.post(target, data | {"form-0-division": "Female"}).status_code == 302
    assert [p.division for p in team.players.all()] == ["female", "senior"]


def test_check_in_toggles_with_htmx(director_client, tournament):
    team = tournament.teams.get(number=3)
    response = director_client.post(
        reverse("director:team_check_in", args=[tournament.pk, team.pk]), {"checked_in": "on"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200 and "checked" in html
    assert html.lstrip().startswith("<form") and "<html" not in html  # the box alone, swapped in place
    team.refresh_from_db()
    assert team.checked_in


def test_recording_a_payment(director_client, tournament):
    team = tournament.teams.get(number=1)
    target = reverse("director:payments", args=[tournament.pk, team.pk])
    assert director_client.get(target).context["form"].initial["amount"] == Decimal("20.00")
    response = director_client.post(target, {"kind": "payment", "amount": "20.00", "method": "cash", "note": ""})
    assert response.status_code == 302
    assert Payment.objects.get(team=team).recorded_by.username == "dee"


@pytest.mark.parametrize(
    ("data", "field"),
    [({"kind": "payment", "amount": "0", "method": "cash"}, "amount"),
     ({"kind": "payment", "amount": "abc", "method": "cash"}, "amount"),
     ({"kind": "refund", "amount": "5", "method": "cash"}, "amount"),
     ({"kind": "payment", "amount": "5", "method": "bitcoin"}, "method")],
)  # fmt: skip
def test_bad_payments_are_refused_naming_the_field(director_client, tournament, data, field):
    team = tournament.teams.get(number=1)
    response = director_client.post(reverse("director:payments", args=[tournament.pk, team.pk]), data)
    assert response.status_code == 422
    assert field in response.context["form"].errors or response.context["form"].non_field_errors()
    assert not Payment.objects.exists()


# --- rounds ----------------------------------------------------------------------------------------


def test_seat_start_and_refuse_to_close_an_unfinished_round(director_client, tournament):
    response = director_client.post(reverse("director:seat_first", args=[tournament.pk]))
    assert response["Location"] == reverse("director:round", args=[tournament.pk, 1])
    assert b"Movement" in director_client.get(response["Location"]).content
    director_client.post(reverse("director:round_start", args=[tournament.pk, 1]))
    assert Round.objects.get().status == Round.Status.RUNNING
    response = director_client.post(reverse("director:round_close", args=[tournament.pk, 1]), follow=True)
    assert "cannot close: still playing at table 1, 2, 3, 4" in response.content.decode()
    assert Round.objects.get().status == Round.Status.RUNNING


def test_seating_twice_is_refused_with_a_message(director_client, running_round, tournament):
    response = director_client.post(reverse("director:seat_first", args=[tournament.pk]), follow=True)
    assert "already seated" in response.content.decode()


def test_closing_a_finished_round_shows_the_next_movement(director_client, finished_round, tournament):
    response = director_client.post(reverse("director:round_close", args=[tournament.pk, 1]), follow=True)
    html = response.content.decode()
    assert "Round 2" in html and "from table 2" in html


def test_round_one_is_the_first_seating_with_nobody_coming_from_anywhere(director_client, tournament):
    start_play(tournament=tournament)
    html = director_client.get(reverse("director:round", args=[tournament.pk, 1])).content.decode()
    assert "Movement: the first seating, who sits where" in html and "from new" not in html and "from table" not in html


@pytest.mark.parametrize(
    ("planned", "question"),
    [(2, "Close round 1 and seat the next one?"), (1, "Close round 1 (the last)?")],
    ids=["more to come", "the last"],
)
def test_the_close_button_asks_about_the_next_round_only_when_there_is_one(
    director_client, running_round, tournament, planned, question
):
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=planned)
    html = director_client.get(reverse("director:round", args=[tournament.pk, 1])).content.decode()
    assert f'data-confirm="{question}"' in html


def test_swap_from_the_movement_page(director_client, tournament):
    start_play(tournament=tournament)
    ben = tournament.teams.get(number=1).players.get(name="Ben")
    iris = tournament.teams.get(number=5).players.get(name="Iris")
    target = reverse("director:round_swap", args=[tournament.pk, 1])
    director_client.post(target, {"kind": "players", "p-first": ben.pk, "p-second": iris.pk})
    assert SeatingChange.objects.count() == 1
    response = director_client.post(target, {"kind": "players", "p-first": ben.pk}, follow=True)
    assert "Choose the two players to swap" in response.content.decode()


def test_the_board_fragment_polls_while_the_round_runs(director_client, running_round, tournament):
    finish_game(running_round.games.get(table__number=2))
    response = director_client.get(reverse("director:round", args=[tournament.pk, 1]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'hx-trigger="every 5s"' in html and "Finished" in html
    assert html.lstrip().startswith('<div id="board"') and "<html" not in html and "Swap two" not in html


def test_the_board_opened_directly_is_the_whole_styled_page(director_client, running_round, tournament):
    html = director_client.get(reverse("director:round", args=[tournament.pk, 1])).content.decode()
    assert "<html" in html and "css/app.css" in html and 'id="board"' in html


def test_a_finished_table_needs_no_phone_on_the_board(director_client, running_round, tournament):
    finish_game(running_round.games.get(table__number=2))
    finish_game(running_round.games.get(table__number=3))
    Table.objects.filter(tournament=tournament, number=2).update(phone_heard_at=timezone.now())
    response = director_client.get(reverse("director:round", args=[tournament.pk, 1]), HTTP_HX_REQUEST="true")
    rows = {row.split("Open table ")[1].split('"')[0]: row for row in response.content.decode().split("<tr")[2:]}
    assert '<td class="muted phone" data-label="Phone">done</td>' in rows["2"] and "not heard from yet" not in rows["2"]
    # its sheet keyed at the desk: the phone did nothing, so it is not "done"
    assert '<td class="muted phone" data-label="Phone">no phone used</td>' in rows["3"]
    assert (
        '<td class="phone bad" data-label="Phone">not heard from yet</td>' in rows["1"]
    )  # still playing, its phone never reported


# --- hands through the director's page -----------------------------------------------------------


def _hand_post(number: int, **change) -> dict:
    data = {"number": number, **{k: v for k, v in even_hand(7).items()}}
    return data | change


def test_director_enters_a_hand(director_client, running_round, tournament):
    game = running_round.games.get(table__number=1)
    response = director_client.post(reverse("director:game_hand", args=[tournament.pk, game.pk]), _hand_post(1))
    assert response.status_code == 302
    assert HandRevision.objects.get().source == HandRevision.Source.DIRECTOR


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [({"west_tricks": 4}, None, "tricks_total"),
     ({"north_tricks": 14}, "north_tricks", "max_value"),
     ({"north_bid": "nil"}, "north_bid", "invalid_choice"),
     ({"east_bid": ""}, "east_bid", "required")],
)  # fmt: skip
def test_bad_hands_are_refused_with_the_rule_next_to_the_field(
    director_client, running_round, tournament, change, field, code
):
    game = running_round.games.get(table__number=1)
    response = director_client.post(
        reverse("director:game_hand", args=[tournament.pk, game.pk]), _hand_post(1, **change)
    )
    assert response.status_code == 422
    errors = response.context["form"].errors.as_data()
    assert code in [e.code for e in errors["__all__" if field is None else field]]
    assert game.hands.count() == 0


def test_director_correction_keeps_the_history(director_client, running_round, tournament):
    game = running_round.games.get(table__number=1)
    target = reverse("director:game_hand", args=[tournament.pk, game.pk])
    director_client.post(target, _hand_post(1))
    director_client.post(target, _hand_post(1, version=1, north_tricks=3, east_tricks=4))
    page = director_client.get(reverse("director:game", args=[tournament.pk, game.pk])).content.decode()
    assert "corrected: north tricks 4 → 3; east tricks 3 → 4" in page
    stale = director_client.post(target, _hand_post(1, version=1))
    assert stale.status_code == 422 and "changed by someone else" in stale.content.decode()


def _misdeal_then_dealt_again(director_client, tournament, game) -> str:
    """Hand 1, a misdeal of hand 2, hand 2 dealt again, all from the director's page; its address."""
    target = reverse("director:game_hand", args=[tournament.pk, game.pk])
    director_client.post(target, _hand_post(1))
    page = director_client.get(reverse("director:game", args=[tournament.pk, game.pk])).content.decode()
    assert 'name="number" value="2"' in page
    director_client.post(target, {"number": 2, "misdeal": "no_spades"})
    page = director_client.get(reverse("director:game", args=[tournament.pk, game.pk])).content.decode()
    assert 'name="number" value="2"' in page and "Enter hand 2" in page  # the same hand, dealt again
    director_client.post(target, _hand_post(2))
    assert [(h.number, h.deal, h.misdeal) for h in game.hands.all()] == [(1, 1, ""), (2, 1, "no_spades"), (2, 2, "")]
    return target


def test_a_correction_of_a_misdeal_made_stale_by_the_deal_after_it_never_lands_on_that_deal(
    director_client, running_round, tournament
):
    game = running_round.games.get(table__number=1)
    target = _misdeal_then_dealt_again(director_client, tournament, game)
    # A form opened on the misdeal (deal 1, version 1) before hand 2 was dealt again.
    stale = director_client.post(target, {"number": 2, "deal": 1, "version": 1, "misdeal": "wrong_card_count"})
    assert stale.status_code == 302  # the misdeal's own reason changes …
    assert [(h.number, h.deal, h.misdeal) for h in game.hands.all()][1:] == [(2, 1, "wrong_card_count"), (2, 2, "")]
    played = director_client.post(target, _hand_post(2, deal=1, version=2))  # … but it cannot become a hand
    assert played.status_code == 422 and "misdeal_not_last" in [
        e.code for errors in played.context["form"].errors.as_data().values() for e in errors
    ]
    assert game.hands.get(number=2, deal=2).version == 1


def test_a_dispute_of_a_misdeal_is_settled_on_the_misdeal_not_on_the_deal_after_it(
    director_client, running_round, tournament
):
    game = running_round.games.get(table__number=1)
    _misdeal_then_dealt_again(director_client, tournament, game)
    flag_dispute(hand=game.hands.get(number=2, deal=1), note="Nobody lacked spades")
    resolve = reverse("director:game_resolve", args=[tournament.pk, game.pk, 2])
    director_client.post(resolve, {"deal": 1, "resolution": "West had one spade: dealt again anyway"})
    assert not game.hands.get(number=2, deal=1).disputed and not Dispute.objects.filter(resolved_at=None).exists()


def test_the_game_page_writes_a_set_sides_points_and_score_with_a_true_minus_sign(
    director_client, running_round, tournament
):
    game = running_round.games.get(table__number=1)
    target = reverse("director:game_hand", args=[tournament.pk, game.pk])
    director_client.post(target, _hand_post(1, north_tricks=1, south_tricks=1, east_tricks=6, west_tricks=5))
    page = director_client.get(reverse("director:game", args=[tournament.pk, game.pk])).content.decode()
    assert '<td class="num">\u221260</td>' in page and '<td class="num">-60</td>' not in page  # NS bid 6, took 2


def test_recording_a_tie_decision(director_client, running_round, tournament):
    game = running_round.games.get(table__number=1)
    finish_game(game, hands=2, ns_tricks=7)
    finish_game(game, hands=2, ns_tricks=6)
    target = reverse("director:game_tie", args=[tournament.pk, game.pk])
    director_client.post(target, {"winner": "NS"})
    game.refresh_from_db()
    assert game.status == "tied"
    director_client.post(target, {"winner": "NS", "how": "cut for high card"})
    game.refresh_from_db()
    assert (game.status, game.winner) == ("finished", "NS")


# --- prizes and exports ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "code"),
    [({"kind": "place", "place": 1, "amount": "10", "share_percent": "10"}, "amount_or_share"),
     ({"kind": "place", "amount": "10"}, "place"),
     ({"kind": "division", "amount": "10"}, "division"),
     ({"kind": "place", "place": 2, "share_percent": "120"}, "share")],
)  # fmt: skip
def test_bad_prizes_are_refused_with_a_reason(director_client, tournament, data, code):
    response = director_client.post(reverse("director:prize_add", args=[tournament.pk]), data)
    assert response.status_code == 422
    codes = [e.code for errors in response.context["form"].errors.as_data().values() for e in errors]
    assert code in codes


def test_prizes_awarded_and_paid_against_a_name(director_client, finished_round, tournament):
    prize = {"kind": "place", "place": 1, "amount": "40"}
    director_client.post(reverse("director:prize_add", args=[tournament.pk]), prize)
    early = director_client.post(reverse("director:prizes_award", args=[tournament.pk]), follow=True)
    assert "once the last round has closed" in early.content.decode() and not Payout.objects.exists()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    director_client.post(reverse("director:prizes_award", args=[tournament.pk]))
    payouts = list(Payout.objects.all())
    assert sum(p.amount for p in payouts) == Decimal("40.00")
    target = reverse("director:payout_paid", args=[tournament.pk, payouts[0].pk])
    director_client.post(target, {"received_by": ""})
    assert Payout.objects.filter(paid_at__isnull=False).count() == 0
    director_client.post(target, {"received_by": "Ada Brooks", "method": "cash"})
    assert Payout.objects.get(pk=payouts[0].pk).received_by == "Ada Brooks"


def test_a_prize_shows_the_name_the_director_gave_it_on_the_prizes_page_and_the_payouts(
    director_client, finished_round, tournament
):
    prize = {"name": "The Friday cup", "kind": "place", "place": 1, "amount": "40"}
    director_client.post(reverse("director:prize_add", args=[tournament.pk]), prize)
    director_client.post(reverse("director:prize_add", args=[tournament.pk]), {"kind": "place", "place": 2,
                                                                             "amount": "20"})  # fmt: skip
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    director_client.post(reverse("director:prizes_award", args=[tournament.pk]))
    page = director_client.get(reverse("director:prizes", args=[tournament.pk])).content.decode()
    assert page.count("<td>The Friday cup</td>") == 1 + Payout.objects.filter(prize__name="The Friday cup").count()
    assert "2nd place" in page  # a prize with no name is called by its place
    assert "1st place" not in page


def test_exports_download_as_files(director_client, finished_round, tournament):
    response = director_client.get(reverse("director:export_standings", args=[tournament.pk]))
    assert response["Content-Type"] == "text/csv"
    assert response.content.decode().splitlines()[0].startswith("rank,name,division,withdrawn,total,rounds won,round 1")
    hands = director_client.get(reverse("director:export_hands", args=[tournament.pk])).content.decode().splitlines()
    assert len(hands) == 1 + 16


def test_the_standings_csv_notes_a_sit_out_credit_and_a_tie_broken_by_an_extra_hand(director_client, db):
    tournament = make_tournament(couples=5, rule_overrides={"sit_out_credit": "winners_average"})
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    tie_then_break(round_.games.get(table__number=1))
    finish_game(round_.games.get(table__number=2))
    response = director_client.get(reverse("director:export_standings", args=[tournament.pk]))
    rows = {row["name"]: row for row in csv.DictReader(io.StringIO(response.content.decode()))}
    # The winners' average of what the winners are credited with: 242 at the tied table, 244 at table 2.
    assert (rows["Iris"]["round 1"], rows["Iris"]["notes"]) == ("243", "round 1 sat out: 243, winners' average")
    assert (rows["Cleo"]["round 1"], rows["Cleo"]["notes"]) == ("242", "round 1 tie broken by hand 5, not counted")
    assert (rows["Eve"]["round 1"], rows["Eve"]["notes"]) == ("244", "")


def test_import_restores_an_exported_tournament(director_client, finished_round, tournament):
    body = director_client.get(reverse("director:export_json", args=[tournament.pk])).content
    upload = SimpleUploadedFile("event.json", body, content_type="application/json")
    response = director_client.post(reverse("director:import"), {"file": upload})
    assert response.status_code == 302
    assert Tournament.objects.count() == 2


@pytest.mark.parametrize(
    "body", [b"not json", json.dumps({"format": "other"}).encode(), b'{"format": "spades-director/1"}']
)
def test_import_of_a_bad_file_says_why_and_saves_nothing(director_client, body, db):
    upload = SimpleUploadedFile("event.json", body, content_type="application/json")
    response = director_client.post(reverse("director:import"), {"file": upload})
    assert response.status_code == 422
    assert not Tournament.objects.exists()
    assert b"export" in response.content


@pytest.mark.parametrize(
    "model", ["tournament", "team", "player", "table", "round", "seating", "sitout", "seatingchange", "game", "hand",
              "handrevision", "prize", "payout", "payment"],
)  # fmt: skip
def test_the_admin_lists_every_model(admin_client, finished_round, model):
    assert admin_client.get(f"/admin/tournament/{model}/").status_code == 200


def test_a_hand_in_the_admin_links_to_its_correction_page(admin_client, finished_round):
    from tournament.models import Hand

    hand = Hand.objects.first()
    html = admin_client.get(f"/admin/tournament/hand/{hand.pk}/change/").content.decode()
    assert f"?hand={hand.number}" in html


def test_a_duplicate_place_prize_is_refused_in_words(director_client, tournament):
    url = reverse("director:prize_add", args=[tournament.pk])
    director_client.post(url, {"kind": "place", "place": 1, "amount": "10"})
    response = director_client.post(url, {"kind": "place", "place": 1, "amount": "20"})
    assert response.status_code == 422
    assert "already a prize for place 1" in response.content.decode()
    assert "Constraint" not in response.content.decode()


def test_an_empty_prize_form_says_what_is_missing_without_jargon(director_client, tournament):
    response = director_client.post(reverse("director:prize_add", args=[tournament.pk]), {"kind": "place"})
    html = response.content.decode()
    assert "Give a fixed amount or a share of the fees." in html and "Constraint" not in html


def test_the_format_cannot_change_once_seated(director_client, running_round, tournament):
    data = NEW | {"name": tournament.name, "preset": tournament.preset, "format": "progressive_fixed"}
    response = director_client.post(reverse("director:tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 422 and "format_locked" in [
        e.code for e in response.context["form"].errors.as_data()["format"]
    ]


@pytest.mark.parametrize("preset", ["", "no-such-rules"])
def test_a_missing_preset_is_one_message_under_the_preset(director_client, preset):
    response = director_client.post(reverse("director:tournament_new"), NEW | {"preset": preset})
    errors = response.context["form"].errors
    assert response.status_code == 422 and errors["preset"]
    assert "rule_overrides" not in errors and "unknown preset" not in response.content.decode()


def test_the_format_must_match_how_the_preset_plays_partners(director_client):
    response = director_client.post(reverse("director:tournament_new"), NEW | {"format": "progressive_split"})
    assert "partners_mismatch" in [e.code for e in response.context["form"].errors.as_data()["format"]]


def test_a_new_tournament_without_a_preset_says_so_at_the_top_and_beside_the_field(director_client):
    response = director_client.post(reverse("director:tournament_new"), NEW | {"preset": "", "entry_fee": "-1"})
    assert response.status_code == 422
    page = response.content.decode()
    assert '<p class="message error" role="alert">Not saved: see Preset and Entry fee below.</p>' in page
    assert '<p class="error" id="id_preset-error">Choose the rules of play: a preset' in page
    assert not Tournament.objects.exists()


def test_a_tournament_form_shown_first_carries_no_note(director_client):
    assert "Not saved" not in director_client.get(reverse("director:tournament_new")).content.decode()


def test_prize_shares_cannot_add_up_past_the_whole_pool(director_client, tournament):
    url = reverse("director:prize_add", args=[tournament.pk])
    director_client.post(url, {"kind": "place", "place": 1, "share_percent": "60"})
    response = director_client.post(url, {"kind": "place", "place": 2, "share_percent": "50"})
    assert response.status_code == 422 and "add up to 110" in response.content.decode()


@pytest.mark.parametrize(
    "overrides",
    ['{"misdeal_reasons": [[1]]}', '{"misdeal_reasons": "no_spades"}', "[1, 2]", "[" * 1000 + "]" * 1000,
     '{"bag_limit": ' + "[" * 1000 + "]" * 1000 + "}"],
    ids=["nested list", "text for a list", "a list", "nested 1,000 deep", "a field nested 1,000 deep"],
)  # fmt: skip
def test_odd_rule_json_is_a_message_not_an_error(director_client, overrides):
    response = director_client.post(reverse("director:tournament_new"), NEW | {"rule_overrides": overrides})
    assert response.status_code == 422 and response.context["form"].errors["rule_overrides"]


@pytest.mark.parametrize("value", ["²", "٣", "-1", "1e3", ""])
def test_odd_numbers_in_addresses_never_break_a_page(director_client, running_round, tournament, value):
    game = running_round.games.first()
    assert (
        director_client.get(reverse("director:game", args=[tournament.pk, game.pk]), {"hand": value}).status_code == 200
    )
    printed = director_client.get(
        reverse("director:print_document", args=[tournament.pk, "score-sheets"]), {"round": value}
    )
    assert printed.status_code == 404
    hand_url = reverse("table:hand", args=[game.table.token, game.round.number])
    posted = director_client.post(hand_url, {"number": value, **even_hand(7)})
    assert posted.status_code in (200, 302, 409, 422)


def test_a_damaged_export_with_a_repeated_team_is_refused_whole(director_client, finished_round, tournament):
    body = json.loads(director_client.get(reverse("director:export_json", args=[tournament.pk])).content)
    body["teams"][1]["number"] = body["teams"][0]["number"]
    upload = SimpleUploadedFile("event.json", json.dumps(body).encode(), content_type="application/json")
    response = director_client.post(reverse("director:import"), {"file": upload})
    assert response.status_code == 422 and b"two teams have this number" in response.content
    assert Tournament.objects.count() == 1


def test_the_board_names_the_winners_and_prints_negative_scores_plainly(director_client, finished_round, tournament):
    game = finished_round.games.get(table__number=1)
    game.ns_score, game.ew_score = 71, -60
    game.save()
    html = director_client.get(reverse("director:round", args=[tournament.pk, 1])).content.decode()
    seats = dict(finished_round.seatings.filter(table=game.table).values_list("seat", "player__name"))
    assert f"won by {seats['N']} &amp; {seats['S']} (North–South)" in html
    assert "NS won" not in html and "−60" in html and "-60" not in html


def test_the_current_rounds_tab_is_highlighted_on_its_own_pages_only(director_client, finished_round, tournament):
    from tournament.play.rounds import close_round

    close_round(round_=finished_round)
    second = tournament.rounds.get(number=2)
    start_round(round_=second)
    tab = f'href="{reverse("director:round", args=[tournament.pk, 2])}" aria-current="page">Round 2</a>'
    pages = {
        reverse("director:round", args=[tournament.pk, 1]): False,  # a closed round's board: not round 2's tab
        reverse("director:game", args=[tournament.pk, finished_round.games.first().pk]): False,
        reverse("director:round", args=[tournament.pk, 2]): True,
        reverse("director:game", args=[tournament.pk, second.games.first().pk]): True,
    }
    for url, highlighted in pages.items():
        assert (tab in director_client.get(url).content.decode()) is highlighted, url
