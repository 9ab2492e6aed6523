"""Results checked before they go up: each kind of flag found from plain values, a round's flags
read from the database, the director's "checked", the phone's own time of entry, the close's
record of phones still holding hands, and the club's setting."""

import datetime
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring import HandEntry
from tests.conftest import a_club, even_hand, finish_game, make_tournament
from tests.events import correct_hand
from tournament.clubs.services import create_club, grant
from tournament.models import ClubMember, Game, Hand, HandRevision, Round, Table
from tournament.play.hands import enter_hand
from tournament.play.rounds import close_round
from tournament.review.detect import (
    CloseReport,
    GameFacts,
    HandFacts,
    KeyedApart,
    LateChange,
    detect,
    margin_threshold,
)
from tournament.review.flags import round_flags
from tournament.review.models import FlagCheck, PhoneAtClose
from tournament.review.services import mark_checked

ROOT = Path(__file__).resolve().parent.parent
T0 = datetime.datetime(2026, 11, 27, 20, 0, tzinfo=datetime.UTC)


# --- detect.py: plain values in, flags out ------------------------------------------------------


def _hand(number, *, points=(61, -60), keyed=None, misdeal=False, version=1):
    return HandFacts(id=100 + number, number=number, deal=1, version=version, misdeal=misdeal,
                     keyed_at=None if keyed is None else T0 + datetime.timedelta(seconds=keyed),
                     points=None if misdeal else points)  # fmt: skip


def _game(*hands, stored=((244, -240), (4, 0)), replayed=((244, -240), (4, 0)), finished=True, error=""):
    return GameFacts(id=7, table=4, finished=finished, stored_scores=stored[0], stored_bags=stored[1],
                     replayed_scores=replayed[0] if replayed else None, replayed_bags=replayed[1] if replayed else None,
                     hands=tuple(hands) or (_hand(1), _hand(2), _hand(3), _hand(4)), replay_error=error)  # fmt: skip


CLEAN = _game()


@pytest.mark.parametrize(
    ("case", "kind", "words"),
    [
        (_game(stored=((254, -240), (4, 0))), "total",
         "Table 4, after hand 4: North–South's stored total is 254 but its hands add up to 244."),
        (_game(replayed=None, error="hand 2: bids must be 0–13"), "total",
         "Table 4, after hand 4: its hands do not replay (hand 2: bids must be 0–13), "
         "so its stored total cannot be checked."),
        (_game(stored=((244, -240), (4, 9))), "bags",
         "Table 4, after hand 4: East–West's stored bags are 9 but its hands leave 0."),
        (_game(_hand(1, keyed=0), _hand(2, keyed=35)), "quick",
         "Table 4, hand 2: entered on the phone 35 seconds after hand 1."),
        (_game(_hand(1), _hand(2, points=(-320, 40))), "big",
         "Table 4, hand 2: worth −320 points to North–South (more than 300 either way)."),
        (_game(_hand(1), _hand(2, points=(40, 301))), "big",
         "Table 4, hand 2: worth +301 points to East–West (more than 300 either way)."),
    ],
)  # fmt: skip
def test_each_kind_of_flag_names_the_table_and_hand_in_words(case, kind, words):
    (flag,) = detect(games=[case])
    assert (flag.kind, flag.table, flag.words, flag.game) == (kind, 4, words, 7)


@pytest.mark.parametrize(
    ("case", "why"),
    [
        (_game(_hand(1, keyed=0), _hand(2, keyed=60)), "a minute apart is not quick"),
        (_game(_hand(1), _hand(2, keyed=5)), "the hand before was keyed at the desk"),
        (_game(_hand(1, keyed=0), _hand(2, keyed=None)), "a desk entry is exempt"),
        (_game(_hand(1, keyed=0), _hand(2, keyed=10, misdeal=True)), "a misdeal is found as the deal fails"),
        (_game(_hand(1, keyed=90), _hand(2, keyed=30)), "a phone clock set back is not compared"),
        (_game(_hand(1, points=(300, -300))), "300 is not more than 300"),
    ],
)  # fmt: skip
def test_what_is_not_flagged(case, why):
    assert detect(games=[case]) == (), why


