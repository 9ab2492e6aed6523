"""A Swiss event at scale: 256 teams over 8 rounds (issue 26: the standings page at 256 teams
≤ 100 ms).

Every round is paired and seated by the format's own services (the pairing from the standings so
far), its games then decided with random scores set directly (playing 1,000 games hand by hand is
the simulation's job, not this benchmark's) and the round closed, which pairs the next. Times, with
their SQL query counts: pairing and seating a round, and then the standings pages (director,
public, projector) and the standings as the prizes read them. A 16-team event is measured the same
way to show the query counts do not grow with the field.

Runs on a throw-away database (SQLite in memory, or a test database beside DATABASE_URL's).
"""

from __future__ import annotations

import os
import random
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from tournament_scale import timed  # noqa: E402 - beside this script

from scoring import Side  # noqa: E402
from tournament.formats.registry import format_of  # noqa: E402
from tournament.formats.swiss.simulation import create_swiss  # noqa: E402
from tournament.formats.swiss.standings import swiss_matches  # noqa: E402
from tournament.models import Game, Match, Round  # noqa: E402
from tournament.play.rounds import close_round, start_play, start_round  # noqa: E402

TARGET_MS = 100  # the standings page at 256 teams (issue 26)


def decide(round_: Round, rng: random.Random) -> None:
    """Every game of ``round_`` finished with a random score, every pairing won by its game's winner."""
    games = list(round_.games.select_related("match"))
    matches = []
    for game in games:
        ns, ew = rng.randrange(300, 420), rng.randrange(-100, 299)
        if rng.random() < 0.5:
            ns, ew = ew, ns
        game.ns_score, game.ew_score, game.status, game.hands_played = ns, ew, Game.Status.FINISHED, 8
        game.winner = Side.NS if ns > ew else Side.EW
        match = game.match
        match.status, match.outcome = Match.Status.FINISHED, Match.Outcome.PLAYED
        match.winner_id = match.home_id if ns > ew else match.away_id
        matches.append(match)
    Game.objects.bulk_update(games, ["ns_score", "ew_score", "status", "hands_played", "winner"])
    Match.objects.bulk_update(matches, ["status", "outcome", "winner"])


def measure(teams: int, rounds: int) -> float:
    tournament = create_swiss(teams=teams, rounds=rounds, seed=1)
    rng = random.Random(1)
    round_ = start_play(tournament=tournament)
    pairing_times = []
    while round_ is not None:
        start_round(round_=round_)
        decide(round_, rng)
        seconds, queries = timed(lambda round_=round_: close_round(round_=round_))
        round_ = tournament.rounds.filter(status=Round.Status.PLANNED).first()
        if round_ is not None:
            pairing_times.append((seconds, queries))
    print(f"  {teams} teams, {rounds} rounds: {swiss_matches(tournament).count()} pairings and byes")
    worst, queries = max(pairing_times)
    print(f"    close a round, pair and seat the next  {1000 * worst:8.2f} ms  {queries:4d} queries (the slowest)")
    client = Client()
    client.force_login(get_user_model().objects.get(username="bench"))
    standings_ms = 0.0
    for label, name in (
        ("standings, public page", "public:swiss"),
        ("standings, director", "director:swiss_standings"),
        ("projector view", "public:swiss_projector"),
        ("rounds page, director", "director:swiss"),
    ):
        url = reverse(name, args=[tournament.pk])
        seconds, queries = timed(lambda url=url: client.get(url).content, repeat=5)
        if name == "public:swiss":
            standings_ms = 1000 * seconds
        print(f"    {label:<38} {1000 * seconds:8.2f} ms  {queries:4d} queries")
    seconds, queries = timed(lambda: format_of(tournament).standings(tournament), repeat=5)
    print(f"    {'standings as prizes read them':<38} {1000 * seconds:8.2f} ms  {queries:4d} queries")
    return standings_ms


def main() -> None:
    from tournament.simulation.scratch import throwaway_database

    setup_test_environment()
    print(f"Swiss event (Python {sys.version.split()[0]}, {connection.vendor})")
    with throwaway_database():
        get_user_model().objects.create_superuser("bench", password="bench-password-1")
        measure(16, 5)
        standings_ms = measure(256, 8)
    verdict = "within" if standings_ms <= TARGET_MS else "OVER"
    print(f"  the standings page at 256 teams: {standings_ms:.1f} ms, {verdict} the {TARGET_MS} ms target")


if __name__ == "__main__":
    main()
