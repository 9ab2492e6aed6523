"""A hand's save: the one path every hand takes, from a table's phone or the director's desk.

:func:`enter_hand` takes the tournament's lock (:mod:`tournament.locking`), reads the game again
under it, checks the hand, writes it with its revision and the game's new totals, and tells the
event's format what the game now decides (:meth:`~tournament.formats.registry.EventFormat.game_changed`),
all in one transaction. A mistake the user can fix raises :class:`scoring.InvalidHand` (or
:class:`HandConflict`, :class:`GameGone`); nothing is written then. So does a correction that
would move prizes already paid, until the director confirms it
(:class:`~tournament.money.winners.PaidPlacesMove`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import OuterRef, Subquery

from scoring import HandEntry, InvalidHand, Replay
from tournament.formats.registry import format_of
from tournament.locking import take_lock
from tournament.models import RECORDED, Game, Hand, HandRevision, Round
from tournament.money.winners import paid_places

User = AbstractBaseUser | None


class HandConflict(Exception):
    """The hand changed (or was entered) since the form was loaded; ``hand`` is what is stored."""

    def __init__(self, message: str, hand: Hand) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand


class GameGone(Exception):
    """The game is no longer in the database: the event was restored from a backup meanwhile."""

    message = "This event was restored from a backup meanwhile, so this game is gone: reload the page."


@dataclass(frozen=True)
class EnteredHand:
    """A stored hand and its game after it: ``game`` is the row as written with it, ``hands`` the
    hands ``replay`` scored (one result per hand), so the caller renders without loading or
    scoring anything again: every hand of the game in order, or, for a new last hand, that hand
    alone (scored on the game's stored totals; see :meth:`Game.replay_next`). ``notice`` is what
    the change caused beyond the game, in words for the director ("" when nothing else changed)."""

    hand: Hand
    game: Game
    hands: list[Hand]
    replay: Replay
    notice: str = ""


def enter_hand(
    *,
    game: Game,
    number: int,
    entry: HandEntry,
    source: str,
    by: User = None,
    expected_version: int | None = None,
    deal: int | None = None,
    confirmed_by: str = "",
    entry_key: str = "",
    keyed_at: datetime | None = None,
    paid_moves_confirmed: str = "",
) -> EnteredHand:
    """Store hand ``number`` of ``game``: a new one, or a correction of a stored one.

    A new hand must be the next number; when that number is already stored, :class:`HandConflict`
    returns the stored hand (two phones, one hand). A correction names the ``expected_version``
    it was based on, and the ``deal`` of hand ``number`` it corrects (its last when not given); a
    stale one raises :class:`HandConflict` too. The hand must pass the scoring
    rules together with every hand before and after it, else :class:`scoring.InvalidHand`. Every
    change is kept as a :class:`HandRevision`. A new scored hand is scored on the game's stored
    totals (the hands before it are not read); anything else replays the game once.

    At the table (``source`` "table") the round must be running (a phone's hand that arrives
    after the close is refused), only the last hand can be corrected, and when the tournament asks
    for it an opponent's initials (``confirmed_by``) are needed. The director may correct any hand
    of any round; a correction in a closed round must leave the game decided.

    ``entry_key`` names one attempt, made on the phone: when a hand already carries it (the
    attempt was stored and is being sent again), that hand is returned and nothing is written,
    as if the first send had just succeeded. ``keyed_at`` is when the phone says the hand was
    entered (its own clock); a new hand keeps it, a correction leaves the hand's as it was.

    A correction that takes a prize already paid from the entrant paid raises
    :class:`~tournament.money.winners.PaidPlacesMove` naming the moves, and nothing is written,
    unless ``paid_moves_confirmed`` is that exception's token: the director saw those very moves
    (decided under the lock, with the correction in place, so a change meanwhile asks again).

    ``game`` is read again under the tournament's lock; :class:`GameGone` when it has gone.
    """
    with transaction.atomic():
        take_lock(game.round.tournament_id)
        game = _read_again(game.pk)
        if entry_key and (sent := Hand.objects.filter(entry_key=entry_key).first()) is not None:
            return _sent_before(game, sent)
        if source == HandRevision.Source.TABLE:
            _check_table_entry(game, confirmed_by)
        hand = _new_deal(game, number, expected_version)
        if hand is not None:
            hands = list(_hands(game)) if entry.misdeal else None
        else:
            hands = list(_hands(game))
            hand = next((h for h in reversed(hands) if h.number == number and deal in (None, h.deal)), None)
            if hand is None:
                raise InvalidHand(f"there is no hand {number} at this table", field="hand")
            _check_correction(game, hand, hands, entry, source=source, expected_version=expected_version)
        paid = None if hand.pk is None else paid_places(game.round.tournament)
        if hand.pk is None:
            hand.keyed_at = keyed_at
        entered = _store(game, hand, entry, hands=hands, source=source, by=by, confirmed_by=confirmed_by,
                         entry_key=entry_key)  # fmt: skip
        if paid is None:
            return entered
        moved = paid.check(confirmed=paid_moves_confirmed)  # raising rolls the correction back
        return replace(entered, notice=" ".join(filter(None, [entered.notice, moved])))


def _read_again(game_id: int) -> Game:
    """Game ``game_id`` as committed, read under its tournament's lock with its tournament's row
    and its last deal's number, deal and misdeal (``last_number``, ``last_deal``, ``last_misdeal``;
    None before hand 1), in one query."""
    last = Hand.objects.filter(game=OuterRef("pk")).order_by("-number", "-deal")[:1]
    games = Game.objects.select_related("round__tournament", "table", "match", "clock").annotate(
        last_number=Subquery(last.values("number")),
        last_deal=Subquery(last.values("deal")),
        last_misdeal=Subquery(last.values("misdeal")),
    )
    try:
        fresh = games.get(pk=game_id)
    except Game.DoesNotExist:
        raise GameGone(GameGone.message) from None
    if fresh.match is not None:
        fresh.match.tournament = fresh.round.tournament
    return fresh


def _hands(game: Game):
    return game.hands.order_by("number", "deal")


def _new_deal(game: Game, number: int, expected_version: int | None) -> Hand | None:
    """The unsaved hand that ``number`` enters when it is the game's next (after a misdeal, the
    same number dealt again), or None when it names a stored hand to correct. A correction of a
    misdeal names its version; the same number without one is the hand dealt again."""
    last = game.last_number or 0
    upcoming = last if game.last_misdeal else last + 1
    if number < upcoming or (number == last and expected_version is not None):
        return None
    _check_new_hand(game, upcoming, number)
    return Hand(game=game, number=number, deal=game.last_deal + 1 if number == last else 1)


def _sent_before(game: Game, sent: Hand) -> EnteredHand:
    """A resent entry: the hand it stored, as if it had just been stored. Its game may be one the
    table has finished since (a match's deciding hand, sent again once the next match took the
    table); another table's is refused."""
    if sent.game_id != game.pk:
        if sent.game.table_id != game.table_id:
            raise InvalidHand("this entry was made for another table's game", field="hand", code="other_game")
        game = _read_again(sent.game_id)
    hands = list(_hands(game))
    sent = next(hand for hand in hands if hand.pk == sent.pk)
    return EnteredHand(hand=sent, game=game, hands=hands, replay=game.replay(hands))