def test_a_quick_hand_after_a_misdeal_is_measured_from_the_hand_scored_before_it():
    game = _game(_hand(1, keyed=0), _hand(2, keyed=20, misdeal=True), _hand(3, keyed=50))
    (flag,) = detect(games=[game])
    assert flag.words == "Table 4, hand 3: entered on the phone 50 seconds after hand 1."


def test_a_change_after_the_close_and_a_phone_still_waiting_are_flagged():
    change = LateChange(revision=55, game=7, table=2, hand=3, deal=1, by_table=False,
                        at=datetime.datetime(2026, 11, 27, 21, 14))  # fmt: skip
    reports = [CloseReport(table_id=31, table=5, waiting=2), CloseReport(table_id=32, table=6, waiting=0)]
    changed, waiting = detect(games=[CLEAN], late_changes=[change], reports=reports)
    assert (changed.kind, changed.key, changed.words) == (
        "changed",
        "changed:r55",
        "Table 2, hand 3: changed at the desk at 21:14, after the round closed.",
    )
    said = detect(games=[CLEAN], late_changes=[replace(change, by_table=True, what="North's tricks 4 → 5")])[0].words
    assert said == "Table 2, hand 3: changed at the table at 21:14, after the round closed (North's tricks 4 → 5)."
    assert (waiting.kind, waiting.game, waiting.words) == (
        "waiting",
        None,
        "Table 5: its phone still had 2 hands waiting to be sent when the round closed.",
    )


def test_a_paper_sheets_keyings_that_differ_are_flagged_and_a_new_keying_is_a_new_flag():
    words = "Table 3, hand 2: its two keyings differ (North's tricks 4 or 5)."
    (flag,) = detect(games=[CLEAN], keyed_apart=[KeyedApart(game=9, table=3, hand=2, words=words, keyings=(11, 12))])
    assert (flag.kind, flag.title, flag.table, flag.hand, flag.game, flag.words) == (
        "keying", "Keying mismatch", 3, 2, 9, words,
    )  # fmt: skip
    (again,) = detect(games=[CLEAN], keyed_apart=[KeyedApart(game=9, table=3, hand=2, words=words, keyings=(11, 13))])
    assert again.key != flag.key


@pytest.mark.parametrize(
    ("margins", "threshold"),
    [(list(range(1, 100)), None), (list(range(1, 101)), 99), (list(range(1, 201)), 198), ([50] * 150, 50)],
)
def test_the_99th_percentile_needs_a_hundred_games(margins, threshold):
    assert margin_threshold(margins) == threshold


def test_a_game_won_by_more_than_99_in_100_of_the_clubs_games_is_flagged_once_finished():
    margins = list(range(1, 101))  # the threshold is 99
    wide = _game(stored=((350, 250), (0, 0)), replayed=((350, 250), (0, 0)))
    (flag,) = detect(games=[wide], club_margins=margins)
    assert flag.words == (
        "Table 4: the game was won by 100 points; 99 in 100 of the club's earlier games were won by 99 or less."
    )
    assert detect(games=[_game(stored=((349, 250), (0, 0)), replayed=((349, 250), (0, 0)))], club_margins=margins) == ()
    unfinished = _game(stored=((350, 250), (0, 0)), replayed=((350, 250), (0, 0)), finished=False)
    assert detect(games=[unfinished], club_margins=margins) == ()
    assert detect(games=[wide], club_margins=margins[:99]) == ()


def test_a_flags_key_changes_with_what_it_found():
    first = detect(games=[_game(stored=((254, -240), (4, 0)))])[0].key
    again = detect(games=[_game(stored=((254, -240), (4, 0)))])[0].key
    other = detect(games=[_game(stored=((264, -240), (4, 0)))])[0].key
    corrected = detect(games=[_game(_hand(1, points=(-320, 40), version=2))])[0].key
    assert first == again != other
    assert corrected != detect(games=[_game(_hand(1, points=(-320, 40)))])[0].key


def test_the_detection_imports_no_django():
    code = ("import sys, tournament.review.detect; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)")  # fmt: skip
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


