"""Play a whole knockout through the real models and services with random legal hands.

Used by ``manage.py simulate --format single-elimination|double-elimination`` (on a throw-away
database), by the benchmarks and by tests. Fixed partnerships play under ``league-300`` with the
final under ``championship-500``, as rule text 004 has it.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

from tournament import services
from tournament.formats import format_of
from tournament.models import Game, Match, Tournament
from tournament.simulation import play_game, player_name

FORMATS = {
    "single-elimination": Tournament.Format.SINGLE_ELIMINATION,
    "double-elimination": Tournament.Format.DOUBLE_ELIMINATION,
}


def create_knockout(*, teams: int, seed: int, format: str, third_place: bool = False, best_of: int = 1) -> Tournament:
    """A knockout with ``teams`` registered teams (not yet drawn)."""
    tournament = Tournament.objects.create(
        name=f"Simulated {format}",
        date=datetime.date(2026, 1, 1),
        preset="league-300",
        final_preset="championship-500",
        format=FORMATS[format],
        third_place_match=third_place,
        best_of=best_of,
        final_best_of=best_of,
        seating_seed=seed,
    )
    for team in range(teams):
        services.register_team(tournament=tournament, names=[player_name(2 * team), player_name(2 * team + 1)])
    return tournament


def play_knockout(tournament: Tournament, rng: random.Random) -> None:
    """Draw the bracket and play every match at its table until the champion is known."""
    format_of(tournament).start(tournament=tournament)
    while True:
        games = list(
            Game.objects.filter(match__tournament=tournament)
            .exclude(status=Game.Status.FINISHED)
            .select_related("round__tournament", "table", "match")
            .order_by("match__position", "match_game")
        )
        if not games:
            return
        for game in games:
            play_game(game, rng)


def simulate_knockout(*, format: str, teams: int, seed: int, third_place: bool = False, best_of: int = 1) -> dict:
    """Run the knockout and return its log (the shape ``manage.py simulate --json`` prints)."""
    tournament = create_knockout(teams=teams, seed=seed, format=format, third_place=third_place, best_of=best_of)
    play_knockout(tournament, random.Random(seed))
    return knockout_log(tournament, format)


def knockout_log(
    tournament: Tournament,
    format: str,
    stage_and_round: Callable[[Match], tuple[str, int]] = lambda m: (m.stage, m.round),
) -> dict[str, Any]:
    """The JSON log; ``stage_and_round`` says how a match is labelled (a league names its own)."""
    number = dict(tournament.teams.values_list("pk", "number"))
    games: dict[int, list[list[int]]] = {}
    for match_id, ns, ew in (
        Game.objects.filter(match__tournament=tournament)
        .order_by("match_game")
        .values_list("match_id", "ns_score", "ew_score")
    ):
        games.setdefault(match_id, []).append([ns, ew])
    matches = [
        {
            "stage": stage_and_round(m)[0],
            "round": stage_and_round(m)[1],
            "number": m.number,
            "teams": [number[m.home_id], number.get(m.away_id)],
            "winner": number[m.winner_id],
            "games": games.get(m.pk, []),
        }
        for m in tournament.matches.filter(finished_order__isnull=False).order_by("finished_order")
    ]
    rows = format_of(tournament).standings(tournament)
    by_place: dict[int, list[int]] = {}
    for row in rows:
        by_place.setdefault(row.standing.rank, []).append(number[row.standing.entrant])
    return {
        "format": format,
        "teams": sorted(number.values()),
        "seeds": {str(n): seed for n, seed in tournament.teams.values_list("number", "seed")},
        "matches": matches,
        "places": {"1": by_place[1][0], "2": by_place[2][0], "3": by_place.get(3, [])},
    }
