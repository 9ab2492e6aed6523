"""What looks wrong in a round's results, found from plain values: no Django here.

:func:`detect` takes what :mod:`tournament.review.flags` read of one round (each game's stored
totals beside its hands replayed, the hands' own times of entry on the phone, the changes made
after the round closed, what each table's phone reported at the close, the club's earlier game
margins) and returns one :class:`Flag` for each thing a director should look at, in table order.

Each flag's ``key`` names the flag and what it found, so a director's "checked" (kept by that key)
stays with it while nothing changes, and a new finding (another stored total, another revision, a
corrected hand worth other points) is a new flag with a new key. The kinds:

- ``total``: a side's stored score differs from its hands replayed (or the hands do not replay).
- ``bags``: a side's stored bags differ from what its hands leave.
- ``quick``: a scored hand the phone says was entered less than :data:`QUICK` after the hand
  before it, both by the phone's own clock (a hand that waited on an offline phone keeps the time
  it was entered, so a queue sent at once is not quick). A hand keyed at the desk has no phone time
  and is neither flagged nor compared with; nor is a misdeal, found and entered as the deal fails;
  a time before the previous hand's (a phone clock set back) is not compared either.
- ``changed``: a revision of a hand made after the round closed (a record, not an error: it stays
  until checked).
- ``waiting``: a table whose phone still had hands waiting to be sent when the round closed.
- ``big``: a hand worth more than :data:`BIG_HAND` points to a side, either way (+310 or −310).
- ``margin``: a finished game won (by its hands replayed) by more than the 99th percentile of the
  club's earlier finished games' margins; with fewer than :data:`MARGIN_MIN_GAMES` of those there
  is no such flag (a percentile of a few games says nothing).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from scoring import Side, words

QUICK = timedelta(minutes=1)
BIG_HAND = 300
MARGIN_MIN_GAMES = 100
MARGIN_PERCENTILE = 99

KINDS = {
    "total": "Stored total",
    "bags": "Bags",
    "quick": "Quick entry",
    "changed": "Changed after close",
    "waiting": "Phone still waiting",
    "big": "Big hand",
    "margin": "Wide margin",
    "keying": "Keying mismatch",
}
"""Each kind of flag, and its name on the board."""


def _key_number(value: int) -> str:
    """A number inside a key, written without a minus sign ("m60" for −60): keys sit in pages,
    where every negative number a person could read is written with a true minus (scoring.words)."""
    return f"m{-value}" if value < 0 else str(value)


@dataclass(frozen=True)
class HandFacts:
    """One deal as stored: ``keyed_at`` the phone's time of entry (None at the desk), ``points``
    what the replay gave each side (None for a misdeal, or when the game does not replay)."""

    id: int
    number: int
    deal: int
    version: int
    misdeal: bool
    keyed_at: datetime | None
    points: tuple[int, int] | None


@dataclass(frozen=True)
class GameFacts:
    """One table's game: its stored totals beside its hands replayed (``replayed_*`` None and
    ``replay_error`` in words when the hands do not replay); ``hands`` in order."""

    id: int
    table: int
    finished: bool
    stored_scores: tuple[int, int]
    stored_bags: tuple[int, int]
    replayed_scores: tuple[int, int] | None
    replayed_bags: tuple[int, int] | None
    hands: tuple[HandFacts, ...]
    replay_error: str = ""


@dataclass(frozen=True)
class LateChange:
    """A revision of a hand made after its round closed; ``at`` in the club's time; ``what`` the
    values it changed in words ("North's tricks 4 → 5"), "" when none is known."""

    revision: int
    game: int
    table: int
    hand: int
    deal: int
    by_table: bool
    at: datetime
    what: str = ""


@dataclass(frozen=True)
class CloseReport:
    """What a table's phone last reported when its round closed."""

    table_id: int
    table: int
    waiting: int


@dataclass(frozen=True)
class KeyedApart:
    """A hand of a paper sheet keyed twice with different values (tournament.keying): it does not
    count until a third keying agrees with one of them; ``keyings`` their ids."""

    game: int
    table: int
    hand: int
    words: str
    keyings: tuple[int, ...]


@dataclass(frozen=True)
class Flag:
    """One thing to look at: its ``kind`` (see :data:`KINDS`), the ``table`` number, the ``hand``
    number (None for the game or the table as a whole), the ``words`` a director reads, a stable
    ``key`` (see the module) and the ``game`` id it is about (None for a table's phone)."""

    kind: str
    table: int
    hand: int | None
    words: str
    key: str
    game: int | None

    @property
    def title(self) -> str:
        return KINDS[self.kind]


def detect(
    *,
    games: Sequence[GameFacts],
    late_changes: Sequence[LateChange] = (),
    reports: Sequence[CloseReport] = (),
    club_margins: Sequence[int] = (),
    keyed_apart: Sequence[KeyedApart] = (),
) -> tuple[Flag, ...]:
    """Every flag of one round, by table, then hand (a table's own flags first)."""
    threshold = margin_threshold(club_margins)
    flags: list[Flag] = []
    for game in games:
        flags += _totals(game)
        flags += _quick(game)
        flags += _big(game)
        if threshold is not None:
            flags += _margin(game, threshold)
    flags += [_late(change) for change in late_changes]
    flags += [_waiting(report) for report in reports if report.waiting > 0]
    flags += [_keyed_apart(hand) for hand in keyed_apart]
    return tuple(sorted(flags, key=lambda f: (f.table, f.hand or 0)))  # stable: detection order within


