"""Knockout, league and Swiss events with something in every part of their state, for the import's
tests: built through the services as a director would, with random legal hands."""

from __future__ import annotations

import random
from decimal import Decimal

from scoring.random_hands import random_hand
from tests.conftest import format_settings
from tournament.clocks.services import add_minutes, pause_clock, start_match_clocks, start_round_clock
from tournament.formats.knockout.simulation import create_knockout, play_knockout
from tournament.formats.league import schedule as pure_schedule
from tournament.formats.league.services import (
    add_late_team,
    close_night,
    load_schedule,
    open_night,
    postpone_match,
    withdraw_team,
)
from tournament.formats.league.simulation import create_league, play_league
from tournament.formats.league.standings import league_matches
from tournament.formats.registry import format_of
from tournament.formats.swiss.simulation import create_swiss
from tournament.matches.services import settle_match
from tournament.models import Game, HandRevision, Match, Tournament
from tournament.money.services import record_payment
from tournament.play.games import flag_dispute
from tournament.play.hands import enter_hand
from tournament.play.rounds import close_round, start_play, start_round
from tournament.simulation.play import hand_entry, play_game, play_round
from tournament.teams.services import register_team


def correct_hand(*, game: Game, number: int, entry, by=None, expected_version: int | None = None):
    """The director's correction of hand ``number``, as the game's page saves it."""
    return enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.DIRECTOR, by=by,
                      expected_version=expected_version)  # fmt: skip


def one_hand(game: Game, rng: random.Random) -> Game:
    """Enter one random legal hand at ``game``."""
    (north, south), (east, west) = random_hand(game.rules, rng, scores=(game.ns_score, game.ew_score))
    entry = hand_entry(north, east, south, west)
    number = game.hands.count() + 1
    return enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE).game


def play_match(match: Match, rng: random.Random) -> None:
    while True:
        match.refresh_from_db()
        game = match.games.exclude(status=Game.Status.FINISHED).order_by("match_game").first()
        if match.is_over or game is None:
            return
        play_game(game, rng)


def knockout_under_way() -> Tournament:
    """Single elimination of 6 (two byes) with a third-place match, best of 3 before a one-game
    final under its own rules, two tables: a match played out, a match decided by the director,
    a walkover, a match under way with its clock paused and extended and a hand disputed."""
    rng = random.Random(3)
    tournament = create_knockout(teams=6, seed=3, format="single-elimination", third_place=True, best_of=3)
    format_settings(tournament, final_best_of=1, tables_available=2)
    tournament.entry_fee = Decimal("30.00")
    tournament.save(update_fields=["entry_fee"])
    for team in tournament.teams.all():
        record_payment(team=team, amount=Decimal("30.00"), kind="payment", method="cash")
    format_of(tournament).start(tournament=tournament)
    start_match_clocks(tournament=tournament)
    first, second = tournament.matches.filter(status=Match.Status.PLAYING).order_by("position")
    play_match(first, rng)
    one_hand(second.games.get(), rng)
    settle_match(outcome="decision", match=second, winner=second.away, reason="Time up and level: the cut of the cards")
    waiting = tournament.matches.filter(status=Match.Status.PLAYING).order_by("position").first()
    settle_match(outcome="walkover", match=waiting, winner=waiting.home, reason="The other team did not come back")
    start_match_clocks(tournament=tournament)
    playing = tournament.matches.filter(status=Match.Status.PLAYING).order_by("position").first()
    game = one_hand(playing.games.get(), rng)
    pause_clock(clock=playing.clock)
    add_minutes(clock=playing.clock, minutes=5)
    flag_dispute(hand=game.hands.get(number=1), note="EW say they took 5")
    tournament.refresh_from_db()
    return tournament


def knockout_finished() -> Tournament:
    """Double elimination of 5, played to its champion (a second final if needed)."""
    tournament = create_knockout(teams=5, seed=7, format="double-elimination")
    play_knockout(tournament, random.Random(7))
    tournament.refresh_from_db()
    return tournament


def league_in_season() -> Tournament:
    """A league of 5 in its second night: night 1 played and closed, a match postponed, a late
    joiner making up what it missed, a team withdrawn with its results voided, a fee per night,
    tiebreakers of its own, night 2 under way with its clocks running, one paused and extended."""
    rng = random.Random(4)
    tournament = create_league(teams=5, seed=4, championship=4)
    format_settings(tournament, fee_per="night", tiebreakers="point-difference,head-to-head")
    night = format_of(tournament).start(tournament=tournament)
    start_round(round_=night)
    play_round(night, rng)
    close_night(round_=night)
    later = league_matches(tournament).filter(round=3).order_by("number").first()
    postpone_match(match=later, to_night=load_schedule(tournament).nights + 1)
    late = register_team(tournament=tournament, names=["Late", "Comer"])
    add_late_team(team=late, missed=pure_schedule.Missed.MAKE_UP)
    withdraw_team(team=tournament.teams.get(number=2), played=pure_schedule.PlayedResults.VOID)
    night = open_night(tournament=tournament, night=2)
    start_round(round_=night)
    start_round_clock(round_=night)
    first, *others = league_matches(tournament).filter(round=2, status=Match.Status.PLAYING).order_by("number")
    play_match(first, rng)
    if others:
        one_hand(others[0].games.get(), rng)
        pause_clock(clock=others[0].clock)
        add_minutes(clock=others[0].clock, minutes=3)
    tournament.refresh_from_db()
    return tournament


def swiss_under_way() -> Tournament:
    """A Swiss of 7 (a bye each round) in round 2: round 1 played and closed, a late team paired
    from round 2 with its missed round lost, round 2 under way with one hand played at table 1."""
    rng = random.Random(6)
    tournament = create_swiss(teams=7, rounds=4, seed=6)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    play_round(round_, rng)
    register_team(tournament=tournament, names=["Late", "Comer"])
    round_ = close_round(round_=round_)
    start_round(round_=round_)
    one_hand(round_.games.order_by("table__number").first(), rng)
    tournament.refresh_from_db()
    return tournament


def league_finished() -> Tournament:
    """A league of 4 played through its season and a championship final."""
    tournament = create_league(teams=4, seed=5, championship=2)
    play_league(tournament, random.Random(5))
    tournament.refresh_from_db()
    return tournament


EVENTS = {
    "knockout under way": knockout_under_way,
    "knockout finished": knockout_finished,
    "league in its season": league_in_season,
    "league finished": league_finished,
}
