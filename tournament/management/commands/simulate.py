import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.scratch import throwaway_database
from tournament.simulation import simulate
from tournament.simulation_knockout import FORMATS, simulate_knockout
from tournament.simulation_league import simulate_league


class Command(BaseCommand):
    help = (
        "Play a whole event with random legal hands on a throw-away database and print its log: a progressive "
        "event (tables, players, points, winners, who sat out) or, with --format, a knockout (seeds, every match "
        "in the order played, places). The real database is not touched."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--couples", type=int, default=8, help="registered couples (teams of two)")
        parser.add_argument("--rounds", type=int, default=4, help="rounds to play")
        parser.add_argument("--seed", type=int, default=1, help="random seed: the same seed plays the same event")
        parser.add_argument("--partners", choices=["split", "fixed"], default="split")
        parser.add_argument("--json", action="store_true", help="print the log as one JSON object")
        parser.add_argument("--format", choices=["progressive", *FORMATS, "round-robin"], default="progressive")
        parser.add_argument("--teams", type=int, default=8, help="knockouts: registered teams")
        parser.add_argument("--third-place", action="store_true", help="single elimination: a third-place match")
        parser.add_argument("--best-of", type=int, choices=[1, 3, 5], default=1, help="knockouts: games a match")
        parser.add_argument("--legs", type=int, choices=[1, 2], default=1, help="round robin: 2 = home and away")
        parser.add_argument(
            "--championship", type=int, choices=[0, 2, 4], default=2, help="round robin: teams in the championship"
        )

    def handle(self, *args: object, **options: object) -> None:
        if options["format"] != "progressive":
            self._knockout(options)
            return
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

    def _knockout(self, options: dict) -> None:
        if options["teams"] < 2:
            raise CommandError("--teams: a knockout or a league needs at least two teams.")
        if options["format"] == "round-robin" and options["championship"] > options["teams"]:
            raise CommandError("--championship: more teams than the league has.")
        with throwaway_database():
            if options["format"] == "round-robin":
                log = simulate_league(
                    teams=options["teams"], seed=options["seed"], legs=options["legs"],
                    best_of=options["best_of"], championship=options["championship"],
                )  # fmt: skip
            else:
                log = simulate_knockout(
                    format=options["format"], teams=options["teams"], seed=options["seed"],
                    third_place=options["third_place"], best_of=options["best_of"],
                )  # fmt: skip
        if options["json"]:
            self.stdout.write(json.dumps(log))
            return
        for m in log["matches"]:
            away = "bye" if m["teams"][1] is None else f"team {m['teams'][1]}"
            scores = ", ".join(f"{a}-{b}" for a, b in m["games"])
            self.stdout.write(
                f"{m['stage']:>11} round {m['round']} match {m['number']}: team {m['teams'][0]} v {away}"
                f"  {scores}  winner team {m['winner']}"
            )
        places = log["places"]
        self.stdout.write(f"Champion: team {places['1']}; runner-up: team {places['2']}; third: {places['3']}.")
