"""Which rounds the public pages may show when the club publishes checked rounds only
(``Club.publish_checked_only``).

With the setting on, the public standings and projector show the standings as they stood after
the last round before the first one held back: a round is held back while it is being played (its
results are not final, so not checked) and, once closed, until every flag raised on it is marked
checked. Later rounds wait behind it even when checked: standings after them would hold its
results. A format whose standings cannot be cut at a round
(:meth:`~tournament.formats.registry.EventFormat.standings_context_after` None) shows the notice and
no standings until every round is checked. With the setting off nothing is held.

Finding the hold replays every closed round's games (:func:`tournament.review.flags.round_flags`);
the standings pages keep it in their snapshot (:mod:`tournament.standings.snapshot`), so it is
worked out once per change of the event, not once per viewer.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.formats.registry import format_of
from tournament.models import Round, Tournament
from tournament.review.flags import round_flags
from tournament.standings.snapshot import snapshot


@dataclass(frozen=True)
class Hold:
    """The public pages show the standings after round ``through`` (0: before any round); ``words``
    say why the next round is not shown."""

    through: int
    words: str


def public_hold(tournament: Tournament) -> Hold | None:
    """:func:`held_back`, kept in the event's snapshot: a public page asks on every view."""
    return snapshot(tournament.pk, "hold", tournament.changed_at, lambda: held_back(tournament)).value


def held_back(tournament: Tournament) -> Hold | None:
    """The hold on ``tournament``'s public pages, or None when they may show everything."""
    if not tournament.club.publish_checked_only:
        return None
    event_format = format_of(tournament)
    for round_ in tournament.rounds.exclude(status=Round.Status.PLANNED).order_by("number"):
        round_.tournament = tournament
        title = event_format.round_title(round_)
        if round_.is_running:
            return Hold(round_.number - 1, f"{title} is being played: its results show here once they are checked.")
        if not round_flags(round_).all_checked:
            return Hold(round_.number - 1, f"{title}'s results are being checked: they show here once they are.")
    return None
