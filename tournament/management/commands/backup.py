from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Club
from tournament.operations.backups import backup_storage, write_club_backup, write_database_backup


class Command(BaseCommand):
    help = (
        "Write a dated backup file: every event of a club (--club ID; restore with restore_backup) or the "
        "whole database (--all; restore with loaddata on an empty database). Into SPADES_BACKUP_DIR, or --dir."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--club", type=int, metavar="ID", help="back up every event of the club with this id")
        which.add_argument("--all", action="store_true", help="back up the whole database")
        parser.add_argument("--dir", type=Path, default=None, help="write the file here (default SPADES_BACKUP_DIR)")

    def handle(self, *args: object, **options: object) -> None:
        storage = backup_storage(options["dir"])
        if options["all"]:
            name = write_database_backup(storage=storage)
        else:
            club = Club.objects.filter(pk=options["club"]).first()
            if club is None:
                raise CommandError(f"--club: there is no club with id {options['club']} (see the admin's Clubs page).")
            name = write_club_backup(club=club, storage=storage)
        self.stdout.write(f"Wrote {storage.path(name)}")
