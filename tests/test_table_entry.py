"""Score entry through a table's link: access, validation, penalties, history, concurrency."""

import csv
import io
import json
import threading
import time

import pytest
from django.db import close_old_connections, transaction
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import HandEntry, InvalidHand, PlayerHand, Seat, Side, SideHand, score_hand
from scoring.presets import PRESETS
from tests.conftest import even_hand, examples, finish_game, make_tournament
from tests.events import correct_hand
from tests.test_knockout import hand as knockout_hand
from tests.test_knockout import knockout_event
from tests.test_league import make_league
from tournament.formats.registry import format_of
from tournament.models import Dispute, Game, Hand, HandRevision, Match, Round, RoundNotReady, Table, Tournament
from tournament.play.forms import HandForm
from tournament.play.games import decide_tie, flag_dispute, reissue_token, resolve_dispute
from tournament.play.hands import EnteredHand, HandConflict, enter_hand
from tournament.play.rounds import close_round, start_play, start_round
from tournament.transfer.csv import hands_csv

pytestmark = pytest.mark.django_db


def page(token: str) -> str:
    return reverse("table:page", args=[token])


def at(game: Game, name: str, *args: int) -> str:
    """The address of one of ``game``'s table pages: its table's link and the game's round."""
    return reverse(f"table:{name}", args=[game.table.token, game.round.number, *args])


def post_hand(client, game: Game, number: int, values: dict, **extra):
    data = {"number": number, **values, **extra}
    return client.post(at(game, "hand"), data, HTTP_HX_REQUEST="true")


def error_codes(response) -> list[str]:
    return [e.code for errors in response.context["form"].errors.as_data().values() for e in errors]


@pytest.fixture
def game(running_round) -> Game:
    return running_round.games.get(table__number=1)


# --- access -------------------------------------------------------------------------------------


def test_a_table_link_opens_its_own_tables_game(client, running_round):
    for game in running_round.games.select_related("table"):
        html = client.get(page(game.table.token)).content.decode()
        names = set(game.round.seatings.filter(table=game.table).values_list("player__name", flat=True))
        assert all(name in html for name in names)
        assert f"Table {game.table.number}" in html


def test_a_link_writes_only_its_own_table(client, running_round):
    table_3, table_4 = (running_round.games.get(table__number=n) for n in (3, 4))
    post_hand(client, table_3, 1, even_hand(7) | {"game": table_4.pk, "table": 4})
    assert table_3.hands.count() == 1 and table_4.hands.count() == 0


def test_an_unknown_or_revoked_link_reaches_nothing(client, game):
    assert client.get(page("not-a-token")).status_code == 404
    old = game.table.token
    new = reissue_token(table=game.table)
    assert client.get(page(old)).status_code == 404
    assert post_hand(client, game, 1, even_hand(7)).status_code == 404  # ``game.table`` holds the old token
    assert client.get(page(new)).status_code == 200


def test_a_closed_rounds_game_can_no_longer_be_changed_from_the_table(client, finished_round):
    game = finished_round.games.first()
    close_round(round_=finished_round)
    closed = client.post(at(game, "hand"), {"number": 5})
    assert closed.status_code == 410 and b"Round 1 has closed" in closed.content
    assert client.post(at(game, "dispute", 1), {"note": "late"}).status_code == 410
    assert client.get(at(game, "preview")).status_code == 410
    assert game.hands.count() == 4 and not game.hands.filter(disputed=True).exists()


def test_a_form_left_open_from_the_last_round_never_writes_into_the_next(client, finished_round):
    game = finished_round.games.get(table__number=1)
    following = close_round(round_=finished_round)
    start_round(round_=following)
    assert post_hand(client, game, 1, even_hand(7)).status_code == 410
    assert not Hand.objects.filter(game__round=following).exists()


def test_a_tables_link_stays_the_same_and_opens_the_game_at_that_table_now(client, finished_round):
    table = finished_round.games.get(table__number=2).table
    following = close_round(round_=finished_round)
    waiting = client.get(page(table.token)).content.decode()
    assert "Round 2 is next" in waiting and 'http-equiv="refresh"' in waiting
    names = following.seatings.filter(table=table).values_list("player__name", flat=True)
    assert all(name in waiting for name in names)
    start_round(round_=following)
    html = client.get(page(table.token)).content.decode()
    assert "round 2" in html and 'id="hand-form"' in html
    assert at(following.games.get(table=table), "hand") in html


def test_after_the_last_round_the_link_says_the_event_has_finished(client, finished_round):
    tournament = finished_round.tournament
    tournament.rounds_planned = 1
    tournament.save()
    close_round(round_=finished_round)
    html = client.get(page(finished_round.games.first().table.token)).content.decode()
    assert "The event has finished" in html and "refresh" not in html


def test_a_round_not_started_shows_a_waiting_page_and_takes_no_hand(client, tournament):
    round_ = start_play(tournament=tournament)
    game = round_.games.first()
    assert b"Round 1 is next" in client.get(page(game.table.token)).content
    response = post_hand(client, game, 1, even_hand(7))
    assert response.status_code == 422 and game.hands.count() == 0


def test_a_knockouts_waiting_page_speaks_of_the_bracket_and_its_matches_not_rounds(client):
    before_the_draw = make_tournament(couples=4, preset="league-300", split=False)
    Tournament.objects.filter(pk=before_the_draw.pk).update(format="single_elimination")
    table = Table.objects.create(tournament=before_the_draw, number=1)
    assert "The bracket is not drawn yet" in client.get(page(table.token)).content.decode()
    tournament = knockout_event(teams=4, tables_available=3)  # two semi-finals: table 3 is free
    free = client.get(page(tournament.tables.get(number=3).token)).content.decode()
    assert "No match at table 3 just now" in free and "in round" not in free and "this round" not in free


def test_a_league_nights_waiting_page_names_the_match_and_the_night(client):
    tournament = make_league()
    night = format_of(tournament).start(tournament=tournament)
    game = night.games.select_related("table", "match").order_by("table__number").first()
    waiting = client.get(page(game.table.token)).content.decode()
    assert f"{game.match.name} is next" in waiting and "when the director starts the night" in waiting


