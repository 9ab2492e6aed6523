"""The four seats and the two sides, named once for every layer.

A :class:`Seat` is a ``str`` whose value is what the database stores ("N"); it also knows its
field prefix ("north", as in ``north_bid``), its label ("North"), its :class:`Side` and where
the engine keeps it (side index, player index within the side). A :class:`Side` likewise
("NS", prefix "ns", label "North–South", index 0 in the engine's pairs). The Django app derives
its model choices from these enums (``tournament.models.SEAT_CHOICES``), so a seat is spelt in
one place only. Seats are listed in the order of play: North, East, South, West.
"""

from __future__ import annotations

import random
from enum import StrEnum


class Side(StrEnum):
    NS = "NS"
    EW = "EW"

    @property
    def index(self) -> int:
        """Where the engine keeps this side: 0 for North–South, 1 for East–West."""
        return 0 if self is Side.NS else 1

    @property
    def prefix(self) -> str:
        """The side's field prefix: ``ns_reneges``, ``ew_table_talk``."""
        return self.value.lower()

    @property
    def label(self) -> str:
        return "North–South" if self is Side.NS else "East–West"

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The side's two seats, in the engine's player order (North then South)."""
        return SIDE_SEATS[self]

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @classmethod
    def at(cls, index: int) -> Side:
        """The side the engine numbers ``index`` (0 or 1)."""
        return (cls.NS, cls.EW)[index]


class Seat(StrEnum):
    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def prefix(self) -> str:
        """The seat's field prefix: ``north_bid``, ``north_tricks``."""
        return self.name.lower()

    @property
    def label(self) -> str:
        return self.name.capitalize()

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.NORTH, Seat.SOUTH) else Side.EW

    @property
    def index(self) -> tuple[int, int]:
        """Where the engine keeps this seat: (side index, player index), each from 0."""
        return self.side.index, self.side.seats.index(self)

    @property
    def partner(self) -> Seat:
        first, second = self.side.seats
        return second if self is first else first

    def after(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places to the left (the deal passes North, East, South, West)."""
        return PLAY_ORDER[(PLAY_ORDER.index(self) + steps) % 4]

    @classmethod
    def of(cls, team: int, player: int) -> Seat:
        """The seat an :class:`~scoring.hand.InvalidHand` names (team and player count from 1)."""
        return Side.at(team - 1).seats[player - 1]


PLAY_ORDER: tuple[Seat, ...] = tuple(Seat)
SIDE_SEATS: dict[Side, tuple[Seat, Seat]] = {Side.NS: (Seat.NORTH, Seat.SOUTH), Side.EW: (Seat.EAST, Seat.WEST)}
"""Each side's seats (see :attr:`Side.seats`), built once: reading an enum's members costs a
look-up each time, and standings read a side's seats once a game."""
"""North, East, South, West: the order the deal (and the play) passes in."""


def draw_first_dealer(seed: int, *place: object) -> Seat:
    """A game's first dealer, drawn at random but the same every time for the same tournament
    ``seed`` and the game's ``place`` (its round and table, or its match and game number)."""
    return random.Random(":".join(map(str, (seed, *place)))).choice(list(Seat))
