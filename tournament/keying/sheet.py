"""The keying page's grid, as one person sees it: every hand stored, every hand keyed but not
entered yet (a person's own keyings shown, another's not: the second keying must be made from
the sheet, not copied), and a row for the next hand. Read-only."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser

from scoring import HandEntry, InvalidHand, Replay, RuleSet, Seat, replay
from tournament.keying.forms import Column, columns, differences, shown
from tournament.keying.models import Keying
from tournament.keying.services import NOT_ENTERED, next_deal
from tournament.models import Game
from tournament.play.forms import HandForm

Status = Keying.Status


@dataclass(frozen=True)
class Box:
    """An input of a row to key: its column, what it holds, whether it is wrong, whether the
    cursor starts there."""

    column: Column
    value: str = ""
    wrong: bool = False
    focus: bool = False


@dataclass(frozen=True)
class Line:
    """One keying of a hand in a mismatch, shown beside the other: who keyed it and when, and each
    column's text with whether it differs from the other keying."""

    who: str
    at: datetime
    cells: tuple[tuple[str, bool], ...]


@dataclass(frozen=True)
class Row:
    """Hand ``number`` (its ``deal``) in the grid. ``state`` is "entered" (stored), "mine" (keyed
    once, by the viewer), "key" (keyed once by someone else: the viewer keys it again), "mismatch",
    "agreed" (keyed alike twice, waiting for a hand before it) or "new" (nobody keyed it yet).
    ``cells`` are the texts of a row shown as it stands, ``boxes`` the inputs of a row to key;
    ``totals`` each side's score after it (``counted`` when from stored hands only)."""

    number: int
    deal: int
    state: str
    cells: tuple[str, ...] = ()
    boxes: tuple[Box, ...] = ()
    totals: tuple[int, int] | None = None
    counted: bool = True
    dealer: str = ""
    note: str = ""
    lines: tuple[Line, ...] = ()
    errors: tuple[str, ...] = ()

    @property
    def form_id(self) -> str:
        return f"key-{self.number}-{self.deal}"

    @property
    def discardable(self) -> bool:
        return self.state in ("mine", "mismatch", "agreed")


@dataclass(frozen=True)
class Typed:
    """A row the server refused: what was typed, and the hand form with its errors."""

    number: int
    deal: int
    data: Mapping[str, str]
    form: HandForm


@dataclass(frozen=True)
class _View:
    """A game as one person counts it: its stored hands and their replay, its keyed hands not
    entered by (number, deal), the values the viewer counts for the first of those (while known),
    and the replay of the stored hands followed by those (``provisional``; None when the rules
    refuse one)."""

    hands: list
    open: dict[tuple[int, int], list[Keying]]
    counted: Replay | None
    known: list[dict]
    provisional: Replay | None


def _view(game: Game, viewer: AbstractBaseUser) -> _View:
    hands = list(game.hands.order_by("number", "deal"))
    following = next_deal(game)
    open_: dict[tuple[int, int], list[Keying]] = defaultdict(list)
    for keying in game.keyings.filter(status__in=NOT_ENTERED).select_related("keyed_by").order_by("id"):
        # A hand stored another way and not caught up yet (services.catch_up) counts once: as stored.
        if (keying.number, keying.deal) >= following:
            open_[keying.number, keying.deal].append(keying)
    open_ = dict(sorted(open_.items()))
    known = []
    for keyings in open_.values():
        values = _counted_values(keyings, viewer)
        if values is None:
            break
        known.append(values)
    entries = [hand.entry for hand in hands]
    numbers = [hand.number for hand in hands]
    counted = _replay(game, entries, numbers)
    keys = list(open_)[: len(known)]
    provisional = (
        _replay(game, entries + [HandEntry.from_fields(v) for v in known], numbers + [n for n, _ in keys])
        if known
        else counted
    )
    return _View(hands, open_, counted, known, provisional)


