"""Issue 9 at the table and in the director's forms: the app plays what the handout says."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import HandEntry, Seat
from tests.conftest import a_club, even_hand, make_tournament
from tournament.models import Game, Tournament
from tournament.play.board import game_sheet
from tournament.play.hands import enter_hand
from tournament.play.rounds import close_round, start_play, start_round
from tournament.printing.sheets import score_sheets
from tournament.transfer.export import export_tournament
from tournament.transfer.write import import_tournament

NEW = {"name": "Spring Open", "date": "2026-04-01", "venue": "Hall", "preset": "progressive",
       "format": "progressive_fixed", "rounds_planned": 3, "entry_fee": "20.00", "seating_order": "random",
       "seating_seed": 4, "prize_ties": "share", "paper_size": "letter"}  # fmt: skip


def _format_errors(response) -> list:
    return response.context["form"].errors.as_data().get("format", [])


def test_rule_changes_that_set_partners_are_accepted_with_the_matching_format(director_client):
    data = NEW | {"rule_overrides": '{"partners": "fixed"}'}
    response = director_client.post(reverse("director:tournament_new"), data)
    assert response.status_code == 302
    assert Tournament.objects.get(name="Spring Open").rules.partners == "fixed"


def test_rule_changes_that_set_partners_refuse_the_other_format_naming_them(director_client):
    data = NEW | {"format": "progressive_split", "rule_overrides": '{"partners": "fixed"}'}
    response = director_client.post(reverse("director:tournament_new"), data)
    assert response.status_code == 422
    [error] = _format_errors(response)
    assert error.code == "partners_mismatch"
    assert error.message == "These rules are played with fixed partners: choose the matching format."


def test_the_preset_alone_still_decides_when_no_rule_change_sets_partners(director_client):
    response = director_client.post(reverse("director:tournament_new"), NEW | {"rule_overrides": ""})
    [error] = _format_errors(response)
    assert error.message.startswith("Progressive tables, four-hand rounds (advancing winners) is played with partners")


def test_the_edit_form_saves_any_tournament_it_can_show(director_client, db):
    # As an import can create it: a split-partner preset in a fixed-partner format.
    tournament = make_tournament(couples=4, preset="progressive", split=False)
    url = reverse("director:tournament_edit", args=[tournament.pk])
    shown = director_client.get(url).context["form"]
    data = {name: field.value() for name, field in ((n, shown[n]) for n in shown.fields)}
    data = {name: "" if value is None else value for name, value in data.items()} | {"name": "Renamed"}
    response = director_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.name == "Renamed"


def test_the_edit_form_checks_partners_when_the_rules_change(director_client, db):
    tournament = make_tournament(couples=4, preset="progressive", split=False)
    url = reverse("director:tournament_edit", args=[tournament.pk])
    data = NEW | {"name": tournament.name, "rule_overrides": '{"bag_limit": 6, "bag_penalty": 60}'}
    response = director_client.post(url, data)
    assert [e.code for e in _format_errors(response)] == ["partners_mismatch"]


# --- the first dealer -----------------------------------------------------------------------------


def _first_dealers(round_) -> list[str]:
    return list(round_.games.order_by("table__number").values_list("first_dealer", flat=True))


def _seated(seed: int, couples: int = 16):
    tournament = make_tournament(couples=couples, seating_seed=seed)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    return round_


def test_each_games_first_dealer_is_drawn_at_random_and_the_same_from_the_same_seed(db):
    first, again, other = _seated(7), _seated(7), _seated(8)
    assert _first_dealers(first) == _first_dealers(again)
    assert len(set(_first_dealers(first))) > 1  # not every table starts with North
    assert _first_dealers(first) != _first_dealers(other)


@pytest.fixture
def game(running_round) -> Game:
    return running_round.games.select_related("table", "round").get(table__number=1)


def first_dealer_url(game: Game) -> str:
    return reverse("table:first_dealer", args=[game.table.token, game.round.number])


def test_the_phone_shows_the_first_dealer_and_the_rule_it_was_chosen_by(client, game):
    html = client.get(reverse("table:page", args=[game.table.token])).content.decode()
    assert f"dealer: {Seat(game.first_dealer).label}" in html
    assert "Deals hand 1" in html and "The first dealer is chosen at random" in html


def test_the_scorekeeper_changes_the_first_dealer_before_hand_1(client, game):
    seat = Seat(game.first_dealer).after(1)
    response = client.post(first_dealer_url(game), {"first_dealer": seat.value}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and f"{seat.label} deals hand 1." in response.content.decode()
    game.refresh_from_db()
    assert game.first_dealer == seat
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(7)), source="table")
    sheet = game_sheet(game)
    assert [row.dealer for row in sheet["rows"]] == [seat.label]
    assert "Deals hand 1" not in client.get(reverse("table:page", args=[game.table.token])).content.decode()


def test_without_htmx_the_change_goes_back_to_the_page(client, game):
    response = client.post(first_dealer_url(game), {"first_dealer": "W"})
    assert response.status_code == 302 and response.url == reverse("table:page", args=[game.table.token])


def test_the_first_dealer_cannot_change_once_a_hand_is_entered(client, game):
    enter_hand(game=game, number=1, entry=HandEntry.from_fields({"misdeal": "no_spades"}), source="table")
    before = game.first_dealer
    response = client.post(first_dealer_url(game), {"first_dealer": Seat(before).after(2).value})
    assert response.status_code == 409
    assert "The first dealer can change only before hand 1 is entered." in response.content.decode()
    game.refresh_from_db()
    assert game.first_dealer == before


@pytest.mark.parametrize("value", ["", "X", "north"])
def test_a_first_dealer_that_is_not_a_seat_is_refused(client, game, value):
    response = client.post(first_dealer_url(game), {"first_dealer": value})
    assert response.status_code == 422 and "Choose the seat that deals hand 1." in response.content.decode()


def test_the_first_dealer_takes_only_a_post_and_a_real_link(client, game):
    assert client.get(first_dealer_url(game)).status_code == 405
    missing = reverse("table:first_dealer", args=["no-such-token", game.round.number])
    assert client.post(missing, {"first_dealer": "E"}).status_code == 404


def test_a_closed_rounds_first_dealer_stays(client, finished_round):
    game = finished_round.games.select_related("table", "round").first()
    close_round(round_=finished_round)
    assert client.post(first_dealer_url(game), {"first_dealer": "E"}).status_code == 410


def test_the_board_and_the_printed_sheet_show_who_deals(director_client, game):
    board = director_client.get(reverse("director:round", args=[game.round.tournament_id, game.round.number]))
    assert f'<td class="deals">{Seat(game.first_dealer).label}</td>' in board.content.decode()
    sheet = next(s for s in score_sheets(game.round).contexts[0]["sheets"] if s["table"] == 1)
    assert sheet["first_dealer"] == Seat(game.first_dealer).label


# --- the blind nil's name, the penalties the rules have --------------------------------------------


def test_the_entry_form_and_the_sheets_call_the_blind_bid_by_the_texts_name(client, db):
    tournament = make_tournament(couples=2, preset="classic", split=False)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    html = client.get(reverse("table:page", args=[game.table.token])).content.decode()
    assert '<option value="blind_nil">Double nil</option>' in html and "Blind nil" not in html
    bids = {"north_bid": "blind_nil", "south_bid": "4", "east_bid": "4", "west_bid": "4"}
    tricks = {"north_tricks": 0, "south_tricks": 4, "east_tricks": 5, "west_tricks": 4}
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(bids | tricks), source="table")
    assert game_sheet(game)["rows"][0].bids == ("Double nil", "4", "4", "4")
    context = score_sheets(round_).contexts[0]
    assert context["sheets"][0]["rows"][0].cells[0] == "Double nil"
    drawn = [text for item in context["overlay"]["pages"][0]["items"] if item[0] == "text" for _, text in item[-1]]
    assert "Double\u200anil" in drawn  # closed up to fit its column


@pytest.mark.parametrize(
    ("preset", "heading", "talk_field"),
    [("friendly", "Reneg or table talk", True), ("league-300", "Reneg", False), ("progressive", "Reneg", False)],
)
def test_the_penalties_heading_names_only_the_penalties_the_rules_have(client, db, preset, heading, talk_field):
    tournament = make_tournament(couples=2, preset=preset, split=preset == "progressive")
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    html = client.get(reverse("table:page", args=[game.table.token])).content.decode()
    assert f"<summary>{heading}</summary>" in html
    assert ('name="ns_table_talk"' in html or 'name="north_table_talk"' in html) == talk_field


def test_a_side_bid_over_13_is_refused_at_the_table_in_words(client, game):
    values = even_hand(7) | {"north_bid": "7", "south_bid": "7"}
    response = client.post(reverse("table:hand", args=[game.table.token, game.round.number]),
                           {"number": 1, **values}, HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 422
    assert "A side can bid at most 13 tricks" in response.content.decode()
    assert not game.hands.exists()


def test_an_import_with_a_side_bid_over_13_is_refused_in_words(finished_round, tournament):
    exported = export_tournament(tournament)
    hand = exported["rounds"][0]["games"][0]["hands"][0]
    hand.update(north_bid="7", south_bid="7")
    with pytest.raises(ValidationError, match="a side can bid at most 13 tricks"):
        import_tournament(exported, club=a_club())
    assert Tournament.objects.count() == 1
