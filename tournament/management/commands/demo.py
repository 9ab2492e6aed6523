from argparse import ArgumentParser

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournament.play.links import network_address
from tournament.simulation.demo import DEMO_PASSWORD, load_demo


class Command(BaseCommand):
    help = "Load a demo tournament and a director login, if the database has no tournament yet."

    def add_arguments(self, parser: ArgumentParser) -> None:
        # `make run` passes the port it serves on (its PORT), so the login address printed is the one served.
        parser.add_argument("--port", type=int, default=8000, help="the port the app is served on (default 8000)")

    def handle(self, *args: object, **options: object) -> None:
        if not settings.DEMO_ALLOWED:
            raise CommandError("the demo's well-known password is for local use only (DJANGO_DEBUG is false)")
        result = load_demo()
        loaded = (
            f"Loaded the demo tournament {result.tournament.name!r}."
            if result.tournament
            else "Tournaments exist; no demo loaded."
        )
        password = result.password or f"{DEMO_PASSWORD} (unless changed since)"
        port = options["port"]
        self.stdout.write(f"{loaded} Director login at http://127.0.0.1:{port}/login/ : {result.username} / {password}")
        found = network_address()
        self.stdout.write(
            f"Phones cannot open 127.0.0.1 (it is this computer's own address): to serve the app to the room "
            f'at this computer\'s network address ({found}), see "Running an event" in the README.'
            if found
            else "No network address found: phones reach the app only at this computer's network address."
        )