def test_the_table_page_links_to_no_director_page(client, game):
    html = client.get(page(game.table.token)).content.decode()
    assert 'href="/t/' not in html and "/admin" not in html
    assert client.get(reverse("director:dashboard", args=[game.round.tournament_id])).status_code == 302


def test_reissue_from_the_directors_page(director_client, game):
    old = game.table.token
    url = reverse("director:game_reissue", args=[game.round.tournament_id, game.pk])
    assert director_client.get(url).status_code == 405
    director_client.post(url)
    game.table.refresh_from_db()
    assert game.table.token != old


def test_the_directors_link_page_shows_each_tables_link_and_qr_code(director_client, running_round, settings):
    settings.SPADES_BASE_URL = "http://192.168.1.20:8000"
    url = reverse("director:round_links", args=[running_round.tournament_id, 1])
    html = director_client.get(url).content.decode()
    game = running_round.games.get(table__number=2)
    assert f"http://192.168.1.20:8000/table/{game.table.token}/" in html
    assert html.count("<svg") == 4


# --- entry and validation ---------------------------------------------------------------------


def test_a_hand_is_scored_at_once_and_the_page_shows_the_totals(client, game):
    response = post_hand(client, game, 1, even_hand(8))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Hand 1 saved." in html and "<strong>62</strong>" in html
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (62, -60)  # East–West bid 6 and took 5


def test_the_preview_explains_the_hand_in_words_before_it_is_saved(client, game):
    url = at(game, "preview")
    html = client.get(url, {"number": 1, **even_hand(8)}).content.decode()
    assert "Bid 6, took 8: made, 6 × 10 = +60" in html and "NS +62" in html
    assert game.hands.count() == 0
    waiting = client.get(url, {"number": 1, "north_bid": "3"}).content.decode()
    assert "Enter East" in waiting
    blank = client.get(url, {"number": 2, **dict.fromkeys(HandForm.SEAT_FIELDS, "")}).content.decode()
    assert "The score appears here as you enter the hand." in blank and "Enter" not in blank  # the next hand, untouched


def test_the_preview_scores_the_hand_before_the_opponent_types_initials(client, game):
    game.round.tournament.require_confirmation = True
    game.round.tournament.save()
    html = client.get(at(game, "preview"), {"number": 1, **even_hand(8)}).content.decode()
    assert "NS +62" in html and "initials" not in html


def test_a_phone_that_moves_its_form_on_itself_is_sent_only_what_changed_while_the_game_goes_on(client, game):
    def phone_posts(number: int, values: dict, **extra) -> str:
        data = {"number": number, **values, **extra}
        return client.post(at(game, "hand"), data, HTTP_HX_REQUEST="true", HTTP_X_NEXT_HAND="client").content.decode()

    for number in (1, 2, 3):
        html = phone_posts(number, even_hand(7))
        assert f'id="saved" data-number="{number}">Hand {number} saved.' in html and 'id="hand-form"' not in html
        assert 'id="totals" hx-swap-oob="true"' in html and f'id="hand-{number}"' in html
        assert f"<span>NS +61 → {61 * number} · EW +60 → {60 * number}</span>" in html  # the new row's points
    correction = phone_posts(3, even_hand(6), version=1)
    assert 'id="hand-form"' in correction and 'id="saved"' not in correction  # the form follows the correction
    last = phone_posts(4, even_hand(7))
    assert "Game over:" in last and "Hand 4 saved." in last and 'id="saved"' not in last  # the round's 4 hands


def data_block(html: str, name: str) -> dict:
    """The JSON data block ``name`` of a page (a <script type="application/json">, never run)."""
    start = html.index(f'<script id="{name}" type="application/json">') + len(
        f'<script id="{name}" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_the_page_and_each_saved_hand_carry_the_rules_and_standing_the_phone_scores_waiting_hands_on(client, game):
    html = client.get(page(game.table.token)).content.decode()
    assert data_block(html, "table-rules") == game.rules.to_json()
    standing = data_block(html, "table-standing")
    assert standing == {"scores": [0, 0], "bags": [0, 0], "played": 0, "status": "playing", "time_up_hand": None,
                        "url": at(game, "hand")}  # fmt: skip
    saved = client.post(at(game, "hand"), {"number": 1, **even_hand(8)}, HTTP_HX_REQUEST="true",
                        HTTP_X_NEXT_HAND="client").content.decode()  # fmt: skip
    assert data_block(saved, "table-standing") | {"url": ""} == standing | {
        "scores": [62, -60], "bags": [2, 0], "played": 1, "url": ""}  # fmt: skip


TRICKS_OFF = even_hand(7) | {"west_tricks": 4}


@pytest.mark.parametrize(
    ("preset", "values", "code"),
    [
        ("progressive", TRICKS_OFF, "tricks_total"),
        ("progressive", even_hand(7) | {"north_tricks": 14}, "max_value"),
        ("progressive", even_hand(7) | {"north_tricks": -1}, "min_value"),
        ("progressive", even_hand(7) | {"north_tricks": "four"}, "invalid"),
        ("progressive", even_hand(7) | {"north_bid": "nil"}, "invalid_choice"),
        ("progressive", even_hand(7) | {"north_bid": "14"}, "invalid_choice"),
        ("progressive", even_hand(7) | {"south_tricks": ""}, "required"),
        ("friendly", even_hand(7) | {"north_bid": "0"}, "invalid_choice"),
        ("league-300", even_hand(7) | {"north_bid": "1", "south_bid": "2"}, "min_team_bid"),
        ("league-300", even_hand(7) | {"north_bid": "nil", "north_tricks": 0, "south_tricks": 7}, "min_team_bid"),
        ("progressive-500", even_hand(7) | {"east_bid": "blind_nil"}, "blind_nil_deficit"),
        ("progressive", even_hand(7) | {"ns_reneges": -1}, "min_value"),
    ],
)
def test_each_rule_is_refused_with_its_code_and_nothing_is_stored(client, db, preset, values, code):
    tournament = make_tournament(couples=2, preset=preset)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    response = post_hand(client, game, 1, values)
    assert response.status_code == 422
    assert code in error_codes(response)
    assert game.hands.count() == 0


def test_error_messages_name_the_seat_and_the_rule(client, game):
    html = post_hand(client, game, 1, TRICKS_OFF).content.decode()
    assert "The tricks add up to 14; they must make 13." in html


@pytest.mark.django_db
def test_a_short_bid_on_both_sides_names_both_sides(client):
    tournament = make_tournament(couples=2, preset="league-300")
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    both_short = even_hand(7) | {"north_bid": "1", "south_bid": "2", "east_bid": "1", "west_bid": "1"}
    html = post_hand(client, game, 1, both_short).content.decode()
    assert "North–South and East–West: Each side must bid at least 4 tricks together." in html
    one_short = even_hand(7) | {"east_bid": "1", "west_bid": "1"}
    html = post_hand(client, game, 1, one_short).content.decode()
    assert "East–West: The side must bid at least 4 tricks together." in html and "North–South:" not in html


def test_no_hand_after_the_rounds_four_hands(client, game):
    finish_game(game)
    response = post_hand(client, game, 5, even_hand(7))
    assert response.status_code == 422 and "the game at this table is over" in response.content.decode().lower()


def test_a_tied_round_asks_for_one_more_hand(client, game):
    finish_game(game, hands=2, ns_tricks=7)
    finish_game(game, hands=2, ns_tricks=6)
    html = client.get(page(game.table.token)).content.decode()
    assert "The game is tied at 242 each: play one more hand" in html and "Save hand 5" in html
    post_hand(client, game, 5, even_hand(7))
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.FINISHED, "NS")


