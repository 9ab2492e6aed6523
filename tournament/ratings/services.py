"""A club's ratings, kept ready: the pure rating run (:mod:`.glicko2`) over the club's games
(:mod:`.games`), and what the roster and a player's page show of it.

Ratings are made from every event of the club, so they change only when an event does (every write
stamps its tournament's ``changed_at``, :mod:`tournament.locking`) or the roster does (a renamed
entry may now be a substitute's name). The run is kept in Django's cache under a digest of both,
read in two small queries: while nothing has changed every page reads the kept run; the first read
after a change rates the club again, or only its latest event when that is what changed, as it
does while an evening is played (bench/ratings.py measures each). No table holds the ratings:
they are wholly made from the events, and a kept copy that no write path has to remember to update
cannot go stale.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date, datetime

from django.core.cache import cache

from tournament.charts.svg import Chart, Series
from tournament.models import Club, RosterPlayer, Tournament
from tournament.ratings.games import club_periods
from tournament.ratings.glicko2 import PROVISIONAL_GAMES, PlayerRating, RatingRun, run

KEEP_SECONDS = 24 * 3600


def club_ratings(club_id: int) -> RatingRun:
    """The club's rating run (players keyed by roster entry id), from the cache while the club's
    events and roster are as they were when it was made.

    Beside it the cache keeps the run of every event but the latest: while the latest is played
    (each hand stamps it), rating the club again rates that one event on top of the kept run."""
    events = list(Tournament.objects.filter(club_id=club_id).order_by("date", "id").values_list("id", "changed_at"))
    roster = list(RosterPlayer.objects.filter(club_id=club_id).order_by("id").values_list("id", "key"))
    kept = cache.get(_key(club_id, events, roster))
    if kept is None:
        earlier, latest = events[:-1], [event_id for event_id, _ in events[-1:]]
        before = cache.get(_key(club_id, earlier, roster))
        if before is None:
            before = run(club_periods(club_id, [event_id for event_id, _ in earlier]))
            cache.set(_key(club_id, earlier, roster), before, KEEP_SECONDS)
        kept = run(club_periods(club_id, latest), start=before)
        cache.set(_key(club_id, events, roster), kept, KEEP_SECONDS)
    return kept


def _key(club_id: int, events: list[tuple[int, datetime]], roster: list[tuple[int, str]]) -> str:
    """The cache key of the run of ``events`` (each with its stamp, in the order rated) with ``roster``."""
    return f"ratings:{club_id}:" + hashlib.sha256(repr((events, roster)).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Shown:
    """A rating as a page prints it: rounded, provisional or not; no rating (None) for no games."""

    rating: int | None
    rd: int | None
    games: int
    provisional: bool


UNRATED = Shown(None, None, 0, True)


def shown(rated: PlayerRating | None) -> Shown:
    if rated is None:
        return UNRATED
    return Shown(round(rated.now.rating), round(rated.now.rd), rated.games, rated.provisional)


def roster_ratings(club_id: int) -> dict[int, Shown]:
    """Each rated roster entry's :class:`Shown` rating (an entry missing here has no games)."""
    return {person: shown(rated) for person, rated in club_ratings(club_id).players.items()}


@dataclass(frozen=True)
class HistoryLine:
    """A player's rating after one event they played in."""

    event: str
    date: date
    rating: int
    rd: int
    games: int  # their games up to and including this event


@dataclass(frozen=True)
class RatingPage:
    """Everything ``templates/ratings/_player_rating.html`` shows of one player's rating."""

    club: Club
    name: str
    now: Shown
    history: tuple[HistoryLine, ...]  # oldest first
    provisional_games: int = PROVISIONAL_GAMES

    @property
    def games_to_go(self) -> int:
        return max(PROVISIONAL_GAMES - self.now.games, 0)

    @property
    def chart(self) -> Chart | None:
        """The rating after each event as a line, once there are two events to join."""
        if len(self.history) < 2:
            return None
        first, last = self.history[0], self.history[-1]
        label = "%b %-d" if first.date.year == last.date.year else "%b %Y"  # a year apart: the year tells them apart
        return Chart(
            title=f"{self.name}'s rating",
            description=f"{self.name}'s rating after each of {len(self.history)} events, from {first.rating} "
            f"after {first.event} to {last.rating} after {last.event}.",
            x_labels=tuple(f"{line.date:{label}}" for line in self.history),
            series=(Series("Rating", tuple(float(line.rating) for line in self.history)),),
            x_title="Event",
            y_title="Rating",
        )


def player_rating(club: Club, roster_player: RosterPlayer, *, public: bool) -> RatingPage | None:
    """``roster_player``'s rating and its history in ``club``; None on a public page of a club whose
    ratings are private (``Club.ratings_public``)."""
    if public and not club.ratings_public:
        return None
    rated = club_ratings(club.pk).players.get(roster_player.pk)
    history: tuple[HistoryLine, ...] = ()
    if rated is not None:
        events = Tournament.objects.filter(pk__in=[point.period for point in rated.history]).in_bulk()
        history = tuple(
            HistoryLine(
                events[p.period].name, events[p.period].date, round(p.rating.rating), round(p.rating.rd), p.games
            )
            for p in rated.history
        )
    return RatingPage(club, roster_player.name, shown(rated), history)
