"""Keying a paper sheet: a hand as keyed at the desk, discarding a hand's keyings, and what waits.

A write takes the tournament's lock first (:mod:`tournament.locking`) and enters a hand only
through :func:`tournament.play.hands.enter_hand` (source "director", by whoever keyed it; when the
club keys sheets twice, by the person whose keying agreed with the first). A hand may meanwhile be
entered another way (the table's phone, the director's game page), which knows nothing of keyings:
:func:`catch_up` brings the keyings up to date before every keying write and when the sheet is read.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet

from scoring import HandEntry, InvalidHand
from tournament.keying.forms import differences
from tournament.keying.models import Keying
from tournament.locking import lock_tournament
from tournament.models import Game, Hand, HandRevision, Round
from tournament.play.hands import GameGone, HandConflict, enter_hand

Status = Keying.Status
OPEN = (Status.WAITING, Status.MISMATCH)
NOT_ENTERED = (Status.WAITING, Status.MISMATCH, Status.AGREED)


@dataclass(frozen=True)
class Keyed:
    """What a keying did: ``said`` in words for whoever keyed it, the hand numbers it ``entered``
    (with any agreed hands after it that could now be entered), ``notice`` what that caused beyond
    the game or what could not be entered, and whether it was a ``mismatch``."""

    said: str
    entered: tuple[int, ...] = ()
    notice: str = ""
    mismatch: bool = False


def next_deal(game: Game) -> tuple[int, int]:
    """The (number, deal) the game's next stored hand will have: after a misdeal the same number
    dealt again, else the next number."""
    last = game.hands.order_by("-number", "-deal").values_list("number", "deal", "misdeal").first()
    if last is None:
        return 1, 1
    number, deal, misdeal = last
    return (number, deal + 1) if misdeal else (number + 1, 1)


def key_hand(*, game: Game, number: int, deal: int, entry: HandEntry, by: AbstractBaseUser) -> Keyed:
    """Hand ``number`` (its ``deal``) of ``game`` as ``by`` keyed it from the paper sheet.

    When the club does not key sheets twice, the hand is entered at once (it must be the game's
    next). When it does, the first keying waits; a second by another person with the same values
    agrees, a different one makes a mismatch; in a mismatch, a keying that agrees with another
    person's settles it (the other is set aside). An agreed hand is entered as soon as every hand
    before it is, and any agreed hands after it with it. Refusals raise :class:`ValidationError`
    (the same person keying twice, a hand already entered or agreed, a third keying agreeing with
    neither); what :func:`enter_hand` refuses raises as it does there, and nothing is stored then
    (but what :func:`catch_up` did first stands, and its notice is not told then).
    """
    caught = catch_up(game=game)
    keyed = _key(game=game, number=number, deal=deal, entry=entry, by=by)
    return replace(keyed, notice=" ".join(filter(None, [caught, keyed.notice])))


def _key(*, game: Game, number: int, deal: int, entry: HandEntry, by: AbstractBaseUser) -> Keyed:
    with transaction.atomic():
        tournament = lock_tournament(game.round.tournament_id)
        game = _read_again(game.pk)
        _check_keyable(game, number, deal)
        values = entry.fields()
        keyings = list(game.keyings.filter(number=number, deal=deal, status__in=NOT_ENTERED).order_by("id"))
        if not tournament.club.double_keying:
            return _entered_now(game, number, deal, entry, by, keyings)
        if any(k.status == Status.AGREED for k in keyings):
            raise ValidationError(
                f"Hand {number} is keyed twice alike already: it counts once the hands before it are entered.",
                code="agreed",
            )
        if not keyings:
            _check_running(game)
            Keying.objects.create(game=game, number=number, deal=deal, values=values, keyed_by=by)
            return Keyed(said=f"Hand {number} is keyed once: it counts when another person keys the same.")
        if len(keyings) == 1 and keyings[0].status == Status.WAITING:
            return _second(game, keyings[0], number, deal, values, by)
        return _settle(game, keyings, number, deal, values, by)


SAME_PERSON = "You keyed hand {number} already: another person keys it the second time."


def _second(game: Game, first: Keying, number: int, deal: int, values: dict, by: AbstractBaseUser) -> Keyed:
    if first.keyed_by_id == by.pk:
        raise ValidationError(SAME_PERSON.format(number=number), code="same_person")
    agreed = first.values == values
    status = Status.AGREED if agreed else Status.MISMATCH
    Keying.objects.create(game=game, number=number, deal=deal, values=values, keyed_by=by, status=status)
    Keying.objects.filter(pk=first.pk).update(status=status)
    if agreed:
        return _enter_agreed(game, number, deal)
    return Keyed(
        said=f"Hand {number} does not match its first keying: it is flagged as a mismatch and does not count "
        "until a third keying agrees with one of the two.",
        mismatch=True,
    )


def _settle(game: Game, keyings: list[Keying], number: int, deal: int, values: dict, by: AbstractBaseUser) -> Keyed:
    """A keying of a hand in a mismatch: it settles the mismatch when it agrees with another person's."""
    agreeing = next((k for k in keyings if k.values == values and k.keyed_by_id != by.pk), None)
    if agreeing is None:
        if any(k.values == values for k in keyings):
            raise ValidationError(
                f"These are the values you keyed for hand {number} before: another person must key the same "
                "for them to count.",
                code="same_person",
            )
        raise ValidationError(
            f"This keying of hand {number} agrees with neither keying before it: check the sheet again, or "
            "discard both and key the hand afresh.",
            code="agrees_with_neither",
        )
    Keying.objects.filter(pk__in=[k.pk for k in keyings if k.pk != agreeing.pk]).update(status=Status.SET_ASIDE)
    Keying.objects.filter(pk=agreeing.pk).update(status=Status.AGREED)
    Keying.objects.create(game=game, number=number, deal=deal, values=values, keyed_by=by, status=Status.AGREED)
    return _enter_agreed(game, number, deal)