def standing_before(game: Game, viewer: AbstractBaseUser, number: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Each side's (score, bags) before hand ``number`` as ``viewer`` counts the game: the stored
    hands, then the keyed ones whose values they know. It checks what the rules allow at that
    standing (a blind nil's deficit); entering the hand checks it again on the stored hands."""
    view = _view(game, viewer)
    replayed = view.provisional or view.counted
    return replayed.standing_before(number) if replayed is not None else game.standing


def keying_sheet(
    game: Game, viewer: AbstractBaseUser, *, typed: Typed | None = None, after: tuple[int, int] | None = None
) -> list[Row]:
    """Every row of ``game``'s grid as ``viewer`` sees it. The cursor starts in the row ``typed``
    (at its first wrong box) when given, else in the first row to key after hand ``after``
    (the one just saved), else in the first row to key."""
    view = _view(game, viewer)
    differing = _keyed_otherwise(game)
    rows = [
        _stored(game, hand, view.counted, index, differing.get(hand.pk, "")) for index, hand in enumerate(view.hands)
    ]
    for index, (key, keyings) in enumerate(view.open.items()):
        position = len(view.hands) + index if index < len(view.known) else None
        rows.append(_keyed(game, key, keyings, viewer, view.provisional, position))
    if view.open:
        # Over only when the viewer knows every keyed hand and those end the game.
        over = len(view.known) == len(view.open) and view.provisional is not None and view.provisional.game.over
    else:
        over = game.is_finished
    if not over:
        number, deal = _after(game, rows[-1] if rows else None)
        replayed = view.provisional if len(view.known) == len(view.open) else None
        dealer = replayed.dealer_of(number).label if replayed is not None else ""
        rows.append(Row(number, deal, state="new", dealer=dealer))
    return _with_boxes(game.rules, rows, typed, after)


def _replay(game: Game, entries: list, numbers: list[int]) -> Replay | None:
    try:
        return replay(game.rules, entries, first_dealer=Seat(game.first_dealer), numbers=numbers)
    except InvalidHand:  # a keyed hand the rules refuse after the hands before it: no totals from there
        return None


def _keyed_otherwise(game: Game) -> dict[int, str]:
    """By stored hand's id, in words, how the keyings set aside when it was stored (another way, or
    by a single keying) differ from it as it stands: the director checks those against the sheet."""
    rules = game.rules
    found: dict[int, str] = {}
    for keying in game.keyings.filter(status=Status.SET_ASIDE, hand__isnull=False).select_related("hand", "keyed_by"):
        differ = differences(rules, keying.values, keying.hand.entry.fields())
        if differ and keying.hand_id not in found:
            words = "; ".join(f"{column.label} {keyed or '–'}" for column, keyed, _ in differ)
            found[keying.hand_id] = (
                f"Keyed otherwise by {keying.keyed_by or 'someone'} ({words}) before it was entered: check the sheet."
            )
    return found


def _stored(game: Game, hand, counted: Replay | None, index: int, note: str = "") -> Row:
    rules = game.rules
    values = hand.snapshot()
    result = counted.results[index] if counted is not None else None
    return Row(
        number=hand.number,
        deal=hand.deal,
        state="entered",
        cells=tuple(shown(rules, column, values) for column in columns(rules)),
        totals=(result.teams[0].score, result.teams[1].score) if result is not None else None,
        dealer=counted.dealers[index].label if counted is not None else "",
        note=note,
    )


def _counted_values(keyings: list[Keying], viewer: AbstractBaseUser) -> dict | None:
    """The values ``viewer`` sees a keyed hand count as: agreed ones, or their own waiting keying;
    None when they cannot know (another's keying, a mismatch)."""
    agreed = [k for k in keyings if k.status == Status.AGREED]
    if agreed:
        return agreed[-1].values
    if len(keyings) == 1 and keyings[0].status == Status.WAITING and keyings[0].keyed_by_id == viewer.pk:
        return keyings[0].values
    return None


def _keyed(
    game: Game, key: tuple[int, int], keyings: list[Keying], viewer, provisional: Replay | None, position: int | None
) -> Row:
    rules = game.rules
    number, deal = key
    result = provisional.results[position] if provisional is not None and position is not None else None
    totals = (result.teams[0].score, result.teams[1].score) if result is not None else None
    dealer = provisional.dealers[position].label if provisional is not None and position is not None else ""
    base = {"number": number, "deal": deal, "totals": totals, "counted": False, "dealer": dealer}
    values = _counted_values(keyings, viewer)
    if any(k.status == Status.AGREED for k in keyings):
        cells = tuple(shown(rules, column, values) for column in columns(rules))
        return Row(
            **base,
            state="agreed",
            cells=cells,
            note="Keyed alike twice: counts once the hands before it are in.",
        )
    if keyings[0].status == Status.WAITING:
        first = keyings[0]
        if values is not None:
            cells = tuple(shown(rules, column, values) for column in columns(rules))
            return Row(**base, state="mine", cells=cells, note="Keyed once by you: waits for another person.")
        return Row(
            **base, state="key", note=f"Keyed once by {first.keyed_by or 'someone'}: key it again from the sheet."
        )
    differ = {column.name for column, _, _ in differences(rules, keyings[0].values, keyings[-1].values)}
    lines = tuple(
        Line(
            who=str(k.keyed_by or "someone"),
            at=k.keyed_at,
            cells=tuple((shown(rules, column, k.values), column.name in differ) for column in columns(rules)),
        )
        for k in keyings
    )
    note = "Mismatch: the two keyings differ. Key it a third time from the sheet, or discard both."
    return Row(**base, state="mismatch", lines=lines, note=note)


def _after(game: Game, last: Row | None) -> tuple[int, int]:
    """The hand after ``last`` (a misdeal's hand is dealt again under its number)."""
    if last is None:
        return next_deal(game)
    misdealt = last.cells and last.cells[-1]  # the misdeal column's text (a row shown as it stands)
    return (last.number, last.deal + 1) if misdealt else (last.number + 1, 1)


def _with_boxes(rules: RuleSet, rows: list[Row], typed: Typed | None, after: tuple[int, int] | None) -> list[Row]:
    """The rows to key get their inputs, the ``typed`` one as typed; the cursor goes to one of
    them. A refusal shows on its own row, or (a row not to key, or gone) on the row the cursor is in."""
    keyable = [row for row in rows if row.state in ("key", "mismatch", "new")]
    typed_key = (typed.number, typed.deal) if typed is not None else None
    focus = None
    if any((row.number, row.deal) == typed_key for row in keyable):
        focus = typed_key
    elif keyable:
        later = [row for row in keyable if after is None or (row.number, row.deal) > after]
        first = (later or keyable)[0]
        focus = (first.number, first.deal)
    refused_at = typed_key if any((row.number, row.deal) == typed_key for row in rows) else focus
    done = []
    for row in rows:
        key = (row.number, row.deal)
        if row in keyable:
            row = _boxed(rules, row, typed if key == typed_key else None, focus == key)
        if typed is not None and key == refused_at:
            form = typed.form
            errors = [
                *form.non_field_errors(),
                *(e for name in form.errors if name != "__all__" for e in form.errors[name]),
            ]
            row = replace(row, errors=tuple(f"Hand {typed.number}: {error}" for error in errors))
        done.append(row)
    return done


def _boxed(rules: RuleSet, row: Row, typed: Typed | None, focus: bool) -> Row:
    """``row`` with its inputs: empty, or as ``typed`` (its wrong boxes marked); the cursor in its
    first wrong box, else its first, when ``focus``."""
    wrong: set[str] = set()
    if typed is not None:
        form = typed.form
        wrong = {name for name in form.errors if name != "__all__"}
        if any(error.code == "tricks_total" for error in form.non_field_errors().as_data()):
            wrong |= {column.name for column in columns(rules) if column.kind == "tricks"}
    boxes = []
    focused = False
    for column in columns(rules):
        bad = column.name in wrong
        here = focus and not focused and (bad or not wrong)
        focused = focused or here
        value = str(typed.data.get(column.name, "")) if typed is not None else ""
        boxes.append(Box(column, value, bad, here))
    return replace(row, boxes=tuple(boxes))