# --- a round's flags, read from the database ------------------------------------------------------


@pytest.fixture
def closed(finished_round) -> Round:
    close_round(round_=finished_round)
    finished_round.refresh_from_db()
    return finished_round


def _kinds(round_: Round) -> list[tuple[str, int, int | None]]:
    return [(s.flag.kind, s.flag.table, s.flag.hand) for s in round_flags(round_).shown]


@pytest.mark.django_db
def test_a_clean_round_has_no_flags(closed):
    assert round_flags(closed).shown == () and round_flags(closed).all_checked


@pytest.mark.django_db
def test_a_wrong_stored_total_and_bags_are_flagged_and_go_once_fixed(closed):
    game = closed.games.get(table__number=2)
    Game.objects.filter(pk=game.pk).update(ns_score=game.ns_score + 10, ew_bags=game.ew_bags + 3)
    assert _kinds(closed) == [("total", 2, 4), ("bags", 2, 4)]
    Game.objects.get(pk=game.pk).rescore()
    assert _kinds(closed) == []


@pytest.mark.django_db
def test_phone_times_less_than_a_minute_apart_are_flagged(running_round):
    game = running_round.games.get(table__number=3)
    finish_game(game)
    for number, seconds in ((1, 0), (2, 300), (3, 340), (4, 700)):
        Hand.objects.filter(game=game, number=number).update(keyed_at=T0 + datetime.timedelta(seconds=seconds))
    (shown,) = round_flags(running_round).shown
    assert shown.flag.words == "Table 3, hand 3: entered on the phone 40 seconds after hand 2."


@pytest.mark.django_db
def test_a_change_after_the_close_is_flagged_and_stays_until_checked(closed):
    game = closed.games.get(table__number=1)
    correct_hand(game=game, number=2, entry=HandEntry.from_fields(even_hand(8)), expected_version=1)
    correct_hand(game=game, number=2, entry=HandEntry.from_fields(even_hand(7)), expected_version=2)
    assert _kinds(closed) == [("changed", 1, 2), ("changed", 1, 2)]  # the game is as it was: the record stays
    said = [shown.flag.words.split("closed")[1] for shown in round_flags(closed).shown]
    assert said == [" (North's tricks 4 → 5; East's tricks 3 → 2).", " (North's tricks 5 → 4; East's tricks 2 → 3)."]
    for shown in round_flags(closed).shown:
        mark_checked(round_=closed, key=shown.flag.key, note="NS miscounted, then put it back")
    assert round_flags(closed).all_checked and len(round_flags(closed).shown) == 2


@pytest.mark.django_db
def test_the_close_keeps_what_each_phone_still_held(finished_round):
    Table.objects.filter(tournament=finished_round.tournament, number=3).update(phone_waiting=2)
    close_round(round_=finished_round)
    finished_round.refresh_from_db()
    reports = dict(PhoneAtClose.objects.filter(round=finished_round).values_list("table__number", "waiting"))
    assert reports == {1: 0, 2: 0, 3: 2, 4: 0}
    Table.objects.filter(number=3).update(phone_waiting=0)  # the phone sent them since: the record stays
    assert _kinds(finished_round) == [("waiting", 3, None)]


@pytest.mark.django_db
def test_a_hand_worth_more_than_300_is_flagged():
    tournament = make_tournament(preset="progressive-500", couples=4)
    from tournament.play.rounds import start_play, start_round

    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    set_ = {"north_bid": "3", "north_tricks": 2, "south_bid": "3", "south_tricks": 1,
            "east_bid": "3", "east_tricks": 5, "west_bid": "3", "west_tricks": 5}  # fmt: skip
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(set_), source=HandRevision.Source.TABLE)
    blind = {"north_bid": "blind_nil", "north_tricks": 0, "south_bid": "12", "south_tricks": 13,
             "east_bid": "1", "east_tricks": 0, "west_bid": "1", "west_tricks": 0}  # fmt: skip
    enter_hand(game=game, number=2, entry=HandEntry.from_fields(blind), source=HandRevision.Source.TABLE)
    (shown,) = round_flags(round_).shown
    assert shown.flag.words == "Table 1, hand 2: worth +321 points to North–South (more than 300 either way)."