def _entered_now(
    game: Game, number: int, deal: int, entry: HandEntry, by: AbstractBaseUser, keyings: list[Keying]
) -> Keyed:
    """One keying is enough: enter the hand (the game's next); keyings of it from before (made
    while the club keyed sheets twice) are entered with it when they agree, else set aside."""
    if (number, deal) != next_deal(game):
        raise InvalidHand(f"the next hand at this table is hand {next_deal(game)[0]}", field="hand")
    entered = enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.DIRECTOR, by=by)
    values = entry.fields()
    for keying in keyings:
        status = Status.ENTERED if keying.values == values else Status.SET_ASIDE
        Keying.objects.filter(pk=keying.pk).update(status=status, hand=entered.hand)
    later, notice = _enter_following(entered.game)
    return Keyed(said=f"Saved hand {number}." + _also(later), entered=(number, *later),
                 notice=" ".join(filter(None, [entered.notice, notice])))  # fmt: skip


def _enter_agreed(game: Game, number: int, deal: int) -> Keyed:
    """Hand ``number`` was just keyed alike twice: enter it if every hand before it is, and any
    agreed hands after it; else it waits, agreed."""
    if next_deal(game) != (number, deal):
        waiting = next_deal(game)[0]
        return Keyed(said=f"Hand {number} matches its first keying: it counts once hand {waiting} is entered.")
    entered, notice = _enter_group(game, number, deal)
    later, more = _enter_following(entered.game)
    return Keyed(said=f"Hand {number} matches its first keying and is entered." + _also(later),
                 entered=(number, *later), notice=" ".join(filter(None, [notice, more])))  # fmt: skip


def _enter_group(game: Game, number: int, deal: int):
    """Enter hand ``number`` as its agreed keyings have it, by whoever keyed it last (it was their
    keying that made it count); mark those keyings entered. Returns :func:`enter_hand`'s answer and
    its notice."""
    group = list(game.keyings.filter(number=number, deal=deal, status=Status.AGREED).order_by("keyed_at", "id"))
    confirming = group[-1]
    entered = enter_hand(
        game=game,
        number=number,
        entry=HandEntry.from_fields(confirming.values),
        source=HandRevision.Source.DIRECTOR,
        by=confirming.keyed_by,
    )
    Keying.objects.filter(pk__in=[k.pk for k in group]).update(status=Status.ENTERED, hand=entered.hand)
    return entered, entered.notice


