from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Club
from tournament.operations.backups import read_club_backup, restore_club_backup


class Command(BaseCommand):
    help = (
        "Restore a club's backup (made by `manage.py backup --club`): every event in it becomes a new "
        "tournament of the club --club ID. A whole-database backup is restored with loaddata instead."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the backup file (.json.gz)")
        parser.add_argument("--club", type=int, metavar="ID", required=True, help="the club the events go into")

    def handle(self, *args: object, **options: object) -> None:
        club = Club.objects.filter(pk=options["club"]).first()
        if club is None:
            raise CommandError(f"--club: there is no club with id {options['club']} (see the admin's Clubs page).")
        try:
            raw = options["file"].read_bytes()
        except OSError as error:
            raise CommandError(f"file: cannot read {options['file']} ({error.strerror}).") from None
        try:
            restored = restore_club_backup(data=read_club_backup(raw), club=club)
        except ValidationError as error:
            raise CommandError(f"{options['file']}: {' '.join(error.messages)} Nothing was restored.") from None
        for tournament in restored:
            self.stdout.write(f"Restored {tournament.name} (id {tournament.pk}) into {club.name}.")
        self.stdout.write(f"{len(restored)} events restored.")
