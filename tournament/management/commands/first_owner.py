from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from tournament.clubs.services import invite_first_owner


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
        base = (options["base_url"] or settings.SPADES_BASE_URL).rstrip("/")
        if not base:
            raise CommandError(
                "The link needs the site's address: pass --base-url https://your.site or set SPADES_BASE_URL."
            )
        name = options["club"].strip()
        if not name or len(name) > 120:
            raise CommandError("--club must be the club's name, 1 to 120 characters.")
        if not 1 <= options["days"] <= 30:
            raise CommandError("--days must be from 1 to 30.")
        try:
            invitation, token = invite_first_owner(club_name=name, days=options["days"])
        except ValidationError as error:
            raise CommandError(error.messages[0]) from None
        self.stdout.write(f"Open this link to make your account and become the owner of {name} (it works once, "
                          f"until {invitation.expires_at:%Y-%m-%d %H:%M} UTC):")  # fmt: skip
        self.stdout.write(base + reverse("join", args=[token]))
