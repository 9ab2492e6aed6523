"""Races between requests (issue 22): real concurrent HTTP requests to a live server, each request
on a thread and a database connection of its own, as phones and a director make them.

Each test starts its requests together (a barrier) and repeats the race so that the windows
overlap, then asserts what a user cares about: no server error (a 503 "busy" is resent, as the
phone resends it; nothing else of 5xx), no "deadlock detected" in any answer or in the server's
log, and the data as a full replay makes it: every game's totals, status and winner as its stored
hands make them from scratch under the rules now in force, every match's result as its games make
it, and a knockout's bracket as a fresh resolve of its seeds and results.

Everything the tests do goes through the app's URLs; the app's own code is imported in one
section below, for reading the stored state, so that it is easy to repoint when modules move.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable
from functools import partial

import pytest

from tests.conftest import even_hand, repeats
from tests.live_http import Answer, Director, saves, together

# --- the app's code: stored state and what it should be (repoint here when modules move) -----------
from tournament.formats.knockout.bracket import Status as Slot
from tournament.formats.knockout.bracket import resolve
from tournament.formats.knockout.services import bracket_for
from tournament.matches.rules import winner_from_games
from tournament.models import Dispute, Game, Hand, Match, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def replayed(game: Game) -> tuple:
    """What ``game``'s stored hands make it, replayed from the first under the rules now in
    force: (NS score, EW score, NS bags, EW bags, hands played, status, winner)."""
    hands = list(game.hands.order_by("number", "deal"))
    replay = game.replay(hands)
    status, winner, _ = game.outcome(replay, hands)
    return (*replay.game.scores, *replay.game.bags, replay.game.hands_played, status, winner)


def numbered_as_dealt(deals: list) -> list[tuple[int, int]]:
    """(number, deal) of each of a game's ``deals`` in order, as they should be: 1, 2, 3…, a
    misdeal's hand dealt again under its number."""
    expected, number, deal = [], 1, 1
    for hand in deals:
        expected.append((number, deal))
        number, deal = (number, deal + 1) if hand.misdeal else (number + 1, 1)
    return expected


def stored(game: Game) -> tuple:
    return (game.ns_score, game.ew_score, game.ns_bags, game.ew_bags, game.hands_played, game.status, game.winner)


def match_made(match: Match, games: list[Game]) -> tuple[int, str] | None:
    """(winning team id, outcome) that ``games`` make ``match``, None while it goes on."""
    return winner_from_games(match, games)


def time_limit(match: Match) -> int | None:
    """The minutes a match's clock counts down under the rules now in force (a final's own)."""
    return match.rules.time_limit_minutes


def bracket_made(tournament: Tournament, results: dict[str, int]):
    """A fresh resolve of the tournament's seeds and ``results`` (match key to winning team id)."""
    seeds = list(tournament.teams.filter(seed__isnull=False).order_by("seed").values_list("pk", flat=True))
    return resolve(bracket_for(tournament, len(seeds)), seeds, results)


# --- the data against a full replay ----------------------------------------------------------------


def game_differences(tournament_id: int) -> list[str]:
    problems = []
    games = Game.objects.filter(round__tournament_id=tournament_id).select_related("round__tournament", "table")
    for game in games.order_by("round__number", "table__number", "match_game"):
        deals = list(game.hands.order_by("number", "deal"))
        where = f"round {game.round.number} table {game.table.number} game {game.match_game or 1}"
        if [(h.number, h.deal) for h in deals] != numbered_as_dealt(deals):
            problems.append(f"{where}: hands numbered {[(h.number, h.deal) for h in deals]}")
        if stored(game) != replayed(game):
            problems.append(f"{where}: stored {stored(game)}, its hands replayed make {replayed(game)}")
    return problems


