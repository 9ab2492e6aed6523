import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.formats.registry import all_formats
from tournament.simulation.scratch import throwaway_database


def _simulations() -> dict:
    """Each format's simulation, by its name (the variants of a format share one)."""
    return {f.simulation.name: f.simulation for f in all_formats() if f.simulation is not None}


def _format_as_kind(argv: list[str]) -> list[str]:
    """``argv`` with ``--format NAME`` (or ``--format=NAME``) moved to where the sub-command goes."""
    args = list(argv)
    for index, arg in enumerate(args[2:], start=2):
        if arg == "--format" and index + 1 < len(args):
            kind = args[index + 1]
            del args[index : index + 2]
        elif arg.startswith("--format="):
            kind = arg.split("=", 1)[1]
            del args[index]
        else:
            continue
        return [*args[:2], kind, *args[2:]]
    return args


class Command(BaseCommand):
    help = (
        "Play a whole event with random legal hands on a throw-away database and print its log. The kind of "
        "event is a sub-command (or --format NAME), one for each format's simulation (progressive, knockout, "
        "league, swiss); each has its own options (--help after it). The real database is not touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        kinds = parser.add_subparsers(dest="kind", required=True, parser_class=CommandParser)
        for simulation in _simulations().values():
            kind = kinds.add_parser(simulation.name, help=simulation.help, called_from_command_line=True)
            kind.add_argument("--seed", type=int, default=1, help="random seed: the same seed plays the same event")
            kind.add_argument("--json", action="store_true", help="print the log as one JSON object")
            simulation.add_arguments(kind)

    def run_from_argv(self, argv: list[str]) -> None:
        """``simulate --format <name> …`` is ``simulate <name> …``: the issue's spelling of the kind."""
        super().run_from_argv(_format_as_kind(argv))

    def check(self, *args: Any, **kwargs: Any) -> None:
        """The system checks, against no database: the configured one is not touched, not even to
        ask what it supports (Django 6.1's model checks would open it, creating a SQLite file)."""
        super().check(*args, **{**kwargs, "databases": []})

    def handle(self, *args: object, **options: object) -> None:
        simulation = _simulations()[options["kind"]]
        if (options.get("teams") or 2) < 2 or (options.get("couples") or 2) < 2:
            raise CommandError("--teams: an event needs at least two teams.")
        try:
            with throwaway_database():
                log = simulation.run(options)
        except ValueError as error:
            raise CommandError(str(error)) from None
        if options["json"]:
            self.stdout.write(json.dumps(log))
            return
        for line in simulation.lines(log):
            self.stdout.write(line)