def _enter_following(game: Game) -> tuple[list[int], str]:
    """Enter every agreed hand that is now the game's next, in order; stop at the first that is not
    agreed, or that cannot be entered (its reason, in words, is the notice)."""
    entered, notices = [], []
    while True:
        number, deal = next_deal(game)
        if not game.keyings.filter(number=number, deal=deal, status=Status.AGREED).exists():
            break
        try:
            with transaction.atomic():
                done, notice = _enter_group(game, number, deal)
        except (InvalidHand, HandConflict) as error:
            reason = error.message if isinstance(error, InvalidHand) else str(error)
            notices.append(f"Hand {number} was keyed alike twice but cannot be entered ({reason}): discard its "
                           "keyings and key it again.")  # fmt: skip
            break
        entered.append(number)
        notices.append(notice)
        game = done.game
    return entered, " ".join(filter(None, notices))


def _also(numbers: list[int]) -> str:
    """The hands entered after the one keyed or stored (agreed before, waiting for it), in words."""
    if not numbers:
        return ""
    listed = ", ".join(str(n) for n in numbers)
    if len(numbers) == 1:
        return f" Hand {listed}, keyed alike twice before, is entered too."
    return f" Hands {listed}, keyed alike twice before, are entered too."


def catch_up(*, game: Game) -> str:
    """Bring ``game``'s keyings up to date with hands stored another way since they were keyed:
    keyings not entered of a hand now stored are set aside (linked to that hand, so the sheet can
    show where they differ from it), then agreed hands that are now the game's next are entered, in
    order. It writes (under the tournament's lock) only when there is something to catch up, and
    returns what it did in words ("" when nothing)."""
    if not _behind(game):
        return ""
    with transaction.atomic():
        lock_tournament(game.round.tournament_id)
        game = _read_again(game.pk)
        if not _behind(game):  # caught up by another request meanwhile
            return ""
        stored = {(hand.number, hand.deal): hand for hand in game.hands.all()}
        stale = _stale(game)
        for keying in stale:
            Keying.objects.filter(pk=keying.pk).update(
                status=Status.SET_ASIDE, hand=stored.get((keying.number, keying.deal))
            )
        numbers = sorted({keying.number for keying in stale})
        said = ""
        if numbers:
            listed = ", ".join(str(n) for n in numbers)
            said = (f"Hand {listed} was entered at the table or on the game page meanwhile: its keyings are set aside."
                    if len(numbers) == 1 else
                    f"Hands {listed} were entered at the table or on the game page meanwhile: their keyings are "
                    "set aside.")  # fmt: skip
        later, notice = _enter_following(game)
        said += _also(later)
        return " ".join(filter(None, [said.strip(), notice]))


def _stale(game: Game) -> list[Keying]:
    """The keyings not entered of hands before the game's next: stored another way meanwhile."""
    following = next_deal(game)
    open_ = game.keyings.filter(status__in=NOT_ENTERED).order_by("number", "deal", "id")
    return [keying for keying in open_ if (keying.number, keying.deal) < following]


def _behind(game: Game) -> bool:
    """Whether :func:`catch_up` has something to do: stale keyings, or an agreed next hand."""
    number, deal = next_deal(game)
    return bool(_stale(game)) or game.keyings.filter(number=number, deal=deal, status=Status.AGREED).exists()


def discard(*, game: Game, number: int, deal: int) -> int:
    """Set aside every keying of hand ``number`` (its ``deal``) not entered yet: a mismatch nobody
    can settle, or a keying its keyer got wrong. Returns how many; none raises :class:`ValidationError`."""
    catch_up(game=game)
    with transaction.atomic():
        lock_tournament(game.round.tournament_id)
        game = _read_again(game.pk)
        count = game.keyings.filter(number=number, deal=deal, status__in=NOT_ENTERED).update(status=Status.SET_ASIDE)
        if not count:
            raise ValidationError(f"Hand {number} has no keyings waiting to discard.", code="nothing_to_discard")
        return count


def _read_again(game_id: int) -> Game:
    try:
        return Game.objects.select_related("round__tournament", "table", "match").get(pk=game_id)
    except Game.DoesNotExist:
        raise GameGone(GameGone.message) from None