def test_a_misdeal_scores_nothing_and_keeps_the_dealer(client, game):
    post_hand(client, game, 1, {"misdeal": "no_spades"})
    html = post_hand(client, game, 1, even_hand(7)).content.decode()  # the same hand, dealt again
    assert game.hands.get(number=1, deal=1).misdeal == "no_spades"
    assert game.hands.get(number=1, deal=2).misdeal == ""
    game.refresh_from_db()
    assert (game.hands_played, game.ns_score) == (1, 61)
    # The first dealer dealt the misdeal and hand 1 again; the next seat deals hand 2.
    assert f"dealer: {Seat(game.first_dealer).after(1).label}" in html
    assert "Save hand 2" in html


def test_a_misdeal_keeps_the_hand_number_on_the_phone_as_on_the_paper_sheet(client, game):
    html = post_hand(client, game, 1, {"misdeal": "no_spades"}).content.decode()
    assert "Hand 1: misdeal, dealt again by the same dealer." in html and "Save hand 1" in html
    refused = post_hand(client, game, 2, even_hand(7))  # the phone must not skip to hand 2
    assert refused.status_code == 422 and "next hand at this table is hand 1" in str(refused.context["form"].errors)
    page = client.get(f"/table/{game.table.token}/").content.decode()
    assert "Save hand 1" in page and "Misdeal: a player was dealt no spades; dealt again" in page


def test_the_hand_dealt_again_after_a_misdeal_takes_the_misdeals_place_as_the_last_hand(client, game):
    post_hand(client, game, 1, even_hand(7))
    post_hand(client, game, 2, {"misdeal": "no_spades"})
    html = post_hand(client, game, 2, even_hand(7)).content.decode()
    # The misdeal's Correct and Dispute go before the new row (with its own) is put in.
    gone = '<a id="correct-2" hx-swap-oob="delete"></a><details id="to-director-2" hx-swap-oob="delete"></details>'
    assert gone in html and html.index(gone) < html.index('id="hand-2-deal-2"')
    page = client.get(f"/table/{game.table.token}/").content.decode()
    assert page.count('id="correct-2"') == 1 and 'id="hand-2"' in page and 'id="hand-2-deal-2"' in page


def test_a_misdeal_reason_must_be_one_the_rules_list(client, game):
    response = post_hand(client, game, 1, {"misdeal": "no_face_cards"})  # a league reason, not progressive's
    assert response.status_code == 422 and "invalid_choice" in error_codes(response)


# --- penalties under every preset that defines them -----------------------------------------------

PENALTIES = [(name, kind) for name, p in PRESETS.items() for kind in ("reneges", "table_talk")
             if (p.rules.reneg_tricks if kind == "reneges" else p.rules.table_talk_tricks)]  # fmt: skip


@pytest.mark.parametrize(("preset", "kind"), PENALTIES)
def test_each_penalty_scores_through_the_table_as_the_engine_says(client, db, preset, kind):
    tournament = make_tournament(couples=2, preset=preset)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    values = {"north_bid": "4", "south_bid": "4", "east_bid": "2", "west_bid": "2",
              "north_tricks": 5, "south_tricks": 4, "east_tricks": 2, "west_tricks": 2}  # fmt: skip
    rules = tournament.rules
    # Under rules scoring each player's own bid the phone asks who committed it: North here.
    who = "north" if rules.contract == "player" else "ns"
    response = post_hand(client, game, 1, values, **{f"{who}_{kind}": 1})
    assert response.status_code == 200
    north = PlayerHand(4, 5, **({kind: 1} if rules.contract == "player" else {}))
    ns = SideHand((north, PlayerHand(4, 4)), **{kind: 1})
    ew = SideHand((PlayerHand(2, 2), PlayerHand(2, 2)))
    expected = score_hand(rules, [ns, ew])
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (expected.teams[0].score, expected.teams[1].score)
    assert game.ns_score < 81  # the penalty cost North–South something


def test_league_reneg_gives_the_other_side_30(client, db):
    tournament = make_tournament(couples=2, preset="league-300")
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    values = {"north_bid": "4", "south_bid": "4", "east_bid": "2", "west_bid": "2",
              "north_tricks": 5, "south_tricks": 4, "east_tricks": 2, "west_tricks": 2}  # fmt: skip
    post_hand(client, game, 1, values, ns_reneges=1)
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (-80, 40 + 30)


# --- corrections, history, disputes, confirmation ------------------------------------------------


def test_the_table_corrects_its_last_hand_and_the_change_is_kept(client, game):
    post_hand(client, game, 1, even_hand(7))
    response = post_hand(client, game, 1, even_hand(8), version=1)
    assert response.status_code == 200
    revision = HandRevision.objects.get(before__isnull=False)
    assert (revision.source, revision.before["north_tricks"], revision.after["north_tricks"]) == ("table", 4, 5)


