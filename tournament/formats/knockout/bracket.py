"""Knockout brackets, as pure values: a field size in, the matches and where their teams come from out.

Single elimination: a bracket of P places (P the power of two at or above the field size N);
round 1 pairs seed s with seed P+1−s in the standard order (1 and 2 can meet only in the
final), and the P−N seeds above N are byes, so the byes go to the top seeds and only in round 1.
An optional third-place match is played by the two semi-final losers (it needs two real
semi-finals, so four teams or more).

Double elimination: the same winners' bracket; a winners'-bracket loser drops into the losers'
bracket, whose odd rounds pair its own survivors and whose even rounds meet the next winners'
round's losers (dropped in reverse order, which keeps early rematches apart). The winners'-bracket
champion meets the losers'-bracket champion in the grand final; when the losers'-bracket team wins
it, both have lost once and a second final decides. Round-1 byes leave places in the losers'
bracket empty: a match with one empty side is a bye for the other team, one with two is dropped.

Places come from the bracket: the champion, then the final's loser, then (single elimination) the
third-place match or, without it, the two semi-final losers sharing 3rd; further teams share a
place with everyone knocked out in the same round of the same bracket, later rounds ranking higher.

Names come from the bracket too, since only the whole bracket knows how many rounds it has: in a
single elimination the rounds before the final are the semi-finals, the quarter-finals, then
"Round 1", "Round 2", …; a double elimination counts its winners' and losers' rounds up to each
bracket's final. A round of several matches names each by its number through the whole bracket
("Semi-final, match 5"); a round of one match is named alone ("Final", "Losers' final").

Teams are any hashable ids, given in seed order (the first is seed 1); nothing here touches the
database.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class Stage(StrEnum):
    WINNERS = "winners"
    LOSERS = "losers"
    FINAL = "final"
    THIRD_PLACE = "third-place"


class Kind(StrEnum):
    SEED = "seed"
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True)
class Source:
    """Where one side of a match comes from: a seed number, or the winner or loser of a match."""

    kind: Kind
    ref: int | str

    def __str__(self) -> str:
        return f"seed {self.ref}" if self.kind == Kind.SEED else f"{self.kind} of {self.ref}"


@dataclass(frozen=True)
class Slot:
    """One match of the bracket. ``sides[1]`` is None for a bye; ``if_necessary`` marks the second
    final, played only when the losers'-bracket team wins the first."""

    key: str
    stage: Stage
    round: int
    number: int
    sides: tuple[Source, Source | None]
    if_necessary: bool = False

    @property
    def is_bye(self) -> bool:
        return self.sides[1] is None


@dataclass(frozen=True)
class Bracket:
    """A whole bracket for ``teams`` teams; ``slots`` in an order in which they can be played."""

    teams: int
    double: bool
    third_place: bool
    slots: tuple[Slot, ...]

    def slot(self, key: str) -> Slot:
        return self._by_key[key]

    @property
    def _by_key(self) -> dict[str, Slot]:
        return {slot.key: slot for slot in self.slots}

    @property
    def matches(self) -> tuple[Slot, ...]:
        """The slots that are real matches (not byes)."""
        return tuple(slot for slot in self.slots if not slot.is_bye)

    def round_name(self, stage: Stage | str, round_: int) -> str:
        """A round's name (see the module docstring): "Final", "Second final", "Third-place match";
        "Semi-final", "Quarter-final", "Round 1" before a single elimination's final; "Winners'
        round 1" … "Winners' final" and "Losers' round 1" … "Losers' final" in a double."""
        stage = Stage(stage)
        if stage == Stage.FINAL:
            return "Second final" if round_ == 2 else "Final"
        if stage == Stage.THIRD_PLACE:
            return "Third-place match"
        last = self._last_round.get(stage, 0)
        if self.double:
            side = "Winners'" if stage == Stage.WINNERS else "Losers'"
            return f"{side} final" if round_ == last else f"{side} round {round_}"
        before_final = last - round_  # 0 for the semi-finals
        return BEFORE_FINAL[before_final] if before_final < len(BEFORE_FINAL) else f"Round {round_}"

    def match_name(self, stage: Stage | str, round_: int, number: int) -> str:
        """A match's name: its round's and its ``number`` through the bracket ("Semi-final, match
        5"); a final, the only match of its round, goes by its round's alone ("Final", "Losers'
        final"), and so does a bye (number 0)."""
        stage = Stage(stage)
        name = self.round_name(stage, round_)
        final = stage in (Stage.FINAL, Stage.THIRD_PLACE) or (self.double and round_ == self._last_round[stage])
        return name if final or not number else f"{name}, match {number}"

    def column_title(self, stage: Stage | str, round_: int) -> str:
        """The title over a round's matches: "Semi-finals", "Quarter-finals", "Third place", or the
        round's name."""
        name = self.round_name(stage, round_)
        if name in BEFORE_FINAL:
            return f"{name}s"
        return "Third place" if Stage(stage) == Stage.THIRD_PLACE else name

    @cached_property
    def _last_round(self) -> dict[Stage, int]:
        last: dict[Stage, int] = {}
        for slot in self.slots:
            last[slot.stage] = max(last.get(slot.stage, 0), slot.round)
        return last