@pytest.mark.django_db
def test_a_margin_is_measured_against_the_clubs_earlier_closed_games(closed):
    other = make_tournament(couples=2, name="Last month")
    earlier = Round.objects.create(tournament=other, number=1, status=Round.Status.CLOSED,
                                   closed_at=closed.closed_at - datetime.timedelta(days=30))  # fmt: skip
    tables = Table.objects.bulk_create([Table(tournament=other, number=n) for n in range(1, 101)])
    # Margins 0 to 3, 25 games each: the 99th percentile is 3.
    Game.objects.bulk_create([Game(round=earlier, table=t, status=Game.Status.FINISHED, ns_score=100 + t.number % 4,
                                   ew_score=100) for t in tables])  # fmt: skip
    assert _kinds(closed) == [("margin", n, None) for n in (1, 2, 3, 4)]  # each won 244 to 240
    Round.objects.filter(pk=earlier.pk).update(closed_at=closed.closed_at + datetime.timedelta(minutes=1))
    assert _kinds(closed) == []  # games closed after this round do not count


@pytest.mark.django_db
def test_a_rounds_flags_take_the_same_queries_however_many_tables(django_assert_max_num_queries):
    def queries(couples: int) -> int:
        tournament = make_tournament(couples=couples, name=f"{couples} couples")
        from tournament.play.rounds import start_play, start_round

        round_ = start_play(tournament=tournament)
        start_round(round_=round_)
        for game in round_.games.all():
            finish_game(game)
        close_round(round_=round_)
        round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
        with CaptureQueriesContext(connection) as captured:
            round_flags(round_)
        return len(captured)

    assert queries(4) == queries(16) <= 7


# --- marking a flag checked ------------------------------------------------------------------------


@pytest.fixture
def flagged(closed) -> tuple[Round, str]:
    game = closed.games.get(table__number=2)
    Game.objects.filter(pk=game.pk).update(ns_score=game.ns_score + 10)
    return closed, round_flags(closed).shown[0].flag.key


def _check_url(round_: Round, number: int | None = None) -> str:
    return reverse("director:flag_check", args=[round_.tournament_id, number or round_.number])