def margin_threshold(margins: Sequence[int]) -> int | None:
    """The 99th percentile of ``margins`` (nearest rank: the smallest margin at least 99 in 100
    of them do not exceed), or None with fewer than :data:`MARGIN_MIN_GAMES`."""
    if len(margins) < MARGIN_MIN_GAMES:
        return None
    ordered = sorted(margins)
    return ordered[math.ceil(len(ordered) * MARGIN_PERCENTILE / 100) - 1]


def _where(table: int, hand: int | None) -> str:
    return f"Table {table}" + (f", hand {hand}" if hand is not None else "")


def _last_hand(game: GameFacts) -> int | None:
    return game.hands[-1].number if game.hands else None


def _totals(game: GameFacts) -> list[Flag]:
    last = _last_hand(game)
    where = _where(game.table, last).replace(", hand", ", after hand")
    if game.replayed_scores is None or game.replayed_bags is None:
        words_ = f"{where}: its hands do not replay ({game.replay_error}), so its stored total cannot be checked."
        return [Flag("total", game.table, last, words_, f"total:g{game.id}:unreplayable", game.id)]
    flags = []
    for side, stored, replayed in zip(Side, game.stored_scores, game.replayed_scores, strict=True):
        if stored != replayed:
            said = (f"{where}: {side.label}'s stored total is {words.number(stored)} "
                    f"but its hands add up to {words.number(replayed)}.")  # fmt: skip
            key = f"total:g{game.id}:{side.value}:{_key_number(stored)}:{_key_number(replayed)}"
            flags.append(Flag("total", game.table, last, said, key, game.id))
    for side, stored, replayed in zip(Side, game.stored_bags, game.replayed_bags, strict=True):
        if stored != replayed:
            said = f"{where}: {side.label}'s stored bags are {stored} but its hands leave {replayed}."
            key = f"bags:g{game.id}:{side.value}:{stored}:{replayed}"
            flags.append(Flag("bags", game.table, last, said, key, game.id))
    return flags


def _quick(game: GameFacts) -> list[Flag]:
    flags, before = [], None
    for hand in game.hands:
        if hand.misdeal:
            continue
        if hand.keyed_at is not None and before is not None and before.keyed_at is not None:
            gap = hand.keyed_at - before.keyed_at
            if timedelta(0) <= gap < QUICK:
                seconds = words.quantity(int(gap.total_seconds()), "second")
                said = f"{_where(game.table, hand.number)}: entered on the phone {seconds} after hand {before.number}."
                flags.append(Flag("quick", game.table, hand.number, said, f"quick:h{hand.id}", game.id))
        before = hand
    return flags


def _big(game: GameFacts) -> list[Flag]:
    flags = []
    for hand in game.hands:
        for side, points in zip(Side, hand.points or (), strict=False):
            if abs(points) > BIG_HAND:
                said = (f"{_where(game.table, hand.number)}: worth {words.signed(points)} points to {side.label} "
                        f"(more than {BIG_HAND} either way).")  # fmt: skip
                key = f"big:h{hand.id}:v{hand.version}:{side.value}"
                flags.append(Flag("big", game.table, hand.number, said, key, game.id))
    return flags


def _margin(game: GameFacts, threshold: int) -> list[Flag]:
    # Of its hands replayed: a wrong stored total is flagged as such, not as a margin too.
    ns, ew = game.replayed_scores or game.stored_scores
    margin = abs(ns - ew)
    if not game.finished or margin <= threshold:
        return []
    said = (f"{_where(game.table, None)}: the game was won by {margin} points; 99 in 100 of the club's "
            f"earlier games were won by {threshold} or less.")  # fmt: skip
    return [Flag("margin", game.table, None, said, f"margin:g{game.id}:{margin}", game.id)]


def _late(change: LateChange) -> Flag:
    who = "at the table" if change.by_table else "at the desk"
    what = f" ({change.what})" if change.what else ""
    said = f"{_where(change.table, change.hand)}: changed {who} at {change.at:%H:%M}, after the round closed{what}."
    return Flag("changed", change.table, change.hand, said, f"changed:r{change.revision}", change.game)


def _waiting(report: CloseReport) -> Flag:
    hands = words.quantity(report.waiting, "hand")
    said = f"{_where(report.table, None)}: its phone still had {hands} waiting to be sent when the round closed."
    return Flag("waiting", report.table, None, said, f"waiting:t{report.table_id}", None)


def _keyed_apart(hand: KeyedApart) -> Flag:
    key = f"keying:g{hand.game}:h{hand.hand}:" + "-".join(str(keying) for keying in hand.keyings)
    return Flag("keying", hand.table, hand.hand, hand.words, key, hand.game)
