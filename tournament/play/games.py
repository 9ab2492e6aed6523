"""Writes at a table's game besides its hands: who deals first, disputes, a tie's decision, the
table's link. Each takes the tournament's lock first (:mod:`tournament.locking`). A phone's
report that it is still there is not a write to the tournament and takes no lock."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from scoring import Seat
from tournament.formats.registry import format_of
from tournament.locking import lock_tournament
from tournament.models import Dispute, Game, Hand, HandRevision, Round, Table, new_token
from tournament.play.hands import GameGone

User = AbstractBaseUser | None


def _locked_game(game: Game) -> Game:
    """``game`` read again under its tournament's lock (taken here, in the caller's transaction)."""
    tournament = lock_tournament(game.round.tournament_id)
    try:
        game = Game.objects.select_related("round", "table", "match").get(pk=game.pk)
    except Game.DoesNotExist:
        raise GameGone(GameGone.message) from None
    game.round.tournament = tournament
    return game


@transaction.atomic
def set_first_dealer(*, game: Game, seat: Seat) -> None:
    """The table cut or drew for the deal: ``seat`` deals hand 1 instead of the seat drawn.
    Only before any hand (a misdeal too) is entered, since every dealer after follows from it."""
    game = _locked_game(game)
    if game.hands.exists():
        raise ValidationError("The first dealer can change only before hand 1 is entered.", code="hands_entered")
    game.first_dealer = seat
    game.save(update_fields=["first_dealer"])


@transaction.atomic
def flag_dispute(*, hand: Hand, note: str, source: str = HandRevision.Source.TABLE, by: User = None) -> Dispute:
    """The table disputes a hand; it shows on the director's board until resolved, and stays in
    the game's history with who raised it and when. A table's dispute that arrives once its round
    has closed is refused: the results it would hold up are final (the director can still raise
    one on the game's page)."""
    game = _locked_game(hand.game)
    if source == HandRevision.Source.TABLE and game.round.status != Round.Status.RUNNING:
        raise ValidationError(
            f"Round {game.round.number} has closed, so its results are final: ask the director about hand "
            f"{hand.number}.",
            code="round_closed",
        )
    hand = Hand.objects.get(pk=hand.pk)
    hand.disputed, hand.dispute_note, hand.dispute_resolution = True, note.strip(), ""
    hand.save(update_fields=["disputed", "dispute_note", "dispute_resolution"])
    return Dispute.objects.create(hand=hand, note=note.strip(), raised_from=source, raised_by=by)


@transaction.atomic
def resolve_dispute(*, hand: Hand, resolution: str, by: User = None) -> None:
    """Settle every open dispute on ``hand`` with ``resolution``, recording who and when."""
    _locked_game(hand.game)
    hand = Hand.objects.get(pk=hand.pk)
    hand.disputed, hand.dispute_resolution = False, resolution.strip()
    hand.save(update_fields=["disputed", "dispute_resolution"])
    hand.disputes.filter(resolved_at__isnull=True).update(
        resolution=resolution.strip(), resolved_by=by, resolved_at=timezone.now()
    )


@transaction.atomic
def decide_tie(*, game: Game, winner: str, how: str, by: User = None) -> str:
    """The director settles a tied game (a cut of the cards, say) instead of another hand; returns
    what that caused beyond the game, in words (see :meth:`EventFormat.game_changed`)."""
    game = _locked_game(game)
    winner_before = game.winner
    game.decide_tie(winner, how)
    return format_of(game.round.tournament).game_changed(game=game, winner_before=winner_before, by=by)


def record_phone_report(*, table: Table, waiting: int) -> None:
    """The table's page reported in (it does every half minute while open), with how many hands
    wait on the phone to be sent. Not a write to the tournament: one row's two columns, no lock."""
    Table.objects.filter(pk=table.pk).update(phone_heard_at=timezone.now(), phone_waiting=waiting)


@transaction.atomic
def reissue_token(*, table: Table) -> str:
    """Revoke a table's link and issue a new one for the rest of the event; the old link stops
    working at once (its table tent must be reprinted)."""
    lock_tournament(table.tournament_id)
    table = Table.objects.get(pk=table.pk)
    table.token = new_token()
    table.save(update_fields=["token"])
    return table.token
