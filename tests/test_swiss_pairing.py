"""The Swiss (Monrad) pairing of one round, as pure code (tournament/formats/swiss/pairing.py).

Closeness is measured as the module states it: the sum over the tables of the rank distance
between the two partners, ties going to Monrad's order (the better-ranked of the teams concerned
keeps the nearer partner). The property tests play whole events: rank by wins (ties drawn at
random), pair, draw each table's winner at random, the bye counting as a win."""

import ast
import random
from collections.abc import Iterator
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.formats.swiss import pairing as pairing_module
from tournament.formats.swiss.pairing import RoundPairing, pair_round

Round = tuple[list[int], set[frozenset[int]], set[int], RoundPairing]


def play(teams: int, rounds: int, rng: random.Random) -> Iterator[Round]:
    """Each round of an event of ``teams`` teams: (ranking, pairs met before, teams that had a
    bye, the pairing). Ids are not ranks (a mix-up of the two shows)."""
    ids = rng.sample(range(100, 1000), teams)
    wins = dict.fromkeys(ids, 0)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    for number in range(1, rounds + 1):
        ranked = ids if number == 1 else sorted(ids, key=lambda team: (-wins[team], rng.random()))
        pairing = pair_round(ranked, frozenset(met), frozenset(had_bye))
        yield ranked, set(met), set(had_bye), pairing
        for pair in pairing.pairs:
            wins[rng.choice(pair)] += 1
            met.add(frozenset(pair))
        if pairing.bye is not None:
            wins[pairing.bye] += 1
            had_bye.add(pairing.bye)


def exhaustive(ranked: list[int], met: set[frozenset[int]], had_bye: set[int]) -> RoundPairing:
    """The pairing the rules ask for, by trying every pairing (a table of the fewest rematches
    for every set of teams): the fewest rematches; the bye by (2) among the byes that allow them;
    then each team in rank order with the nearest partner that still allows them."""
    count = len(ranked)
    again = [[frozenset((one, other)) in met for other in ranked] for one in ranked]

    @cache
    def fewest(teams: int) -> int:  # a bit set of ranks
        if not teams:
            return 0
        top = (teams & -teams).bit_length() - 1
        rest = teams & ~(1 << top)
        return min(again[top][other] + fewest(rest & ~(1 << other)) for other in range(count) if rest >> other & 1)

    everyone = (1 << count) - 1
    bye = None
    if count % 2:
        preference = [rank for rank in reversed(range(count)) if ranked[rank] not in had_bye]
        preference += [rank for rank in reversed(range(count)) if ranked[rank] in had_bye]
        least = min(fewest(everyone & ~(1 << rank)) for rank in preference)
        bye = next(rank for rank in preference if fewest(everyone & ~(1 << rank)) == least)
        everyone &= ~(1 << bye)
    rematches, teams, pairs = fewest(everyone), everyone, []
    while teams:
        top = (teams & -teams).bit_length() - 1
        rest = teams & ~(1 << top)
        partner = next(other for other in range(count)
                       if rest >> other & 1
                       and again[top][other] + fewest(rest & ~(1 << other)) == fewest(teams))  # fmt: skip
        pairs.append((ranked[top], ranked[partner]))
        teams = rest & ~(1 << partner)
    return RoundPairing(pairs=tuple(pairs), bye=None if bye is None else ranked[bye], rematches=rematches)


def bye_preference(ranked: list[int], had_bye: set[int]) -> list[int]:
    """Priority (2): those without a bye from the bottom up, then those with one."""
    return [team for team in reversed(ranked) if team not in had_bye] + [
        team for team in reversed(ranked) if team in had_bye
    ]


def everyone_can_meet_half_the_rest(ranked: list[int], met: set[frozenset[int]]) -> bool:
    """Whether, whoever takes the bye, every team still has unmet teams in at least half of the
    rest of the field: then a pairing without a rematch exists (Dirac's theorem)."""
    rest = len(ranked) - len(ranked) % 2  # the teams left to pair
    unmet = {team: sum(frozenset((team, other)) not in met for other in ranked if other != team) for team in ranked}
    return min(unmet.values()) - len(ranked) % 2 >= rest / 2


