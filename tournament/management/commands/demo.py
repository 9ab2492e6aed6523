from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournament.play.links import network_address
from tournament.simulation.demo import DEMO_PASSWORD, load_demo


class Command(BaseCommand):
    help = "Load a demo tournament and a director login, if the database has no tournament yet."

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
        self.stdout.write(f"{loaded} Director login at http://127.0.0.1:8000/login/ : {result.username} / {password}")
        found = network_address()
        self.stdout.write(
            f"Phones reach this computer at http://{found}:8000/ once the app is served on the network "
            f"(runserver 0.0.0.0:8000 with DJANGO_ALLOWED_HOSTS={found}; see the README)."
            if found
            else "No network address found: phones reach the app only at this computer's network address."
        )