def _check_table_entry(game: Game, confirmed_by: str) -> None:
    if game.round.status != Round.Status.RUNNING:
        raise InvalidHand(f"round {game.round.number} is not running", field="hand", code="round_not_running")
    if game.round.tournament.require_confirmation and not confirmed_by.strip():
        raise InvalidHand("a player of the other side confirms the hand with their initials", field="confirmed_by",
                          code="confirmation_required")  # fmt: skip


def _check_new_hand(game: Game, upcoming: int, number: int) -> None:
    if number != upcoming:
        raise InvalidHand(f"the next hand at this table is hand {upcoming}", field="hand")
    if game.round.status != Round.Status.RUNNING:
        raise InvalidHand(f"round {game.round.number} is {game.round.get_status_display().lower()}", field="hand")
    if game.status == Game.Status.FINISHED:
        raise InvalidHand("the game at this table is over; no more hands can be entered", field="hand")


def _check_correction(
    game: Game, hand: Hand, hands: list[Hand], entry: HandEntry, *, source: str, expected_version: int | None
) -> None:
    if expected_version is None:
        raise HandConflict(f"Hand {hand.number} was already entered; this is what was stored.", hand)
    if expected_version != hand.version:
        raise HandConflict(f"Hand {hand.number} was changed by someone else meanwhile; here it is now.", hand)
    if source == HandRevision.Source.TABLE and hand.pk != hands[-1].pk:
        raise InvalidHand("only the last hand can be corrected at the table; ask the director", field="hand",
                          code="not_last_hand")  # fmt: skip
    if bool(entry.misdeal) != bool(hand.misdeal) and hand.pk != hands[-1].pk:
        # A misdeal shares its number with the hand dealt again: the hands after would be renumbered.
        raise InvalidHand("only the last hand entered can become a misdeal, or a misdeal a hand", field="hand",
                          code="misdeal_not_last")  # fmt: skip


def _store(
    game: Game,
    hand: Hand,
    entry: HandEntry,
    *,
    hands: list[Hand] | None,
    source: str,
    by: User,
    confirmed_by: str,
    entry_key: str,
) -> EnteredHand:
    """Write ``hand`` (new when unsaved, else a correction) with ``entry``, its revision and the
    game's totals, then tell the format. Replays ``hands`` (all of the game's, stored versions)
    with it, or, when ``hands`` is None, scores the new hand alone on the game's totals."""
    new = hand.pk is None
    before = None if new else hand.snapshot()
    if not new:
        hand.version += 1
    winner_before = game.winner
    hand.confirmed_by = confirmed_by.strip()
    if entry_key:
        hand.entry_key = entry_key
    hand.store(HandEntry.misdealt(entry.misdeal) if entry.misdeal else entry)  # a misdeal keeps no scores
    if hands is None:
        ordered, replayed = [hand], game.replay_next(hand)
    else:
        ordered = sorted([h for h in hands if h.pk != hand.pk] + [hand], key=lambda h: (h.number, h.deal))
        replayed = game.replay(ordered)
    if new:
        game.call_time(hand.number)
    game.apply(replayed, ordered)
    if game.round.status == Round.Status.CLOSED and game.status != Game.Status.FINISHED:
        # The next round was seated (or the match decided) from this game's result: it must still have one.
        raise InvalidHand("a correction in a closed round must leave the game decided", field="hand",
                          code="closed_round_undecided")  # fmt: skip
    hand.save()
    HandRevision.objects.create(hand=hand, source=source, changed_by=by, before=before, after=hand.snapshot())
    game.save(update_fields=RECORDED)
    notice = format_of(game.round.tournament).game_changed(game=game, winner_before=winner_before, by=by)
    return EnteredHand(hand=hand, game=game, hands=ordered, replay=replayed, notice=notice)