def test_the_table_cannot_correct_an_earlier_hand(client, game):
    post_hand(client, game, 1, even_hand(7))
    post_hand(client, game, 2, even_hand(7))
    response = post_hand(client, game, 1, even_hand(8), version=1)
    assert response.status_code == 422 and "ask the director" in response.content.decode()
    assert game.hands.get(number=1).version == 1


def test_the_director_corrects_any_hand_even_after_the_round_closed(client, director, finished_round):
    game = finished_round.games.get(table__number=1)
    close_round(round_=finished_round)
    six = HandEntry.from_fields(even_hand(6))
    correct_hand(game=game, number=1, entry=six, by=director, expected_version=1)
    game.refresh_from_db()
    assert game.ns_score == 4 * 61 - 1
    assert HandRevision.objects.filter(hand__game=game, changed_by=director).count() == 1


def test_the_games_history_lists_entries_and_corrections_in_the_order_they_happened(
    client, director_client, director, game
):
    post_hand(client, game, 1, even_hand(7))
    post_hand(client, game, 2, even_hand(7))
    correct_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(6)), by=director, expected_version=1)
    html = director_client.get(reverse("director:game", args=[game.round.tournament_id, game.pk])).content.decode()
    history = html[html.index("<h2>History</h2>") :]
    rows = [history.index(text) for text in ('<td class="num">1</td>', '<td class="num">2</td>', "corrected:")]
    assert rows == sorted(rows)  # hand 1 entered, hand 2 entered, then hand 1 corrected


def test_a_second_phone_entering_the_same_hand_is_shown_what_was_stored(client, game):
    post_hand(client, game, 1, even_hand(7))
    response = post_hand(client, game, 1, even_hand(9))
    html = response.content.decode()
    assert response.status_code == 409
    assert "Hand 1 was already entered" in html and "tricks N 4" in html
    assert game.hands.count() == 1 and game.hands.get().north_tricks == 4


def test_a_stale_correction_is_refused_with_the_current_values(client, game, director):
    post_hand(client, game, 1, even_hand(7))
    six = HandEntry.from_fields(even_hand(6))
    correct_hand(game=game, number=1, entry=six, by=director, expected_version=1)
    response = post_hand(client, game, 1, even_hand(8), version=1)
    assert response.status_code == 409
    assert "changed by someone else" in response.content.decode()
    assert game.hands.get().north_tricks == 3


def test_a_disputed_hand_shows_on_the_board_until_resolved(client, director_client, game):
    post_hand(client, game, 1, even_hand(7))
    client.post(at(game, "dispute", 1), {"note": "EW say 7 tricks"})
    board = reverse("director:round", args=[game.round.tournament_id, 1])
    assert "Disputed (1)" in director_client.get(board).content.decode()
    resolve = reverse("director:game_resolve", args=[game.round.tournament_id, game.pk, 1])
    director_client.post(resolve, {"resolution": ""})
    assert Hand.objects.get().disputed
    director_client.post(resolve, {"resolution": "Counted again: 6 and 7 stand"})
    assert "Disputed" not in director_client.get(board).content.decode()
    assert Hand.objects.get().dispute_resolution == "Counted again: 6 and 7 stand"


def test_the_games_history_lists_disputes_and_their_resolutions_with_who_and_when(
    client, director_client, director, game
):
    post_hand(client, game, 1, even_hand(7))
    client.post(at(game, "dispute", 1), {"note": "EW say 7 tricks"})
    phone = client.get(page(game.table.token)).content.decode()
    assert "“EW say 7 tricks”" in phone and "by the table scorekeeper" in phone and "Waiting for the director" in phone
    resolve = reverse("director:game_resolve", args=[game.round.tournament_id, game.pk, 1])
    director_client.post(resolve, {"resolution": "Counted again: 6 and 7 stand"})
    dispute = Dispute.objects.get()
    assert (dispute.resolved_by, dispute.resolution) == (director, "Counted again: 6 and 7 stand")
    when = timezone.localtime(dispute.resolved_at).strftime("%H:%M")
    for html in (
        client.get(page(game.table.token)).content.decode(),
        director_client.get(reverse("director:game", args=[game.round.tournament_id, game.pk])).content.decode(),
    ):
        assert "Hand 1</strong>: “EW say 7 tricks”" in html
        assert f'Settled: “Counted again: 6 and 7 stand” <small class="muted">by dee at {when}' in html


# --- the hand list: each seat's bid and tricks, mistakes in earlier hands reported --------------


def row_of(html: str, number: int) -> str:
    """Hand ``number``'s item in the table page's hand list."""
    start = html.index(f'id="hand-{number}"')
    return html[start : html.index("</li>", start)]


def report(client, game: Game, number: int, note: str, **headers):
    return client.post(at(game, "mistake", number), {"note": note}, **({"HTTP_HX_REQUEST": "true"} | headers))


def test_the_hand_list_shows_each_seats_bid_and_tricks_and_a_misdeal_as_a_misdeal(client, game):
    Tournament.objects.filter(pk=game.round.tournament_id).update(rule_overrides={"nil_points": 100})
    nil = {"north_bid": "nil", "north_tricks": 0, "south_tricks": 5, "east_tricks": 4, "west_tricks": 4}
    post_hand(client, game, 1, even_hand(8) | nil | {"south_bid": "4", "east_bid": "4", "west_bid": "4"})
    post_hand(client, game, 2, {"misdeal": "no_spades"})
    html = client.get(page(game.table.token)).content.decode()
    first = row_of(html, 1)
    assert '<th scope="row">Bids</th><td>N Nil</td><td>E 4</td><td>S 4</td><td>W 4</td>' in first
    assert '<th scope="row">Tricks</th><td>N 0</td><td>E 4</td><td>S 5</td><td>W 4</td>' in first
    assert "NS +141 → 141 · EW +80 → 80" in first
    misdeal = row_of(html, 2)
    assert "Misdeal: a player was dealt no spades" in misdeal and "hand-seats" not in misdeal