@pytest.mark.django_db
def test_a_director_marks_a_flag_checked_with_a_note(director_client, director, flagged):
    round_, key = flagged
    response = director_client.post(_check_url(round_), {"key": key, "note": "Sheet says 254"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    check = FlagCheck.objects.get(round=round_, key=key)
    assert (check.note, check.checked_by) == ("Sheet says 254", director)
    html = response.content.decode()
    assert "all checked" in html and "Checked by dee" in html and "“Sheet says 254”" in html


@pytest.mark.django_db
def test_a_plain_form_is_answered_with_the_rounds_page(director_client, flagged):
    round_, key = flagged
    response = director_client.post(_check_url(round_), {"key": key})
    assert response.status_code == 302
    assert (
        response["Location"] == reverse("director:round", args=[round_.tournament_id, round_.number]) + "#review-flags"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "words"),
    [({}, "Say which flag is checked."), ({"key": "total:g999:NS:1:2"}, "That flag is no longer raised"),
     ({"key": "x", "note": "n" * 301}, "Note: keep it to 300 characters.")],
)  # fmt: skip
def test_a_bad_check_is_refused_saying_why(director_client, flagged, data, words):
    round_, _ = flagged
    response = director_client.post(_check_url(round_), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert words in response.content.decode()
    assert not FlagCheck.objects.exists()


@pytest.mark.django_db
def test_checking_answers_405_to_get_and_404_to_a_missing_round(director_client, flagged):
    round_, key = flagged
    assert director_client.get(_check_url(round_)).status_code == 405
    assert director_client.post(_check_url(round_, 9), {"key": key}).status_code == 404


@pytest.mark.django_db
def test_another_clubs_director_gets_404_and_an_assistant_may_check(client, django_user_model, flagged):
    round_, key = flagged
    stranger = django_user_model.objects.create_user("bea")
    create_club(name="Club B", owner=stranger)
    client.force_login(stranger)
    assert client.post(_check_url(round_), {"key": key}).status_code == 404
    helper = django_user_model.objects.create_user("hank")
    grant(club=a_club(), user=helper, role=ClubMember.Role.ASSISTANT)
    client.force_login(helper)
    assert client.post(_check_url(round_), {"key": key}, HTTP_HX_REQUEST="true").status_code == 200
    assert FlagCheck.objects.get().checked_by == helper


@pytest.mark.django_db
def test_the_board_lists_the_flags_with_a_link_to_fix_each(director_client, flagged):
    round_, _ = flagged
    game = round_.games.get(table__number=2)
    html = director_client.get(reverse("director:round", args=[round_.tournament_id, round_.number])).content.decode()
    assert "Table 2, after hand 4: North–South&#x27;s stored total is 254 but its hands add up to 244." in html
    assert f'href="{reverse("director:game", args=[round_.tournament_id, game.pk])}?hand=4"' in html
    assert "1 to check" in html


@pytest.mark.django_db
def test_a_checked_flag_stays_checked_and_a_new_finding_is_a_new_flag(flagged):
    round_, key = flagged
    mark_checked(round_=round_, key=key)
    assert round_flags(round_).all_checked
    Game.objects.filter(pk=round_.games.get(table__number=2).pk).update(ns_score=0)
    assert round_flags(round_).unchecked == 1


# --- the phone's own time of entry -----------------------------------------------------------------


def _post_hand(client, game: Game, number: int, **extra):
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    return client.post(url, {"number": number, **even_hand(7), **extra}, HTTP_HX_REQUEST="true")


@pytest.mark.django_db
def test_the_phone_sends_when_the_hand_was_entered_and_the_hand_keeps_it(client, running_round):
    game = running_round.games.get(table__number=1)
    entered = timezone.now() - datetime.timedelta(minutes=20)  # it waited on an offline phone
    assert _post_hand(client, game, 1, keyed_at=int(entered.timestamp() * 1000)).status_code == 200
    assert game.hands.get().keyed_at == entered.replace(microsecond=entered.microsecond // 1000 * 1000)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "value", ["", "soon", "-5", "99999999999999999999", str(int((T0.timestamp() - 3 * 86400) * 1000))]
)
def test_a_nonsense_phone_time_stores_the_hand_without_one(client, running_round, value):
    game = running_round.games.get(table__number=1)
    assert _post_hand(client, game, 1, keyed_at=value).status_code == 200
    assert game.hands.get().keyed_at is None


@pytest.mark.django_db
def test_a_desk_entry_and_a_correction_leave_the_phone_time_alone(director_client, running_round):
    game = running_round.games.get(table__number=1)
    url = reverse("director:game_hand", args=[running_round.tournament_id, game.pk])
    now_ms = int(timezone.now().timestamp() * 1000)
    director_client.post(url, {"number": 1, **even_hand(7), "keyed_at": now_ms})
    assert game.hands.get().keyed_at is None
    _post_hand(director_client, game, 2, keyed_at=now_ms)
    kept = game.hands.get(number=2).keyed_at
    _post_hand(director_client, game, 2, version=1, keyed_at=now_ms + 90_000)
    assert game.hands.get(number=2).version == 2 and game.hands.get(number=2).keyed_at == kept


# --- the club's setting ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_owner_turns_on_publishing_checked_rounds_only(client, django_user_model, tournament):
    owner = django_user_model.objects.create_user("olive")
    club = create_club(name="Riverside", owner=owner)
    other = make_tournament(couples=2, club=club)
    before = other.changed_at
    client.force_login(owner)
    data = {"name": "Riverside", "time_zone": "UTC", "currency": "$", "publish_checked_only": "on"}
    assert client.post(reverse("director:club", args=[club.pk]), data).status_code == 302
    club.refresh_from_db()
    other.refresh_from_db()
    assert club.publish_checked_only and other.changed_at > before  # its public pages are made again
    page = client.get(reverse("director:club", args=[club.pk]))
    assert page.context["settings_form"]["publish_checked_only"].value() is True
    client.post(reverse("director:club", args=[club.pk]), {**data, "publish_checked_only": ""})
    club.refresh_from_db()
    assert not club.publish_checked_only


# --- the public pages when the club publishes checked rounds only ---------------------------------


def _publish_checked_only(tournament) -> None:
    from tournament.models import Club

    Club.objects.filter(pk=tournament.club_id).update(publish_checked_only=True)
    tournament.refresh_from_db()


def _round_points(client, tournament, url_name: str = "public:standings") -> str:
    return client.get(reverse(url_name, args=[tournament.pk])).content.decode()


@pytest.mark.django_db
def test_with_the_setting_off_every_round_shows_at_once(client, closed):
    html = _round_points(client, closed.tournament)
    assert ">R1<" in html and "244" in html and "being checked" not in html


@pytest.mark.django_db
def test_a_round_with_an_unchecked_flag_is_held_back_until_checked(client, flagged):
    round_, key = flagged
    tournament = round_.tournament
    from tournament.play.rounds import start_round

    start_round(round_=tournament.rounds.get(number=2))  # the projector shows standings, not seats
    _publish_checked_only(tournament)
    for name in ("public:standings", "public:projector"):
        html = _round_points(client, tournament, name)
        assert "Round 1&#x27;s results are being checked" in html, name
        assert "244" not in html and ">R1<" not in html, name
    mark_checked(round_=round_, key=key)
    for name in ("public:standings", "public:projector"):
        html = _round_points(client, tournament, name)
        assert "Round 2 is being played" in html and "244" in html, name


@pytest.mark.django_db
def test_a_round_being_played_waits_and_the_director_sees_everything(client, director_client, running_round):
    tournament = running_round.tournament
    finish_game(running_round.games.get(table__number=1))
    _publish_checked_only(tournament)
    html = _round_points(client, tournament)
    assert "Round 1 is being played: its results show here once they are checked." in html and "244" not in html
    director = director_client.get(reverse("director:standings", args=[tournament.pk])).content.decode()
    assert "244" in director and "being played" not in director


@pytest.mark.django_db
def test_later_rounds_wait_behind_an_unchecked_one(client, flagged):
    round_, key = flagged
    tournament = round_.tournament
    second = tournament.rounds.get(number=2)
    from tournament.play.rounds import start_round

    start_round(round_=second)
    for game in second.games.all():
        finish_game(game)
    close_round(round_=second)
    _publish_checked_only(tournament)
    assert "Round 1&#x27;s results are being checked" in _round_points(client, tournament)
    mark_checked(round_=round_, key=key)
    html = _round_points(client, tournament)
    assert "being checked" not in html and ">R2<" in html and "488" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "pages", "called"),
    [("swiss", ("public:swiss", "public:swiss_projector"), "Round"),
     ("league", ("public:league", "public:league_projector"), "Night")],
)  # fmt: skip
def test_a_swiss_or_league_public_page_holds_an_unchecked_round_too(client, director, kind, pages, called):
    from tests.events import league_in_season, swiss_under_way
    from tournament.formats.registry import format_of

    tournament = swiss_under_way() if kind == "swiss" else league_in_season()
    first = tournament.rounds.get(number=1)
    current = tournament.rounds.get(number=2)
    client.force_login(director)  # the format's own page runs the round, with its flags under the board
    run = client.get(format_of(tournament).play_url(tournament, current)).content.decode()
    assert 'id="review-flags"' in run and "Results checks" in run
    client.logout()
    for shown in round_flags(first).shown:  # whatever the random hands raised: checked
        mark_checked(round_=first, key=shown.flag.key)
    _publish_checked_only(tournament)
    for name in pages:
        response = client.get(reverse(name, args=[tournament.pk]))
        assert f"{called} 2 is being played" in response.content.decode(), name
        assert any(line.row.won for line in response.context["standings"].lines), name
    game = first.games.filter(status=Game.Status.FINISHED).first()
    Game.objects.filter(pk=game.pk).update(ns_score=game.ns_score + 10)
    for name in pages:
        response = client.get(reverse(name, args=[tournament.pk]))
        assert f"{called} 1&#x27;s results are being checked" in response.content.decode(), name
        assert not any(line.row.won for line in response.context["standings"].lines), name