def match_differences(tournament_id: int) -> list[str]:
    problems = []
    matches = list(Match.objects.filter(tournament_id=tournament_id).select_related("tournament", "clock"))
    orders = [m.finished_order for m in matches if m.finished_order is not None]
    if len(orders) != len(set(orders)):
        problems.append(f"finished order given twice: {sorted(orders)}")
    for match in matches:
        games = list(match.games.order_by("match_game"))
        if match.status in (Match.Status.WAITING, Match.Status.READY, Match.Status.BYE, Match.Status.NOT_NEEDED):
            if games:
                problems.append(f"{match.key} ({match.status}) has {len(games)} games")
            continue
        made = match_made(match, games)
        unfinished = [g.match_game for g in games if g.status != Game.Status.FINISHED]
        if match.status == Match.Status.FINISHED:
            if made != (match.winner_id, match.outcome):
                problems.append(f"{match.key}: won by {match.winner_id} ({match.outcome}), its games make {made}")
            continue
        if made is not None or len(unfinished) != 1 or match.table_id is None:
            problems.append(f"{match.key} playing: its games make {made}, unfinished games {unfinished}")
        limit, clock = time_limit(match), match.clock.minutes if match.clock else None
        if clock != limit or {g.clock_id for g in games if g.status != Game.Status.FINISHED} != {match.clock_id}:
            problems.append(f"{match.key} playing: its clock counts {clock} minutes, the rules' limit is {limit}")
    return problems


# A slot's state in a fresh resolve, and the statuses a stored match may have for it.
STATUSES = {
    Slot.WAITING: {Match.Status.WAITING},
    Slot.READY: {Match.Status.READY, Match.Status.PLAYING},
    Slot.DECIDED: {Match.Status.FINISHED},
    Slot.BYE: {Match.Status.BYE},
    Slot.NOT_NEEDED: {Match.Status.NOT_NEEDED},
}


def bracket_differences(tournament_id: int) -> list[str]:
    tournament = Tournament.objects.get(pk=tournament_id)
    matches = {m.key: m for m in tournament.matches.exclude(stage=Match.Stage.LEAGUE)}
    if not matches:
        return []
    results = {key: m.winner_id for key, m in matches.items() if m.status == Match.Status.FINISHED}
    state = bracket_made(tournament, results)
    problems = []
    for slot in state.matches:
        match = matches[slot.slot.key]
        if (match.home_id, match.away_id) != slot.teams or match.status not in STATUSES[slot.status]:
            problems.append(f"{match.key}: stored {match.home_id} v {match.away_id} {match.status}, "
                            f"a fresh resolve makes {slot.teams} {slot.status}")  # fmt: skip
    playing = [m for m in matches.values() if m.status == Match.Status.PLAYING]
    tables = [m.table_id for m in playing]
    if None in tables or len(set(tables)) != len(tables):
        problems.append(f"playing matches' tables: {tables}")
    waiting = [m.key for m in matches.values() if m.status == Match.Status.READY]
    if waiting and len(playing) < tournament.tables.count():
        problems.append(f"{waiting} wait for a table while a table is free")
    if state.finished != (tournament.status == Tournament.Status.FINISHED):
        problems.append(f"the bracket finished: {state.finished}; the tournament is {tournament.status}")
    return problems


def replay_differences(tournament_id: int) -> list[str]:
    """Where the stored data differs from what a full replay makes it (none: it is the same)."""
    return game_differences(tournament_id) + match_differences(tournament_id) + bracket_differences(tournament_id)


# --- what every race must leave: no server error, no deadlock -----------------------------------------


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def server_log():
    """The server's log records (warnings and errors) while the test runs: the request log and
    the app's do not propagate to the root, so the handler goes on each of them too."""
    kept = _Kept()
    loggers = [logging.getLogger(name) for name in ("", "django.request", "django.server", "tournament")]
    for logger in loggers:
        logger.addHandler(kept)
    yield kept.records
    for logger in loggers:
        logger.removeHandler(kept)


@pytest.fixture
def desk(live_server, director) -> tuple[Director, list[Answer]]:
    """The director's browser (logged in) and the list every browser of the test puts its answers in."""
    answers: list[Answer] = []
    return Director(live_server.url, director.username, "correct-horse-battery", answers), answers


def server_errors(answers: list[Answer], log: list[logging.LogRecord]) -> list[str]:
    """What breaks the first rule of every race, in a line ([] when nothing does): no 5xx but 503
    (the phone resends it), no "deadlock detected" in an answer or in the server's log."""
    errors = [a for a in answers if a.status >= 500 and a.status != 503]
    logged = [logging.Formatter().format(record) for record in log]
    deadlocks = [text for text in [a.text for a in answers] + logged if "deadlock detected" in text]
    if not errors and not deadlocks:
        return []
    causes = Counter(f"{_where(r.getMessage())} {type(r.exc_info[1]).__name__}: {str(r.exc_info[1]).splitlines()[0]}"
                     for r in log if r.exc_info)  # fmt: skip
    requests = Counter(f"{a.what.split()[0]} {a.status}" for a in answers if a.what not in ("page", "login"))
    return [f"{len(errors)} server errors and {len(deadlocks)} deadlocks in {sum(requests.values())} requests "
            f"({dict(requests)}); errors in the server's log: {dict(causes)}"]  # fmt: skip


