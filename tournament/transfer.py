"""A whole tournament as JSON, and back: a backup, and a way to move an event between machines.

Records refer to each other by their numbers in the tournament (team 3's second player, table 5,
round 2), never by database ids, so an export imports into any database. Users are referred to
by user name and linked again where that user exists on the importing machine. A table's link
token (``tables[].token``, one per physical table for the whole event) is kept unless the
importing database already uses it (then a new one is issued and the table's tent must be
reprinted). Older exports listed tables as bare numbers; their tables get new tokens.
"""

from __future__ import annotations

import datetime
import json
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime

from tournament.models import (
    HAND_FIELDS,
    Dispute,
    Game,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Payout,
    Player,
    Prize,
    Round,
    Seating,
    SeatingChange,
    SitOut,
    Table,
    Team,
    Tournament,
    new_token,
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
    teams = list(tournament.teams.prefetch_related("players", "payments__recorded_by"))
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
            {"name": p.name, "division": p.division, "substitute": p.substitute, "substitute_from": p.substitute_from}
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


def parse(raw: bytes | str) -> dict[str, Any]:
    """Decode an export; :class:`ValidationError` if it is not one."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ValidationError("That file is not a tournament export (it is not JSON).", code="not_json") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationError(f"That file is not a tournament export of format {FORMAT}.", code="format")
    return data


@transaction.atomic
def import_tournament(data: dict[str, Any], *, by: Any = None) -> Tournament:
    """Create a new tournament from an export, ``by`` its director; nothing is saved unless all
    of it is valid."""
    try:
        with transaction.atomic():
            tournament = _import(data)
            if by is not None:
                Membership.objects.create(tournament=tournament, user=by, role=Membership.Role.DIRECTOR)
            return tournament
    except (KeyError, TypeError, ValueError, IndexError, InvalidOperation, IntegrityError, ValidationError) as error:
        raise ValidationError(f"The export is damaged or incomplete ({type(error).__name__}: {error}).") from None


def _import(data: dict[str, Any]) -> Tournament:
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    meta = data["tournament"]
    tournament = Tournament(
        **{f: meta[f] for f in TOURNAMENT_FIELDS},
        date=datetime.date.fromisoformat(meta["date"]),
        entry_fee=Decimal(meta["entry_fee"]),
    )
    tournament.full_clean()
    tournament.save()
    players: dict[tuple[int, int], Player] = {}
    teams: dict[int, Team] = {}
    for t in data["teams"]:
        team = Team.objects.create(
            tournament=tournament,
            number=t["number"],
            status=t["status"],
            checked_in=t["checked_in"],
            registered_at=parse_datetime(t["registered_at"]),
        )
        teams[team.number] = team
        for i, p in enumerate(t["players"]):
            players[team.number, i] = Player.objects.create(
                team=team,
                name=p["name"],
                division=p["division"],
                substitute=p.get("substitute", ""),
                substitute_from=p.get("substitute_from"),
            )
        for pay in t["payments"]:
            Payment.objects.create(
                team=team,
                kind=pay["kind"],
                amount=Decimal(pay["amount"]),
                method=pay["method"],
                note=pay["note"],
                recorded_by=users.get(pay["recorded_by"]),
                recorded_at=parse_datetime(pay["recorded_at"]),
            )
    tables = {t.number: t for t in (_import_table(entry, tournament) for entry in data["tables"])}
    for r in data["rounds"]:
        _import_round(r, tournament, tables, players, users)
    for p in data["prizes"]:
        _import_prize(p, tournament, players, teams, users)
    return tournament


def _import_table(entry: int | dict[str, Any], tournament: Tournament) -> Table:
    number, token = (entry, "") if isinstance(entry, int) else (entry["number"], entry["token"])
    if not token or Table.objects.filter(token=token).exists():
        token = new_token()
    return Table.objects.create(tournament=tournament, number=number, token=token)


def _import_round(r: dict, tournament: Tournament, tables: dict, players: dict, users: dict) -> None:
    round_ = Round.objects.create(
        tournament=tournament,
        number=r["number"],
        status=r["status"],
        started_at=parse_datetime(r["started_at"] or ""),
        closed_at=parse_datetime(r["closed_at"] or ""),
    )
    Seating.objects.bulk_create(
        Seating(round=round_, table=tables[s["table"]], seat=s["seat"], player=players[tuple(s["player"])])
        for s in r["seatings"]
    )
    SitOut.objects.bulk_create(SitOut(round=round_, player=players[tuple(p)]) for p in r["sit_outs"])
    for c in r["changes"]:
        SeatingChange.objects.create(
            round=round_,
            description=c["description"],
            changed_by=users.get(c["changed_by"]),
            changed_at=parse_datetime(c["changed_at"]),
        )
    for g in r["games"]:
        game = Game.objects.create(
            round=round_,
            table=tables[g["table"]],
            status=g["status"],
            first_dealer=g["first_dealer"],
            winner=g["winner"],
            decided_by=g["decided_by"],
        )
        for h in g["hands"]:
            hand = Hand.objects.create(
                game=game,
                number=h["number"],
                entered_at=parse_datetime(h["entered_at"]),
                **{f: h[f] for f in HAND_FIELDS + HAND_EXTRA_FIELDS},
            )
            HandRevision.objects.bulk_create(
                HandRevision(
                    hand=hand,
                    source=v["source"],
                    changed_by=users.get(v["changed_by"]),
                    changed_at=parse_datetime(v["changed_at"]),
                    before=v["before"],
                    after=v["after"],
                )
                for v in h["revisions"]
            )
            Dispute.objects.bulk_create(
                Dispute(
                    hand=hand,
                    note=d["note"],
                    raised_from=d["raised_from"],
                    raised_by=users.get(d["raised_by"]),
                    raised_at=parse_datetime(d["raised_at"]),
                    resolution=d["resolution"],
                    resolved_by=users.get(d["resolved_by"]),
                    resolved_at=parse_datetime(d["resolved_at"] or ""),
                )
                for d in h.get("disputes", [])
            )
        game.rescore()


def _import_prize(p: dict, tournament: Tournament, players: dict, teams: dict, users: dict) -> None:
    prize = Prize.objects.create(
        tournament=tournament,
        kind=p["kind"],
        place=p["place"],
        division=p["division"],
        amount=None if p["amount"] is None else Decimal(p["amount"]),
        share_percent=None if p["share_percent"] is None else Decimal(p["share_percent"]),
    )
    for o in p["payouts"]:
        Payout.objects.create(
            prize=prize,
            amount=Decimal(o["amount"]),
            paid_at=parse_datetime(o["paid_at"] or ""),
            player=players[tuple(o["player"])] if o["player"] else None,
            team=teams[o["team"]] if o["team"] else None,
            received_by=o["received_by"],
            recorded_by=users.get(o["recorded_by"]),
        )