def closer_repairings(ranked: list[int], met: set[frozenset[int]], result: RoundPairing) -> list:
    """The re-pairings of two tables' four teams that break no priority and are closer."""
    rank = {team: index for index, team in enumerate(ranked)}

    def measure(pairs) -> tuple[int, int, list[int]]:
        rematches = sum(frozenset(pair) in met for pair in pairs)
        distance = sum(abs(rank[one] - rank[other]) for one, other in pairs)
        partners = {}
        for one, two in pairs:
            partners[one], partners[two] = rank[two], rank[one]
        monrad = [partners[team] for team in sorted(partners, key=rank.get)]  # the better-ranked's partner first
        return rematches, distance, monrad

    closer = []
    for first, second in combinations(result.pairs, 2):
        best, *rest = sorted((*first, *second), key=rank.get)
        ours = measure((first, second))
        for partner in rest:
            others = tuple(team for team in rest if team != partner)
            other = ((best, partner), others)
            if {frozenset(pair) for pair in other} != {frozenset(first), frozenset(second)} and measure(other) < ours:
                closer.append(((first, second), other))
    return closer


@given(teams=st.integers(4, 64), rounds=st.integers(1, 9), rng=st.randoms(use_true_random=False))
@settings(deadline=None)
def test_every_team_plays_once_or_has_the_bye_and_the_tables_run_down_the_ranking(teams, rounds, rng):
    for ranked, met, _, result in play(teams, rounds, rng):
        seated = [team for pair in result.pairs for team in pair]
        assert sorted([*seated, *([result.bye] if result.bye is not None else [])]) == sorted(ranked)
        assert (result.bye is None) == (teams % 2 == 0)
        rank = {team: index for index, team in enumerate(ranked)}
        assert all(rank[higher] < rank[lower] for higher, lower in result.pairs)
        assert [rank[higher] for higher, _ in result.pairs] == sorted(rank[higher] for higher, _ in result.pairs)
        assert result.rematches == sum(frozenset(pair) in met for pair in result.pairs)


@given(teams=st.integers(4, 12), rounds=st.integers(1, 9), rng=st.randoms(use_true_random=False))
@settings(deadline=None)
def test_small_fields_pair_exactly_as_an_exhaustive_search_over_every_pairing_says(teams, rounds, rng):
    for ranked, met, had_bye, result in play(teams, rounds, rng):
        expected = exhaustive(ranked, met, had_bye)
        if expected.rematches == 0:  # a pairing without a rematch exists: (1) says use one
            assert result.rematches == 0
        assert result == expected


@given(teams=st.integers(4, 64), rounds=st.integers(1, 9), rng=st.randoms(use_true_random=False))
@settings(deadline=None)
def test_no_rematch_while_every_team_has_half_the_field_still_to_meet(teams, rounds, rng):
    for ranked, met, _, result in play(teams, rounds, rng):
        if everyone_can_meet_half_the_rest(ranked, met):
            assert result.rematches == 0


@given(teams=st.integers(2, 32).map(lambda half: 2 * half - 1), rounds=st.integers(1, 9),
       rng=st.randoms(use_true_random=False))  # fmt: skip
@settings(deadline=None)
def test_the_bye_goes_to_the_lowest_ranked_team_without_one_unless_that_costs_a_rematch(teams, rounds, rng):
    for ranked, met, had_bye, result in play(teams, rounds, rng):
        preference = bye_preference(ranked, had_bye)
        if everyone_can_meet_half_the_rest(ranked, met):
            assert result.bye == preference[0]
        # Every team before the bye's in the order of (2) would have left more rematches.
        for team in preference[: preference.index(result.bye)]:
            assert pair_round([other for other in ranked if other != team], met).rematches > result.rematches


@given(teams=st.integers(4, 64), rounds=st.integers(1, 9), rng=st.randoms(use_true_random=False))
@settings(deadline=None)
def test_no_repairing_of_two_tables_brings_partners_closer_in_the_ranking_without_a_rematch(teams, rounds, rng):
    for ranked, met, _, result in play(teams, rounds, rng):
        assert closer_repairings(ranked, met, result) == []


@pytest.mark.parametrize("teams", range(1, 65))
def test_round_one_pairs_first_with_second_third_with_fourth_and_the_last_has_the_bye(teams):
    ranked = [10 * seed for seed in range(1, teams + 1)]
    result = pair_round(ranked)
    assert result.pairs == tuple(zip(ranked[0:-1:2], ranked[1::2], strict=True))
    assert result.bye == (ranked[-1] if teams % 2 else None)
    assert result.rematches == 0


