"""A whole tournament as JSON: a backup, and a way to move an event between machines
(:mod:`tournament.restore` imports it again).

Records refer to each other by their numbers in the tournament (team 3's second player, table 5,
round 2), never by database ids, so an export imports into any database. Users are referred to
by user name and linked again where that user exists on the importing machine. A table's link
token (``tables[].token``, one per physical table for the whole event) is kept unless the
importing database already uses it (then a new one is issued and the table's tent must be
reprinted). Older exports listed tables as bare numbers; their tables get new tokens.
"""

from __future__ import annotations

import datetime
from typing import Any

from tournament.models import (
    HAND_FIELDS,
    Game,
    Prize,
    Round,
    Team,
    Tournament,
)

FORMAT = "spades-director/1"
TOURNAMENT_FIELDS = [
    "name", "venue", "preset", "rule_overrides", "format", "rounds_planned", "seating_order", "seating_seed",
    "prize_ties", "require_confirmation", "paper_size", "status",
]  # fmt: skip
HAND_EXTRA_FIELDS = ["disputed", "dispute_note", "dispute_resolution", "confirmed_by", "version"]


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _user(user: Any) -> str | None:
    return user.get_username() if user else None


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """Everything about ``tournament`` as JSON-ready data (see the module docstring)."""
    teams = list(tournament.teams.prefetch_related("players__roster", "payments__recorded_by"))
    ref = {p.pk: [team.number, i] for team in teams for i, p in enumerate(team.players.all())}
    return {
        "format": FORMAT,
        "tournament": {
            **{f: getattr(tournament, f) for f in TOURNAMENT_FIELDS},
            "date": tournament.date.isoformat(),
            "entry_fee": str(tournament.entry_fee),
        },
        "teams": [_team(team) for team in teams],
        "tables": [{"number": n, "token": token} for n, token in tournament.tables.values_list("number", "token")],
        "rounds": [_round(r, ref) for r in tournament.rounds.prefetch_related("seating_changes__changed_by")],
        "prizes": [_prize(p, ref) for p in tournament.prizes.prefetch_related("payouts__team", "payouts__recorded_by")],
    }


def _team(team: Team) -> dict[str, Any]:
    return {
        "number": team.number,
        "status": team.status,
        "checked_in": team.checked_in,
        "registered_at": _when(team.registered_at),
        "players": [
            {
                "name": p.name,
                "division": p.division,
                "substitute": p.substitute,
                "substitute_from": p.substitute_from,
                "roster": p.roster.name if p.roster else None,
            }
            for p in team.players.all()
        ],
        "payments": [
            {
                "kind": p.kind,
                "amount": str(p.amount),
                "method": p.method,
                "note": p.note,
                "recorded_by": _user(p.recorded_by),
                "recorded_at": _when(p.recorded_at),
            }
            for p in team.payments.all()
        ],
    }


def _round(round_: Round, ref: dict[int, list[int]]) -> dict[str, Any]:
    games = round_.games.select_related("table").prefetch_related(
        "hands__revisions__changed_by", "hands__disputes__raised_by", "hands__disputes__resolved_by"
    )
    return {
        "number": round_.number,
        "status": round_.status,
        "started_at": _when(round_.started_at),
        "closed_at": _when(round_.closed_at),
        "seatings": [
            {"table": table, "seat": seat, "player": ref[player]}
            for table, seat, player in round_.seatings.values_list("table__number", "seat", "player_id")
        ],
        "sit_outs": [ref[p] for p in round_.sit_outs.values_list("player_id", flat=True)],
        "changes": [
            {"description": c.description, "changed_by": _user(c.changed_by), "changed_at": _when(c.changed_at)}
            for c in round_.seating_changes.all()
        ],
        "games": [_game(game) for game in games],
    }


def _game(game: Game) -> dict[str, Any]:
    return {
        "table": game.table.number,
        "status": game.status,
        "first_dealer": game.first_dealer,
        "winner": game.winner,
        "decided_by": game.decided_by,
        "hands": [
            {
                "number": hand.number,
                **{f: getattr(hand, f) for f in HAND_FIELDS + HAND_EXTRA_FIELDS},
                "entered_at": _when(hand.entered_at),
                "revisions": [
                    {
                        "source": r.source,
                        "changed_by": _user(r.changed_by),
                        "changed_at": _when(r.changed_at),
                        "before": r.before,
                        "after": r.after,
                    }
                    for r in hand.revisions.all()
                ],
                "disputes": [
                    {
                        "note": d.note,
                        "raised_from": d.raised_from,
                        "raised_by": _user(d.raised_by),
                        "raised_at": _when(d.raised_at),
                        "resolution": d.resolution,
                        "resolved_by": _user(d.resolved_by),
                        "resolved_at": _when(d.resolved_at),
                    }
                    for d in hand.disputes.all()
                ],
            }
            for hand in game.hands.all()
        ],
    }


def _prize(prize: Prize, ref: dict[int, list[int]]) -> dict[str, Any]:
    return {
        "kind": prize.kind,
        "place": prize.place,
        "division": prize.division,
        "amount": None if prize.amount is None else str(prize.amount),
        "share_percent": None if prize.share_percent is None else str(prize.share_percent),
        "payouts": [
            {
                "player": ref[p.player_id] if p.player_id else None,
                "team": p.team.number if p.team_id else None,
                "amount": str(p.amount),
                "paid_at": _when(p.paid_at),
                "received_by": p.received_by,
                "recorded_by": _user(p.recorded_by),
            }
            for p in prize.payouts.all()
        ],
    }
