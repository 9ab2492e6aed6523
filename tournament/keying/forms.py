"""The keying grid's row: its columns under a rule set, and a row as typed, read through the hand
form (:class:`tournament.play.forms.HandForm`, the one place a hand's input rules live)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from scoring import RuleSet, Seat
from scoring.describe import bid_name
from scoring.hand import BLIND_NIL, NIL
from tournament.play.forms import HandForm, penalty_fields


@dataclass(frozen=True)
class Column:
    """One box of a row: the hand form's field ``name``, its ``heading`` in the grid's head, its
    ``label`` in words (for a screen reader and the mismatch's words) and its ``kind``: "bid",
    "tricks", "count" (an infraction) or "misdeal"."""

    name: str
    heading: str
    label: str
    kind: str


@functools.lru_cache(maxsize=64)
def columns(rules: RuleSet) -> tuple[Column, ...]:
    """A row's boxes under ``rules``, in the order Tab goes through them: the four bids, the four
    trick counts, the infractions these rules penalise, the misdeal."""
    boxes = [Column(f"{seat.prefix}_bid", seat.value, f"{seat.label}'s bid", "bid") for seat in Seat]
    boxes += [Column(f"{seat.prefix}_tricks", seat.value, f"{seat.label}'s tricks", "tricks") for seat in Seat]
    kinds = {"reneges": rules.has_reneg_penalty, "table_talk": rules.has_table_talk_penalty}
    for name, label in penalty_fields(rules):
        kind = "reneges" if name.endswith("_reneges") else "table_talk"
        if kinds[kind]:
            who = name.split("_")[0]
            heading = who.upper() if len(who) == 2 else who[0].upper()
            boxes.append(Column(name, f"{heading} {'rn' if kind == 'reneges' else 'tt'}", label, "count"))
    boxes.append(Column("misdeal", "Misdeal", "misdeal", "misdeal"))
    return tuple(boxes)


@functools.lru_cache(maxsize=64)
def misdeal_choices(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    """The misdeal box's choices: none, or a reason these rules allow."""
    return tuple(HandForm(rules=rules, standing=((0, 0), (0, 0))).fields["misdeal"].choices)


# What may be typed for a bid besides its number (case aside): the legend lists the short ones.
TYPED_BIDS = {"n": NIL, "nil": NIL, "b": BLIND_NIL, "bn": BLIND_NIL, "blind_nil": BLIND_NIL, "blind nil": BLIND_NIL}


def legend(rules: RuleSet) -> str:
    """How to type a row under ``rules``, in a line."""
    bids = "a bid is its number"
    if rules.has_nil:
        bids += ", n for nil"
    if rules.has_blind_nil:
        bids += f", b for {bid_name(rules, BLIND_NIL).lower()}"
    return f"Tab goes to the next box and Enter saves the hand; {bids}; an empty infraction box is 0."


def typed_form(data: Mapping[str, str], *, rules: RuleSet, standing, number: int, deal: int) -> HandForm:
    """Hand ``number`` (its ``deal``) as typed in a row of the grid, bound to the hand form: a bid
    typed as a letter is read as the bid it stands for; everything else as typed."""
    typed = {column.name: str(data.get(column.name, "")).strip() for column in columns(rules)}
    for column in columns(rules):
        if column.kind == "bid":
            typed[column.name] = TYPED_BIDS.get(typed[column.name].lower(), typed[column.name])
    return HandForm({**typed, "number": number, "deal": deal}, rules=rules, standing=standing)


def shown(rules: RuleSet, column: Column, values: Mapping[str, object]) -> str:
    """A stored value of ``column`` as the grid shows it ("Nil", "3", "" for a misdeal's bids)."""
    value = values.get(column.name)
    if column.kind == "bid":
        return bid_name(rules, value)
    if column.kind == "misdeal":
        return dict(misdeal_choices(rules)).get(str(value or ""), "") if value else ""
    if column.kind == "count":
        return str(value) if value else ""
    return "" if value is None else str(value)


def differences(
    rules: RuleSet, first: Mapping[str, object], second: Mapping[str, object]
) -> list[tuple[Column, str, str]]:
    """Each box two keyings of a hand differ in, with what each shows there."""
    return [
        (column, shown(rules, column, first), shown(rules, column, second))
        for column in columns(rules)
        if shown(rules, column, first) != shown(rules, column, second)
    ]
