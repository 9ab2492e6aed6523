"""Knockouts through the services: the bracket, matches at tables, walkovers, the clock, places."""

import datetime
import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from scoring import HandEntry, InvalidHand
from tests.conftest import format_settings, make_tournament
from tournament.clocks.services import add_minutes, pause_clock, start_clock, start_match_clocks, start_round_clock
from tournament.events.services import update_tournament
from tournament.formats.knockout.simulation import simulate_knockout
from tournament.formats.registry import format_of
from tournament.matches.services import settle_match
from tournament.models import Game, HandRevision, Match, Prize, Round, Tournament
from tournament.money.services import award_prizes, record_payment
from tournament.play.hands import enter_hand

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent


def knockout_event(teams: int = 4, **fields) -> Tournament:
    """A league-300 knockout (single elimination unless ``format`` says otherwise), drawn in
    registration order and started."""
    tournament = make_tournament(couples=teams, preset="league-300", split=False)
    Tournament.objects.filter(pk=tournament.pk).update(
        **{"format": "single_elimination", **format_settings(tournament, **fields)}
    )
    tournament.refresh_from_db()
    format_of(tournament).start(tournament=tournament)
    return tournament


def hand(ns_wins: bool = True) -> dict:
    """League-300: the winning side bids 10 and makes it (+120); the other bids 4 and is set (−40)."""
    big, small = ("ns", "ew") if ns_wins else ("ew", "ns")
    seats = {"ns": ("north", "south"), "ew": ("east", "west")}
    values = {}
    for seat in seats[big]:
        values[f"{seat}_bid"], values[f"{seat}_tricks"] = "5", 5
    for seat, tricks in zip(seats[small], (2, 1), strict=True):
        values[f"{seat}_bid"], values[f"{seat}_tricks"] = "2", tricks
    return values


LEVEL_HAND = {  # both sides bid 8 and are set: −80 each
    "north_bid": "4", "south_bid": "4", "east_bid": "4", "west_bid": "4",
    "north_tricks": 4, "south_tricks": 2, "east_tricks": 4, "west_tricks": 3,
}  # fmt: skip


def current_game(match: Match) -> Game:
    return match.games.exclude(status=Game.Status.FINISHED).select_related("round__tournament").get()


def enter(game: Game, values: dict) -> Game:
    number = game.hands.count() + 1
    return enter_hand(
        game=game, number=number, entry=HandEntry.from_fields(values), source=HandRevision.Source.TABLE
    ).game


def win_game(match: Match, home: bool = True) -> None:
    game = current_game(match)
    while game.status != Game.Status.FINISHED:
        game = enter(game, hand(ns_wins=home))


def match(tournament: Tournament, key: str) -> Match:
    return tournament.matches.select_related("home", "away", "winner").get(key=key)


def test_drawing_the_bracket_seats_the_first_matches_at_tables_with_byes_to_the_top_seeds():
    tournament = knockout_event(teams=6)
    assert tournament.rounds.get().status == Round.Status.RUNNING
    byes = tournament.matches.filter(status=Match.Status.BYE)
    assert sorted(byes.values_list("winner__seed", flat=True)) == [1, 2]
    playing = tournament.matches.filter(status=Match.Status.PLAYING).order_by("table__number")
    assert [(m.key, m.table.number) for m in playing] == [("W1-2", 1), ("W1-4", 2)]
    assert all(m.games.count() == 1 for m in playing)


def test_the_winner_advances_by_itself_and_the_next_match_takes_a_table():
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1")
    win_game(first, home=False)
    first.refresh_from_db()
    assert first.status == Match.Status.FINISHED and first.winner == first.away
    final = match(tournament, "F1")
    assert final.home == first.away and final.away is None and final.status == Match.Status.WAITING
    win_game(match(tournament, "W1-2"))
    final = match(tournament, "F1")
    assert final.status == Match.Status.PLAYING and final.table is not None


def test_a_best_of_three_needs_two_games_won():
    tournament = knockout_event(teams=2, best_of=3, final_best_of=3)
    final = match(tournament, "F1")
    win_game(final, home=True)
    win_game(final, home=False)
    final.refresh_from_db()
    assert final.status == Match.Status.PLAYING and final.games.count() == 3
    win_game(final, home=True)
    final.refresh_from_db()
    assert final.winner == final.home and final.outcome == Match.Outcome.PLAYED
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_the_final_is_played_under_the_second_rule_set():
    tournament = knockout_event(teams=2, final_preset="championship-500")
    game = current_game(match(tournament, "F1"))
    assert game.rules.target_score == 500
    for _ in range(3):
        game = enter(game, hand())
    assert game.ns_score == 3 * 200 and game.status == Game.Status.FINISHED  # 10 for 200 in the final
    semi_event = knockout_event(teams=4, final_preset="championship-500")
    assert current_game(match(semi_event, "W1-1")).rules.target_score == 300


