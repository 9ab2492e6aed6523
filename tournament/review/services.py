"""The results checks' writes: a flag marked checked, and the phones' reports kept at a round's
close. Each under the tournament's lock (:mod:`tournament.locking`), which also stamps the
tournament as changed, so the public pages' snapshots are made again with the round's new state."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from tournament.locking import lock_tournament
from tournament.models import Round
from tournament.review.flags import flag_keys
from tournament.review.models import FlagCheck, PhoneAtClose

User = AbstractBaseUser | None


@transaction.atomic
def mark_checked(*, round_: Round, key: str, note: str = "", by: User = None) -> FlagCheck:
    """Mark the flag ``key`` of ``round_`` checked, with an optional ``note``. A key the round
    does not raise now (fixed meanwhile, or never raised) is refused with a ValidationError (code
    ``no_such_flag``); a flag checked already keeps its first check."""
    lock_tournament(round_.tournament_id)
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    if key not in flag_keys(round_):
        raise ValidationError("That flag is no longer raised: it was fixed meanwhile.", code="no_such_flag")
    check, _ = FlagCheck.objects.get_or_create(round=round_, key=key, defaults={"note": note, "checked_by": by})
    return check


def record_phones_at_close(*, round_: Round) -> None:
    """Keep what each table's phone of ``round_`` last reported (hands waiting to be sent) as the
    round closes. The caller holds the tournament's lock and is closing the round
    (:func:`tournament.play.rounds.close_round`)."""
    tables = {game.table_id: game.table for game in round_.games.select_related("table")}
    PhoneAtClose.objects.bulk_create(
        [
            PhoneAtClose(round=round_, table=table, waiting=table.phone_waiting, heard_at=table.phone_heard_at)
            for table in tables.values()
        ],
        ignore_conflicts=True,
    )