@pytest.mark.parametrize(("teams", "pool"), [(12, 5), (20, 9), (64, 9), (256, 9), (256, 101)])
def test_a_pool_that_met_only_each_other_takes_partners_from_just_above_it(teams, pool):
    """The ``pool`` lowest-ranked teams have all met each other: greedy Monrad would reach a dead
    end at the bottom. The teams above them pair 1–2, 3–4, … only while enough of them stay
    free to take the pool, then each takes the best-ranked pool team left."""
    ranked = [1000 + 7 * rank for rank in range(teams)]
    above, below = ranked[: teams - pool], ranked[teams - pool :]
    met = [frozenset((one, other)) for one, other in combinations(below, 2)]
    top = len(above) - pool
    expected = list(zip(above[0:top:2], above[1:top:2], strict=True)) + list(zip(above[top:], below, strict=True))
    assert pair_round(ranked, met) == RoundPairing(pairs=tuple(expected), bye=None, rematches=0)


def test_the_same_round_pairs_the_same_way_however_its_history_is_given():
    rng = random.Random(26)
    for ranked, met, had_bye, result in play(15, 6, rng):
        shuffled = list(met)
        rng.shuffle(shuffled)
        assert pair_round(ranked, shuffled, sorted(had_bye)) == result
        assert pair_round(tuple(ranked), met, had_bye) == result


def test_pairs_met_with_a_team_no_longer_in_the_field_are_ignored():
    withdrawn = 99
    result = pair_round([1, 2, 3, 4], met=[frozenset((1, withdrawn)), frozenset((1, 2))], had_bye=[withdrawn])
    assert result == RoundPairing(pairs=((1, 3), (2, 4)), bye=None, rematches=0)


def test_no_team_pairs_nothing_and_a_lone_team_has_the_bye():
    assert pair_round([]) == RoundPairing(pairs=(), bye=None, rematches=0)
    assert pair_round([7], had_bye=[7]) == RoundPairing(pairs=(), bye=7, rematches=0)


def test_a_team_ranked_twice_is_refused():
    with pytest.raises(ValueError, match="team 3 appears twice in the ranking"):
        pair_round([1, 3, 2, 3])


