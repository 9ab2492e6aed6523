"""The league table (issue 12): matches won and lost, then the director's tiebreakers, each tie in words."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from tournament.formats.league.table import DEFAULT_TIEBREAKERS, MatchResult, Tiebreaker, league_table, order_text

H2H, DIFF, SCORED, BAGS = (
    Tiebreaker.HEAD_TO_HEAD,
    Tiebreaker.POINT_DIFFERENCE,
    Tiebreaker.POINTS_SCORED,
    Tiebreaker.FEWEST_BAGS,
)

# A, B and C win two and lose one each (a cycle among them, and all beat D).
# Point difference: A +200, B +100, C +100. Points scored: A 850, B 850, C 800. Bags: A 5, B 3, C 7.
CYCLE = [
    MatchResult("A", "B", "A", 300, 250, 2, 1),
    MatchResult("B", "C", "B", 300, 200, 1, 2),
    MatchResult("C", "A", "C", 300, 250, 3, 1),
    MatchResult("A", "D", "A", 300, 100, 2, 0),
    MatchResult("B", "D", "B", 300, 250, 1, 4),
    MatchResult("C", "D", "C", 300, 150, 2, 0),
]


def ranked(table) -> list[tuple[int, str]]:
    return [(row.rank, row.team) for row in table.rows]


@pytest.mark.parametrize(
    ("tiebreakers", "order", "tie"),
    [
        (
            DEFAULT_TIEBREAKERS,
            [(1, "A"), (2, "B"), (3, "C")],
            "A, B and C are level on 2 won, 1 lost: head-to-head level (1 won each); "
            "point difference A +200, B +100, C +100; between B and C: head-to-head B 1 won, C 0 won.",
        ),
        (
            (DIFF,),
            [(1, "A"), (2, "B"), (2, "C")],
            "A, B and C are level on 2 won, 1 lost: point difference A +200, B +100, C +100; B and C share 2nd.",
        ),
        (
            (SCORED,),
            [(1, "A"), (1, "B"), (3, "C")],
            "A, B and C are level on 2 won, 1 lost: points scored A 850, B 850, C 800; A and B share 1st.",
        ),
        (
            (SCORED, DIFF),
            [(1, "A"), (2, "B"), (3, "C")],
            "A, B and C are level on 2 won, 1 lost: points scored A 850, B 850, C 800; "
            "between A and B: point difference A +200, B +100.",
        ),
        (
            (BAGS,),
            [(1, "B"), (2, "A"), (3, "C")],
            "A, B and C are level on 2 won, 1 lost: fewest bags B 3 bags, A 5 bags, C 7 bags.",
        ),
        (
            (),
            [(1, "A"), (1, "B"), (1, "C")],
            "A, B and C are level on 2 won, 1 lost: they share 1st.",
        ),
    ],
)
def test_level_teams_are_split_by_the_directors_tiebreakers_in_order_and_each_tie_is_explained(tiebreakers, order, tie):
    table = league_table(["A", "B", "C", "D"], CYCLE, tiebreakers)
    assert ranked(table)[:3] == order
    assert table.rows[3].team == "D" and table.rows[3].rank == 4
    assert table.ties == (tie,)


@pytest.mark.parametrize(
    ("tiebreakers", "note"),
    [
        ((DIFF,), "point difference A +150, B \u2212150."),
        ((SCORED,), "points scored A 100, B \u221250."),
        ((BAGS, DIFF), "fewest bags level (0 bags each); point difference A +150, B \u2212150."),
    ],
)
def test_a_tie_note_writes_a_negative_score_with_a_true_minus_sign(tiebreakers, note):
    # Spades scores go below zero: B won 50 to -200 but lost -100 to 300.
    results = [MatchResult("A", "B", "A", 300, -100), MatchResult("B", "A", "B", 50, -200)]
    (tie,) = league_table(["A", "B"], results, tiebreakers).ties
    assert tie == f"A and B are level on 1 won, 1 lost: {note}"
    assert "-" not in tie  # a hyphen is no minus sign


def test_the_table_counts_won_lost_points_and_bags():
    table = league_table(["A", "B", "C", "D"], CYCLE)
    a = next(row for row in table.rows if row.team == "A")
    assert (a.played, a.won, a.lost, a.points_for, a.points_against, a.difference, a.bags) == (
        3,
        2,
        1,
        850,
        650,
        200,
        5,
    )


def test_head_to_head_puts_the_winner_of_their_match_first_despite_a_worse_point_difference():
    results = [
        MatchResult("B", "A", "B", 300, 290),
        MatchResult("A", "C", "A", 400, 100),
        MatchResult("A", "D", "A", 400, 100),
        MatchResult("B", "C", "B", 300, 250),
        MatchResult("D", "B", "D", 300, 290),
        MatchResult("C", "D", "C", 300, 200),
    ]
    table = league_table(["A", "B", "C", "D"], results, (H2H, DIFF))
    assert ranked(table) == [(1, "B"), (2, "A"), (3, "C"), (4, "D")]
    assert table.ties == (
        "A and B are level on 2 won, 1 lost: head-to-head B 1 won, A 0 won.",
        "C and D are level on 1 won, 2 lost: head-to-head C 1 won, D 0 won.",
    )


def test_fewer_losses_rank_higher_when_wins_are_equal_and_a_team_with_no_matches_is_last():
    results = [
        MatchResult("A", "B", "A", 300, 200),
        MatchResult("C", "B", "C", 300, 200),
        MatchResult("C", "A", "A", 250, 300),
    ]
    table = league_table(["A", "B", "C", "D"], results)
    assert ranked(table) == [(1, "A"), (2, "C"), (3, "D"), (4, "B")]
    assert table.ties == ()


def test_a_walkover_is_a_match_won_and_lost_with_no_points_even_from_a_game_begun():
    table = league_table(["A", "B"], [MatchResult("A", "B", "B", 120, 80, 3, 1, walkover=True)])
    b, a = table.rows
    assert (b.team, b.won, b.points_for, a.lost, a.points_against) == ("B", 1, 0, 1, 0)


def test_the_order_is_said_in_the_directors_order():
    assert order_text((DIFF, H2H)).startswith(
        "Ranked by matches won, then fewest lost. Then point difference and head-to-head, in that order."
    )
    assert "Then" not in order_text(())


def test_teams_level_on_everything_share_a_place_in_one_sentence():
    table = league_table(["A", "B", "C"], [MatchResult("C", "A", "C", 300, 100)], (H2H, DIFF))
    assert ranked(table) == [(1, "C"), (2, "B"), (3, "A")]
    assert table.ties == ()
    level = league_table(["A", "B", "C"], [], (H2H, DIFF))
    assert level.ties == (
        "A, B and C are level on 0 won, 0 lost and on head-to-head and point difference: they share 1st.",
    )
    assert [row.rank for row in level.rows] == [1, 1, 1]


def test_a_tiebreaker_chosen_twice_is_a_bug():
    with pytest.raises(ValueError, match="once"):
        league_table(["A"], [], (H2H, H2H))


@settings(max_examples=examples(80), deadline=None)
@given(data=st.data(), teams=st.integers(min_value=2, max_value=10))
def test_any_season_ranks_every_team_once_more_wins_first_and_explains_every_level_group(data, teams):
    names = [f"T{i}" for i in range(teams)]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    played = data.draw(st.lists(st.sampled_from(pairs), max_size=len(pairs), unique=True))
    results = [
        MatchResult(a, b, data.draw(st.sampled_from([a, b])), data.draw(st.integers(-200, 600)),
                    data.draw(st.integers(-200, 600)), data.draw(st.integers(0, 9)), data.draw(st.integers(0, 9)))
        for a, b in played
    ]  # fmt: skip
    order = data.draw(st.permutations(list(Tiebreaker)))[: data.draw(st.integers(0, 4))]
    table = league_table(names, results, order)
    assert sorted(row.team for row in table.rows) == sorted(names)
    records = [(row.won, -row.lost) for row in table.rows]
    assert records == sorted(records, reverse=True)
    ranks = [row.rank for row in table.rows]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    assert all(rank == index + 1 or rank == ranks[index - 1] for index, rank in enumerate(ranks))
    level_groups = {r for r in records if records.count(r) > 1}
    assert len(table.ties) == len(level_groups)