def test_only_earlier_hands_offer_report_a_mistake_and_the_last_keeps_correct_and_dispute(client, game):
    post_hand(client, game, 1, even_hand(7))
    html = client.get(page(game.table.token)).content.decode()
    assert "Report a mistake" not in row_of(html, 1) and "Flag hand 1" in row_of(html, 1)
    saved = post_hand(client, game, 2, even_hand(7)).content.decode()
    # The answer to a save takes hand 1's Correct away and puts a mistake's report for its Dispute.
    assert '<a id="correct-1" hx-swap-oob="delete"></a>' in saved
    assert '<details class="report" id="to-director-1" hx-swap-oob="true">' in saved
    assert at(game, "mistake", 1) in saved and "Flag hand 1" not in saved
    html = client.get(page(game.table.token)).content.decode()
    assert "Report a mistake" in row_of(html, 1) and "Flag hand 1" not in row_of(html, 1)
    assert 'id="correct-2"' in row_of(html, 2) and "Flag hand 2" in row_of(html, 2)
    assert "Report a mistake" not in row_of(html, 2)


def test_a_mistake_in_an_earlier_hand_reaches_the_directors_disputes_naming_the_table_and_hand(
    client, director_client, director, game
):
    post_hand(client, game, 1, even_hand(7))
    post_hand(client, game, 2, even_hand(7))
    response = report(client, game, 1, "  East bid 4, not 3 ")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Hand 1 is reported; the director will come over." in html
    assert "Disputed: East bid 4, not 3" in row_of(html, 1)
    dispute = Dispute.objects.get()
    assert (dispute.hand.number, dispute.hand.game, dispute.note, dispute.raised_from) == (
        1, game, "East bid 4, not 3", HandRevision.Source.TABLE
    )  # fmt: skip
    board = director_client.get(reverse("director:round", args=[game.round.tournament_id, 1])).content.decode()
    assert "Disputed (1)" in board
    desk = reverse("director:game", args=[game.round.tournament_id, game.pk])
    detail = director_client.get(desk).content.decode()
    assert f"Table {game.table.number}" in detail and "Hand 1 is disputed" in detail and "East bid 4, not 3" in detail
    resolve = reverse("director:game_resolve", args=[game.round.tournament_id, game.pk, 1])
    director_client.post(resolve, {"resolution": "Corrected: East bid 4"})
    assert not game.hands.get(number=1).disputed
    assert Dispute.objects.get().resolved_by == director


def test_a_mistake_report_without_htmx_goes_back_to_the_table_page(client, game):
    post_hand(client, game, 1, even_hand(7))
    post_hand(client, game, 2, even_hand(7))
    response = client.post(at(game, "mistake", 1), {"note": "East bid 4"})
    assert response.status_code == 302 and response.url == page(game.table.token)
    assert game.hands.get(number=1).disputed


@pytest.mark.parametrize(
    ("note", "words"),
    [
        ("", "What is wrong: write what the table found wrong, so the director knows what to check."),
        ("   ", "What is wrong: write what the table found wrong, so the director knows what to check."),
        ("x" * 301, "What is wrong: Ensure this value has at most 300 characters (it has 301)."),
        ("EW say\x00 7", "What is wrong: Null characters are not allowed."),
    ],
)
def test_a_mistake_report_needs_what_is_wrong_and_says_so_on_the_hands_row(client, game, note, words):
    post_hand(client, game, 1, even_hand(7))
    post_hand(client, game, 2, even_hand(7))
    response = report(client, game, 1, note)
    assert response.status_code == 422
    row = row_of(response.content.decode(), 1)
    assert '<details class="report" id="to-director-1" open>' in row and words in row and 'aria-invalid="true"' in row
    assert not Dispute.objects.exists() and not game.hands.filter(disputed=True).exists()


def test_a_mistake_report_is_sent_by_post_only(client, game):
    post_hand(client, game, 1, even_hand(7))
    post_hand(client, game, 2, even_hand(7))
    assert client.get(at(game, "mistake", 1)).status_code == 405
    assert not Dispute.objects.exists()


def test_a_mistake_report_on_a_hand_or_link_that_does_not_exist_finds_nothing(client, game):
    post_hand(client, game, 1, even_hand(7))
    assert report(client, game, 7, "East bid 4").status_code == 404
    unknown = reverse("table:mistake", args=["not-a-token", game.round.number, 1])
    assert client.post(unknown, {"note": "East bid 4"}).status_code == 404
    assert client.post(reverse("table:mistake", args=[game.table.token, 9, 1]), {"note": "x"}).status_code == 404
    assert not Dispute.objects.exists()


def test_a_table_link_reports_mistakes_in_its_own_tables_hands_only(client, running_round):
    table_3, table_4 = (running_round.games.get(table__number=n) for n in (3, 4))
    finish_game(table_4, hands=3)
    post_hand(client, table_3, 1, even_hand(7))
    link_3 = reverse("table:mistake", args=[table_3.table.token, 1, 3])
    assert client.post(link_3, {"note": "East bid 4"}).status_code == 404  # hand 3 is table 4's only
    client.post(reverse("table:mistake", args=[table_3.table.token, 1, 1]), {"note": "East bid 4"})
    assert [d.hand.game for d in Dispute.objects.all()] == [table_3]
    assert not table_4.hands.filter(disputed=True).exists()


def test_a_mistake_reported_after_the_round_closed_is_refused_with_the_reason(client, finished_round):
    game = finished_round.games.first()
    close_round(round_=finished_round)
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = report(client, game, 2, "East bid 4", **headers)
        assert response.status_code == 409
        reason = "Round 1 has closed, so its results are final: ask the director about hand 2."
        assert reason in response.content.decode()
    assert not Dispute.objects.exists()


def test_a_finished_game_with_a_hand_in_dispute_waits_for_the_director_instead_of_game_over(
    client, director_client, game
):
    finish_game(game, hands=3)
    report(client, game, 1, "East bid 4, not 3")
    html = post_hand(client, game, 4, even_hand(7)).content.decode()  # the hand that ends the game
    assert "Waiting for the director." in html and "Game over" not in html
    html = client.get(page(game.table.token)).content.decode()
    assert 'id="director-wait"' in html and "Game over" not in html
    poll = f"{page(game.table.token)}?waiting=director"
    asked = client.get(poll, HTTP_HX_REQUEST="true")
    assert asked.status_code == 204 and "HX-Refresh" not in asked
    resolve = reverse("director:game_resolve", args=[game.round.tournament_id, game.pk, 1])
    director_client.post(resolve, {"resolution": "Counted again: it stands"})
    asked = client.get(poll, HTTP_HX_REQUEST="true")
    assert asked.status_code == 204 and asked["HX-Refresh"] == "true"
    html = client.get(page(game.table.token)).content.decode()
    assert "Game over" in html and "director-wait" not in html


