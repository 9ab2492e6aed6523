"""Knockout and league events with something in every part of their state, for the import's
tests: built through the services as a director would, with random legal hands."""

from __future__ import annotations

import random
from decimal import Decimal

from scoring.random_hands import random_hand
from tournament import clocks, knockout, league, services
from tournament import schedule as pure_schedule
from tournament.formats import format_of
from tournament.models import Game, HandRevision, Match, Tournament
from tournament.simulation import hand_entry, play_game
from tournament.simulation_knockout import create_knockout, play_knockout
from tournament.simulation_league import create_league, play_league, play_round


def one_hand(game: Game, rng: random.Random) -> Game:
    """Enter one random legal hand at ``game``."""
    (north, south), (east, west) = random_hand(game.rules, rng, scores=(game.ns_score, game.ew_score))
    entry = hand_entry(north, east, south, west)
    number = game.hands.count() + 1
    return services.enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE).game


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
    tournament.final_best_of, tournament.tables_available, tournament.entry_fee = 1, 2, Decimal("30.00")
    tournament.save(update_fields=["final_best_of", "tables_available", "entry_fee"])
    for team in tournament.teams.all():
        services.record_payment(team=team, amount=Decimal("30.00"), kind="payment", method="cash")
    format_of(tournament).start(tournament=tournament)
    clocks.start_match_clocks(tournament=tournament)
    first, second = tournament.matches.filter(status=Match.Status.PLAYING).order_by("position")
    play_match(first, rng)
    one_hand(second.games.get(), rng)
    knockout.decide_match(match=second, winner=second.away, reason="Time up and level: the cut of the cards")
    waiting = tournament.matches.filter(status=Match.Status.PLAYING).order_by("position").first()
    knockout.walkover(match=waiting, winner=waiting.home, reason="The other team did not come back")
    clocks.start_match_clocks(tournament=tournament)
    playing = tournament.matches.filter(status=Match.Status.PLAYING).order_by("position").first()
    game = one_hand(playing.games.get(), rng)
    clocks.pause_clock(clock=playing.clock)
    clocks.add_minutes(clock=playing.clock, minutes=5)
    services.flag_dispute(hand=game.hands.get(number=1), note="EW say they took 5")
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
    tournament.fee_per, tournament.tiebreakers = Tournament.FeePer.NIGHT, "point-difference,head-to-head"
    tournament.save(update_fields=["fee_per", "tiebreakers"])
    night = format_of(tournament).start(tournament=tournament)
    services.start_round(round_=night)
    play_round(night, rng)
    league.close_night(round_=night)
    later = league.league_matches(tournament).filter(round=3).order_by("number").first()
    league.postpone_match(match=later, to_night=league.load_schedule(tournament).nights + 1)
    late = services.register_team(tournament=tournament, names=["Late", "Comer"])
    league.add_late_team(team=late, missed=pure_schedule.Missed.MAKE_UP)
    league.withdraw_team(team=tournament.teams.get(number=2), played=pure_schedule.PlayedResults.VOID)
    night = league.open_night(tournament=tournament, night=2)
    services.start_round(round_=night)
    clocks.start_round_clock(round_=night)
    first, *others = league.league_matches(tournament).filter(round=2, status=Match.Status.PLAYING).order_by("number")
    play_match(first, rng)
    if others:
        one_hand(others[0].games.get(), rng)
        clocks.pause_clock(clock=others[0].clock)
        clocks.add_minutes(clock=others[0].clock, minutes=3)
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
