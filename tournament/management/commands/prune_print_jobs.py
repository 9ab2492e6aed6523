from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from tournament.printing.jobs import prune


class Command(BaseCommand):
    help = "Delete printed PDFs older than SPADES_PRINT_KEEP_DAYS (or --days); they are made again on demand."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=None, help="keep PDFs made in the last DAYS days")

    def handle(self, *args: object, **options: object) -> None:
        days = settings.SPADES_PRINT_KEEP_DAYS if options["days"] is None else options["days"]
        self.stdout.write(f"Deleted {prune(days)} print jobs older than {days} days.")
