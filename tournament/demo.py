"""A demo tournament for a new user's first look (``python manage.py demo``)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction

from tournament.models import Player, Team, Tournament

DEMO_USERNAME = "director"
DEMO_PASSWORD = "spades-demo"
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


@dataclass(frozen=True)
class DemoResult:
    tournament: Tournament | None
    username: str
    password: str | None


@transaction.atomic
def load_demo(*, today: datetime.date | None = None) -> DemoResult:
    """Create the demo director and tournament unless the database already has a tournament.

    The director account is created only when missing; its password is returned only then.
    """
    user_model = get_user_model()
    password = None
    if not user_model.objects.filter(username=DEMO_USERNAME).exists():
        user_model.objects.create_superuser(DEMO_USERNAME, email="", password=DEMO_PASSWORD)
        password = DEMO_PASSWORD
    if Tournament.objects.exists():
        return DemoResult(tournament=None, username=DEMO_USERNAME, password=password)
    tournament = Tournament.objects.create(
        name="Friday Night Progressive (demo)",
        date=today or datetime.date.today(),
        venue="Community Hall",
        preset="progressive",
        format=Tournament.Format.PROGRESSIVE_SPLIT,
        entry_fee=Decimal("20.00"),
    )
    for number, names in enumerate(DEMO_COUPLES, start=1):
        team = Team.objects.create(tournament=tournament, number=number)
        Player.objects.bulk_create(Player(team=team, name=name) for name in names)
    return DemoResult(tournament=tournament, username=DEMO_USERNAME, password=password)
