"""The progressive movement (rule text 003, "Rotation and Seating"), as a pure function."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.rotation import Movement, TableResult, first_round, next_round, swap


def couples(n: int) -> list[tuple[str, str]]:
    return [(f"{i}a", f"{i}b") for i in range(1, n + 1)]


def results_where_north_south_wins(movement: Movement) -> list[TableResult]:
    return [TableResult(t.table, t.north_south, t.east_west) for t in movement.tables]


def test_round_one_seats_couples_across_from_each_other_two_to_a_table():
    movement = first_round(couples(4))
    assert [(t.table, t.north_south, t.east_west) for t in movement.tables] == [
        (1, ("1a", "1b"), ("2a", "2b")),
        (2, ("3a", "3b"), ("4a", "4b")),
    ]
    assert movement.sitting_out == ()


def test_round_one_with_an_odd_number_of_couples_sits_the_last_couple_out():
    movement = first_round(couples(5))
    assert len(movement.tables) == 2
    assert movement.sitting_out == ("5a", "5b")


def test_winners_advance_one_table_and_table_one_winners_stay():
    results = [
        TableResult(1, ("A", "B"), ("C", "D")),
        TableResult(2, ("E", "F"), ("G", "H")),
        TableResult(3, ("I", "J"), ("K", "L")),
    ]
    movement = next_round(results, split=False)
    seated = {t.table: (t.north_south, t.east_west) for t in movement.tables}
    assert seated[1] == (("A", "B"), ("E", "F"))  # winners of 1 stay, winners of 2 come up
    assert seated[2] == (("G", "H"), ("I", "J"))  # losers of 2 stay, winners of 3 come up
    assert seated[3] == (("K", "L"), ("C", "D"))  # losers of 1 go to the highest table


def test_incoming_partners_split_and_each_partners_a_sitting_player():
    results = [TableResult(1, ("A", "B"), ("C", "D")), TableResult(2, ("E", "F"), ("G", "H"))]
    movement = next_round(results, split=True)
    table_1, table_2 = movement.tables
    assert {table_1.north_south, table_1.east_west} == {("A", "E"), ("B", "F")}
    assert {table_2.north_south, table_2.east_west} == {("G", "C"), ("H", "D")}


def test_odd_couples_losers_at_table_one_sit_out_and_the_sitters_come_back_at_the_last_table():
    results = [TableResult(1, ("A", "B"), ("C", "D")), TableResult(2, ("E", "F"), ("G", "H"))]
    movement = next_round(results, ("S1", "S2"), split=True)
    assert movement.sitting_out == ("C", "D")
    last = movement.tables[-1]
    assert {"S1", "S2"} <= set(last.players) and {"G", "H"} <= set(last.players)


def test_a_late_couple_makes_an_even_count_and_nobody_sits_out():
    results = [TableResult(1, ("A", "B"), ("C", "D")), TableResult(2, ("E", "F"), ("G", "H"))]
    movement = next_round(results, ("S1", "S2"), split=False, arrivals=[("N1", "N2")])
    assert movement.sitting_out == ()
    assert len(movement.tables) == 3
    assert set(movement.tables[2].players) == {"N1", "N2", "C", "D"}


def test_a_withdrawn_couple_leaves_and_the_table_one_losers_take_their_place():
    results = [TableResult(1, ("A", "B"), ("C", "D")), TableResult(2, ("E", "F"), ("G", "H"))]
    movement = next_round(results, split=False, absent={"G", "H"}, arrivals=[("N1", "N2")])
    assert movement.sitting_out == ()
    assert set(movement.tables[1].players) == {"N1", "N2", "C", "D"}


def test_split_partners_a_player_left_alone_pairs_with_the_next_one():
    results = [TableResult(1, ("A", "B"), ("C", "D")), TableResult(2, ("E", "F"), ("G", "H"))]
    movement = next_round(results, split=True, absent={"B", "H"})
    assert movement.sitting_out == ("C", "D")  # 3 pairs: A+G rejoined, E-F, C-D; the last sits out
    assert sorted(movement.seated()) == ["A", "E", "F", "G"]


def test_fixed_partners_a_team_missing_a_player_sits_out_instead_of_being_split():
    results = [TableResult(1, ("A", "B"), ("C", "D")), TableResult(2, ("E", "F"), ("G", "H"))]
    movement = next_round(results, split=False, absent={"H"})
    assert "G" in movement.sitting_out
    assert all({"G", "H"}.isdisjoint(t.players) for t in movement.tables)


def test_swap_exchanges_two_players_even_with_a_sitter():
    movement = first_round(couples(3))
    swapped = swap(movement, "1a", "3b")
    assert swapped.tables[0].north == "3b"
    assert "1a" in swapped.sitting_out


def test_a_round_with_no_results_is_a_bug():
    with pytest.raises(ValueError, match="no tables"):
        next_round([], split=True)


# --- properties --------------------------------------------------------------------------------


@st.composite
def a_round(draw):
    n_couples = draw(st.integers(min_value=2, max_value=31))
    movement = first_round(couples(n_couples))
    for _ in range(draw(st.integers(min_value=0, max_value=5))):
        flips = draw(st.lists(st.booleans(), min_size=len(movement.tables), max_size=len(movement.tables)))
        results = [
            TableResult(t.table, *((t.north_south, t.east_west) if ns else (t.east_west, t.north_south)))
            for t, ns in zip(movement.tables, flips, strict=True)
        ]
        movement = next_round(results, movement.sitting_out, split=draw(st.booleans()))
    flips = draw(st.lists(st.booleans(), min_size=len(movement.tables), max_size=len(movement.tables)))
    results = [
        TableResult(t.table, *((t.north_south, t.east_west) if ns else (t.east_west, t.north_south)))
        for t, ns in zip(movement.tables, flips, strict=True)
    ]
    return movement, results


@settings(max_examples=300, deadline=None)
@given(data=st.data(), split=st.booleans())
def test_every_present_player_is_seated_or_sitting_out_exactly_once(data, split):
    movement, results = data.draw(a_round())
    everyone = set(movement.seated()) | set(movement.sitting_out)
    absent = set(data.draw(st.lists(st.sampled_from(sorted(everyone)), max_size=4)))
    arrivals = [(f"late{i}a", f"late{i}b") for i in range(data.draw(st.integers(0, 3)))]
    nxt = next_round(results, movement.sitting_out, split=split, absent=absent, arrivals=arrivals)
    placed = nxt.seated() + list(nxt.sitting_out)
    assert len(placed) == len(set(placed))
    assert set(placed) == (everyone - absent) | {p for pair in arrivals for p in pair}
    assert [t.table for t in nxt.tables] == list(range(1, len(nxt.tables) + 1))
    broken_teams = {pair for r in results for pair in (r.winners, r.losers) if len(absent & set(pair)) == 1}
    assert len(nxt.sitting_out) <= (3 if split else 2 + len(broken_teams) + 1)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), split=st.booleans())
def test_with_an_odd_count_table_one_losers_sit_out_and_the_sitters_play(data, split):
    movement, results = data.draw(a_round())
    nxt = next_round(results, movement.sitting_out, split=split)
    table_one = next(r for r in results if r.table == 1)
    if movement.sitting_out:
        assert set(nxt.sitting_out) == set(table_one.losers)
        assert set(movement.sitting_out) <= set(nxt.tables[-1].players)
    else:
        assert nxt.sitting_out == ()
        assert set(table_one.losers) <= set(nxt.tables[-1].players)


def _table_of(movement, player) -> int | None:
    return next((table.table for table in movement.tables if player in table.players), None)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_winners_move_up_one_table_and_table_one_winners_stay(data):
    movement, results = data.draw(a_round())
    nxt = next_round(results, movement.sitting_out, split=True)
    for result in results:
        destination = max(1, result.table - 1)
        for player in result.winners:
            assert _table_of(nxt, player) == destination


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_split_partners_never_keep_their_partner(data):
    movement, results = data.draw(a_round())
    nxt = next_round(results, movement.sitting_out, split=True)
    old_pairs = {frozenset(p) for r in results for p in (r.winners, r.losers)}
    new_pairs = {frozenset(p) for t in nxt.tables for p in (t.north_south, t.east_west)}
    assert old_pairs.isdisjoint(new_pairs)
