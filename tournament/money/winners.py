"""Who the standings make prize winners now, and how that compares with the prizes already paid.

:func:`standing_awards` is the one reading of the standings into awards: prizes are worked out
from it (:func:`~tournament.money.services.award_prizes`), and so is every check below. A change
that rescores an event whose prizes are paid (a director's correction of a hand) reads the paid
places with :func:`paid_places` before it writes and :meth:`PaidPlaces.check` after, in the same
transaction under the tournament's lock: a move the director has not confirmed raises
:class:`PaidPlacesMove`, rolling the change back. The prizes page lists, with
:func:`payouts_to_review`, every paid payout whose place someone else holds now.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from scoring import InvalidHand
from tournament.formats.registry import format_of
from tournament.models import Payout, Tournament
from tournament.money import prizes as prize_rules
from tournament.money.ledger import ledger


@dataclass(frozen=True)
class StandingAwards:
    """The awards the standings give now (best first), the entrants' names, and the payout's
    field the entrants are ("player_id" when partners are split, else "team_id")."""

    awards: list[prize_rules.Award[Hashable]]
    names: dict[Hashable, str]
    field: str

    def held_by(self, prize_id: int) -> tuple[Hashable, ...]:
        """Who holds prize ``prize_id``, best first (several when they share it)."""
        return tuple(dict.fromkeys(a.entrant for a in self.awards if a.prize_id == prize_id))


def standing_awards(tournament: Tournament) -> StandingAwards:
    """Every prize's winners from the standings as they are now, amounts to the cent."""
    prizes = list(tournament.prizes.all())
    amounts = prize_rules.prize_amounts(
        {p.pk: p.amount for p in prizes if p.amount is not None},
        {p.pk: p.share_percent for p in prizes if p.share_percent is not None},
        ledger(tournament).fees_paid,
    )
    specs = [prize_rules.PrizeSpec(p.pk, amounts[p.pk], p.place, p.division) for p in prizes]
    event_format = format_of(tournament)
    rows = event_format.standings(tournament)
    names = {row.standing.entrant: row.name for row in rows}
    awards = prize_rules.award(
        specs,
        [row.standing for row in rows],
        ties=event_format.prize_ties(tournament),
        divisions={row.standing.entrant: row.division for row in rows},
        names=names,
    )
    return StandingAwards(awards, names, "player_id" if event_format.entrants_are_players(tournament) else "team_id")


@dataclass(frozen=True)
class PayoutMove:
    """A paid ``payout`` whose prize ``holders`` hold now (or would, after a change), not the
    entrant paid; ``held_by`` are their names, in the same order (empty: nobody holds it)."""

    payout: Payout
    holders: tuple[Hashable, ...]
    held_by: tuple[str, ...]


class PaidPlacesMove(InvalidHand):
    """A change would move prizes already paid to someone else (``moves``); nothing was saved.
    ``token`` names exactly these moves: the change goes through when it is sent again with it."""

    def __init__(self, moves: Sequence[PayoutMove]) -> None:
        super().__init__(
            "this correction changes who holds prizes already paid out, so the director confirms it first",
            field="hand",
            code="paid_places_move",
        )
        self.moves = list(moves)
        self.token = move_token(moves)


def move_token(moves: Sequence[PayoutMove]) -> str:
    """A text naming ``moves`` (each payout and who would hold its prize), for a confirmation:
    "payout-holder.holder" for each, joined by "_" (ids only, nothing a page must escape)."""
    return "_".join(f"{m.payout.pk}-{'.'.join(map(str, m.holders))}" for m in moves)


def _paid(tournament: Tournament) -> list[Payout]:
    payouts = Payout.objects.filter(prize__tournament=tournament, paid_at__isnull=False)
    return list(payouts.select_related("prize", "player", "team").prefetch_related("team__players"))


def _as_paid(payouts: Sequence[Payout]) -> list[prize_rules.Paid[Hashable]]:
    return [prize_rules.Paid(p.pk, p.prize_id, p.player_id if p.player_id is not None else p.team_id) for p in payouts]


def _moves(
    payouts: Sequence[Payout], off: Sequence[prize_rules.Paid[Hashable]], now: StandingAwards
) -> list[PayoutMove]:
    """The payouts ``off`` names, each with who holds its prize ``now``."""
    by_id = {payout.pk: payout for payout in payouts}
    holders = {paid.id: now.held_by(paid.prize_id) for paid in off}
    return [
        PayoutMove(by_id[paid.id], holders[paid.id], tuple(now.names.get(e, str(e)) for e in holders[paid.id]))
        for paid in off
    ]


@dataclass(frozen=True)
class PaidPlaces:
    """The prizes paid in ``tournament`` and who held each before a change (see the module)."""

    tournament: Tournament
    payouts: list[Payout]
    before: dict[int, frozenset[Hashable]]

    def check(self, *, confirmed: str = "") -> str:
        """After the change, in its transaction: raise :class:`PaidPlacesMove` when it takes a
        paid prize from the entrant paid, unless ``confirmed`` is the token of those very moves
        (the director saw them; anything else meanwhile asks again). Returns what the confirmed
        moves leave to do, in words for the director ("" when nothing moved)."""
        now = standing_awards(self.tournament)
        moved = prize_rules.moved(_as_paid(self.payouts), self.before, prize_rules.holders(now.awards))
        moves = _moves(self.payouts, moved, now)
        if moves and move_token(moves) != confirmed:
            raise PaidPlacesMove(moves)
        if not moves:
            return ""
        what, them = ("a payout already paid belongs", "it") if len(moves) == 1 else (
            f"{len(moves)} payouts already paid belong", "them")  # fmt: skip
        return f"After this correction {what} to someone else: the prizes page lists {them} to review."


def paid_places(tournament: Tournament) -> PaidPlaces | None:
    """The paid prizes' holders before a change, under the tournament's lock the caller holds;
    None when no prize is paid (one query then, and nothing to check)."""
    payouts = _paid(tournament)
    if not payouts:
        return None
    return PaidPlaces(tournament, payouts, prize_rules.holders(standing_awards(tournament).awards))


def payouts_to_review(tournament: Tournament) -> list[PayoutMove]:
    """Every paid payout whose prize the standings now give someone else, in prize order."""
    payouts = _paid(tournament)
    if not payouts:
        return []
    now = standing_awards(tournament)
    return _moves(payouts, prize_rules.no_longer_held(_as_paid(payouts), prize_rules.holders(now.awards)), now)