def _check_keyable(game: Game, number: int, deal: int) -> None:
    """A keying names a hand not stored yet, at most one past the last hand stored or keyed (and a
    deal at most one past that hand's last deal stored or keyed)."""
    if game.hands.filter(number=number, deal=deal).exists() or (number, deal) < next_deal(game):
        raise ValidationError(
            f"Hand {number} is entered already: correct it on the table's page if the sheet says otherwise.",
            code="entered",
        )
    keyed = game.keyings.filter(status__in=NOT_ENTERED).order_by("-number").values_list("number", flat=True).first()
    furthest = max(next_deal(game)[0], (keyed or 0) + 1)
    if number > furthest:
        raise ValidationError(f"Key the hands in order: the next to key is hand {furthest}.", code="out_of_order")
    # A deal after a misdeal likewise: at most one past the last deal of this hand stored or keyed.
    stored = game.hands.filter(number=number).order_by("-deal").values_list("deal", flat=True).first()
    keyed_deal = (
        game.keyings.filter(number=number, status__in=NOT_ENTERED).order_by("-deal").values_list("deal", flat=True)
    ).first()
    furthest_deal = max(stored or 0, keyed_deal or 0) + 1
    if deal > furthest_deal:
        raise ValidationError(
            f"Key the deals of hand {number} in order: the next to key is deal {furthest_deal}.", code="out_of_order"
        )


def _check_running(game: Game) -> None:
    """A keying that waits must be one that could be entered: :func:`enter_hand` checks the same
    when the hand is entered."""
    if game.round.status != Round.Status.RUNNING:
        raise ValidationError(f"Round {game.round.number} is not running.", code="round_not_running")
    if game.status == Game.Status.FINISHED:
        raise ValidationError("The game at this table is over; no more hands can be keyed.", code="game_over")


# --- what waits: for the round board, the round's flags and the keying page ----------------------


@dataclass(frozen=True)
class Mismatch:
    """A hand whose two keyings differ: its table, its number, its game and the difference in words."""

    table: int
    hand: int
    game_id: int
    words: str
    keyings: tuple[int, ...]  # the ids of the keyings that differ: a new keying makes a new mismatch


@dataclass(frozen=True)
class Waiting:
    """How many hands wait for a second keying, and how many are mismatches."""

    second: int
    mismatches: int


def _unstored(keyings: QuerySet[Keying]) -> QuerySet[Keying]:
    """``keyings`` but those of hands stored another way and not caught up yet: they wait for nothing."""
    stored = Hand.objects.filter(game=OuterRef("game"), number=OuterRef("number"), deal=OuterRef("deal"))
    return keyings.exclude(Exists(stored))


def waiting(keyings: QuerySet[Keying]) -> Waiting:
    """Of ``keyings`` (a round's, a game's), the hands keyed once and the hands in a mismatch."""
    keyings = _unstored(keyings)

    def hands(status: str) -> int:
        return keyings.filter(status=status).values("game", "number", "deal").distinct().count()

    return Waiting(second=hands(Status.WAITING), mismatches=hands(Status.MISMATCH))


def round_keyings(round_: Round) -> QuerySet[Keying]:
    return Keying.objects.filter(game__round=round_)


def mismatches(round_: Round) -> list[Mismatch]:
    """Every hand of ``round_`` whose keyings differ, table by table, with what they differ in."""
    keyings = (
        _unstored(round_keyings(round_))
        .filter(status=Status.MISMATCH)
        .select_related("game__table", "game__round__tournament", "game__match")
        .order_by("game__table__number", "number", "deal", "id")
    )
    by_hand: dict[tuple[int, int, int], list[Keying]] = defaultdict(list)
    for keying in keyings:
        by_hand[keying.game_id, keying.number, keying.deal].append(keying)
    found = []
    for (game_id, number, _), pair in by_hand.items():
        game = pair[0].game
        differ = "; ".join(
            f"{column.label} {first or '–'} or {second or '–'}"
            for column, first, second in differences(game.rules, pair[0].values, pair[-1].values)
        )
        words = f"Table {game.table.number}, hand {number}: its two keyings differ ({differ})."
        ids = tuple(keying.pk for keying in pair)
        found.append(Mismatch(table=game.table.number, hand=number, game_id=game_id, words=words, keyings=ids))
    return found