BEFORE_FINAL = ("Semi-final", "Quarter-final")  # a single elimination's named rounds, nearest the final first


def seed_order(size: int) -> list[int]:
    """Seed numbers in bracket order for ``size`` (a power of two) places: 1, P, P/2, P/2+1, …"""
    order = [1]
    while len(order) < size:
        length = 2 * len(order)
        order = [s for seed in order for s in (seed, length + 1 - seed)]
    return order


def _places(teams: int) -> int:
    if teams < 2:
        raise ValueError("a bracket needs at least two teams")
    size = 1
    while size < teams:
        size *= 2
    return size


def single_elimination(teams: int, *, third_place: bool = False) -> Bracket:
    """The single-elimination bracket for ``teams`` teams (see the module docstring)."""
    raw, last = _winners_bracket(teams, final_stage=True)
    if third_place and teams >= 4:
        semis = [s for s in raw if s.stage == Stage.WINNERS and s.round == last - 1]
        raw.append(
            Slot("3P", Stage.THIRD_PLACE, 1, 1, (Source(Kind.LOSER, semis[0].key), Source(Kind.LOSER, semis[1].key)))
        )
    return Bracket(teams, False, third_place and teams >= 4, _settle(raw, teams))


def double_elimination(teams: int) -> Bracket:
    """The double-elimination bracket for ``teams`` teams (see the module docstring)."""
    raw, rounds = _winners_bracket(teams, final_stage=False)
    survivors: list[Source] = [Source(Kind.LOSER, s.key) for s in raw if s.round == 1]
    losers_round = 0
    for winners_round in range(1, rounds + 1):
        if winners_round > 1:
            dropped = [Source(Kind.LOSER, s.key) for s in raw if s.stage == Stage.WINNERS and s.round == winners_round]
            if winners_round % 2 == 0:
                dropped.reverse()
            losers_round += 1
            survivors = _losers_round(raw, losers_round, list(zip(survivors, dropped, strict=True)))
        if len(survivors) > 1:
            losers_round += 1
            survivors = _losers_round(raw, losers_round, list(zip(survivors[::2], survivors[1::2], strict=True)))
    champion = Source(Kind.WINNER, f"W{rounds}-1")
    raw.append(Slot("F1", Stage.FINAL, 1, 1, (champion, survivors[0])))
    raw.append(Slot("F2", Stage.FINAL, 2, 1, (Source(Kind.LOSER, "F1"), Source(Kind.WINNER, "F1")), True))
    return Bracket(teams, True, False, _settle(raw, teams))