def refused(answers: list[Answer], what: str, expected: Callable[[Answer], bool]) -> list[str]:
    """The answers to requests of kind ``what`` (below 500: those are server errors) not as ``expected``."""
    return [f"unexpected: {a}" for a in answers if a.what.startswith(what) and a.status < 500 and not expected(a)]


def assert_clean(problems: list[str]) -> None:
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:25])


def _where(message: str) -> str:
    """A logged request's path with its table link and numbers taken out: what kind of request it was."""
    return re.sub(r"\d+", "<n>", re.sub(r"/table/[\w-]+/", "/table/<link>/", message.split(": ", 1)[-1]))


# --- hands -------------------------------------------------------------------------------------------

# League-300: North–South bid 10 and make it (+120), East–West bid 4 and take 3 (set, −40): a game in 3.
DECISIVE = {"north_bid": "5", "north_tricks": 5, "south_bid": "5", "south_tricks": 5,
            "east_bid": "2", "east_tricks": 2, "west_bid": "2", "west_tricks": 1}  # fmt: skip
# League-300: each side bids 4 and takes 5 or 8 (+41, +44; bags cost 60 a 6): no game reaches 300 in 8 hands.
SMALL = {"north_bid": "2", "north_tricks": 2, "south_bid": "2", "south_tricks": 3,
         "east_bid": "2", "east_tricks": 4, "west_bid": "2", "west_tricks": 4}  # fmt: skip
KNOCKOUT = {"preset": "league-300", "format": "single_elimination", "seating_order": "registration"}
LEAGUE = {"preset": "league-300", "format": "round_robin"}
PROGRESSIVE = {"preset": "progressive", "format": "progressive_split", "seating_order": "registration"}


# --- the races ---------------------------------------------------------------------------------------


def test_eight_phones_saving_at_once_in_a_knockout_play_it_to_the_champion(desk, server_log):
    """Issue 22: 16 teams, 8 tables, each phone saving its table's next hand at the same moment;
    matches finish, the bracket moves on and new matches take the tables, to the final."""
    director, answers = desk
    tournament_id = director.new_event(teams=16, tables_available=8, **KNOCKOUT)
    phones = director.phones(tournament_id)
    assert len(phones) == 8
    for _ in range(60):
        sending = saves(phones, [phone.load() for phone in phones], DECISIVE)
        if not sending:
            break
        together(*sending)
    finished = Match.objects.filter(tournament_id=tournament_id, status=Match.Status.FINISHED).count()
    assert_clean(
        server_errors(answers, server_log)
        + refused(answers, "hand", lambda a: a.status == 200)
        + ([] if finished == 15 else [f"{finished} of the 15 matches finished"])
        + replay_differences(tournament_id)
    )


def test_a_misdeal_and_the_same_hand_saved_at_once_by_two_phones_of_a_table_stay_one_numbered_game(desk, server_log):
    """Two phones at each table of a league night send the same hand at the same moment, one as a
    misdeal, the other played, six times over: each time either the misdeal comes first and the
    played hand is that hand dealt again (the same number), or the hand comes first and the
    misdeal is answered with the stored hand (409); never a server error or a hand numbered twice."""
    director, answers = desk
    tournament_id = director.new_event(teams=4, **LEAGUE)
    phones = director.phones(tournament_id)
    others = director.phones(tournament_id)  # a second phone on each table's link
    assert len(phones) == len(others) == 2
    for _ in range(6):
        forms, seen = [phone.load() for phone in phones], [other.load() for other in others]  # the same hand
        if None in forms or None in seen:
            break
        misdeals = [
            partial(phone.save, form, {"misdeal": "no_spades"}) for phone, form in zip(phones, forms, strict=True)
        ]
        together(*misdeals, *saves(others, seen, SMALL))
    deals = Counter(Hand.objects.filter(game__round__tournament_id=tournament_id).values_list("misdeal", flat=True))
    assert_clean(
        server_errors(answers, server_log)
        + refused(answers, "hand", lambda a: a.status in (200, 409))
        + ([] if deals["no_spades"] and deals[""] else [f"deals stored: {dict(deals)}"])
        + replay_differences(tournament_id)
    )


