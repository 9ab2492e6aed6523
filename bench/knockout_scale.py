"""A double elimination at 8 and 64 teams: time (and count the SQL queries of) drawing the
bracket, finishing a match (its last hand: the winner advances and the next match takes the
table), and the director's and the public bracket pages once the first round is played.

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

from scoring.random_hands import random_hand  # noqa: E402
from tournament.formats.knockout.simulation import create_knockout  # noqa: E402
from tournament.formats.registry import format_of  # noqa: E402
from tournament.models import Game, Hand, HandRevision, Match  # noqa: E402
from tournament.play.hands import enter_hand  # noqa: E402
from tournament.simulation.play import hand_entry, play_game  # noqa: E402
from tournament.simulation.scratch import throwaway_database  # noqa: E402


def _play_round_one(tournament, rng: random.Random) -> None:
    for game in Game.objects.filter(match__tournament=tournament, match__round=1, match__stage=Match.Stage.WINNERS):
        play_game(game, rng)


def _last_hand(game: Game, rng: random.Random):
    """Play ``game`` up to the hand that ends it; return a function that enters that hand."""
    while True:
        (north, south), (east, west) = random_hand(game.rules, rng, scores=(game.ns_score, game.ew_score))
        entry, number = hand_entry(north, east, south, west), game.hands.count() + 1
        trial = Hand(game=game, number=number)
        trial.store(entry)
        if game.replay([*game.hands.order_by("number"), trial]).game.over:
            return lambda: enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE)
        game = enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE).game


def measure(teams: int) -> dict[str, tuple[float, int]]:
    rng = random.Random(teams)
    tournament = create_knockout(teams=teams, seed=teams, format="double-elimination")
    results = {"draw the bracket": timed(lambda: format_of(tournament).start(tournament=tournament))}
    _play_round_one(tournament, rng)
    playing = Match.objects.filter(tournament=tournament, status=Match.Status.PLAYING).order_by("position").first()
    finish = _last_hand(playing.games.select_related("round__tournament", "table", "match").get(status="playing"), rng)
    results["finish a match"] = timed(finish)
    client = Client()
    director = get_user_model().objects.create_superuser(f"bench{teams}", password="x")
    client.force_login(director)
    results["bracket page"] = timed(lambda: client.get(reverse("director:bracket", args=[tournament.pk])).content, 5)
    results["public bracket"] = timed(lambda: client.get(reverse("public:bracket", args=[tournament.pk])).content, 5)
    return results


def main() -> None:
    setup_test_environment()
    with throwaway_database():
        print(f"knockout scale, double elimination ({connection.vendor}, Python {sys.version.split()[0]})")
        small, large = measure(8), measure(64)
    print(f"  {'':<18} {'8 teams':>22} {'64 teams':>22}")
    for key in small:
        (t8, q8), (t64, q64) = small[key], large[key]
        print(f"  {key:<18} {t8 * 1000:>9.1f} ms {q8:>4} queries {t64 * 1000:>9.1f} ms {q64:>4} queries")


if __name__ == "__main__":
    main()
