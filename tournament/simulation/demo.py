"""A demo tournament for a new user's first look (``python manage.py demo``)."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring.random_hands import random_hand
from tournament.clubs.services import create_club
from tournament.models import HandRevision, Payment, Prize, Tournament
from tournament.money.services import record_payment
from tournament.play.hands import enter_hand
from tournament.play.rounds import start_play, start_round
from tournament.simulation.play import hand_entry
from tournament.teams.services import register_team

DEMO_USERNAME = "director"
DEMO_PASSWORD = "spades-demo"
DEMO_CLUB = "Demo Spades Club"
DEMO_COUPLES = [
    ("Ada Brooks", "Ben Carter"),
    ("Cleo Diaz", "Dan Evans"),
    ("Eve Foster", "Finn Garcia"),
    ("Gina Hayes", "Hugo Ito"),
    ("Iris Jones", "Jack Kim"),
    ("Kara Lopez", "Leo Moore"),
    ("Mia Nash", "Noah Ortiz"),
    ("Olga Price", "Paul Quinn"),
]

# A division prize the demo can show without sorting its players by sex: first-time players, one
# or both of a couple, whoever they are.
DEMO_DIVISIONS = [("", "newcomer"), ("newcomer", ""), ("", ""), ("", "newcomer"),
                  ("", ""), ("newcomer", "newcomer"), ("", ""), ("", "")]  # fmt: skip


@dataclass(frozen=True)
class DemoResult:
    tournament: Tournament | None
    username: str
    password: str | None


@transaction.atomic
def load_demo(*, today: datetime.date | None = None) -> DemoResult:
    """Create the demo director, the demo club it owns and its tournament unless the database
    already has a tournament.

    The director account is created only when missing; its password is returned only then.
    """
    user_model = get_user_model()
    password = None
    director = user_model.objects.filter(username=DEMO_USERNAME).first()
    if director is None:
        director = user_model.objects.create_superuser(DEMO_USERNAME, email="", password=DEMO_PASSWORD)
        password = DEMO_PASSWORD
    if Tournament.objects.exists():
        return DemoResult(tournament=None, username=DEMO_USERNAME, password=password)
    club = create_club(name=DEMO_CLUB, owner=director)
    tournament = Tournament.objects.create(
        club=club,
        name="Friday Night Progressive (demo)",
        date=today or datetime.date.today(),
        venue="Community Hall",
        preset="progressive",
        format="progressive_split",
        entry_fee=Decimal("20.00"),
    )
    _play_some(tournament)
    return DemoResult(tournament=tournament, username=DEMO_USERNAME, password=password)


def _play_some(tournament: Tournament) -> None:
    """Register the couples, take most fees, set prizes, and play part of round 1."""
    rng = random.Random(2026)
    for index, names in enumerate(DEMO_COUPLES):
        team = register_team(tournament=tournament, names=names, divisions=DEMO_DIVISIONS[index])
        team.checked_in = True
        team.save(update_fields=["checked_in"])
        if index < 6:
            record_payment(team=team, amount=tournament.entry_fee, kind=Payment.Kind.PAYMENT, method="cash")
    Prize.objects.create(tournament=tournament, place=1, share_percent=Decimal("40"))
    Prize.objects.create(tournament=tournament, place=2, share_percent=Decimal("20"))
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.DIVISION, division="newcomer", amount=Decimal("10"))
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game, hands in zip(round_.games.order_by("table__number"), (4, 4, 2, 0), strict=True):
        rules = tournament.rules
        for number in range(1, hands + 1):
            (north, south), (east, west) = random_hand(rules, rng, scores=(game.ns_score, game.ew_score))
            entry = hand_entry(north, east, south, west)
            game = enter_hand(game=game, number=number, entry=entry, source=HandRevision.Source.TABLE).game