def test_the_pairing_module_imports_only_the_standard_library():
    tree = ast.parse(Path(pairing_module.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"__future__", "collections.abc", "dataclasses"}


# Worked examples, written out by hand: each round's ranking (by wins, ties by seed), then the
# pairs and the bye the rules give; who met whom and who had a bye follow from the rounds above.
# Round 1's winners are the first team of each pair unless a comment says otherwise.
WORKED = {
    "6 teams": [
        # Round 1 by seed. Winners 1, 3, 5.
        ([1, 2, 3, 4, 5, 6], [(1, 2), (3, 4), (5, 6)], None),
        # Round 2: 1, 3, 5 (one win), then 2, 4, 6. Winners 1, 5, 4.
        ([1, 3, 5, 2, 4, 6], [(1, 3), (5, 2), (4, 6)], None),
        # Round 3: 1, 5 (two wins), 3, 4 (one), 2, 6 (none). 1–5; 3–4 met, so 3 moves down to 2;
        # but then 4–6 met in round 2: a dead end, so 3 takes the next candidate, 6, and 4 plays 2.
        ([1, 5, 3, 4, 2, 6], [(1, 5), (3, 6), (4, 2)], None),
    ],
    "7 teams": [
        # Round 1 by seed, the bye to the last seed. Winners 1, 3, 5 (and 7 by the bye).
        ([1, 2, 3, 4, 5, 6, 7], [(1, 2), (3, 4), (5, 6)], 7),
        # Round 2: 1, 3, 5, 7 (one win), 2, 4, 6. The bye to 6, the lowest-ranked without one.
        # Winners 1, 7, 4.
        ([1, 3, 5, 7, 2, 4, 6], [(1, 3), (5, 7), (2, 4)], 6),
        # Round 3: 1, 7 (two wins), 3, 4, 5, 6 (one), 2. The bye to 2; 3–4 met, so 3 plays 5.
        ([1, 7, 3, 4, 5, 6, 2], [(1, 7), (3, 5), (4, 6)], 2),
    ],
    "8 teams": [
        # Round 1 by seed. Winners 1, 4, 5, 8.
        ([1, 2, 3, 4, 5, 6, 7, 8], [(1, 2), (3, 4), (5, 6), (7, 8)], None),
        # Round 2: 1, 4, 5, 8 (one win), 2, 3, 6, 7. Winners 1, 5, 2, 6.
        ([1, 4, 5, 8, 2, 3, 6, 7], [(1, 4), (5, 8), (2, 3), (6, 7)], None),
        # Round 3: 1, 5 (two wins), 2, 4, 6, 8 (one), 3, 7 (none). 2 plays 4; 6 and 8 have not met;
        # 3–7 neither.
        ([1, 5, 2, 4, 6, 8, 3, 7], [(1, 5), (2, 4), (6, 8), (3, 7)], None),
    ],
    "8 teams, moves down": [
        # Round 1 by seed. Winners 1, 3, 5, 7.
        ([1, 2, 3, 4, 5, 6, 7, 8], [(1, 2), (3, 4), (5, 6), (7, 8)], None),
        # Round 2: 1, 3, 5, 7, then 2, 4, 6, 8. Winners 3, 5, 2, 8.
        ([1, 3, 5, 7, 2, 4, 6, 8], [(1, 3), (5, 7), (2, 4), (6, 8)], None),
        # Round 3, ties by point difference: 5, 3 (two wins), 1, 2, 7, 8 (one), 4, 6 (none).
        # 5–3; 1–2 met, so 1 plays 7; 2 then plays 8; 4–6 have not met.
        ([5, 3, 1, 2, 7, 8, 4, 6], [(5, 3), (1, 7), (2, 8), (4, 6)], None),
    ],
}


@pytest.mark.parametrize("rounds", WORKED.values(), ids=WORKED.keys())
def test_worked_examples_pair_round_by_round_as_written_out_by_hand(rounds):
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    for ranked, pairs, bye in rounds:
        assert pair_round(ranked, met, had_bye) == RoundPairing(pairs=tuple(pairs), bye=bye, rematches=0)
        met |= {frozenset(pair) for pair in pairs}
        had_bye |= {bye} if bye is not None else set()


# Single rounds after a history made up by hand: (ranking, pairs met, teams with a bye) and what
# the rules give.
EDGE_CASES = {
    # 4 has met 1, 2 and 3: with the bye to 5 (the lowest-ranked without one) 4 would replay, so
    # by (1) before (2) the bye moves up to 4.
    "the bye moves up to keep the round free of rematches": (
        ([1, 2, 3, 4, 5], [(1, 4), (2, 4), (3, 4)], []),
        RoundPairing(pairs=((1, 2), (3, 5)), bye=4, rematches=0),
    ),
    "the bye passes over the teams that had one": (
        ([1, 2, 3, 4, 5], [], [4, 5]),
        RoundPairing(pairs=((1, 2), (4, 5)), bye=3, rematches=0),
    ),
    "once every team has had a bye, the lowest-ranked takes the next": (
        ([1, 2, 3], [], [1, 2, 3]),
        RoundPairing(pairs=((1, 2),), bye=3, rematches=0),
    ),
    "two rounds played: 1 moves down past both teams it met": (
        ([1, 2, 3, 4], [(1, 2), (3, 4), (1, 3), (2, 4)], []),
        RoundPairing(pairs=((1, 4), (2, 3)), bye=None, rematches=0),
    ),
    "everyone has met everyone: rematches in Monrad order": (
        ([1, 2, 3, 4], [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)], []),
        RoundPairing(pairs=((1, 2), (3, 4)), bye=None, rematches=2),
    ),
    "one team has met everyone: its one rematch with the nearest": (
        ([6, 1, 2, 3, 4, 5], [(6, 1), (6, 2), (6, 3), (6, 4), (6, 5)], []),
        RoundPairing(pairs=((6, 1), (2, 3), (4, 5)), bye=None, rematches=1),
    ),
}


@pytest.mark.parametrize(("given_round", "expected"), EDGE_CASES.values(), ids=EDGE_CASES.keys())
def test_hand_made_histories_pair_as_the_priorities_say(given_round, expected):
    ranked, met, had_bye = given_round
    assert pair_round(ranked, [frozenset(pair) for pair in met], had_bye) == expected
