from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError
from django.urls import reverse
from django.utils import timezone

from tournament.clubs.services import invite_first_owner
from tournament.models import Invitation
from tournament.play.links import base_url


class Command(BaseCommand):
    help = (
        "On a new site (no club has an owner yet): print a one-use link that makes its opener the owner "
        "of a new club, who then invites everyone else from the club's page."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", required=True, help="the club's name")
        parser.add_argument("--days", type=int, default=7, help="the link works this many days (default 7)")
        parser.add_argument(
            "--base-url", default="", help="the site's address, e.g. https://spades.example.org (else SPADES_BASE_URL)"
        )

    def handle(self, *args: object, **options: object) -> None:
        base = self._base_url(options["base_url"])
        name = options["club"].strip()
        if not name or len(name) > 120:
            raise CommandError("--club must be the club's name, 1 to 120 characters.")
        if not 1 <= options["days"] <= 30:
            raise CommandError("--days must be from 1 to 30.")
        try:
            earlier = Invitation.objects.filter(club__isnull=True, used_at__isnull=True, expires_at__gt=timezone.now())
            replaced = earlier.exists()
            invitation, token = invite_first_owner(club_name=name, days=options["days"])
        except ValidationError as error:
            raise CommandError(error.messages[0]) from None
        except DatabaseError as error:  # no tables yet, as on a new site before its first migrate
            raise CommandError(f"The database is not set up: run `manage.py migrate` first. ({error})") from None
        if replaced:
            self.stdout.write("The earlier first owner's link no longer works: this one replaces it.")
        self.stdout.write(f"Open this link to make your account and become the owner of {name} (it works once, "
                          f"until {invitation.expires_at:%Y-%m-%d %H:%M} UTC):")  # fmt: skip
        self.stdout.write(base + reverse("join", args=[token]))

    def _base_url(self, given: str) -> str:
        if given or settings.SPADES_BASE_URL:
            return (given or settings.SPADES_BASE_URL).rstrip("/")
        if not settings.DEBUG:
            raise CommandError(
                "The link needs the site's address: pass --base-url https://your.site or set SPADES_BASE_URL."
            )
        # On a developer's machine the debug server's address is the likely one; say so, since a
        # phone or another computer cannot open it.
        self.stdout.write(
            f"No --base-url and no SPADES_BASE_URL: the link uses {base_url()} (debug mode), "
            "which opens on this computer only."
        )
        return base_url()
