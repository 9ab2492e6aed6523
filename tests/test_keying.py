"""Keying paper sheets at the desk (tournament.keying): a row typed enters its hand, a wrong row
is refused naming the field, and when the club keys sheets twice a hand counts only once two
people key the same values; a mismatch is flagged until a third keying settles it or both go."""

import html
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

from tests.conftest import a_club, make_tournament
from tournament.clubs.services import create_club, grant
from tournament.keying import services
from tournament.keying.forms import columns
from tournament.keying.models import Keying
from tournament.models import Club, ClubMember, Hand, HandRevision
from tournament.play.rounds import start_play, start_round
from tournament.review.flags import round_flags

pytestmark = pytest.mark.django_db

SEATS = ("north", "east", "south", "west")


def typed(number: int, bids: str = "3 3 3 3", tricks: str = "4 3 3 3", deal: int = 1, **extra) -> dict:
    """A row of the grid as typed: bids and tricks in seat order N E S W."""
    row = {"number": number, "deal": deal, **extra}
    row.update({f"{seat}_bid": bid for seat, bid in zip(SEATS, bids.split(), strict=True)})
    row.update({f"{seat}_tricks": t for seat, t in zip(SEATS, tricks.split(), strict=True)})
    return row


@pytest.fixture
def people(django_user_model):
    """Three directors of the tests' club and an assistant, each a user of their own."""

    def make(name: str, role: str = ClubMember.Role.DIRECTOR):
        user = django_user_model.objects.create_user(name)
        grant(club=a_club(), user=user, role=role)
        return user

    return {"ann": make("ann"), "bob": make("bob"), "cy": make("cy"), "abe": make("abe", ClubMember.Role.ASSISTANT)}


@pytest.fixture
def game(running_round):
    return running_round.games.get(table__number=1)


@pytest.fixture
def twice(db):
    Club.objects.filter(pk=a_club().pk).update(double_keying=True)


def _urls(game) -> tuple[str, str]:
    tournament_id = game.round.tournament_id
    return (reverse("director:keying", args=[tournament_id, game.pk]),
            reverse("director:keying_hand", args=[tournament_id, game.pk]))  # fmt: skip


def _text(answer) -> str:
    return html.unescape(answer.content.decode())


def _key(client, user, game, row: dict, *, htmx: bool = False):
    client.force_login(user)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(_urls(game)[1], row, headers=headers)


# --- one keying: the hand is entered at once -----------------------------------------------------


def test_a_keyed_row_enters_its_hand_at_once_and_the_grid_shows_the_running_totals(client, people, game):
    answer = _key(client, people["ann"], game, typed(1))
    assert answer.status_code == 302 and answer["Location"].endswith("?after=1-1")
    _key(client, people["ann"], game, typed(2))
    hands = list(game.hands.order_by("number"))
    assert [(h.north_tricks, h.east_tricks) for h in hands] == [(4, 3), (4, 3)]
    revision = hands[1].revisions.get()
    assert (revision.source, revision.changed_by) == (HandRevision.Source.DIRECTOR, people["ann"])
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (122, 120)  # NS bid 6 took 7: 61 a hand; EW 60
    page = client.get(_urls(game)[0] + "?after=2-1")
    rows = page.context["rows"]
    assert [(r.number, r.state, r.totals) for r in rows] == [(1, "entered", (61, 60)), (2, "entered", (122, 120)),
                                                             (3, "new", None)]  # fmt: skip
    assert rows[2].boxes[0].focus and rows[2].boxes[0].column.name == "north_bid"
    assert not Keying.objects.exists()  # one keying is enough: nothing kept beside the hand


def test_to_the_pages_script_the_grid_comes_back_with_the_cursor_in_the_next_row(client, people, game):
    answer = _key(client, people["ann"], game, typed(1), htmx=True)
    page = _text(answer)
    assert answer.status_code == 200 and 'id="keying-sheet"' in page
    assert "<h1>" not in page and "Saved hand 1." in page
    focused = page[: page.index("autofocus")]
    assert focused.rindex('name="north_bid"') > focused.rindex('id="row-2-1"')