@pytest.mark.django_db
def test_before_any_round_is_shown_the_public_pages_say_no_results_yet_instead_of_a_table(client, running_round):
    tournament = running_round.tournament
    _publish_checked_only(tournament)
    for name in ("public:standings", "public:projector"):
        html = _round_points(client, tournament, name)
        assert "Round 1 is being played" in html and "No results yet." in html, name
        assert 'class="grid standings"' not in html and 'class="projector-table"' not in html, name


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "pages"),
    [("swiss", ("public:swiss", "public:swiss_projector")), ("league", ("public:league", "public:league_projector"))],
)
def test_a_swiss_or_league_page_with_its_first_round_held_says_no_results_yet(client, kind, pages):
    from tests.events import league_in_season, swiss_under_way

    tournament = swiss_under_way() if kind == "swiss" else league_in_season()
    game = tournament.rounds.get(number=1).games.filter(status=Game.Status.FINISHED).first()
    Game.objects.filter(pk=game.pk).update(ns_score=game.ns_score + 10)  # a wrong stored total: a flag
    _publish_checked_only(tournament)
    for name in pages:
        html = _round_points(client, tournament, name)
        assert "results are being checked" in html and "No results yet." in html, name
        assert 'class="projector-table"' not in html and "standings league-table" not in html, name


