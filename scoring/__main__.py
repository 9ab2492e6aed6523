"""``python -m scoring``: score one hand given as JSON on standard input.

``python -m scoring --rules`` lists the presets with their fields instead. Bad input exits
with status 2 and one line on standard error naming the team and player (from 1), the field
and the rule; nothing is written to standard output then.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from scoring.hand import InvalidHand, PlayerHand, SideHand, score_hand
from scoring.presets import PRESETS, rules_from_json
from scoring.rules import InvalidRules

_TOP_FIELDS = {"rules", "teams"}
_TEAM_FIELDS = {"score", "bags", "players", "reneges", "table_talk"}
_PLAYER_FIELDS = {"bid", "tricks", "reneges", "table_talk"}
_RESULT_FIELDS = ("points", "bag_penalty", "bags", "score", "made")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="store_true", help="list the presets and their fields")
    args = parser.parse_args(argv)
    if args.rules:
        listing = {
            name: {
                "title": p.title,
                "description": p.description,
                "rules": p.rules.to_json(),
                "readings": sorted(p.readings),
            }
            for name, p in PRESETS.items()
        }
        json.dump(listing, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    try:
        output = score_json(sys.stdin.read())
    except InvalidHand as error:
        print(str(error), file=sys.stderr)
        return 2
    except InvalidRules as error:
        print(f"rules: {error}", file=sys.stderr)
        return 2
    json.dump(output, sys.stdout)
    sys.stdout.write("\n")
    return 0


def score_json(text: str) -> dict[str, Any]:
    """Score the hand in ``text`` (the JSON form above) and return the JSON-ready result."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidHand(
            f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})", field="input"
        ) from None
    _require_object(data, _TOP_FIELDS, field="input", where={})
    if "rules" not in data:
        raise InvalidHand("required: a preset name or an object of rule fields", field="rules")
    rules = rules_from_json(data["rules"])
    teams = data.get("teams")
    if not isinstance(teams, list) or len(teams) != 2:
        raise InvalidHand("must be a list of exactly two teams", field="teams")
    sides = [_side(team, number) for number, team in enumerate(teams, start=1)]
    result = score_hand(rules, sides)
    return {
        "teams": [
            {name: getattr(side, name) for name in _RESULT_FIELDS} | {"lines": list(side.lines)}
            for side in result.teams
        ],
        "game_over": result.game_over,
        "winner": result.winner,
    }


def _side(data: object, team: int) -> SideHand:
    _require_object(data, _TEAM_FIELDS, field="team", where={"team": team})
    assert isinstance(data, Mapping)
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise InvalidHand("must be a list of exactly two players", field="players", team=team)
    pair = tuple(_player(p, team, number) for number, p in enumerate(players, start=1))
    # A side's infractions default to its players' (given under rules scoring each player's bid).
    named = {name: [getattr(p, name) for p in pair] for name in ("reneges", "table_talk")}
    return SideHand(
        players=(pair[0], pair[1]),
        score=data.get("score", 0),
        bags=data.get("bags", 0),
        **{name: data.get(name, sum(c for c in counts if type(c) is int)) for name, counts in named.items()},
    )


def _player(data: object, team: int, player: int) -> PlayerHand:
    where = {"team": team, "player": player}
    _require_object(data, _PLAYER_FIELDS, field="player", where=where)
    assert isinstance(data, Mapping)
    for name in ("bid", "tricks"):
        if name not in data:
            raise InvalidHand("required", field=name, **where)
    return PlayerHand(
        bid=data["bid"], tricks=data["tricks"], reneges=data.get("reneges", 0), table_talk=data.get("table_talk", 0)
    )


def _require_object(data: object, allowed: set[str], *, field: str, where: dict[str, int]) -> None:
    if not isinstance(data, Mapping):
        raise InvalidHand("must be a JSON object", field=field, **where)
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise InvalidHand(f"unknown field; expected {', '.join(sorted(allowed))}", field=unknown[0], **where)


if __name__ == "__main__":
    sys.exit(main())
