"""A hand as entered at a table, and a game replayed from its entered hands.

:class:`HandEntry` is the one shape of a hand between the layers: the form builds it, the
services take it, the model stores it (one column per value, named by :meth:`HandEntry.fields`)
and :func:`replay` scores it. :func:`replay` returns one result per entered hand, ``None`` for
a misdeal, so every reader (score sheet, CSV, PDF, the phone) walks the same list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.game import Game
from scoring.hand import Bid, HandResult, InvalidHand, PlayerHand
from scoring.rules import RuleSet
from scoring.seats import Seat, Side

SEATS = tuple(Seat)
SIDES = tuple(Side)
# The stored field names, spelt out once: entries are read and written for every hand replayed.
BID_FIELDS = tuple(f"{seat.prefix}_bid" for seat in SEATS)
TRICKS_FIELDS = tuple(f"{seat.prefix}_tricks" for seat in SEATS)
RENEG_FIELDS = tuple(f"{side.prefix}_reneges" for side in SIDES)
TABLE_TALK_FIELDS = tuple(f"{side.prefix}_table_talk" for side in SIDES)
SEAT_RENEG_FIELDS = tuple(f"{seat.prefix}_reneges" for seat in SEATS)
SEAT_TABLE_TALK_FIELDS = tuple(f"{seat.prefix}_table_talk" for seat in SEATS)
# The engine's pairs as positions in the seat order: (North, South), (East, West).
PAIRS = tuple(tuple(SEATS.index(seat) for seat in side.seats) for side in SIDES)


def parse_bid(text: object) -> Bid | None:
    """A stored or typed bid ("3", "nil", "blind_nil") in the engine's terms; "" is no bid."""
    if text is None or text == "":
        return None
    if isinstance(text, int):
        return text
    value = str(text)
    return int(value) if value.isascii() and value.isdecimal() else value


@dataclass(frozen=True)
class HandEntry:
    """One deal as entered: per seat (North, East, South, West) a bid and tricks, per side
    (North–South, East–West) reneges and table-talk incidents, or a misdeal reason.

    Under rules scoring each player's own bid, ``seat_reneges`` and ``seat_table_talk`` say
    who committed them (per seat; the side's counts are their sums); otherwise they are 0.
    A misdeal has no bids, tricks or penalties. ``dealer`` is who dealt, when known.
    """

    bids: tuple[Bid | None, Bid | None, Bid | None, Bid | None] = (None, None, None, None)
    tricks: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)
    reneges: tuple[int, int] = (0, 0)
    table_talk: tuple[int, int] = (0, 0)
    seat_reneges: tuple[int, int, int, int] = (0, 0, 0, 0)
    seat_table_talk: tuple[int, int, int, int] = (0, 0, 0, 0)
    misdeal: str = ""
    dealer: Seat | None = None

    @classmethod
    def misdealt(cls, reason: str, *, dealer: Seat | None = None) -> HandEntry:
        return cls(misdeal=reason, dealer=dealer)

    @classmethod
    def from_fields(cls, values: Mapping[str, Any], *, dealer: Seat | None = None) -> HandEntry:
        """An entry from field values named as :meth:`fields` names them (missing ones empty)."""
        misdeal = values.get("misdeal") or ""
        if misdeal:
            return cls.misdealt(misdeal, dealer=dealer)
        return cls(
            bids=tuple(parse_bid(values.get(name)) for name in BID_FIELDS),  # type: ignore[arg-type]
            tricks=tuple(values.get(name) for name in TRICKS_FIELDS),  # type: ignore[arg-type]
            reneges=tuple(values.get(name) or 0 for name in RENEG_FIELDS),  # type: ignore[arg-type]
            table_talk=tuple(values.get(name) or 0 for name in TABLE_TALK_FIELDS),  # type: ignore[arg-type]
            seat_reneges=tuple(values.get(name) or 0 for name in SEAT_RENEG_FIELDS),  # type: ignore[arg-type]
            seat_table_talk=tuple(values.get(name) or 0 for name in SEAT_TABLE_TALK_FIELDS),  # type: ignore[arg-type]
            dealer=dealer,
        )

    @classmethod
    def from_players(
        cls, players: Mapping[Seat, PlayerHand], *, reneges=(0, 0), table_talk=(0, 0), dealer: Seat | None = None
    ) -> HandEntry:
        """An entry from each seat's :class:`PlayerHand` (with who committed any infraction)."""
        return cls(
            bids=tuple(players[seat].bid for seat in SEATS),  # type: ignore[arg-type]
            tricks=tuple(players[seat].tricks for seat in SEATS),  # type: ignore[arg-type]
            reneges=tuple(reneges),  # type: ignore[arg-type]
            table_talk=tuple(table_talk),  # type: ignore[arg-type]
            seat_reneges=tuple(players[seat].reneges for seat in SEATS),  # type: ignore[arg-type]
            seat_table_talk=tuple(players[seat].table_talk for seat in SEATS),  # type: ignore[arg-type]
            dealer=dealer,
        )

    def bid(self, seat: Seat) -> Bid | None:
        return self.bids[SEATS.index(seat)]

    def fields(self) -> dict[str, Any]:
        """The entry as stored: ``north_bid`` ("3", "nil", "" for none) … ``misdeal``."""
        return {
            **{name: "" if bid is None else str(bid) for name, bid in zip(BID_FIELDS, self.bids, strict=True)},
            **dict(zip(TRICKS_FIELDS, self.tricks, strict=True)),
            **dict(zip(RENEG_FIELDS, self.reneges, strict=True)),
            **dict(zip(TABLE_TALK_FIELDS, self.table_talk, strict=True)),
            **dict(zip(SEAT_RENEG_FIELDS, self.seat_reneges, strict=True)),
            **dict(zip(SEAT_TABLE_TALK_FIELDS, self.seat_table_talk, strict=True)),
            "misdeal": self.misdeal,
        }

    def players(self) -> tuple[tuple[PlayerHand, PlayerHand], tuple[PlayerHand, PlayerHand]]:
        """The scored hand in the engine's terms: (North, South) then (East, West)."""
        return tuple(  # type: ignore[return-value]
            tuple(
                PlayerHand(self.bids[i], self.tricks[i], self.seat_reneges[i], self.seat_table_talk[i])  # type: ignore[arg-type]
                for i in pair
            )
            for pair in PAIRS
        )