@pytest.mark.django_db
def test_correcting_a_hand_of_a_closed_round_warns_before_the_form(director_client, closed):
    warning = "Round 1 is closed: a change here moves the standings and is flagged for checking."
    game = closed.games.get(table__number=1)
    page = director_client.get(reverse("director:game", args=[closed.tournament.pk, game.pk]) + "?hand=2")
    html = page.content.decode()
    assert warning in html and html.index(warning) < html.index('name="north_bid"')
    from tournament.play.rounds import start_round

    running = closed.tournament.rounds.get(number=2)
    start_round(round_=running)
    game = running.games.get(table__number=1)
    html = director_client.get(reverse("director:game", args=[closed.tournament.pk, game.pk])).content.decode()
    assert 'name="north_bid"' in html and "is closed: a change here" not in html


# --- where a closed round's flags are found -------------------------------------------------------


@pytest.mark.django_db
def test_the_dashboard_and_the_next_rounds_board_name_a_closed_round_with_flags_to_check(director_client, flagged):
    round_, key = flagged
    tournament = round_.tournament
    from tournament.play.rounds import start_round

    start_round(round_=tournament.rounds.get(number=2))
    board_1 = reverse("director:round", args=[tournament.pk, 1])
    dashboard = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    assert f'<a href="{board_1}#review-flags" class="bad">1 to check</a>' in dashboard
    board_2 = director_client.get(reverse("director:round", args=[tournament.pk, 2])).content.decode()
    assert f'Not checked yet: <a href="{board_1}#review-flags">Round 1, 1 to check</a>' in board_2
    mark_checked(round_=round_, key=key)
    dashboard = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    board_2 = director_client.get(reverse("director:round", args=[tournament.pk, 2])).content.decode()
    assert "to check</a>" not in dashboard and "Not checked yet" not in board_2


@pytest.mark.django_db
def test_the_dashboard_replays_the_rounds_once_per_change_of_the_event(director_client, settings, flagged, monkeypatch):
    from tournament.review import flags

    settings.SPADES_SNAPSHOT_SECONDS = 5
    round_, key = flagged
    replayed = []
    monkeypatch.setattr(flags, "round_flags", lambda r: replayed.append(r.number) or round_flags(r))
    url = reverse("director:dashboard", args=[round_.tournament_id])
    for _ in range(3):
        assert "1 to check</a>" in director_client.get(url).content.decode()
    assert replayed == [1]
    mark_checked(round_=round_, key=key)  # a write (it replays the round to know the flag): a new stamp
    assert "to check</a>" not in director_client.get(url).content.decode()
    assert replayed == [1, 1, 1]  # the count made again at once, not after the snapshot's seconds