def test_hands_saved_in_a_league_while_the_director_changes_its_scoring_are_scored_under_the_rules_in_force(
    desk, server_log
):
    """Both tables of a league night save their next hand as the director confirms a change of
    the rules that moves every hand's score (points for overtricks), eight times over, the
    phones' requests leaving up to 70 ms after the director's so that over the repeats they meet
    the change at each point of its work."""
    director, answers = desk
    tournament_id = director.new_event(teams=4, **LEAGUE)
    phones = director.phones(tournament_id)
    assert len(phones) == 2
    changes = [{"overtrick_points": 2}, {"overtrick_points": 1}]
    for repeat in range(8):
        forms = [phone.load() for phone in phones]
        change = director.change_rules(tournament_id, changes[repeat % 2])
        together(change, *saves(phones, forms, SMALL), stagger=repeat * 0.01)
    played = Game.objects.filter(round__tournament_id=tournament_id, hands__number=8).count()
    assert_clean(
        server_errors(answers, server_log)
        + refused(answers, "hand", lambda a: a.status == 200)
        + refused(answers, "rules", lambda a: "Settings saved." in a.words)
        + ([] if played == 2 else [f"{played} of the 2 tables have their 8 hands"])
        + replay_differences(tournament_id)
    )


def test_hands_saved_in_a_knockout_while_the_director_changes_the_time_limit_leave_every_clock_at_the_limit(
    desk, server_log
):
    """8 teams at 2 tables: both tables save their next hand the moment the director changes the
    time limit (45 minutes, then 30 again, …), until the final sits down: matches finish and the
    next take the tables meanwhile. After each race every match playing counts down the limit in
    force, and the data is a full replay."""
    director, answers = desk
    tournament_id = director.new_event(teams=8, tables_available=2, **KNOCKOUT)
    phones = director.phones(tournament_id)
    problems = []
    for repeat in range(20):
        forms = [phone.load() for phone in phones]
        if Match.objects.filter(tournament_id=tournament_id, stage=Match.Stage.FINAL).exclude(table=None).exists():
            break
        change = director.change_rules(tournament_id, {"time_limit_minutes": 45 if repeat % 2 == 0 else 30})
        together(change, *saves(phones, forms, DECISIVE))
        problems += [f"after race {repeat + 1}: {problem}" for problem in replay_differences(tournament_id)]
    finished = Match.objects.filter(tournament_id=tournament_id, status=Match.Status.FINISHED).count()
    assert_clean(
        server_errors(answers, server_log)
        + refused(answers, "hand", lambda a: a.status == 200)
        + refused(answers, "rules", lambda a: "Settings saved." in a.words)
        + ([] if finished == 6 else [f"{finished} of the 6 matches before the final finished"])
        + problems
    )


def test_two_matches_decided_at_the_same_instant_both_finish_in_order_and_the_final_takes_a_table(desk, server_log):
    """Both semi-finals' deciding hands sent at once, in twelve knockouts of four teams (in CI;
    see :func:`tests.conftest.repeats`)."""
    director, answers = desk
    problems = []
    for event in range(1, repeats(12) + 1):
        tournament_id = director.new_event(teams=4, tables_available=2, **KNOCKOUT)
        phones = director.phones(tournament_id)
        for _hand in range(2):
            for phone in phones:
                assert phone.save(phone.load(), DECISIVE).status == 200
        forms = [phone.load() for phone in phones]
        assert [form.number for form in forms] == [3, 3]
        together(*saves(phones, forms, DECISIVE))
        semis = Match.objects.filter(tournament_id=tournament_id, stage=Match.Stage.WINNERS).order_by("position")
        final = Match.objects.get(tournament_id=tournament_id, stage=Match.Stage.FINAL)
        if [(m.status, m.winner_id) for m in semis] != [(Match.Status.FINISHED, m.home_id) for m in semis]:
            problems.append(f"knockout {event}: the semi-finals are {[(m.status, m.winner_id) for m in semis]}")
        if sorted(m.finished_order or 0 for m in semis) != [1, 2]:
            problems.append(f"knockout {event}: the semi-finals finished {[m.finished_order for m in semis]}")
        if (final.home_id, final.away_id) != tuple(m.winner_id for m in semis) or final.table_id is None:
            problems.append(f"knockout {event}: the final is {final.home_id} v {final.away_id} at {final.table_id}")
        problems += [f"knockout {event}: {problem}" for problem in replay_differences(tournament_id)]
    assert_clean(server_errors(answers, server_log) + refused(answers, "hand", lambda a: a.status == 200) + problems)