def test_a_walkover_needs_a_reason_and_moves_the_other_team_on():
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1")
    with pytest.raises(ValidationError) as refused:
        settle_match(outcome="walkover", match=first, winner=first.home, reason=" ")
    assert refused.value.error_dict["reason"][0].code == "reason_required"
    settle_match(outcome="walkover", match=first, winner=first.home, reason="Team did not show by 7:15")
    first.refresh_from_db()
    assert (first.outcome, first.reason, first.winner) == (
        Match.Outcome.WALKOVER,
        "Team did not show by 7:15",
        first.home,
    )
    assert match(tournament, "F1").home == first.home


def test_a_decision_must_name_a_team_of_the_match():
    tournament = knockout_event(teams=4)
    other = match(tournament, "W1-2").home
    with pytest.raises(ValidationError) as refused:
        settle_match(outcome="decision", match=match(tournament, "W1-1"), winner=other, reason="cut of the cards")
    assert refused.value.error_dict["winner"][0].code == "not_in_match"


def run_out(clock) -> None:
    clock.started_at = timezone.now() - datetime.timedelta(minutes=clock.minutes + 1)
    clock.save()


def test_after_time_is_called_the_hand_under_way_ends_the_game_and_the_higher_score_wins():
    tournament = knockout_event(teams=2)
    final = match(tournament, "F1")
    game = enter(current_game(final), hand(ns_wins=False))  # EW 120, NS −40
    run_out(final.clock)
    game = enter(game, hand(ns_wins=True))  # the hand under way when time was called
    assert game.time_up_hand == 2
    assert (game.ns_score, game.ew_score, game.status, game.winner) == (80, 80, Game.Status.PLAYING, "")
    game = enter(game, LEVEL_HAND)  # still level: one more hand
    assert game.status == Game.Status.PLAYING
    game = enter(game, hand(ns_wins=True))
    assert (game.status, game.winner) == (Game.Status.FINISHED, "NS")
    final.refresh_from_db()
    assert final.winner == final.home and final.outcome == Match.Outcome.TIME


def test_time_in_a_best_of_three_ends_the_match_after_the_game_under_way():
    tournament = knockout_event(teams=2, best_of=3, final_best_of=3)
    final = match(tournament, "F1")
    win_game(final, home=True)
    run_out(final.clock)
    enter(current_game(final), hand(ns_wins=False))
    final.refresh_from_db()
    assert final.status == Match.Status.FINISHED and final.games.count() == 2
    assert final.winner == final.home and final.outcome == Match.Outcome.TIME  # 1 game to 0


def test_a_clock_pauses_and_takes_extra_minutes():
    tournament = knockout_event(teams=2)
    clock = match(tournament, "F1").clock
    start_clock(clock=clock)
    clock.refresh_from_db()
    assert 29 * 60 < clock.remaining_seconds() <= 30 * 60
    add_minutes(clock=clock, minutes=5)
    pause_clock(clock=clock)
    clock.refresh_from_db()
    assert not clock.running and clock.remaining_seconds() > 34 * 60
    with pytest.raises(ValidationError):
        add_minutes(clock=clock, minutes=-10)


def limit(tournament: Tournament, minutes: int | None) -> Tournament:
    changes = {"rule_overrides": {"time_limit_minutes": minutes}}
    return update_tournament(tournament=tournament, changes=changes)[0]


def test_a_time_limit_set_during_play_gives_the_matches_at_tables_their_clocks():
    tournament = knockout_event(teams=6, rule_overrides={"time_limit_minutes": None})
    quarters = [match(tournament, key) for key in ("W1-2", "W1-4")]
    assert all(m.status == Match.Status.PLAYING and m.clock is None for m in quarters)
    limit(tournament, 30)
    for quarter in quarters:
        quarter.refresh_from_db()
        assert (quarter.clock.minutes, quarter.clock.started) == (30, False)  # the director starts it
        assert current_game(quarter).clock_id == quarter.clock_id  # the table's phone counts it down
    assert start_match_clocks(tournament=tournament) == 2
    win_game(quarters[0])
    semi = tournament.matches.get(status=Match.Status.PLAYING, stage=Match.Stage.WINNERS, round=2)
    assert semi.clock.minutes == 30


def test_a_changed_time_limit_keeps_a_running_clock_and_its_extra_minutes():
    tournament = knockout_event(teams=4)  # league-300: 30 minutes
    clock = match(tournament, "W1-1").clock
    start_clock(clock=clock)
    add_minutes(clock=clock, minutes=5)
    limit(tournament, 20)
    clock.refresh_from_db()
    assert (clock.minutes, clock.extra_minutes, clock.running) == (20, 5, True)
    assert 24 * 60 < clock.remaining_seconds() <= 25 * 60