def test_a_dispute_of_the_hand_that_ended_the_game_waits_for_the_director_too(client, game):
    finish_game(game)
    html = client.post(at(game, "dispute", 4), {"note": "EW say 5"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Waiting for the director." in html and "Game over" not in html


def test_a_hand_disputed_twice_keeps_both_disputes(client, game, director):
    post_hand(client, game, 1, even_hand(7))
    hand = game.hands.get()
    flag_dispute(hand=hand, note="first")
    resolve_dispute(hand=hand, resolution="recounted", by=director)
    flag_dispute(hand=hand, note="second")
    assert [(d.note, d.is_open) for d in Dispute.objects.all()] == [("first", False), ("second", True)]


def test_opponent_confirmation_when_the_director_asks_for_it(client, game):
    tournament = game.round.tournament
    tournament.require_confirmation = True
    tournament.save()
    response = post_hand(client, game, 1, even_hand(7))
    assert response.status_code == 422 and "confirmation_required" in error_codes(response)
    assert game.hands.count() == 0
    post_hand(client, game, 1, even_hand(7), confirmed_by="CD")
    assert game.hands.get().confirmed_by == "CD"
    exported = list(csv.DictReader(io.StringIO(hands_csv(tournament))))
    assert [row["confirmed by"] for row in exported] == ["CD"]  # the hands CSV names who confirmed


def test_wrong_methods_are_refused(client, game):
    assert client.get(at(game, "hand")).status_code == 405
    assert client.post(page(game.table.token)).status_code == 405
    assert client.get(at(game, "dispute", 1)).status_code == 405
    assert client.post(at(game, "dispute", 9)).status_code == 404


# --- concurrency ----------------------------------------------------------------------------------


def _race(game: Game, number: int, values: list[dict], **kwargs) -> list[str]:
    outcomes: list[str] = []
    barrier = threading.Barrier(len(values))

    def enter(hand: dict) -> None:
        close_old_connections()
        barrier.wait()
        try:
            enter_hand(game=game, number=number, entry=HandEntry.from_fields(hand), source="table", **kwargs)
            outcomes.append("stored")
        except HandConflict:
            outcomes.append("conflict")
        except Exception as error:
            outcomes.append(repr(error))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=enter, args=(hand,)) for hand in values]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(outcomes)


@pytest.mark.django_db(transaction=True)
def test_two_phones_racing_on_the_same_hand_store_exactly_one():
    tournament = make_tournament(couples=2)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    assert _race(game, 1, [even_hand(7), even_hand(9)]) == ["conflict", "stored"]
    assert game.hands.count() == 1 and HandRevision.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_corrections_racing_from_the_same_version_keep_one_and_refuse_the_other():
    tournament = make_tournament(couples=2)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(7)), source="table")
    assert _race(game, 1, [even_hand(6), even_hand(8)], expected_version=1) == ["conflict", "stored"]
    assert game.hands.get().version == 2 and HandRevision.objects.count() == 2


def _enter_at_link(game: Game, number: int, fields: dict, **kwargs) -> EnteredHand:
    """A hand entered as a scorekeeper's save enters it: on the game as the table's link read it."""
    return enter_hand(game=game, number=number, entry=HandEntry.from_fields(fields), source="table", **kwargs)


def test_a_hand_entered_on_a_game_read_before_a_correction_is_scored_on_the_corrected_totals(running_round):
    token = running_round.games.get(table__number=1).table.token
    _enter_at_link(Game.objects.at_link(token, 1), 1, even_hand(7))
    read_before = Game.objects.at_link(token, 1)  # a phone's form, loaded before the correction
    _enter_at_link(Game.objects.at_link(token, 1), 1, even_hand(10), expected_version=1)
    entered = _enter_at_link(read_before, 2, even_hand(8))
    game = Game.objects.get(pk=entered.game.pk)
    stored = (game.ns_score, game.ew_score, game.ns_bags, game.ew_bags, game.hands_played)
    assert stored == (entered.game.ns_score, entered.game.ew_score, entered.game.ns_bags, entered.game.ew_bags, 2)
    game.rescore()
    assert stored == (game.ns_score, game.ew_score, game.ns_bags, game.ew_bags, game.hands_played)
    assert read_before.ns_score != game.ns_score - entered.replay.results[-1].teams[0].points


def test_a_hand_entered_by_a_phone_that_missed_a_misdeal_is_the_same_hand_dealt_again(running_round):
    token = running_round.games.get(table__number=1).table.token
    _enter_at_link(Game.objects.at_link(token, 1), 1, even_hand(7))
    read_before = Game.objects.at_link(token, 1)
    _enter_at_link(Game.objects.at_link(token, 1), 2, {"misdeal": "no_spades"})
    _enter_at_link(read_before, 2, even_hand(8))
    hands = Hand.objects.filter(game__table__token=token).order_by("number", "deal")
    assert [(h.number, h.deal, h.misdeal) for h in hands] == [(1, 1, ""), (2, 1, "no_spades"), (2, 2, "")]


def test_a_misdeal_sent_for_a_hand_already_entered_is_a_conflict_not_a_second_deal(running_round):
    token = running_round.games.get(table__number=1).table.token
    read_before = Game.objects.at_link(token, 1)
    _enter_at_link(Game.objects.at_link(token, 1), 1, even_hand(7))
    with pytest.raises(HandConflict) as conflict:
        _enter_at_link(read_before, 1, {"misdeal": "no_spades"})
    assert conflict.value.hand.misdeal == ""
    assert Hand.objects.filter(game__table__token=token).count() == 1 and HandRevision.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_hand_saved_while_a_correction_holds_the_game_waits_for_it_and_is_scored_on_the_corrected_totals():
    """As in production: the save runs in no transaction of the test's, and its write waits for
    the correction's transaction, then finds the game changed, and enters the hand under the lock."""
    round_ = start_play(tournament=make_tournament(couples=2))
    start_round(round_=round_)
    token = round_.games.get().table.token
    _enter_at_link(Game.objects.at_link(token, 1), 1, even_hand(7))
    read_before = Game.objects.at_link(token, 1)
    corrected = threading.Event()

    def correct() -> None:
        close_old_connections()
        try:
            with transaction.atomic():
                _enter_at_link(Game.objects.at_link(token, 1), 1, even_hand(10), expected_version=1)
                corrected.set()
                time.sleep(0.5)  # the other phone's save arrives while this transaction holds the game
        finally:
            close_old_connections()

    thread = threading.Thread(target=correct)
    thread.start()
    assert corrected.wait(10)
    entered = _enter_at_link(read_before, 2, even_hand(8))
    thread.join()
    game = Game.objects.get(pk=entered.game.pk)
    stored = (game.ns_score, game.ew_score, game.ns_bags, game.ew_bags, game.hands_played)
    game.rescore()
    assert stored == (game.ns_score, game.ew_score, game.ns_bags, game.ew_bags, 2)
    assert [h.version for h in game.hands.order_by("number")] == [2, 1] and HandRevision.objects.count() == 3