def test_a_dispute_raised_as_the_round_closes_is_stored_and_stops_the_close_or_is_refused(desk, server_log):
    """A table disputes its last hand the moment the director closes the round, twelve times (in
    CI; see :func:`tests.conftest.repeats`), the phone's request leaving up to 55 ms after the
    director's so that over the repeats it meets the close at each point of its work. Either the
    dispute is stored and the close is refused naming the disputed table, or the round closes and
    the dispute is refused with a message (4xx) and not stored: never a dispute in a closed round."""
    director, answers = desk
    outcomes, times = [], repeats(12)
    for repeat in range(times):
        tournament_id = director.new_event(teams=2, **PROGRESSIVE)
        (phone,) = director.phones(tournament_id)
        for _hand in range(4):
            assert phone.save(phone.load(), even_hand(7)).status == 200
        closing, disputing = together(
            partial(director.submit, f"/t/{tournament_id}/rounds/1/close/", "close", {}),
            partial(phone.dispute, 1, 4, "EW say they took 4"),
            stagger=repeat * 0.055 / (times - 1),
        )
        closed = Round.objects.get(tournament_id=tournament_id, number=1).status == Round.Status.CLOSED
        stored = Dispute.objects.filter(hand__game__round__tournament_id=tournament_id).exists()
        outcome = f"{'closed' if closed else 'close refused'}, dispute {'stored' if stored else 'refused'}"
        if closed and stored:
            outcome += f" [BROKEN: a dispute in a closed round: {disputing}]"
        elif closed and not (400 <= disputing.status < 500 and "closed" in disputing.words):
            outcome += f" [BROKEN: the dispute was not refused with a message: {disputing}]"
        elif not closed and not (stored and "a hand is disputed at table 1" in closing.words):
            outcome += f" [BROKEN: {closing}; {disputing}]"
        outcomes.append(outcome)
    broken = [o for o in outcomes if "BROKEN" in o]
    summary = [f"{len(broken)} of {times} broken:", *outcomes] if broken else []
    assert_clean(server_errors(answers, server_log) + summary)


def test_a_restore_in_place_while_tables_save_refuses_a_vanished_game_with_409_and_leaves_consistent_data(
    desk, server_log
):
    """The director restores the event's own backup in place as four tables save a hand, twelve
    times over (in CI; see :func:`tests.conftest.repeats`), the phones' requests leaving up to
    275 ms after the director's (a restore takes
    100 to 300 ms here) so that over the repeats they meet it at each point of its work. Hands
    saved before the restore are gone, a save whose game vanished under it is told the event was
    restored (409), no request fails."""
    director, answers = desk
    tournament_id = director.new_event(teams=8, **PROGRESSIVE)
    phones = director.phones(tournament_id)
    assert len(phones) == 4
    for phone in phones:
        assert phone.save(phone.load(), even_hand(7)).status == 200
    backup = director.get(f"/t/{tournament_id}/export/tournament.json", "export")
    assert backup.status == 200
    restore = partial(director.upload, "/import/", "restore", {"replace": str(tournament_id)}, "file",
                      backup.text.encode())  # fmt: skip
    times = repeats(12)
    for repeat in range(times):
        forms = [phone.load() for phone in phones]
        together(restore, *saves(phones, forms, even_hand(7)), stagger=repeat * 0.275 / (times - 1))
    opened = [phone.get(f"/table/{phone.token}/", "reopened") for phone in phones]
    assert_clean(
        server_errors(answers, server_log)
        + refused(answers, "restore", lambda a: a.status == 302)
        + refused(answers, "hand", saved_or_told_of_the_restore)
        + refused(opened, "reopened", lambda a: a.status == 200)
        + replay_differences(tournament_id)
    )


def saved_or_told_of_the_restore(answer: Answer) -> bool:
    """A hand saved; or, its game gone in a restore under it, 409 telling the phone to reload; or,
    sent once the restore was done, refused as the restored game's next hand is another."""
    said = answer.words.lower()
    return (
        answer.status == 200
        or (answer.status == 409 and "restored" in said and "reload" in said)
        or (answer.status == 422 and "the next hand at this table is hand" in said)
    )