@pytest.mark.parametrize(
    ("preset", "bids", "tricks", "stored", "totals"),
    [("progressive-500", "n 3 4 4", "0 4 6 3", ("nil", "3", "4", "4"), (142, 70)),  # nil 100, S 4 took 6: 42
     ("progressive-500", "NIL 3 4 4", "0 4 6 3", ("nil", "3", "4", "4"), (142, 70)),
     ("progressive", "3 3 3 3", "4 3 3 3", ("3", "3", "3", "3"), (61, 60))],
)  # fmt: skip
def test_a_bid_typed_as_a_letter_is_the_bid_it_stands_for(client, director, preset, bids, tricks, stored, totals):
    tournament = make_tournament(couples=4, preset=preset)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    assert _key(client, director, game, typed(1, bids, tricks)).status_code == 302
    hand = game.hands.get()
    assert (hand.north_bid, hand.east_bid, hand.south_bid, hand.west_bid) == stored
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == totals


@pytest.mark.parametrize(
    ("row", "error", "wrong"),
    [(typed(1, tricks="4 3 4 3"), "The tricks add up to 14; they must make 13.",
      {"north_tricks", "east_tricks", "south_tricks", "west_tricks"}),
     (typed(1, bids="x 3 3 3"), "North: not a bid. These rules allow bids of 0 to 13.", {"north_bid"}),
     (typed(1, bids="n 3 3 3"), "North: not a bid. These rules allow bids of 0 to 13.", {"north_bid"}),
     (typed(1, tricks="4 3 3 14"), "West: tricks are a whole number from 0 to 13.", {"west_tricks"}),
     (typed(1, tricks="4 3 3 -"), "West: tricks are a whole number from 0 to 13.", {"west_tricks"}),
     (typed(1) | {"west_tricks": ""}, "Enter West's number of tricks.", {"west_tricks"}),
     (typed(2), "Key the hands in order: the next to key is hand 1.", set())],
)  # fmt: skip
def test_a_wrong_row_is_refused_naming_the_field_and_the_rule(client, people, game, row, error, wrong):
    answer = _key(client, people["ann"], game, row)
    assert answer.status_code == 422
    assert f"Hand {row['number']}: {error}" in _text(answer)
    refused = next(r for r in answer.context["rows"] if r.errors)
    assert {box.column.name for box in refused.boxes if box.wrong} == wrong
    focused = next(box for box in refused.boxes if box.focus)
    assert focused.wrong or not wrong
    if refused.number == row["number"]:  # the row refused is kept as typed
        assert [box.value for box in refused.boxes[:4]] == [str(row.get(f"{s}_bid", "")) for s in SEATS]
    assert not Hand.objects.exists() and not Keying.objects.exists()


def test_the_columns_follow_the_rules_infractions(db):
    from scoring import PRESETS

    assert [c.heading for c in columns(PRESETS["progressive"].rules)][8:] == ["NS rn", "EW rn", "Misdeal"]
    friendly = [c.name for c in columns(PRESETS["friendly"].rules)][8:]
    assert friendly[:4] == ["north_reneges", "east_reneges", "south_reneges", "west_reneges"]
    assert friendly[4:8] == [f"{seat}_table_talk" for seat in SEATS] and friendly[8] == "misdeal"


def test_a_misdeal_keyed_deals_the_same_hand_again(client, people, game):
    _key(client, people["ann"], game, {"number": 1, "deal": 1, "misdeal": "no_spades"})
    page = client.get(_urls(game)[0])
    assert [(r.number, r.deal, r.state) for r in page.context["rows"]] == [(1, 1, "entered"), (1, 2, "new")]
    assert _key(client, people["ann"], game, typed(1, deal=2)).status_code == 302
    assert list(game.hands.values_list("number", "deal", "misdeal")) == [(1, 1, "no_spades"), (1, 2, "")]


@pytest.mark.parametrize("deal", [3, 40000])
def test_a_deal_beyond_the_next_is_refused_naming_it(client, people, game, twice, deal):
    _key(client, people["ann"], game, typed(1))
    answer = _key(client, people["bob"], game, typed(1, deal=deal))
    assert answer.status_code == 422
    assert "Key the deals of hand 1 in order: the next to key is deal 2." in _text(answer)
    assert list(Keying.objects.values_list("number", "deal", "status")) == [(1, 1, "waiting")]


def test_a_deal_after_a_misdeal_keyed_once_may_be_keyed(client, people, game, twice):
    _key(client, people["ann"], game, {"number": 1, "deal": 1, "misdeal": "no_spades"})
    assert _key(client, people["ann"], game, typed(1, deal=2)).status_code == 302
    assert list(Keying.objects.values_list("number", "deal")) == [(1, 1), (1, 2)]