def _held_meanwhile(action) -> threading.Thread:
    """Run ``action`` in a transaction of another connection (as another request would), and
    return once it has run, its transaction still open for half a second before it commits."""
    done = threading.Event()

    def hold() -> None:
        close_old_connections()
        try:
            with transaction.atomic():
                action()
                done.set()
                time.sleep(0.5)  # what the test does meanwhile arrives while this holds its rows
        finally:
            done.set()
            close_old_connections()

    thread = threading.Thread(target=hold)
    thread.start()
    assert done.wait(10)
    return thread


def _a_finished_table() -> Game:
    """A one-table round, running, its four hands played (NS ahead by two: 243 to 241)."""
    round_ = start_play(tournament=make_tournament(couples=2))
    start_round(round_=round_)
    game = round_.games.get()
    for number, ns_tricks in enumerate((7, 6, 7, 7), start=1):
        _enter_at_link(Game.objects.at_link(game.table.token, 1), number, even_hand(ns_tricks))
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db(transaction=True)
def test_a_correction_sent_while_the_round_is_closing_waits_and_finds_it_closed():
    game = _a_finished_table()
    assert game.is_finished
    read_before = Game.objects.at_link(game.table.token, 1)  # the phone's page, loaded before the close
    thread = _held_meanwhile(lambda: close_round(round_=game.round))
    with pytest.raises(InvalidHand) as refused:
        _enter_at_link(read_before, 4, even_hand(6), expected_version=1)
    thread.join()
    assert refused.value.code == "round_not_running"
    assert Hand.objects.get(game=game, number=4).version == 1 and HandRevision.objects.count() == 4


@pytest.mark.django_db(transaction=True)
def test_closing_a_round_while_a_correction_ties_its_game_waits_and_names_the_tied_table():
    game = _a_finished_table()
    token = game.table.token
    tie = even_hand(6)  # NS 242, EW 242
    thread = _held_meanwhile(lambda: _enter_at_link(Game.objects.at_link(token, 1), 4, tie, expected_version=1))
    with pytest.raises(RoundNotReady, match="tied at table 1"):
        close_round(round_=game.round)
    thread.join()
    game.refresh_from_db()
    assert game.is_tied and game.round.status == Round.Status.RUNNING


def _slowed(monkeypatch, owner, name: str) -> threading.Event:
    """``owner.name`` made to pause half a second before it runs (its caller's locks held), and
    an event set when it begins: the window another request's locks land in."""
    begun, original = threading.Event(), getattr(owner, name)

    def slow(*args, **kwargs):
        begun.set()
        time.sleep(0.5)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, slow)
    return begun


def _started(action) -> tuple[threading.Thread, list[object]]:
    """``action`` begun in a thread on a connection of its own (as another request would be), and
    the list its result, or the error it raised, is put in."""
    outcome: list[object] = []

    def run() -> None:
        close_old_connections()
        try:
            outcome.append(action())
        except Exception as error:
            outcome.append(error)
        finally:
            close_old_connections()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


@pytest.mark.django_db(transaction=True)
def test_a_tie_decided_while_the_round_is_closing_is_in_the_close_not_a_deadlock(monkeypatch):
    round_ = start_play(tournament=make_tournament(couples=2))
    start_round(round_=round_)
    game = round_.games.get()
    for number, ns_tricks in enumerate((7, 6, 7, 6), start=1):
        _enter_at_link(Game.objects.at_link(game.table.token, 1), number, even_hand(ns_tricks))
    game.refresh_from_db()
    assert game.is_tied
    closing = _slowed(monkeypatch, Round, "close")  # the close holds the round, not yet the games
    thread, outcome = _started(lambda: close_round(round_=round_))
    assert closing.wait(10)
    decide_tie(game=game, winner=Side.NS, how="cut for high card")
    thread.join()
    # One waits for the other, whichever locked first (SQLite's write lock: always the close).
    (closed,) = outcome
    round_.refresh_from_db()
    if isinstance(closed, RoundNotReady):
        assert "tied at table 1" in closed.message and round_.status == Round.Status.RUNNING
    else:
        assert isinstance(closed, Round) and round_.status == Round.Status.CLOSED, closed  # the next, seated
    assert Game.objects.get(pk=game.pk).winner == Side.NS


@pytest.mark.django_db(transaction=True)
def test_a_league_night_closed_while_a_hand_is_saved_names_the_table_playing_not_a_deadlock(monkeypatch):
    from tournament.formats.league import services as league
    from tournament.formats.league.services import build_schedule, open_night

    tournament = make_league(couples=4)
    build_schedule(tournament=tournament)
    night = open_night(tournament=tournament, night=1)
    start_round(round_=night)
    game = night.games.get(table__number=1)
    saving = _slowed(monkeypatch, league, "game_changed")  # the save holds its game, not yet the tournament
    thread, outcome = _started(lambda: _enter_at_link(Game.objects.get(pk=game.pk), 1, knockout_hand(ns_wins=True)))
    assert saving.wait(10)
    with pytest.raises(RoundNotReady, match="still playing at table 1, 2"):
        close_round(round_=night)
    thread.join()
    assert not any(isinstance(result, Exception) for result in outcome), outcome
    assert game.hands.count() == 1


# --- arbitrary input ------------------------------------------------------------------------------