FIELD_NAMES = tuple(HandEntry().fields())
"""Every field of an entry, in the stored order."""


@dataclass(frozen=True)
class Replay:
    """A game after its entered hands: ``results`` holds one item per entry (``None`` for a
    misdeal), ``dealers`` who dealt each, ``numbers`` each entry's hand number (a misdeal and
    the redeal after it share one), ``next_dealer`` who deals the next hand."""

    game: Game
    results: tuple[HandResult | None, ...]
    dealers: tuple[Seat, ...]
    next_dealer: Seat
    numbers: tuple[int, ...] = ()

    def _numbered(self) -> tuple[int, ...]:
        return self.numbers or tuple(range(1, len(self.results) + 1))

    def standing_before(self, number: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """Each side's (score, bags) before hand ``number``."""
        scored = [r for r, n in zip(self.results, self._numbered(), strict=True) if r is not None and n < number]
        if not scored:
            return (0, 0), (0, 0)
        ns, ew = scored[-1].teams
        return (ns.score, ns.bags), (ew.score, ew.bags)

    def dealer_of(self, number: int) -> Seat:
        """Who deals hand ``number``: as replayed (a redeal's dealer is the misdeal's), else the next dealer."""
        dealt = [dealer for dealer, n in zip(self.dealers, self._numbered(), strict=True) if n == number]
        return dealt[-1] if dealt else self.next_dealer


def replay(
    rules: RuleSet,
    entries: Iterable[HandEntry],
    *,
    first_dealer: Seat = Seat.NORTH,
    numbers: Sequence[int] = (),
    start: Game | None = None,
) -> Replay:
    """Score ``entries`` in order from 0–0, or from ``start`` (a game :meth:`~Game.resumed`
    after hands not given here; ``first_dealer`` then deals the first entry, and the results and
    dealers cover ``entries`` only). A misdeal scores nothing and the same dealer deals again.

    An entry the rules refuse raises :class:`InvalidHand`, its message prefixed with the hand's
    number (from ``numbers`` when given, else its position from 1).
    """
    game, results, dealers, dealer = start or Game(rules), [], [], first_dealer
    for position, entry in enumerate(entries):
        dealers.append(dealer)
        if entry.misdeal:
            results.append(None)
            continue
        try:
            game = game.play(entry.players(), reneges=entry.reneges, table_talk=entry.table_talk)
        except InvalidHand as error:
            number = numbers[position] if numbers else position + 1
            raise InvalidHand(
                f"hand {number}: {error.message}",
                field=error.field, team=error.team, player=error.player, code=error.code, teams=error.teams,
            ) from None  # fmt: skip
        results.append(game.hands[-1])
        dealer = dealer.after()
    return Replay(game, tuple(results), tuple(dealers), dealer, tuple(numbers))