@pytest.mark.parametrize("name", ["keying_hand", "keying_discard"])
def test_the_writes_answer_405_to_a_get(director_client, game, name):
    args = [game.round.tournament_id, game.pk] + ([1] if name == "keying_discard" else [])
    assert director_client.get(reverse(f"director:{name}", args=args)).status_code == 405
    assert director_client.post(_urls(game)[0]).status_code == 405


@pytest.mark.parametrize("name", ["keying", "keying_hand", "keying_discard"])
def test_another_clubs_director_or_a_missing_game_gets_404(client, django_user_model, people, game, name):
    stranger = django_user_model.objects.create_user("sam")
    create_club(name="Sam's club", owner=stranger)
    send = client.get if name == "keying" else client.post
    tail = [1] if name == "keying_discard" else []
    for user, game_id in ((stranger, game.pk), (people["ann"], 999999)):
        client.force_login(user)
        url = reverse(f"director:{name}", args=[game.round.tournament_id, game_id, *tail])
        assert send(url, typed(1)).status_code == 404
    assert not Hand.objects.exists()


def test_an_assistant_keys_sheets_too(client, people, game, twice):
    client.force_login(people["abe"])
    assert client.get(_urls(game)[0]).status_code == 200
    assert _key(client, people["abe"], game, typed(1)).status_code == 302
    assert _key(client, people["ann"], game, typed(1)).status_code == 302
    assert game.hands.get().revisions.get().changed_by == people["ann"]


# --- keyed twice ------------------------------------------------------------------------------------


def test_the_first_keying_waits_and_counts_for_nothing(client, people, game, twice):
    answer = _key(client, people["ann"], game, typed(1))
    assert answer.status_code == 302
    assert not game.hands.exists()
    keying = Keying.objects.get()
    assert (keying.status, keying.keyed_by, keying.values["north_tricks"]) == ("waiting", people["ann"], 4)
    mine = client.get(_urls(game)[0]).context["rows"]
    assert [(r.number, r.state, r.totals, r.counted) for r in mine] == [(1, "mine", (61, 60), False),
                                                                         (2, "new", None, True)]  # fmt: skip
    client.force_login(people["bob"])
    theirs = client.get(_urls(game)[0])
    assert [(r.number, r.state) for r in theirs.context["rows"]] == [(1, "key"), (2, "new")]
    assert "Keyed once by ann: key it again from the sheet." in _text(theirs)
    assert theirs.context["rows"][0].boxes[0].focus and not theirs.context["rows"][0].cells  # ann's values unseen
    assert services.waiting(game.keyings.all()) == services.Waiting(second=1, mismatches=0)


def test_the_same_person_keying_a_hand_twice_is_refused(client, people, game, twice):
    _key(client, people["ann"], game, typed(1))
    again = _key(client, people["ann"], game, typed(1))
    assert again.status_code == 422
    assert "Hand 1: You keyed hand 1 already: another person keys it the second time." in _text(again)
    assert Keying.objects.count() == 1 and not game.hands.exists()


def test_a_second_keying_alike_by_another_person_enters_the_hand(client, people, game, twice):
    _key(client, people["ann"], game, typed(1))
    answer = _key(client, people["bob"], game, typed(1), htmx=True)
    assert "Hand 1 matches its first keying and is entered." in _text(answer)
    hand = game.hands.get()
    assert hand.revisions.get().changed_by == people["bob"]
    assert set(Keying.objects.values_list("status", "hand")) == {("entered", hand.pk)}
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (61, 60)