BIDS = st.sampled_from(["", "0", "3", "13", "14", "-1", "nil", "blind_nil", "x", "３"])
TRICKS = st.one_of(st.integers(-3, 16).map(str), st.sampled_from(["", "a", "1.5", "1e3", "999999999999"]))
FIELDS = {
    **{f"{s}_bid": BIDS for s in ("north", "east", "south", "west")},
    **{f"{s}_tricks": TRICKS for s in ("north", "east", "south", "west")},
    "number": st.sampled_from(["1", "2", "0", "-4", "x", ""]),
    "version": st.sampled_from(["", "1", "2", "x"]),
    "ns_reneges": st.sampled_from(["", "0", "1", "99", "-1"]),
    "misdeal": st.sampled_from(["", "no_spades", "sneezed"]),
}


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.fixed_dictionaries({}, optional=FIELDS))
def test_arbitrary_form_data_never_breaks_the_entry_and_stored_hands_stay_valid(client, game, data):
    response = client.post(at(game, "hand"), data, HTTP_HX_REQUEST="true")
    assert response.status_code in (200, 409, 422)
    hands = list(game.hands.order_by("number"))
    game.replay(hands)  # raises if any stored hand breaks a rule
    assert [h.number for h in hands] == list(range(1, len(hands) + 1))
    for hand in hands:
        assert hand.misdeal or sum(getattr(hand, f"{s}_tricks") for s in ("north", "east", "south", "west")) == 13


def test_round_status_is_unchanged_by_table_entries(client, game):
    post_hand(client, game, 1, even_hand(7))
    assert Round.objects.get().status == Round.Status.RUNNING


def test_a_knockout_tables_saved_hand_keeps_its_teams_names_to_the_end_of_the_game(client):
    tournament = knockout_event(teams=4)
    match = tournament.matches.filter(status=Match.Status.PLAYING).select_related("home", "away").first()
    game = match.games.get()
    home, away = ([player.name for player in team.players.all()] for team in (match.home, match.away))
    response = post_hand(client, game, 1, knockout_hand(ns_wins=True))
    html = response.content.decode()
    assert response.status_code == 200 and "Hand 1 saved." in html
    assert f"{home[0]} &amp; {home[1]}" in html and f"{away[0]} &amp; {away[1]}" in html
    number = 2
    while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
        html = post_hand(client, game, number, knockout_hand(ns_wins=True)).content.decode()
        number += 1
    assert f"Game over: {home[0]} &amp; {home[1]} win." in html


def _friendly_game() -> Game:
    """The one game of a two-couple friendly evening (each player's own bid scored), started."""
    round_ = start_play(tournament=make_tournament(couples=2, preset="friendly"))
    start_round(round_=round_)
    return round_.games.get()


def test_under_players_own_bids_the_phone_asks_which_player_reneged(client, db):
    game = _friendly_game()
    html = client.get(page(game.table.token)).content.decode()
    assert 'name="north_reneges"' in html and 'name="west_table_talk"' in html and 'name="ns_reneges"' not in html
    values = {"north_bid": "3", "south_bid": "3", "east_bid": "2", "west_bid": "2",
              "north_tricks": 5, "south_tricks": 3, "east_tricks": 3, "west_tricks": 2}  # fmt: skip
    post_hand(client, game, 1, values, south_reneges=1)
    game.refresh_from_db()
    hand = game.hands.get()
    assert (hand.ns_reneges, hand.south_reneges, hand.north_reneges) == (1, 1, 0)
    assert game.ns_score == 32  # North 30 and 2 bags; South's 3 less 3 books: set, 0


def test_a_sides_penalty_without_its_player_is_refused_under_players_own_bids(client, db):
    game = _friendly_game()
    values = {"north_bid": "3", "south_bid": "3", "east_bid": "2", "west_bid": "2",
              "north_tricks": 5, "south_tricks": 3, "east_tricks": 3, "west_tricks": 2}  # fmt: skip
    response = post_hand(client, game, 1, values, ns_reneges=1)
    assert response.status_code == 422 and "penalty_player" in error_codes(response)
    assert not game.hands.exists()


def test_under_players_own_bids_the_phones_preview_scores_each_bid_on_its_own(client, db):
    game = _friendly_game()
    values = {"north_bid": "3", "south_bid": "3", "east_bid": "2", "west_bid": "2",
              "north_tricks": 5, "south_tricks": 1, "east_tricks": 4, "west_tricks": 3}  # fmt: skip
    html = client.get(at(game, "preview"), {"number": 1, **values}).content.decode()
    assert (
        "One partner: bid 3, took 5: made, 3 × 10 = +30" in html and "The other: bid 3, took 1: set, scores 0" in html
    )
    assert "NS +32" in html and "EW +43" in html and not game.hands.exists()


def test_under_players_own_bids_the_directors_form_asks_which_player_reneged(director_client, db):
    game = _friendly_game()
    url = reverse("director:game", args=[game.round.tournament_id, game.pk])
    html = director_client.get(url).content.decode()
    assert 'name="south_reneges"' in html and 'name="ns_reneges"' not in html
    values = {"north_bid": "3", "south_bid": "3", "east_bid": "2", "west_bid": "2",
              "north_tricks": 5, "south_tricks": 3, "east_tricks": 3, "west_tricks": 2}  # fmt: skip
    hand_url = reverse("director:game_hand", args=[game.round.tournament_id, game.pk])
    refused = director_client.post(hand_url, {"number": 1, **values, "ns_reneges": 1})
    assert refused.status_code == 422 and not game.hands.exists()
    assert director_client.post(hand_url, {"number": 1, **values, "south_reneges": 1}).status_code == 302
    game.refresh_from_db()
    assert (game.hands.get().south_reneges, game.ns_score) == (1, 32)  # South's 3 less 3 books: set, 0


def test_tricks_past_13_are_refused_as_the_total_before_any_missing_count(client, game):
    values = {"north_bid": "3", "east_bid": "3", "south_bid": "3", "west_bid": "3",
              "north_tricks": 5, "east_tricks": 5, "south_tricks": 4}  # fmt: skip
    response = post_hand(client, game, 1, values)
    assert response.status_code == 422 and error_codes(response) == ["tricks_total"]
    assert "The tricks add up to 14; they must make 13." in response.content.decode()
    assert not game.hands.exists()