def _winners_bracket(teams: int, *, final_stage: bool) -> tuple[list[Slot], int]:
    size = _places(teams)
    order = seed_order(size)
    raw = [
        Slot(
            f"W1-{i + 1}",
            Stage.WINNERS,
            1,
            i + 1,
            (Source(Kind.SEED, order[2 * i]), Source(Kind.SEED, order[2 * i + 1])),
        )
        for i in range(size // 2)
    ]
    round_, count = 1, size // 2
    while count > 1:
        round_, count = round_ + 1, count // 2
        for i in range(count):
            sides = (
                Source(Kind.WINNER, f"W{round_ - 1}-{2 * i + 1}"),
                Source(Kind.WINNER, f"W{round_ - 1}-{2 * i + 2}"),
            )
            raw.append(Slot(f"W{round_}-{i + 1}", Stage.WINNERS, round_, i + 1, sides))
    if final_stage:
        final = raw.pop()
        raw.append(Slot("F1", Stage.FINAL, 1, 1, final.sides))
    return raw, round_


def _losers_round(raw: list[Slot], round_: int, pairs: list[tuple[Source, Source]]) -> list[Source]:
    winners = []
    for number, sides in enumerate(pairs, start=1):
        key = f"L{round_}-{number}"
        raw.append(Slot(key, Stage.LOSERS, round_, number, sides))
        winners.append(Source(Kind.WINNER, key))
    return winners


def _settle(raw: list[Slot], teams: int) -> tuple[Slot, ...]:
    """Empty the byes' sides, drop matches with no team at all, point sources past them, and order
    the slots so each comes after the matches it depends on (then winners before losers)."""
    settled: dict[str, Slot] = {}
    depth: dict[str, int] = {}
    for slot in raw:
        sides = [_through(side, settled, teams) for side in slot.sides]
        present = [side for side in sides if side is not None]
        if not present:
            continue
        first, second = present[0], present[1] if len(present) > 1 else None
        settled[slot.key] = Slot(slot.key, slot.stage, slot.round, slot.number, (first, second), slot.if_necessary)
        depth[slot.key] = 1 + max((depth.get(str(s.ref), 0) for s in present if s.kind != Kind.SEED), default=0)
    return tuple(sorted(settled.values(), key=lambda s: (depth[s.key], PLAY_ORDER.index(s.stage), s.round, s.number)))


# Among matches that can be played at the same time: the third-place match before the final.
PLAY_ORDER = [Stage.WINNERS, Stage.LOSERS, Stage.THIRD_PLACE, Stage.FINAL]


def _through(side: Source | None, settled: Mapping[str, Slot], teams: int) -> Source | None:
    """The side as it stands once empty places are known: a bye's loser and an empty match are
    empty; a seed above the field size is a bye."""
    if side is None:
        return None
    if side.kind == Kind.SEED:
        return side if int(side.ref) <= teams else None
    slot = settled.get(str(side.ref))
    if slot is None:
        return None
    if side.kind == Kind.LOSER and slot.is_bye:
        return None
    return side


# --- playing a bracket ------------------------------------------------------------------------


class Status(StrEnum):
    WAITING = "waiting"  # a side is not known yet
    READY = "ready"  # both teams known, not decided
    DECIDED = "decided"
    BYE = "bye"  # one team, who goes through without playing
    NOT_NEEDED = "not-needed"  # the second final when the winners'-bracket team won the first


@dataclass(frozen=True)
class MatchState(Generic[T]):
    slot: Slot
    teams: tuple[T | None, T | None]
    status: Status
    winner: T | None = None
    loser: T | None = None


@dataclass(frozen=True)
class Place(Generic[T]):
    """A place and the teams holding it (several share a place)."""

    place: int
    teams: tuple[T, ...]


@dataclass(frozen=True)
class BracketState(Generic[T]):
    bracket: Bracket
    matches: tuple[MatchState[T], ...]

    def match(self, key: str) -> MatchState[T]:
        return next(m for m in self.matches if m.slot.key == key)

    def ready(self) -> list[MatchState[T]]:
        """The matches that can be played now, in bracket order."""
        return [m for m in self.matches if m.status == Status.READY]

    @property
    def finished(self) -> bool:
        return all(m.status in (Status.DECIDED, Status.BYE, Status.NOT_NEEDED) for m in self.matches)

    @property
    def champion(self) -> T | None:
        if not self.finished:
            return None
        deciding = [m for m in self.matches if m.slot.stage == Stage.FINAL and m.status == Status.DECIDED]
        return deciding[-1].winner

    def places(self) -> list[Place[T]]:
        """Every team's place once the bracket is finished, best first (see the module docstring);
        empty before that."""
        champion = self.champion
        if champion is None:
            return []
        decided = [m for m in self.matches if m.status == Status.DECIDED]
        finals = [m for m in decided if m.slot.stage == Stage.FINAL]
        groups: list[tuple[T, ...]] = [(champion,), (finals[-1].loser,)]  # type: ignore[list-item]
        groups += [(m.winner, m.loser) for m in decided if m.slot.stage == Stage.THIRD_PLACE]  # type: ignore[misc]
        groups = [(team,) for group in groups for team in group]
        placed = {team for group in groups for team in group}
        knocked_out = Stage.LOSERS if self.bracket.double else Stage.WINNERS
        by_round: dict[int, list[T]] = {}
        for m in decided:
            if m.slot.stage == knocked_out and m.loser not in placed:
                by_round.setdefault(m.slot.round, []).append(m.loser)  # type: ignore[arg-type]
        groups += [tuple(by_round[r]) for r in sorted(by_round, reverse=True)]
        places, position = [], 1
        for group in groups:
            places.append(Place(position, group))
            position += len(group)
        return places


def resolve(bracket: Bracket, seeds: Sequence[T], results: Mapping[str, T]) -> BracketState[T]:
    """The bracket's state given the teams in seed order and the winners of the matches played.

    A result for a match that is not ready, or naming a team not in it, is a bug (ValueError).
    """
    if len(seeds) != bracket.teams or len(set(seeds)) != len(seeds):
        raise ValueError(f"the bracket is for {bracket.teams} different teams, given {len(seeds)}")
    states: dict[str, MatchState[T]] = {}
    for slot in bracket.slots:
        teams = tuple(_team(side, seeds, states) for side in slot.sides)
        states[slot.key] = _state(slot, teams, states, results.get(slot.key))  # type: ignore[arg-type]
    unknown = set(results) - set(states)
    if unknown:
        raise ValueError(f"results for matches not in the bracket: {sorted(unknown)}")
    return BracketState(bracket, tuple(states.values()))


def _team(side: Source | None, seeds: Sequence[T], states: Mapping[str, MatchState[T]]) -> T | None:
    if side is None:
        return None
    if side.kind == Kind.SEED:
        return seeds[int(side.ref) - 1]
    source = states[str(side.ref)]
    return source.winner if side.kind == Kind.WINNER else source.loser


def _state(
    slot: Slot, teams: tuple[T | None, T | None], states: Mapping[str, MatchState[T]], result: T | None
) -> MatchState[T]:
    if slot.if_necessary:
        first = states[str(slot.sides[1].ref)] if slot.sides[1] else None
        if first is not None and first.status == Status.DECIDED and first.winner == first.teams[0]:
            if result is not None:
                raise ValueError(f"{slot.key} is not needed: the winners'-bracket team won the first final")
            return MatchState(slot, (None, None), Status.NOT_NEEDED)
    if slot.is_bye:
        status = Status.WAITING if teams[0] is None else Status.BYE
        return MatchState(slot, teams, status, winner=teams[0])
    if None in teams:
        if result is not None:
            raise ValueError(f"{slot.key} is not ready: its teams are not known yet")
        return MatchState(slot, teams, Status.WAITING)
    if result is None:
        return MatchState(slot, teams, Status.READY)
    if result not in teams:
        raise ValueError(f"{result!r} does not play in {slot.key}")
    loser = teams[1] if result == teams[0] else teams[0]
    return MatchState(slot, teams, Status.DECIDED, winner=result, loser=loser)


# --- seeding ----------------------------------------------------------------------------------


def random_seeding(teams: Sequence[T], seed: int) -> list[T]:
    """The teams in a random seed order that the same ``seed`` reproduces."""
    order = list(teams)
    random.Random(seed).shuffle(order)
    return order


def director_seeding(teams: Sequence[T], seeds: Mapping[T, int]) -> list[T]:
    """The teams ordered by the seed numbers the director set: each team one number, 1 to N."""
    if set(seeds) != set(teams) or sorted(seeds.values()) != list(range(1, len(teams) + 1)):
        raise ValueError("give every team exactly one seed from 1 to the number of teams")
    return sorted(teams, key=lambda team: seeds[team])


def places_so_far(bracket: Bracket, seeds: Sequence[T], results: Mapping[str, T]) -> list[Place[T]]:
    """The places known while the bracket is played, best first (once it is finished, every
    team's): those of the teams no longer in a match to come. A team's place is settled when it
    goes out, whoever wins the matches left (it shares it with everyone out in the same round, and
    the bracket's shape fixes how many outlast it), so it is its place in the bracket played out
    from here with any winners."""
    state = resolve(bracket, seeds, results)
    played_out, finished = dict(results), state
    while ready := finished.ready():
        played_out |= {m.slot.key: m.teams[0] for m in ready}
        finished = resolve(bracket, seeds, played_out)
    still_in = {team for m in state.matches if m.status in (Status.WAITING, Status.READY) for team in m.teams}
    places = [Place(p.place, tuple(team for team in p.teams if team not in still_in)) for p in finished.places()]
    return [place for place in places if place.teams]