def test_a_time_limit_taken_away_during_play_leaves_no_clock_on_matches_still_playing():
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1")
    win_game(first)
    played_clock = first.clock_id
    limit(tournament, None)
    assert match(tournament, "W1-2").clock is None and current_game(match(tournament, "W1-2")).clock is None
    assert match(tournament, "W1-1").clock_id == played_clock  # a finished match keeps its record


def test_the_final_keeps_the_time_limit_of_its_own_rule_set():
    tournament = knockout_event(teams=2, final_preset="championship-500")
    assert match(tournament, "F1").rules.time_limit_minutes is None  # the championship game plays to its end
    limit(tournament, 45)
    assert match(tournament, "F1").clock is None


def test_a_time_limit_changed_during_a_progressive_round_applies_to_its_tables_clocks(running_round):
    tournament = limit(running_round.tournament, 20)
    start_round_clock(round_=running_round)
    limit(tournament, 25)
    assert {game.clock.minutes for game in running_round.games.select_related("clock")} == {25}
    limit(tournament, None)
    assert not running_round.games.filter(clock__isnull=False).exists()


def test_a_correction_cannot_change_a_match_whose_winner_has_played_on():
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1")
    win_game(first)
    win_game(match(tournament, "W1-2"))
    enter(current_game(match(tournament, "F1")), hand())
    game = first.games.get()
    last = game.hands.order_by("number").last()
    with pytest.raises(InvalidHand) as refused:
        enter_hand(
            game=game, number=last.number, entry=HandEntry.from_fields(hand(ns_wins=False)),
            source=HandRevision.Source.DIRECTOR, expected_version=last.version,
        )  # fmt: skip
    assert refused.value.code == "bracket_moved_on"


def test_places_from_the_bracket_pay_the_friendly_flyers_prizes():
    tournament = knockout_event(teams=4)
    for team in tournament.teams.all():
        record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    Prize.objects.create(tournament=tournament, place=1, amount=Decimal("100.00"))
    Prize.objects.create(tournament=tournament, place=2, amount=Decimal("50.00"))
    Prize.objects.create(tournament=tournament, place=3, amount=Decimal("10.00"))
    win_game(match(tournament, "W1-1"))
    win_game(match(tournament, "W1-2"))
    final = match(tournament, "F1")
    win_game(final, home=False)
    payouts = {p.team_id: p.amount for p in award_prizes(tournament=tournament)}
    semi_losers = [match(tournament, k).loser.pk for k in ("W1-1", "W1-2")]
    assert payouts == {
        final.away_id: Decimal("100.00"),
        final.home_id: Decimal("50.00"),
        semi_losers[0]: Decimal("5.00"),  # sharing 3rd: they share its prize
        semi_losers[1]: Decimal("5.00"),
    }


@pytest.mark.slow  # manage.py in a process of its own
def test_simulate_prints_a_whole_double_elimination_as_json(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'real.sqlite3'}"}
    command = [sys.executable, "manage.py", "simulate", "knockout", "--double", "--teams", "5"]
    done = subprocess.run(
        [*command, "--seed", "4", "--json"], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    log = json.loads(done.stdout)
    assert log["format"] == "double-elimination" and log["teams"] == [1, 2, 3, 4, 5]
    assert sorted(log["seeds"].values()) == [1, 2, 3, 4, 5]
    played = [m for m in log["matches"] if m["teams"][1] is not None]
    assert len(played) in (2 * 5 - 2, 2 * 5 - 1)
    assert {m["stage"] for m in log["matches"]} == {"winners", "losers", "final"}
    assert all(set(m) == {"stage", "round", "number", "teams", "winner", "games"} for m in log["matches"])
    assert all(m["games"] == [] for m in log["matches"] if m["teams"][1] is None)  # a bye
    assert log["places"]["1"] == log["matches"][-1]["winner"]
    assert len(log["places"]["3"]) == 1


def test_a_simulated_single_elimination_plays_its_third_place_match_and_best_of_three_games():
    log = simulate_knockout(format="single-elimination", teams=4, third_place=True, best_of=3, seed=1)
    assert [m["stage"] for m in log["matches"]] == ["winners", "winners", "third-place", "final"]
    assert all(2 <= len(m["games"]) <= 3 for m in log["matches"])
    final = log["matches"][-1]["games"]
    assert all(max(game) >= 500 for game in final)  # the final under championship-500
    assert len(log["places"]["3"]) == 1 and log["places"]["3"][0] == log["matches"][2]["winner"]
