"""Prizes: who wins what, to the cent. Pure: standings and prize definitions in, awards out.

Money is :class:`~decimal.Decimal` throughout and every split accounts for every cent: a sum
divided among several winners gives the odd cents to the ones ranked first (by name where they
are level on everything).

Ties for a place prize follow the tournament's rule: ``share`` — entrants level on points share
equally the prizes of the places they occupy together (two tied for 1st share 1st and 2nd);
``tiebreak`` — the standings' tiebreakers decide, and only entrants level on all of them share.
A division prize ("high female") goes to the best entrant of that division who has not already
won a place prize, with ties handled the same way.

Once prizes are paid, a correction can change who holds them: :func:`holders` says who holds
each prize, :func:`no_longer_held` which payouts went to someone who holds theirs no more, and
:func:`moved` which of those a change itself caused.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from typing import Generic, TypeVar

from tournament.standings.ranking import Standing

E = TypeVar("E", bound=Hashable)
CENT = Decimal("0.01")


@dataclass(frozen=True)
class PrizeSpec:
    """A prize with its amount already known; ``place`` for place prizes, ``division`` otherwise."""

    id: int
    amount: Decimal
    place: int | None = None
    division: str = ""


@dataclass(frozen=True)
class Award(Generic[E]):
    prize_id: int
    entrant: E
    amount: Decimal


@dataclass(frozen=True)
class Paid(Generic[E]):
    """Payout ``id``, handed over: prize ``prize_id`` paid to ``entrant``."""

    id: int
    prize_id: int
    entrant: E


def allocate(total: Decimal, weights: Sequence[Decimal | int]) -> list[Decimal]:
    """Split ``total`` in proportion to ``weights``, to the cent, summing exactly to ``total``.

    Largest remainders get the leftover cents; among equal remainders, the earlier weight.
    """
    if not weights:
        return []
    whole = sum(Decimal(w) for w in weights)
    if whole <= 0:
        raise ValueError("weights must add up to more than zero")
    exact = [total * Decimal(w) / whole for w in weights]
    shares = [amount.quantize(CENT, rounding=ROUND_DOWN) for amount in exact]
    leftover = int(((total - sum(shares)) / CENT).to_integral_value())
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - shares[i]), i))
    for i in order[:leftover]:
        shares[i] += CENT
    return shares


def prize_amounts(fixed: Mapping[int, Decimal], shares: Mapping[int, Decimal], pool: Decimal) -> dict[int, Decimal]:
    """Each prize's amount by id: ``fixed`` amounts as they are; ``shares`` (percent of the
    ``pool``, the fees paid) split from their sum so that their cents add up exactly."""
    amounts = dict(fixed)
    if shares:
        whole = (pool * sum(shares.values()) / 100).quantize(CENT)
        amounts.update(zip(shares, allocate(whole, list(shares.values())), strict=True))
    return amounts


def award(
    prizes: Sequence[PrizeSpec],
    standings: Sequence[Standing[E]],
    *,
    ties: str,
    divisions: Mapping[E, str] | None = None,
    names: Mapping[E, str] | None = None,
) -> list[Award[E]]:
    """Awards for ``prizes`` given ranked ``standings`` (best first); see the module docstring."""
    if ties not in ("share", "tiebreak"):
        raise ValueError(f"unknown tie rule {ties!r}")
    names = names or {}
    awards: list[Award[E]] = []
    place_prizes = {p.place: p for p in prizes if p.place is not None}
    for group, first_place in _groups(standings, ties):
        held = [place_prizes[place] for place in range(first_place, first_place + len(group)) if place in place_prizes]
        if held:
            awards.extend(_split(held, group, names))
    winners = {a.entrant for a in awards}
    for prize in (p for p in prizes if p.place is None):
        eligible = [
            s for s in standings if (divisions or {}).get(s.entrant) == prize.division and s.entrant not in winners
        ]
        if eligible:
            best = next(iter(_groups(eligible, ties)))[0]
            awards.extend(_split([prize], best, names))
    return awards


def _groups(standings: Sequence[Standing[E]], ties: str) -> list[tuple[list[Standing[E]], int]]:
    """Standings grouped by the tie rule, each with the place its first member holds."""
    groups: list[tuple[list[Standing[E]], int]] = []
    for row in standings:
        if groups and _level(groups[-1][0][0], row, ties):
            groups[-1][0].append(row)
        else:
            place = groups[-1][1] + len(groups[-1][0]) if groups else 1
            groups.append(([row], place))
    return groups


def _level(a: Standing[E], b: Standing[E], ties: str) -> bool:
    return a.total == b.total if ties == "share" else a.key == b.key


def _split(held: Sequence[PrizeSpec], group: Sequence[Standing[E]], names: Mapping[E, str]) -> list[Award[E]]:
    """Each held prize split equally; odd cents go to whoever has had fewest so far."""
    order = sorted(group, key=lambda s: (s.key, names.get(s.entrant, str(s.entrant))))
    odd_cents = [0] * len(order)
    awards = []
    for prize in held:
        shares = allocate(prize.amount, [1] * len(order))
        low, extra = min(shares), sum(1 for share in shares if share > min(shares))
        for turn, i in enumerate(sorted(range(len(order)), key=lambda i: (odd_cents[i], i))):
            gets_cent = turn < extra
            odd_cents[i] += gets_cent
            awards.append(Award(prize.id, order[i].entrant, low + (CENT if gets_cent else 0)))
    return awards


def holders(awards: Iterable[Award[E]]) -> dict[int, frozenset[E]]:
    """Who holds each prize (by id) in ``awards``: its winner, or the entrants sharing it."""
    held: dict[int, set[E]] = {}
    for a in awards:
        held.setdefault(a.prize_id, set()).add(a.entrant)
    return {prize_id: frozenset(entrants) for prize_id, entrants in held.items()}


def no_longer_held(paid: Iterable[Paid[E]], now: Mapping[int, frozenset[E]]) -> list[Paid[E]]:
    """The payouts of ``paid`` whose entrant is not among their prize's holders ``now``."""
    return [p for p in paid if p.entrant not in now.get(p.prize_id, frozenset())]


def moved(
    paid: Iterable[Paid[E]], before: Mapping[int, frozenset[E]], after: Mapping[int, frozenset[E]]
) -> list[Paid[E]]:
    """The payouts of ``paid`` a change takes from the entrant paid: not held by them ``after``
    it, and their prize's holders changed with it. A payout already someone else's ``before``,
    whose prize the change leaves alone, is no news (the prizes page lists it to review)."""
    return [p for p in no_longer_held(paid, after) if before.get(p.prize_id) != after.get(p.prize_id)]
