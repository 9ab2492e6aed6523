import json

from django.core.management.base import BaseCommand, CommandParser

from tournament.scratch import throwaway_database
from tournament.simulation import simulate


class Command(BaseCommand):
    help = (
        "Play a whole progressive event with random legal hands on a throw-away database and print its log "
        "(tables, players, points, winners, who sat out). The real database is not touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--couples", type=int, default=8, help="registered couples (teams of two)")
        parser.add_argument("--rounds", type=int, default=4, help="rounds to play")
        parser.add_argument("--seed", type=int, default=1, help="random seed: the same seed plays the same event")
        parser.add_argument("--partners", choices=["split", "fixed"], default="split")
        parser.add_argument("--json", action="store_true", help="print the log as one JSON object")

    def handle(self, *args: object, **options: object) -> None:
        with throwaway_database():
            log = simulate(
                couples=options["couples"], rounds=options["rounds"], seed=options["seed"], partners=options["partners"]
            )
        if options["json"]:
            self.stdout.write(json.dumps(log))
            return
        for round_ in log["rounds"]:
            self.stdout.write(f"Round {round_['number']}  sitting out: {', '.join(round_['sitting_out']) or 'nobody'}")
            for t in round_["tables"]:
                self.stdout.write(
                    f"  table {t['table']:>3}: {t['north']} & {t['south']} {t['ns_points']:>5}  v  "
                    f"{t['east']} & {t['west']} {t['ew_points']:>5}   winner {t['winner']}"
                )
        self.stdout.write(f"Simulated {len(log['rounds'])} rounds.")