def test_a_mismatch_is_flagged_does_not_count_and_shows_both_keyings(client, people, game, twice):
    _key(client, people["ann"], game, typed(1, tricks="4 3 3 3"))
    answer = _key(client, people["bob"], game, typed(1, tricks="5 2 3 3"))
    assert answer.status_code == 302 and not game.hands.exists()
    assert set(Keying.objects.values_list("status", flat=True)) == {"mismatch"}
    page = client.get(_urls(game)[0])
    row = page.context["rows"][0]
    assert row.state == "mismatch" and [line.who for line in row.lines] == ["ann", "bob"]
    differing = [[text for text, differs in line.cells if differs] for line in row.lines]
    assert differing == [["4", "3"], ["5", "2"]]  # North's and East's tricks
    assert page.content.decode().count('class="shown differs"') == 4
    told = " ".join(str(message) for message in page.context["messages"])
    assert "Hand 1 does not match its first keying: it is flagged as a mismatch" in told
    words = "Table 1, hand 1: its two keyings differ (North's tricks 4 or 5; East's tricks 3 or 2)."
    keyings = tuple(Keying.objects.order_by("id").values_list("pk", flat=True))
    mismatch = services.Mismatch(table=1, hand=1, game_id=game.pk, words=words, keyings=keyings)
    assert services.mismatches(game.round) == [mismatch]
    board = _text(client.get(reverse("director:round_board", args=[game.round.tournament_id, 1])))
    assert "0 hands waiting for a second keying" in board and "1 mismatch<" in board
    # Named once, among the round's flags, with a link to the sheet.
    assert board.count(words) == 1 and "Keying mismatch" in board
    assert [(f.flag.kind, f.flag.table, f.flag.hand) for f in round_flags(game.round).shown] == [("keying", 1, 1)]


def test_a_third_keying_agreeing_with_one_settles_the_mismatch(client, people, game, twice):
    _key(client, people["ann"], game, typed(1, tricks="4 3 3 3"))
    _key(client, people["bob"], game, typed(1, tricks="5 2 3 3"))
    neither = _key(client, people["cy"], game, typed(1, tricks="6 1 3 3"))
    assert neither.status_code == 422 and "agrees with neither keying before it" in _text(neither)
    own = _key(client, people["bob"], game, typed(1, tricks="5 2 3 3"))
    assert own.status_code == 422 and "These are the values you keyed for hand 1 before" in _text(own)
    assert _key(client, people["cy"], game, typed(1, tricks="5 2 3 3")).status_code == 302
    hand = game.hands.get()
    assert (hand.north_tricks, hand.east_tricks, hand.revisions.get().changed_by) == (5, 2, people["cy"])
    statuses = dict(Keying.objects.values_list("keyed_by__username", "status"))
    assert statuses == {"ann": "set_aside", "bob": "entered", "cy": "entered"}
    assert services.mismatches(game.round) == []
    assert not [f for f in round_flags(game.round).shown if f.flag.kind == "keying"]


def test_a_keyer_who_agrees_with_the_other_on_a_third_look_settles_it(client, people, game, twice):
    _key(client, people["ann"], game, typed(1, tricks="4 3 3 3"))
    _key(client, people["bob"], game, typed(1, tricks="5 2 3 3"))
    assert _key(client, people["ann"], game, typed(1, tricks="5 2 3 3")).status_code == 302
    assert game.hands.get().north_tricks == 5


def test_discarding_both_keyings_lets_the_hand_be_keyed_afresh(client, people, game, twice):
    _key(client, people["ann"], game, typed(1, tricks="4 3 3 3"))
    _key(client, people["bob"], game, typed(1, tricks="5 2 3 3"))
    url = reverse("director:keying_discard", args=[game.round.tournament_id, game.pk, 1])
    answer = client.post(url, {"deal": 1})
    assert answer.status_code == 302
    assert set(Keying.objects.values_list("status", flat=True)) == {"set_aside"}
    assert services.mismatches(game.round) == []
    nothing = client.post(url, {"deal": 1})
    assert nothing.status_code == 422 and "Hand 1 has no keyings waiting to discard." in _text(nothing)
    _key(client, people["bob"], game, typed(1))
    _key(client, people["ann"], game, typed(1))
    assert game.hands.count() == 1


def test_hands_keyed_alike_after_a_mismatch_wait_for_it_then_enter_with_it(client, people, game, twice):
    for number in (1, 2, 3):
        _key(client, people["ann"], game, typed(number))
    _key(client, people["bob"], game, typed(1, tricks="5 2 3 3"))  # a mismatch
    waiting = _text(_key(client, people["bob"], game, typed(2), htmx=True))
    assert "Hand 2 matches its first keying: it counts once hand 1 is entered." in waiting
    assert not game.hands.exists()
    settled = _text(_key(client, people["cy"], game, typed(1), htmx=True))
    assert (
        "Hand 1 matches its first keying and is entered. Hand 2, keyed alike twice before, is entered too." in settled
    )
    assert list(game.hands.values_list("number", flat=True)) == [1, 2]
    assert services.waiting(game.keyings.all()) == services.Waiting(second=1, mismatches=0)  # hand 3: ann's alone


