"""Writing an import (see :mod:`.restore`, which checks it first): as a new tournament, or in
place of the one it came from (same id, same table links, same members).

The rows are written with ``bulk_create``, each model after those it links to, in one
transaction under the tournament's lock (:mod:`tournament.locking`): a table's phone that saves a
hand meanwhile waits, then finds its game gone and is told the event was restored.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.models import F, Max
from django.utils import timezone

from tournament.clubs import locale
from tournament.locking import lock_tournament
from tournament.models import (
    Clock,
    Club,
    Dispute,
    Game,
    Hand,
    HandRevision,
    Match,
    Payment,
    Payout,
    Player,
    PrintJob,
    Prize,
    RosterPlayer,
    Round,
    Seating,
    SeatingChange,
    SitOut,
    Table,
    Team,
    Tournament,
    roster_key,
)
from tournament.transfer.restore import Plan, check


def import_tournament(
    data: dict[str, Any], *, club: Club | None = None, by: Any = None, replace: Tournament | None = None
) -> Tournament:
    """Import an export: as a new tournament of ``club`` (its roster links the players), or, with
    ``replace``, in place of that tournament (same id, club and links; everything else as in the
    file). ``by`` is who imports it. Nothing is written unless all of it is valid
    (:class:`ValidationError` names the problem).

    Everything is checked and scored before the write transaction opens, so the transaction only
    deletes the old event (in place) and writes the rows."""
    club = replace.club if replace is not None else club
    if club is None:
        raise ValidationError("Choose the club the tournament goes into.", code="no_club")
    with locale.using(club):  # a time without an offset in the file is the club's; amounts in its currency
        plan = check(data, replace=replace)
    plan.tournament.club = club
    if replace is None and club.tournaments.filter(name=plan.tournament.name).exists():
        plan.tournament.name = restored_name(plan.tournament.name, timezone.localdate(timezone=club.zone))
    try:
        with transaction.atomic():
            return _write(plan, by=by, replace=replace)
    except DatabaseError as error:  # a constraint the checks above missed: still nothing written
        raise ValidationError(f"The export does not fit the database ({error}).", code="database") from None


def _write(plan: Plan, *, by: Any, replace: Tournament | None) -> Tournament:
    tournament = plan.tournament
    if replace is not None:
        old = lock_tournament(replace.pk)
        _delete_event(old)
        # The tournament's own row stays (it is what every write locks): the file's values go in it.
        tournament.pk, tournament.created_at = old.pk, old.created_at
        tournament.save(force_update=True)
    else:
        tournament.save()
    for model, rows in _rows(plan):
        model.objects.bulk_create(rows)  # each row links to rows written before it, now with their ids
    plan.format.import_settings(tournament=tournament, plan=plan)
    return tournament


def _rows(plan: Plan) -> list[tuple[type[models.Model], list]]:
    """Every new row but the tournament's, by model, each model after those it links to."""
    return [
        (RosterPlayer, _roster(plan)), (Team, plan.teams), (Player, plan.players), (Payment, plan.payments),
        (Table, plan.tables), (Clock, plan.clocks), (Match, plan.matches), (Round, plan.rounds),
        (Seating, plan.seatings), (SitOut, plan.sit_outs), (SeatingChange, plan.changes),
        (Game, [game for game, _ in plan.games]), (Hand, [hand for _, hands in plan.games for hand in hands]),
        (HandRevision, plan.revisions), (Dispute, plan.disputes), (Prize, plan.prizes), (Payout, plan.payouts),
    ]  # fmt: skip


def _roster(plan: Plan) -> list[RosterPlayer]:
    """Link each player to the club roster's entry for their name (as :func:`tournament.teams.services.roster_entry`
    picks it: the one who played most recently under that name), read before writing; the
    entries to add for names not on it yet."""
    keys = sorted({roster_key(name) for name in plan.roster_names})
    known: dict[str, RosterPlayer] = {}
    for start in range(0, len(keys), 500):
        found = RosterPlayer.objects.filter(club=plan.tournament.club, key__in=keys[start : start + 500])
        found = found.annotate(last=Max("entries__id"))
        for person in found.order_by(F("last").desc(nulls_last=True), "id"):
            known.setdefault(person.key, person)
    new: dict[str, RosterPlayer] = {}
    for player, name in zip(plan.players, plan.roster_names, strict=True):
        key = roster_key(name)
        if key not in known and key not in new:
            new[key] = RosterPlayer(club=plan.tournament.club, name=" ".join(name.split()), key=key)
        player.roster = known.get(key) or new[key]
    return list(new.values())


def restored_name(name: str, day: datetime.date) -> str:
    """A copy's name beside its original on the home page: "Friday Night (restored 2026-11-22)",
    the original shortened if need be to fit the name's 120 characters."""
    suffix = f" (restored {day.isoformat()})"
    return name[: Tournament._meta.get_field("name").max_length - len(suffix)].rstrip() + suffix


# Every row of an event but the tournament's own and its members, by model, each model before those
# it links to, with the path from the model to the event. Money rows are deleted on purpose here,
# although the models protect them from a cascade (RESTRICT): the restore puts the file's in their place.
EVENT_ROWS: list[tuple[type[models.Model], str]] = [
    (Dispute, "hand__game__round__tournament"), (HandRevision, "hand__game__round__tournament"),
    (Hand, "game__round__tournament"), (Game, "round__tournament"), (Seating, "round__tournament"),
    (SitOut, "round__tournament"), (SeatingChange, "round__tournament"), (Payout, "prize__tournament"),
    (Payment, "team__tournament"), (Match, "tournament"), (Round, "tournament"), (Clock, "tournament"),
    (Prize, "tournament"), (Player, "team__tournament"), (Table, "tournament"), (Team, "tournament"),
    (PrintJob, "tournament"),
]  # fmt: skip


def _delete_event(tournament: Tournament) -> None:
    """Delete every row of ``tournament`` but its own and its members', inside the caller's
    transaction, children first. A row this list missed (a model added later) still refers to a
    deleted one, and the database refuses the whole transaction: a restore fails rather than
    leave part of an event behind."""
    for model, path in EVENT_ROWS:
        model.objects.filter(**{path: tournament.pk}).delete()
