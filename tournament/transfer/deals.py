"""The hands of an imported game numbered as stored: a misdeal shares its hand's number with the
deal after it (:attr:`tournament.models.Hand.deal`). Exports made before that numbered a misdeal
as a hand of its own; their games are numbered again on import as the database's were."""

from __future__ import annotations

from tournament.models import Game, Hand
from tournament.transfer.rows import fail


def number_deals(game: Game, hands: list[Hand], where: str, *, misdeal_numbered: bool) -> None:
    """Check (or, for an older export, set) each hand's ``number`` and ``deal`` in ``hands``, the
    game's in the file's order, and move the game's ``time_up_hand`` along with an older one's."""
    number, deal, renumbered = 1, 1, {}
    for position, hand in enumerate(hands, start=1):
        if misdeal_numbered:
            if hand.number != position:
                fail(f"{where}, hand {position}", f"hands are numbered 1, 2, 3… in order; this one is {hand.number}",
                     "order")  # fmt: skip
            renumbered[hand.number] = number
            hand.number, hand.deal = number, deal
        elif (hand.number, hand.deal) != (number, deal):
            fail(f"{where}, hand {position}", f"this should be hand {number}, deal {deal} (a misdeal shares its "
                 f"number with the deal after it), not hand {hand.number}, deal {hand.deal}", "order")  # fmt: skip
        number, deal = (number, deal + 1) if hand.misdeal else (number + 1, 1)
    if misdeal_numbered and game.time_up_hand is not None:
        game.time_up_hand = renumbered.get(game.time_up_hand, game.time_up_hand)