def test_turning_double_keying_off_enters_the_next_keying_at_once(client, people, game, twice):
    _key(client, people["ann"], game, typed(1))
    Club.objects.update(double_keying=False)
    _key(client, people["ann"], game, typed(1))
    assert game.hands.count() == 1 and Keying.objects.get().status == "entered"


@pytest.mark.django_db(transaction=True)
def test_two_second_keyings_at_once_enter_the_hand_once(django_user_model, twice):
    tournament = make_tournament(couples=4)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    users = [django_user_model.objects.create_user(name) for name in ("ann", "bob", "cy")]
    for user in users:
        grant(club=a_club(), user=user, role=ClubMember.Role.DIRECTOR)
    from scoring import HandEntry
    from tests.conftest import even_hand

    entry = HandEntry.from_fields(even_hand())
    services.key_hand(game=game, number=1, deal=1, entry=entry, by=users[0])
    start, outcomes = threading.Barrier(2), []

    def second(user):
        start.wait()
        try:
            outcomes.append(services.key_hand(game=game, number=1, deal=1, entry=entry, by=user).said)
        except ValidationError as refused:
            outcomes.append(" ".join(refused.messages))
        finally:
            connection.close()

    threads = [threading.Thread(target=second, args=(user,)) for user in users[1:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert game.hands.count() == 1 and game.hands.get().revisions.count() == 1
    assert sorted(outcomes) == [
        "Hand 1 is entered already: correct it on the table's page if the sheet says otherwise.",
        "Hand 1 matches its first keying and is entered.",
    ]


# --- where keying is reached, and the club's choice ---------------------------------------------------


def test_the_game_page_and_the_round_board_lead_to_the_keying_page(director_client, game):
    url = _urls(game)[0]
    assert (
        url in director_client.get(reverse("director:game", args=[game.round.tournament_id, game.pk])).content.decode()
    )
    board = director_client.get(reverse("director:round_board", args=[game.round.tournament_id, 1])).content.decode()
    assert f'<a href="{url}">table 1</a>' in board and "mismatch" not in board


def test_the_owner_turns_double_keying_on_and_off_in_the_clubs_settings(client, django_user_model):
    owner = django_user_model.objects.create_user("olive")
    club = create_club(name="Riverside", owner=owner)
    client.force_login(owner)
    url = reverse("director:club", args=[club.pk])
    settings = {"name": "Riverside", "time_zone": "UTC", "currency": "$"}
    assert 'name="double_keying"' in client.get(url).content.decode()
    assert client.post(url, settings | {"double_keying": "on"}).status_code == 302
    club.refresh_from_db()
    assert club.double_keying
    assert client.get(url).context["settings_form"]["double_keying"].value() is True
    client.post(url, settings)
    club.refresh_from_db()
    assert not club.double_keying


# --- a hand entered another way meanwhile (the table's phone, the game page) ------------------------


def _enter_elsewhere(game, number: int, ns_tricks: int = 7):
    """Hand ``number`` entered as the table's phone does, knowing nothing of keyings."""
    from scoring import HandEntry
    from tests.conftest import even_hand
    from tournament.play.hands import enter_hand

    entry = HandEntry.from_fields(even_hand(ns_tricks))
    enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE)


def _keyings() -> list[tuple[int, str, str]]:
    return sorted(Keying.objects.values_list("number", "keyed_by__username", "status"))


@pytest.fixture
def agreed_behind_a_keyed_hand(client, people, game, twice):
    """Ann keyed hand 1; Ann and Bob keyed hand 2 alike (it waits for hand 1); then the table's
    phone entered hand 1 with North 5 tricks and East 2 (Ann keyed 4 and 3)."""
    _key(client, people["ann"], game, typed(1))
    _key(client, people["ann"], game, typed(2))
    _key(client, people["bob"], game, typed(2))
    assert _keyings() == [(1, "ann", "waiting"), (2, "ann", "agreed"), (2, "bob", "agreed")]
    _enter_elsewhere(game, 1, ns_tricks=8)
    game.refresh_from_db()


def test_opening_the_sheet_sets_aside_keyings_of_a_hand_entered_elsewhere_and_enters_the_agreed_next(
    client, people, game, agreed_behind_a_keyed_hand
):
    client.force_login(people["ann"])
    page = client.get(_urls(game)[0])
    assert page.status_code == 200
    # NS 8 tricks on 6 bid: 62, EW 5 on 6: -60; then hand 2, 7 on 6 and 6 on 6: 61 and 60.
    rows = [(r.number, r.state, r.totals) for r in page.context["rows"]]
    assert rows == [(1, "entered", (62, -60)), (2, "entered", (123, 0)), (3, "new", None)]
    text = _text(page)
    assert (
        "Hand 1 was entered at the table or on the game page meanwhile: its keyings are set aside. "
        "Hand 2, keyed alike twice before, is entered too." in text
    )
    assert "Keyed otherwise by ann (North's tricks 4; East's tricks 3) before it was entered: check the sheet." in text
    assert _keyings() == [(1, "ann", "set_aside"), (2, "ann", "entered"), (2, "bob", "entered")]
    assert game.hands.get(number=2).revisions.get().changed_by == people["bob"]
    assert services.waiting(game.keyings.all()) == services.Waiting(second=0, mismatches=0)
    again = client.get(_urls(game)[0])  # caught up: nothing more to say or write
    assert "meanwhile" not in _text(again) and game.hands.count() == 2


def test_before_anyone_catches_up_the_grid_and_the_board_count_the_stored_hand_once(
    client, people, game, agreed_behind_a_keyed_hand
):
    from tournament.keying.sheet import keying_sheet

    rows = [(r.number, r.state, r.totals) for r in keying_sheet(game, people["ann"])]
    assert rows == [(1, "entered", (62, -60)), (2, "agreed", (123, 0)), (3, "new", None)]
    assert services.waiting(game.keyings.all()) == services.Waiting(second=0, mismatches=0)
    board = _text(client.get(reverse("director:round_board", args=[game.round.tournament_id, 1])))
    assert "hand waiting" not in board


def test_the_next_keying_catches_up_first_and_says_so(client, people, game, agreed_behind_a_keyed_hand):
    answer = _key(client, people["ann"], game, typed(3), htmx=True)
    assert answer.status_code == 200
    text = _text(answer)
    assert "Hand 3 is keyed once: it counts when another person keys the same." in text
    assert "Hand 1 was entered at the table or on the game page meanwhile: its keyings are set aside." in text
    assert list(game.hands.values_list("number", flat=True)) == [1, 2]
    assert _keyings() == [(1, "ann", "set_aside"), (2, "ann", "entered"), (2, "bob", "entered"), (3, "ann", "waiting")]


def test_keying_an_agreed_hand_again_after_the_one_before_was_entered_elsewhere_is_told_it_is_in(
    client, people, game, agreed_behind_a_keyed_hand
):
    answer = _key(client, people["cy"], game, typed(2))
    assert answer.status_code == 422
    assert "Hand 2 is entered already" in _text(answer) and "counts once the hands before it" not in _text(answer)
    assert game.hands.count() == 2  # entered by the catching up, which stands though the keying was refused


def test_keyed_once_then_entered_elsewhere_with_the_same_values_says_nothing_on_its_row(client, people, game):
    Club.objects.filter(pk=a_club().pk).update(double_keying=True)
    _key(client, people["ann"], game, typed(1))
    Club.objects.update(double_keying=False)  # the club keys once from now on
    _enter_elsewhere(game, 1)
    assert _key(client, people["ann"], game, typed(2)).status_code == 302
    assert list(game.hands.values_list("number", flat=True)) == [1, 2]
    assert _keyings() == [(1, "ann", "set_aside")]  # not waiting for ever
    assert services.waiting(game.keyings.all()) == services.Waiting(second=0, mismatches=0)
    assert [r.note for r in client.get(_urls(game)[0]).context["rows"][:2]] == ["", ""]


def test_a_hand_entered_elsewhere_while_keying_once_is_refused_by_number_and_the_next_is_entered(client, people, game):
    _key(client, people["ann"], game, typed(1))
    _enter_elsewhere(game, 2)
    refused = _key(client, people["ann"], game, typed(2))
    assert refused.status_code == 422 and "Hand 2 is entered already" in _text(refused)
    assert _key(client, people["ann"], game, typed(3)).status_code == 302
    assert list(game.hands.values_list("number", flat=True)) == [1, 2, 3]


def test_the_infractions_heading_spans_the_rules_infraction_columns(director_client, game):
    page = director_client.get(_urls(game)[0])
    assert page.context["infractions"] == 2  # NS and EW reneges under the tests' progressive rules
    assert '<th colspan="2">Infractions</th>' in page.content.decode()
