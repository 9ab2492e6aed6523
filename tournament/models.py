"""The tournament's records.

Scoring rules live in :mod:`scoring`; a tournament stores only its preset's name and the fields
it overrides. A table's game caches its running score (``ns_score``…) so standings and boards
read one row per table; :meth:`Game.rescore` is the one place that recomputes it from the hands.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import connections, models
from django.db.models import F, OuterRef, Q, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce, Lower
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from scoring import Game as Scored
from scoring import HandEntry, InvalidRules, Replay, RuleSet, Seat, Side, replay, rules_from_json
from scoring.entry import FIELD_NAMES
from scoring.rules import MISDEAL_REASONS, PRESETS
from tournament import row_sql
from tournament.bracket import Bracket, double_elimination, single_elimination
from tournament.league_table import DEFAULT_TIEBREAKERS, Tiebreaker

PRESET_CHOICES = [(name, preset.title) for name, preset in PRESETS.items()]
BEST_OF = [(1, "One game"), (3, "Best of 3"), (5, "Best of 5")]
MONEY = {"max_digits": 10, "decimal_places": 2}
# The database stores a seat as "N" and a side as "NS"; the names come from scoring's enums.
SEAT_CHOICES = [(seat.value, seat.label) for seat in Seat]
SIDE_CHOICES = [(side.value, side.label) for side in Side]
Standing = tuple[tuple[int, int], tuple[int, int]]
"""Each side's (score, bags), North–South first."""


class RoundNotReady(ValidationError):
    """A round cannot change state yet; the message says which tables hold it up."""


@functools.lru_cache(maxsize=64)
def _rule_set(preset: str, overrides: str) -> RuleSet:
    """A rule set is a frozen value: every tournament (and request) on the same rules shares one."""
    return rules_from_json({"preset": preset, **json.loads(overrides)})


class Tournament(models.Model):
    class Format(models.TextChoices):
        PROGRESSIVE_SPLIT = "progressive_split", "Progressive tables, partners split (individual scores)"
        PROGRESSIVE_FIXED = "progressive_fixed", "Progressive tables, fixed partners (team scores)"
        SINGLE_ELIMINATION = "single_elimination", "Knockout: single elimination (fixed partners)"
        DOUBLE_ELIMINATION = "double_elimination", "Knockout: double elimination (fixed partners)"
        ROUND_ROBIN = "round_robin", "League: round robin over several nights (fixed partners)"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class SeatingOrder(models.TextChoices):
        RANDOM = "random", "Random draw"
        REGISTRATION = "registration", "Registration order"
        DIRECTOR = "director", "Seeds set by the director (knockouts)"

    class FeePer(models.TextChoices):
        SEASON = "season", "For the season"
        NIGHT = "night", "For each night a team plays"

    class PaperSize(models.TextChoices):
        LETTER = "letter", "US Letter"
        A4 = "A4", "A4"

    class PrizeTies(models.TextChoices):
        SHARE = "share", "Level on points: they share the prizes of the places they hold"
        TIEBREAK = "tiebreak", "The tiebreakers decide; only those level on all of them share"

    name = models.CharField(max_length=120)
    date = models.DateField(default=timezone.localdate)
    venue = models.CharField(max_length=200, blank=True)
    preset = models.CharField(max_length=40, choices=PRESET_CHOICES)
    rule_overrides = models.JSONField(default=dict, blank=True)
    format = models.CharField(max_length=30, choices=Format, default=Format.PROGRESSIVE_SPLIT)
    rounds_planned = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(50)]
    )
    entry_fee = models.DecimalField(**MONEY, default=Decimal("0.00"), validators=[MinValueValidator(Decimal("0"))])
    seating_order = models.CharField(max_length=20, choices=SeatingOrder, default=SeatingOrder.RANDOM)
    seating_seed = models.PositiveIntegerField(default=0, help_text="The random draw of round 1 is reproducible.")
    prize_ties = models.CharField(max_length=20, choices=PrizeTies, default=PrizeTies.SHARE)
    paper_size = models.CharField(max_length=10, choices=PaperSize, default=PaperSize.LETTER)
    third_place_match = models.BooleanField(
        default=False, help_text="Single elimination: the semi-final losers play for third place."
    )
    best_of = models.PositiveSmallIntegerField(
        choices=BEST_OF, default=1, help_text="Knockout matches before the final: games a match is the best of."
    )
    final_best_of = models.PositiveSmallIntegerField(choices=BEST_OF, default=1, verbose_name="Final: best of")
    final_preset = models.CharField(
        max_length=40,
        choices=PRESET_CHOICES,
        blank=True,
        verbose_name="Final's rule set",
        help_text="Knockouts: the final can be played under another rule set (blank: the same as the rest).",
    )
    tables_available = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(500)],
        help_text="Knockouts: tables the venue has; matches wait for a free one (blank: as many as needed).",
    )
    # A league season (issue 12): how often teams meet, the tiebreakers, the championship, the fee.
    legs = models.PositiveSmallIntegerField(
        choices=[(1, "Once"), (2, "Twice: home and away")], default=1, help_text="League: how often each pair meets."
    )
    tiebreakers = models.CharField(
        max_length=80,
        blank=True,
        default=",".join(DEFAULT_TIEBREAKERS),
        help_text="League: the tiebreakers after matches won and lost, in order.",
    )
    championship_teams = models.PositiveSmallIntegerField(
        choices=[(0, "No championship"), (2, "Top two: a final"), (4, "Top four: semi-finals, then a final")],
        default=2,
        help_text="League: who plays the championship after the season.",
    )
    fee_per = models.CharField(max_length=10, choices=FeePer, default=FeePer.SEASON, verbose_name="Entry fee is")
    require_confirmation = models.BooleanField(
        default=False, help_text="A player of the other side confirms each hand at the table before it counts."
    )
    status = models.CharField(max_length=20, choices=Status, default=Status.REGISTRATION)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(entry_fee__gte=0), name="tournament_entry_fee_not_negative"),
            models.CheckConstraint(condition=Q(rounds_planned__gte=1), name="tournament_plays_a_round"),
            models.CheckConstraint(condition=Q(legs__in=[1, 2]), name="tournament_legs_1_or_2"),
            models.CheckConstraint(condition=Q(championship_teams__in=[0, 2, 4]), name="tournament_championship_0_2_4"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    @property
    def rules(self) -> RuleSet:
        """The rule set this tournament scores by: its preset with its overrides applied.

        Built once per instance and built again only when the preset or overrides change.
        """
        key = (self.preset, json.dumps(self.rule_overrides, sort_keys=True))
        cached = self.__dict__.get("_rules")
        if cached is None or cached[0] != key:
            cached = self.__dict__["_rules"] = (key, _rule_set(*key))
        return cached[1]

    @property
    def final_rules(self) -> RuleSet:
        """The rule set of a knockout's final: the final's preset (with no overrides) or the tournament's."""
        return rules_from_json({"preset": self.final_preset}) if self.final_preset else self.rules

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_random_draw(self) -> bool:
        """Whether round 1 (or the bracket's seeding) is drawn at random, from ``seating_seed``."""
        return self.seating_order == self.SeatingOrder.RANDOM

    @property
    def split_partners(self) -> bool:
        return self.format == self.Format.PROGRESSIVE_SPLIT

    @property
    def is_knockout(self) -> bool:
        return self.format in (self.Format.SINGLE_ELIMINATION, self.Format.DOUBLE_ELIMINATION)

    @property
    def fee_basis(self) -> str:
        """Who pays the entry fee how often, in words: "a team", or "a team each night it plays"."""
        return "a team each night it plays" if self.fee_per == self.FeePer.NIGHT else "a team"

    @property
    def is_league(self) -> bool:
        return self.format == self.Format.ROUND_ROBIN

    @property
    def league_tiebreakers(self) -> tuple[Tiebreaker, ...]:
        return tuple(Tiebreaker(name) for name in self.tiebreakers.split(",") if name)

    def clean(self) -> None:
        # A missing or unknown preset is the preset field's own error: the changes to it cannot
        # be checked then, and a second message under them would only repeat it.
        if self.preset in PRESETS:
            try:
                self.rules  # noqa: B018 - building the rule set is the check
            except InvalidRules as error:
                raise ValidationError({"rule_overrides": f"{error.field}: {error.message}"}) from None
        names = [name for name in self.tiebreakers.split(",") if name]
        if not set(names) <= {t.value for t in Tiebreaker} or len(set(names)) != len(names):
            raise ValidationError(
                {"tiebreakers": "Tiebreakers: each of " + ", ".join(Tiebreaker) + " at most once."},
                code="tiebreakers",
            )

    def current_round(self) -> Round | None:
        return self.rounds.exclude(status=Round.Status.CLOSED).order_by("number").first()

    def prize_divisions(self) -> frozenset[str]:
        """The divisions a division prize names: the only ones the standings show beside a name
        (a division no prize asks for says nothing about the game)."""
        return frozenset(self.prizes.filter(kind=Prize.Kind.DIVISION).values_list("division", flat=True))

    def bracket_for(self, teams: int) -> Bracket:
        """The knockout bracket for ``teams`` teams in this format (a league's championship is a
        single elimination)."""
        if self.format == self.Format.DOUBLE_ELIMINATION:
            return double_elimination(teams)
        return single_elimination(teams, third_place=self.third_place_match)

    @property
    def bracket_title(self) -> str:
        """The bracket by its kind, as its sheet is titled: "Single-elimination bracket" (a league's
        championship is one too)."""
        kind = "Double" if self.format == self.Format.DOUBLE_ELIMINATION else "Single"
        return f"{kind}-elimination bracket"

    @functools.cached_property
    def bracket(self) -> Bracket:
        """The bracket being played, which names its matches: the draw (or a league's championship)
        gives its teams their seeds, so it is the bracket for the seeded teams. Counted once per
        instance; only for a tournament whose bracket is drawn."""
        return self.bracket_for(self.teams.filter(seed__isnull=False).count())


class Team(models.Model):
    """A couple that registers and pays together; in split-partner events they play apart."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Playing"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveIntegerField(help_text="Registration order, from 1.")
    status = models.CharField(max_length=20, choices=Status, default=Status.ACTIVE)
    checked_in = models.BooleanField(default=False)
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)], help_text="Knockouts: 1 is the top seed."
    )
    registered_at = models.DateTimeField(default=timezone.now)
    # A league: the night a late joiner's matches start, the night a withdrawn team's walkovers start.
    joined_night = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawn_night = models.PositiveSmallIntegerField(null=True, blank=True)
    results_voided = models.BooleanField(default=False, help_text="League: a withdrawn team's played results voided.")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="team_number_unique_in_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.names}"

    @property
    def names(self) -> str:
        return " & ".join(player.name for player in self.players.all())

    @property
    def is_withdrawn(self) -> bool:
        return self.status == self.Status.WITHDRAWN


def roster_key(name: str) -> str:
    """A name as the roster compares it: spacing and case do not matter."""
    return " ".join(name.split()).casefold()


class RosterPlayer(models.Model):
    """Someone who plays at the club, across events. Each event keeps its own copy of the name
    (:attr:`Player.name`), so renaming someone here never rewrites an event's record."""

    name = models.CharField(max_length=80)
    key = models.CharField(max_length=80, db_index=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["key", "id"]

    def __str__(self) -> str:
        return self.name

    def rename(self, name: str) -> None:
        self.name, self.key = " ".join(name.split()), roster_key(name)
        self.save(update_fields=["name", "key"])


class Player(models.Model):
    """An entrant. A substitute may play in their place from a round on; what the substitute
    scores stays with this player (the entry), only the name at the table changes."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    division = models.CharField(
        max_length=40, blank=True, help_text='For category prizes, such as "female" for high female.'
    )
    roster = models.ForeignKey(
        RosterPlayer, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries",
        help_text="The same person in other events.",
    )  # fmt: skip
    substitute = models.CharField(max_length=80, blank=True, help_text="Who plays in this player's place.")
    substitute_from = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The first round the substitute plays."
    )

    class Meta:
        ordering = ["team", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(substitute="", substitute_from__isnull=True)
                | (~Q(substitute="") & Q(substitute_from__gte=1)),
                name="player_substitute_has_a_first_round",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def name_in_round(self, number: int) -> str:
        """Who sits in this player's seat in round ``number``."""
        if self.substitute and self.substitute_from is not None and number >= self.substitute_from:
            return self.substitute
        return self.name


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Table(models.Model):
    """A physical table; its scorekeeper link (``token``) stays the same all event and opens
    whatever game is played at the table now."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    token = models.CharField(max_length=64, unique=True, default=new_token)
    # The table page reports in while open, so the director sees a phone that went quiet.
    phone_heard_at = models.DateTimeField(null=True, blank=True)
    phone_waiting = models.PositiveSmallIntegerField(default=0, help_text="Hands waiting on the phone to be sent.")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_number_unique_in_tournament"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    PHONE_REPORT_EVERY = timedelta(seconds=30)

    def phone_report(self, now: datetime | None = None) -> tuple[str, bool]:
        """When the table's phone was last heard from, in words, and whether it has gone quiet
        (no report for three report periods, or never)."""
        if self.phone_heard_at is None:
            return "not heard from yet", True
        seconds = int(((now or timezone.now()) - self.phone_heard_at).total_seconds())
        words = "heard just now" if seconds < 60 else f"heard {seconds // 60} min ago"
        if self.phone_waiting:
            words += f" · {self.phone_waiting} hand{'s' if self.phone_waiting != 1 else ''} waiting on the phone"
        return words, seconds >= 3 * self.PHONE_REPORT_EVERY.total_seconds()

    def current_game(self) -> Game | None:
        """The game this table's link opens: the one at this table in the event's current round
        (seated or playing); None when no round is open or this table has no game in it."""
        round_ = self.tournament.current_round()
        if round_ is None:
            return None
        return self.game_in_round(round_.number)

    def game_in_round(self, number: int) -> Game | None:
        """This table's game in round ``number``. A knockout plays its matches' games one after
        another in one round: the game being played, else the last one played here."""
        games = self.games.select_related("round__tournament", "table", "match").filter(round__number=number)
        return games.current()


class Round(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", "Seated, not started"
        RUNNING = "running", "Playing"
        CLOSED = "closed", "Closed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    status = models.CharField(max_length=20, choices=Status, default=Status.PLANNED)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique_in_tournament"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"

    @property
    def name(self) -> str:
        """What the director's pages call this round, by the event's format: "Round 3", "Night 3"."""
        from tournament.formats import format_of  # formats sits above the models: imported when needed

        return f"{format_of(self.tournament).round_name} {self.number}"

    @property
    def is_planned(self) -> bool:
        return self.status == self.Status.PLANNED

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED

    @property
    def is_last(self) -> bool:
        """The last round the tournament plans: closing it finishes the event."""
        return self.number >= self.tournament.rounds_planned

    @property
    def clock_running(self) -> bool:
        """Whether the round's clock is running at a table still playing: the director then can
        pause it, and start it once it is paused or not started (see :mod:`tournament.clocks`)."""
        unfinished = self.games.exclude(status=Game.Status.FINISHED)
        return unfinished.filter(clock__started_at__isnull=False, clock__paused_at__isnull=True).exists()

    @property
    def paused_minutes_left(self) -> int | None:
        """The minutes left (rounded up, 0 once over) on the round's clock while it is paused at the
        tables still playing, for the button that resumes it; None while no such clock is paused.
        The round's clock is that of the tables with the least extra time, as the pages show it."""
        unfinished = self.games.exclude(status=Game.Status.FINISHED).values("clock_id")
        paused = Clock.objects.filter(pk__in=unfinished, paused_at__isnull=False).order_by("extra_minutes", "pk")
        clock = paused.first()
        if clock is None:
            return None
        return max(0, -(-clock.remaining_seconds() // 60))

    def start(self) -> None:
        if self.status != self.Status.PLANNED:
            raise RoundNotReady(f"{self.name} is already {self.get_status_display().lower()}.")
        self.status = self.Status.RUNNING
        self.started_at = timezone.now()
        self.save(update_fields=["status", "started_at"])

    def close(self, *, hold_games: bool) -> None:
        """Close a running round; :class:`RoundNotReady` names every table still unfinished or tied.

        The caller holds a transaction. With ``hold_games`` the round's games are locked as they
        are read: a hand being saved at one of them is read as committed, or its save waits and
        finds the round closed. That suits a progressive table, whose save locks its game alone.
        A match game's save locks its game and then its match (and a league's, its tournament):
        a caller holding those already must not wait for a game, which would close the circle,
        and passes False; the save, waiting for it, meets a closed round or night there."""
        if self.status != self.Status.RUNNING:
            raise RoundNotReady(f"{self.name} is not running, so it cannot be closed.")
        games = self.games.select_related("table").order_by("table__number")
        games = list(games.select_for_update(of=("self",)) if hold_games else games)
        tied = [g.table.number for g in games if g.status == Game.Status.TIED]
        playing = [g.table.number for g in games if g.status == Game.Status.PLAYING]
        disputed = sorted(
            set(Hand.objects.filter(game__round=self, disputed=True).values_list("game__table__number", flat=True))
        )
        problems = []
        if disputed:
            problems.append(f"a hand is disputed at table {_numbers(disputed)} (resolve it first)")
        if playing:
            problems.append(f"still playing at table {_numbers(playing)}")
        if tied:
            problems.append(f"tied at table {_numbers(tied)} (play one more hand or record the decision)")
        if problems:
            raise RoundNotReady(f"{self.name} cannot close: " + "; ".join(problems) + ".")
        self.status = self.Status.CLOSED
        self.closed_at = timezone.now()
        self.save(update_fields=["status", "closed_at"])


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def playing_name() -> models.Case:
    """For a Seating or SitOut query: who plays in the round, the player or their substitute
    (the database twin of :meth:`Player.name_in_round`)."""
    substituted = Q(player__substitute_from__isnull=False, player__substitute_from__lte=models.F("round__number"))
    return models.Case(models.When(substituted, then="player__substitute"), default="player__name")


class Seating(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    table = models.ForeignKey(Table, on_delete=models.RESTRICT, related_name="seatings")
    seat = models.CharField(max_length=1, choices=SEAT_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seatings")

    class Meta:
        ordering = ["round", "table__number", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["round", "player"], name="player_seated_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} {self.table} {self.get_seat_display()}: {self.player}"


class SitOut(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sit_outs")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="sit_outs")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="player_sits_out_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.player} sits out"


class SeatingChange(models.Model):
    """A director's change to a round's movement before it starts, kept for the record."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seating_changes")
    description = models.CharField(max_length=300)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["changed_at"]

    def __str__(self) -> str:
        return f"{self.round}: {self.description}"


class GameQuerySet(models.QuerySet):
    def current(self) -> Game | None:
        """The game being played, else the latest: a knockout table plays its matches' games one
        after another in one round. (Picked here rather than ordered in SQL: SQLite plans that
        ordering badly once the seats' names are read too, and compiling an ORDER BY beside the
        many columns of a table POST's query costs more than sorting a table's few games.)"""
        return _current_of(self.order_by())

    def at_link(self, token: str, round_number: int) -> Game | None:
        """The :meth:`current` game of round ``round_number`` at the table whose link is
        ``token``, with its round, tournament, table, match, seat names (see
        :meth:`with_seat_names`) and the number of its last hand (``last_number``, 0 for none;
        see :func:`tournament.services.enter_hand`), in one query compiled once per database (see
        :class:`_LinkQuery`): on a table POST, building it cost ten times more than running it."""
        query = _link_query(self.db)
        given = {_LINK_TOKEN: token, _LINK_ROUND: round_number}
        with row_sql.executed(connections[self.db], query.sql, row_sql.bound(query.params, given)) as cursor:
            rows = cursor.fetchall()
        return _current_of(query.games(rows))

    def with_seat_names(self) -> GameQuerySet:
        """The games with their four players' names (see :meth:`Game.seat_names`) in the same query.

        Each name is a correlated subquery on the game's own row, so this works on a queryset
        of games only (not inside another query's subquery).
        """
        sql = _seat_name_sql(self.db)
        return self.annotate(**{f"{seat.prefix}_name": RawSQL(sql, [seat.value]) for seat in Seat})


def _current_of(games: Iterable[Game]) -> Game | None:
    games = sorted(games, key=lambda game: game.pk, reverse=True)
    return next((game for game in games if game.status == Game.Status.PLAYING), games[0] if games else None)


@dataclass(frozen=True)
class _LinkQuery:
    """:meth:`GameQuerySet.at_link`'s query compiled once for a database: its SQL and parameters
    (named, see :func:`row_sql.named_parameters`), with the stand-ins ``_LINK_TOKEN`` and ``_LINK_ROUND``
    where the link's token and round number go, and what turns its rows into games (Django's own
    converters and populators, as a queryset's iteration builds them for every query)."""

    sql: str
    params: dict[str, object]
    compiler: SQLCompiler
    converters: dict
    names: list[str]
    columns: slice
    related: list

    def games(self, rows: list[tuple]) -> list[Game]:
        """The games of ``rows``, as Django's ModelIterable builds a select_related row."""
        games = []
        for row in self.compiler.apply_converters(rows, self.converters) if self.converters else map(list, rows):
            game = Game.from_db(self.compiler.using, self.names, row[self.columns])
            for populator in self.related:
                populator.populate(row, game)
            for attribute, index in self.compiler.annotation_col_map.items():
                setattr(game, attribute, row[index])
            games.append(game)
        return games


@functools.cache
def _link_query(alias: str) -> _LinkQuery:
    games = Game.objects.using(alias).order_by().select_related("round__tournament", "table", "match")
    games = games.with_seat_names().filter(table__token=_LINK_TOKEN, round__number=_LINK_ROUND)
    last = Hand.objects.filter(game=OuterRef("pk")).order_by("-number").values("number")[:1]
    games = games.annotate(last_number=Coalesce(Subquery(last), 0))
    compiler = games.query.get_compiler(alias)
    sql, params = compiler.as_sql()
    assert [params.count(p) for p in (_LINK_TOKEN, _LINK_ROUND)] == [1, 1], "each stand-in once, for its own value"
    select, info = compiler.select, compiler.klass_info
    start, end = info["select_fields"][0], info["select_fields"][-1] + 1
    sql, named = row_sql.named_parameters(sql, params)
    return _LinkQuery(
        sql=sql,
        params=named,
        compiler=compiler,
        converters=compiler.get_converters([column[0] for column in select[: compiler.col_count]]),
        names=[column[0].target.attname for column in select[start:end]],
        columns=slice(start, end),
        related=get_related_populators(info, select, alias),
    )


_LINK_TOKEN, _LINK_ROUND = "link-token-stand-in", 32_123  # a round number a filter keeps (not < 0)


@functools.cache
def _seat_name_sql(alias: str) -> str:
    """SQL for the name of who plays in one seat (``%s``) at the outer game's table and round: the
    ORM's :func:`playing_name` compiled once per database. Four ORM subqueries cost more to build
    and compile on every table POST than all of that POST's queries take to run."""
    names = Seating.objects.order_by().annotate(name=playing_name()).values("name").query
    select, params = names.get_compiler(alias).as_sql()
    assert not params, "playing_name() compiles to SQL without parameters"
    seating, game = (connections[alias].ops.quote_name(t) for t in (Seating._meta.db_table, Game._meta.db_table))
    correlate = " AND ".join(f"{seating}.{c} = {game}.{c}" for c in ("round_id", "table_id"))
    return f"{select} WHERE {correlate} AND {seating}.seat = %s"


class Game(models.Model):
    """One table's game in one round; its scorekeeper reaches it through the table's link."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        TIED = "tied", "Tied: needs a decision"
        FINISHED = "finished", "Finished"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games")
    table = models.ForeignKey(Table, on_delete=models.RESTRICT, related_name="games")
    status = models.CharField(max_length=20, choices=Status, default=Status.PLAYING)
    first_dealer = models.CharField(max_length=1, choices=SEAT_CHOICES, default=Seat.NORTH)
    ns_score = models.IntegerField(default=0)
    ew_score = models.IntegerField(default=0)
    ns_bags = models.PositiveSmallIntegerField(default=0)
    ew_bags = models.PositiveSmallIntegerField(default=0)
    hands_played = models.PositiveSmallIntegerField(default=0)
    winner = models.CharField(max_length=2, choices=SIDE_CHOICES, blank=True)
    decided_by = models.CharField(
        max_length=200, blank=True, help_text="How a tie was settled when the director decided it."
    )
    match = models.ForeignKey("Match", null=True, blank=True, on_delete=models.CASCADE, related_name="games")
    match_game = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Game 1, 2, … of its match.")
    clock = models.ForeignKey("Clock", null=True, blank=True, on_delete=models.SET_NULL, related_name="games")
    time_up_hand = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The hand being played when time was called: the game ends after it."
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["round", "table__number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"], condition=Q(match__isnull=True), name="one_game_per_table_per_round"
            ),
            models.UniqueConstraint(fields=["match", "match_game"], name="one_game_number_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.round}, {self.table}"

    @property
    def label(self) -> str:
        """What the game is played for, inside a sentence: "round 2" of a progressive event, its
        match's name in a knockout or a league ("semi-final, match 5", with ", game 2" in a best of
        3)."""
        if self.match_id is None:
            return f"round {self.round.number}"
        return self.match.label + (f", game {self.match_game}" if self.match.best_of > 1 else "")

    @property
    def rules(self) -> RuleSet:
        """The rule set this game is scored by: a knockout's final may have its own."""
        tournament = self.round.tournament
        match = self.match  # no query without one; an import's unsaved match is read as assigned
        if match is not None and match.stage == Match.Stage.FINAL:
            return tournament.final_rules
        return tournament.rules

    @property
    def time_called(self) -> bool:
        return self.time_up_hand is not None

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING

    @property
    def is_tied(self) -> bool:
        return self.status == self.Status.TIED

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def next_dealer(self) -> Seat:
        """Who deals the next hand: the deal moves on after every scored hand, not after a misdeal."""
        return Seat(self.first_dealer).after(self.hands_played)

    def seat_names(self) -> dict[Seat, str]:
        """Who sits where at this table: a match's teams (see :meth:`Match.seat_names`), else the
        round's seating, from the query when loaded :meth:`~GameQuerySet.with_seat_names` or read now."""
        if self.match_id:
            return self.match.seat_names()
        if hasattr(self, "north_name"):
            return {seat: getattr(self, f"{seat.prefix}_name") or "" for seat in Seat}
        seatings = self.round.seatings.filter(table_id=self.table_id).annotate(name=playing_name())
        names = dict(seatings.values_list("seat", "name"))
        return {seat: names.get(seat, "") for seat in Seat}

    @property
    def standing(self) -> Standing:
        """Each side's (score, bags) now, from the cached totals: the standing before the next hand."""
        return (self.ns_score, self.ns_bags), (self.ew_score, self.ew_bags)

    def standing_before(self, number: int, hands: list[Hand]) -> Standing:
        """Each side's (score, bags) before hand ``number``, replaying the ``hands`` before it."""
        return self.replay([hand for hand in hands if hand.number < number]).standing_before(number)

    def replay(self, hands: list[Hand] | None = None) -> Replay:
        """This table's game replayed from ``hands`` (all its hands, in order, if not given):
        one result per hand, ``None`` for a misdeal. :class:`scoring.InvalidHand` names the
        first hand the tournament's rules refuse."""
        hands = list(self.hands.order_by("number")) if hands is None else hands
        return replay(
            self.rules,
            [hand.entry for hand in hands],
            first_dealer=Seat(self.first_dealer),
            numbers=[hand.number for hand in hands],
        )

    def lock(self, *, entry_key: str = "") -> tuple[int | None, int | None]:
        """Read this game's own row again under its row lock (the caller holds a transaction),
        and its round's status; its match and clock are read again when next used, the round's
        tournament and the table stay as loaded. Returns
        the number of the game's last hand and the id of the hand stored under ``entry_key``
        (``None`` for none), read once the lock is held."""
        connection = connections[self._state.db or "default"]
        # NULL for no key matches no hand (hands entered without one store "").
        given = {_LOCK_KEY: entry_key or None, _LOCK_GAME: self.pk}
        row = {}
        for sql, params in _lock_sql(connection.alias):
            with row_sql.executed(connection, sql, row_sql.bound(params, given)) as cursor:
                row.update(zip([column[0] for column in cursor.description], cursor.fetchone(), strict=True))
        last_number, sent_id = row["last_number"], row["sent_id"]
        for column in GAME_COLUMNS:
            setattr(self, column, row[column])
        self.round.status = row["round_status"]
        for relation in (Game.match.field, Game.clock.field):  # they change as games are played: read when used
            if relation.is_cached(self):
                relation.delete_cached_value(self)
        return last_number, sent_id

    def replay_next(self, hand: Hand) -> Replay:
        """``hand``, the next after every stored one, scored on this game's stored totals: the
        hands before it stand in those totals and are not replayed, so its results and dealers
        hold ``hand`` alone. The totals are the last replay saved (its :data:`RECORDED` columns): read
        under the game's lock, or read before and checked as the hand is written (see
        :func:`tournament.services.enter_hand`)."""
        rules = self.rules
        scores, bags = (self.ns_score, self.ew_score), (self.ns_bags, self.ew_bags)
        start = Scored.resumed(rules, scores, bags, self.hands_played)
        return replay(rules, [hand.entry], first_dealer=self.next_dealer, numbers=[hand.number], start=start)

    def rescore(self, hands: list[Hand] | None = None) -> Replay:
        """Recompute the cached totals and status from the hands (all of them, in order) and save."""
        hands = list(self.hands.order_by("number")) if hands is None else hands
        replayed = self.replay(hands)
        self.record(replayed, hands)
        return replayed

    def record(self, replayed: Replay, hands: list[Hand]) -> None:
        """Save the totals and status of ``replayed``, this game's ``hands`` scored (all of them,
        or the new last scored hand alone when :meth:`replay_next` scored it: the ending by time
        reads only the last scored hand)."""
        self.apply(replayed, hands)
        row_sql.update(self, RECORDED)

    def apply(self, replayed: Replay, hands: list[Hand]) -> None:
        """Set (not save) the totals and status of ``replayed``, this game's ``hands`` scored."""
        game = replayed.game
        self.ns_score, self.ew_score = game.scores
        self.ns_bags, self.ew_bags = game.bags
        self.hands_played = game.hands_played
        self.status, self.winner, self.decided_by = self.outcome(replayed, hands)

    def outcome(self, replayed: Replay, hands: list[Hand]) -> tuple[str, str, str]:
        """(status, winner, decided_by) of this game once its ``hands`` are ``replayed``; a
        director's decision of a tie stands while the hands do not decide the game."""
        game = replayed.game
        if game.over:
            return self.Status.FINISHED, Side.at(game.winner), ""
        if self._ended_by_time(hands) and game.scores[0] != game.scores[1]:
            # Rule text 004: the hand under way when time is called is finished, then the higher
            # score wins; level scores play one more hand (each until one breaks the tie).
            return self.Status.FINISHED, Side.NS if game.scores[0] > game.scores[1] else Side.EW, ""
        if self.decided_by:
            return self.status, self.winner, self.decided_by
        return (self.Status.TIED if game.tied else self.Status.PLAYING), "", ""

    def call_time(self, number: int, now: datetime | None = None) -> None:
        """Hand ``number`` was just entered: if its clock had run out, time is called on it, so
        the game ends after this hand (see :meth:`rescore`). Saved with the totals (:data:`RECORDED`)."""
        if self.time_up_hand is None and self.clock_id is not None and self.clock.expired(now):
            self.time_up_hand = number

    def _ended_by_time(self, hands: list[Hand]) -> bool:
        scored = [hand.number for hand in hands if not hand.misdeal]
        return self.time_up_hand is not None and bool(scored) and scored[-1] >= self.time_up_hand

    def decide_tie(self, winner: str, how: str) -> None:
        """The director settles a tied game (a cut of the cards, say) instead of another hand."""
        if self.status != self.Status.TIED:
            raise RoundNotReady(f"Table {self.table.number} is not tied.")
        self.status, self.winner, self.decided_by = self.Status.FINISHED, winner, how
        self.save(update_fields=["status", "winner", "decided_by"])


RECORDED = ("ns_score", "ew_score", "ns_bags", "ew_bags", "hands_played", "status", "winner", "decided_by",
            "time_up_hand")  # fmt: skip
"""The columns :meth:`Game.record` writes (and ``services._store``, with the hand): what a replay
of the hands decides."""
GAME_COLUMNS = tuple(field.attname for field in Game._meta.concrete_fields if not field.primary_key)
# Game.lock reads these with plain SQL, so each must come back from the database as its Python value.
_PLAIN_FIELDS = (models.IntegerField, models.CharField, models.ForeignKey)
assert all(isinstance(field, _PLAIN_FIELDS) for field in Game._meta.concrete_fields), "a column needs a converter"


@functools.cache
def _lock_sql(alias: str) -> tuple[tuple[str, dict[str, object]], ...]:
    """SQL for :meth:`Game.lock`, each statement with its (named) parameters, where ``_LOCK_KEY``
    and ``_LOCK_GAME`` stand in for the entry key and the game's id: the game's row locked, with
    its last hand's number and the hand stored under the key, the last two read by the last
    statement.
    The ORM's queries compiled once per database, as :func:`_seat_name_sql` is and for the
    same reason; compiled in the first caller's transaction, where Django lets a row lock be
    asked for."""
    pk, key = _LOCK_GAME, _LOCK_KEY
    games = Game.objects.using(alias).order_by().filter(pk=pk)
    locked = games.select_for_update(of=("self",))
    columns = {"round_status": F("round__status")}
    last = Hand.objects.filter(game=OuterRef("pk")).order_by("-number").values("number")[:1]
    # "Not blank" as the unique index on entry_key says it, so that the lookup may use that
    # partial index (a bound key alone cannot prove it is not blank): else every hand is read.
    # The blank is written into the SQL, not bound: a prepared statement's plan, made once for any
    # values, can use that index only so (with a bound blank PostgreSQL either plans the statement
    # again on every save or settles on a plan that reads every hand).
    sent = Hand.objects.order_by().filter(entry_key=key).exclude(entry_key=RawSQL("''", ())).values("pk")[:1]
    read = {"last_number": Subquery(last), "sent_id": Subquery(sent)}
    if connections[alias].vendor == "sqlite":
        # SQLite's transactions begin IMMEDIATE (see settings), so each holds the write lock
        # before its first statement: one statement reads what the last holder committed.
        statements = [locked.values(*GAME_COLUMNS, **columns, **read)]
    else:
        # The read is a statement of its own: PostgreSQL reads a statement's subqueries as they
        # were when it began, which for the locking one may be before the last holder committed.
        # So is the round's status: a round closed while this waited for the game is read closed.
        statements = [locked.values(*GAME_COLUMNS), games.values(**columns, **read)]
    compiled = tuple(row_sql.named_parameters(*q.query.get_compiler(alias).as_sql()) for q in statements)
    stand_ins = sorted((param for _, params in compiled for param in params.values()), key=str)
    assert stand_ins == sorted([pk] * len(statements) + [key], key=str), "the game once a statement, the key once"
    return compiled


_LOCK_GAME, _LOCK_KEY = -1, "entry-key-stand-in"


BID_VALUES = [str(n) for n in range(14)] + ["nil", "blind_nil"]
BID_CHOICES = [(v, {"nil": "Nil", "blind_nil": "Blind nil"}.get(v, v)) for v in BID_VALUES]
MISDEAL_CHOICES = [(key, text[0].upper() + text[1:]) for key, text in MISDEAL_REASONS.items()]


class Hand(models.Model):
    """One deal at a table: four bids and tricks (or a misdeal), and the infractions."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    north_bid = models.CharField(max_length=9, choices=BID_CHOICES, blank=True)
    east_bid = models.CharField(max_length=9, choices=BID_CHOICES, blank=True)
    south_bid = models.CharField(max_length=9, choices=BID_CHOICES, blank=True)
    west_bid = models.CharField(max_length=9, choices=BID_CHOICES, blank=True)
    north_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    east_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    south_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    west_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    ns_reneges = models.PositiveSmallIntegerField(default=0)
    ew_reneges = models.PositiveSmallIntegerField(default=0)
    ns_table_talk = models.PositiveSmallIntegerField(default=0)
    ew_table_talk = models.PositiveSmallIntegerField(default=0)
    misdeal = models.CharField(max_length=30, choices=MISDEAL_CHOICES, blank=True)
    disputed = models.BooleanField(default=False)
    dispute_note = models.CharField(max_length=300, blank=True)
    dispute_resolution = models.CharField(max_length=300, blank=True)
    confirmed_by = models.CharField(max_length=20, blank=True, help_text="Initials of the opponent who confirmed.")
    version = models.PositiveIntegerField(default=1)
    entered_at = models.DateTimeField(default=timezone.now)
    # Made on the phone for one attempt at entering the hand: a retry of the same attempt (the
    # answer was lost, or the hand waited on the phone) finds the hand instead of storing it twice.
    entry_key = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_hand_number_per_game"),
            models.UniqueConstraint(fields=["entry_key"], condition=~Q(entry_key=""), name="one_hand_per_entry_key"),
            *[
                models.CheckConstraint(condition=Q(**{f"{seat}_tricks__lte": 13}), name=f"hand_{seat}_tricks_0_13")
                for seat in (s.prefix for s in Seat)
            ],
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{seat}_bid__in": ["", *BID_VALUES]}), name=f"hand_{seat}_bid_valid"
                )
                for seat in (s.prefix for s in Seat)
            ],
            models.CheckConstraint(
                condition=Q(misdeal="")
                & Q(north_tricks__isnull=False, east_tricks__isnull=False)
                & Q(south_tricks__isnull=False, west_tricks__isnull=False)
                | ~Q(misdeal=""),
                name="hand_scored_unless_misdeal",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}, hand {self.number}"

    @property
    def entry(self) -> HandEntry:
        """The hand as entered (a misdeal keeps no bids or tricks)."""
        return HandEntry.from_fields(self.snapshot())

    def store(self, entry: HandEntry) -> None:
        """Set the hand's columns from ``entry`` (the caller saves)."""
        for field, value in entry.fields().items():
            setattr(self, field, value)

    def snapshot(self) -> dict[str, object]:
        """The entered values, for the history and for exports."""
        return {field: getattr(self, field) for field in HAND_FIELDS}


HAND_FIELDS = list(FIELD_NAMES)
"""The hand's entered columns, in the order exports list them."""


class HandRevision(models.Model):
    """Every entry and change of a hand: who, when, the values before and after."""

    class Source(models.TextChoices):
        TABLE = "table", "Table scorekeeper"
        DIRECTOR = "director", "Director"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="revisions")
    source = models.CharField(max_length=20, choices=Source)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    changed_at = models.DateTimeField(default=timezone.now)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField()

    class Meta:
        ordering = ["hand", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.hand} by {self.get_source_display()} at {self.changed_at:%H:%M:%S}"

    def changes(self) -> list[tuple[str, object, object]]:
        """(field in words, before, after) for each value this revision changed."""
        if not self.before:
            return []
        return [
            (field.replace("_", " "), self.before.get(field), self.after.get(field))
            for field in HAND_FIELDS
            if self.before.get(field) != self.after.get(field)
        ]


class Dispute(models.Model):
    """A hand disputed at the table, and how the director settled it: who and when, both ways."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="disputes")
    note = models.CharField(max_length=300)
    raised_from = models.CharField(max_length=20, choices=HandRevision.Source, default=HandRevision.Source.TABLE)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    raised_at = models.DateTimeField(default=timezone.now)
    resolution = models.CharField(max_length=300, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["raised_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(resolved_at__isnull=True, resolution="") | Q(resolved_at__isnull=False) & ~Q(resolution=""),
                name="dispute_resolved_with_words",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand}: {self.note}"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None


class Payment(models.Model):
    class Kind(models.TextChoices):
        PAYMENT = "payment", "Payment"
        REFUND = "refund", "Refund"

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CARD = "card", "Card"
        CHECK = "check", "Check"
        OTHER = "other", "Other"

    team = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="payments")
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.PAYMENT)
    amount = models.DecimalField(**MONEY, validators=[MinValueValidator(Decimal("0.01"))])
    method = models.CharField(max_length=10, choices=Method, default=Method.CASH)
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of ${self.amount} for team {self.team.number}"

    @property
    def signed_amount(self) -> Decimal:
        """The amount as it moves the drawer: a refund counts against it."""
        return self.amount if self.kind == self.Kind.PAYMENT else -self.amount


class Prize(models.Model):
    """A prize the tournament pays: a fixed amount or a share of the fees collected."""

    class Kind(models.TextChoices):
        PLACE = "place", "Place in the standings"
        DIVISION = "division", "Highest in a division"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    kind = models.CharField(max_length=10, choices=Kind, default=Kind.PLACE)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    division = models.CharField(max_length=40, blank=True)
    amount = models.DecimalField(**MONEY, null=True, blank=True)
    share_percent = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["tournament", "kind", "place", "division"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__isnull=False, share_percent__isnull=True)
                | Q(amount__isnull=True, share_percent__isnull=False),
                name="prize_amount_or_share",
            ),
            models.CheckConstraint(
                condition=Q(amount__gte=0) | Q(amount__isnull=True), name="prize_amount_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(share_percent__gt=0, share_percent__lte=100) | Q(share_percent__isnull=True),
                name="prize_share_0_100",
            ),
            models.CheckConstraint(
                condition=Q(kind="place", place__gte=1) | Q(kind="division") & ~Q(division=""),
                name="prize_place_or_division",
            ),
            models.UniqueConstraint(
                fields=["tournament", "place"],
                condition=Q(kind="place"),
                name="one_prize_per_place",
                violation_error_message="There is already a prize for this place.",
            ),
            models.UniqueConstraint(
                Lower("division"),
                "tournament",
                condition=Q(kind="division"),
                name="one_prize_per_division",
                violation_error_message="There is already a prize for this division.",
            ),
        ]

    def __str__(self) -> str:
        return f"{ordinal(self.place)} place" if self.kind == self.Kind.PLACE else f"High {self.division}"


def ordinal(n: int | None) -> str:
    if n is None:
        return ""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class Payout(models.Model):
    """Money a prize pays to one winner (a player or a team); ``paid_at`` once handed over, and
    ``method`` how (the drawer of that method pays it, as it took the fees)."""

    prize = models.ForeignKey(Prize, on_delete=models.RESTRICT, related_name="payouts")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.RESTRICT, related_name="payouts")
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="payouts")
    amount = models.DecimalField(**MONEY)
    paid_at = models.DateTimeField(null=True, blank=True)
    received_by = models.CharField(max_length=120, blank=True)
    method = models.CharField(max_length=10, choices=Payment.Method, default=Payment.Method.CASH)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["prize", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gte=0), name="payout_amount_not_negative"),
            models.CheckConstraint(
                condition=Q(player__isnull=False, team__isnull=True) | Q(player__isnull=True, team__isnull=False),
                name="payout_to_player_or_team",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prize}: ${self.amount} to {self.recipient}"

    @property
    def recipient(self) -> str:
        return self.player.name if self.player_id else self.team.names


class PrintJob(models.Model):
    """A rendered (or rendering) PDF, keyed by a hash of its HTML: unchanged data is served
    again without rendering, and a long batch reports its progress."""

    class Status(models.TextChoices):
        RUNNING = "running", "Rendering"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="print_jobs")
    document = models.CharField(max_length=40)
    title = models.CharField(max_length=200)
    key = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.RUNNING)
    chunks_done = models.PositiveIntegerField(default=0)
    chunks_total = models.PositiveIntegerField(default=1)
    pdf = models.BinaryField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # While rendering: beaten every few seconds, and the HTML chunks to render again from if the
    # process stops (see tournament.print_jobs).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    html = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"

    @property
    def percent(self) -> int:
        return round(100 * self.chunks_done / max(1, self.chunks_total))

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_failed(self) -> bool:
        return self.status == self.Status.FAILED


class Membership(models.Model):
    """Who runs a tournament besides the superuser: its directors and their assistants.

    :mod:`tournament.access` is the one place that reads it to decide what a user may reach.
    """

    class Role(models.TextChoices):
        DIRECTOR = "director", "Director (everything, money and rules included)"
        ASSISTANT = "assistant", "Assistant (rounds, hands and corrections; no money, no rules)"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role, default=Role.DIRECTOR)

    class Meta:
        ordering = ["tournament", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_membership_per_user_and_tournament"),
            models.CheckConstraint(condition=Q(role__in=["director", "assistant"]), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display().split(' (')[0].lower()}) of {self.tournament}"


# --- knockouts and the clock ------------------------------------------------------------------


class Clock(models.Model):
    """A time limit that counts down: a knockout match's, or one progressive table's in a round.

    Running while started and not paused; ``paused_seconds`` adds up earlier pauses.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="clocks")
    minutes = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    extra_minutes = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(minutes__gte=1), name="clock_minutes_from_1")]

    def __str__(self) -> str:
        return f"{self.minutes}+{self.extra_minutes} min clock"

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def running(self) -> bool:
        return self.started_at is not None and self.paused_at is None

    def remaining_seconds(self, now: datetime | None = None) -> int | None:
        """Seconds left (negative once over), or None before it starts."""
        if self.started_at is None:
            return None
        until = self.paused_at or now or timezone.now()
        elapsed = (until - self.started_at).total_seconds() - self.paused_seconds
        return int((self.minutes + self.extra_minutes) * 60 - elapsed)

    def expired(self, now: datetime | None = None) -> bool:
        remaining = self.remaining_seconds(now)
        return remaining is not None and remaining <= 0

    def deadline(self) -> datetime | None:
        """When a running clock runs out."""
        if not self.running:
            return None
        total = (self.minutes + self.extra_minutes) * 60 + self.paused_seconds
        return self.started_at + timedelta(seconds=total)  # type: ignore[operator]

    def start(self, now: datetime) -> None:
        if self.started_at is None:
            self.started_at = now
        elif self.paused_at is not None:
            self.paused_seconds += int((now - self.paused_at).total_seconds())
            self.paused_at = None

    def pause(self, now: datetime) -> None:
        if self.running:
            self.paused_at = now


class Match(models.Model):
    """A knockout match: one bracket slot, played as one game or the best of 3 or 5 at a table.

    ``key`` names the slot in :mod:`tournament.bracket` (``W1-1``, ``L2-3``, ``F1``, ``3P``).
    """

    class Stage(models.TextChoices):
        WINNERS = "winners", "Winners' bracket"
        LOSERS = "losers", "Losers' bracket"
        FINAL = "final", "Final"
        THIRD_PLACE = "third-place", "Third place"
        LEAGUE = "league", "League"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for its teams"
        READY = "ready", "Ready: waiting for a table"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        BYE = "bye", "Bye"
        NOT_NEEDED = "not-needed", "Not needed"

    class Outcome(models.TextChoices):
        PLAYED = "played", "Played"
        WALKOVER = "walkover", "Walkover"
        DECISION = "decision", "Director's decision"
        TIME = "time", "Time called"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    key = models.CharField(max_length=10)
    stage = models.CharField(max_length=12, choices=Stage)
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField(help_text="The slot's place in the bracket's playing order.")
    home = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    away = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    best_of = models.PositiveSmallIntegerField(choices=BEST_OF, default=1)
    status = models.CharField(max_length=12, choices=Status, default=Status.WAITING)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.RESTRICT, related_name="matches")
    clock = models.OneToOneField(Clock, null=True, blank=True, on_delete=models.SET_NULL, related_name="match")
    winner = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    outcome = models.CharField(max_length=10, choices=Outcome, blank=True)
    reason = models.CharField(max_length=200, blank=True, help_text="Why, for a walkover or a decision.")
    finished_order = models.PositiveSmallIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A league match: its leg, the night it was first set for when postponed, a late joiner's make-up,
    # and a played result voided because a team withdrew. ``round`` is the night.
    leg = models.PositiveSmallIntegerField(null=True, blank=True)
    postponed_from = models.PositiveSmallIntegerField(null=True, blank=True)
    make_up = models.BooleanField(default=False)
    void = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="match_key_unique_in_tournament"),
            models.CheckConstraint(condition=Q(best_of__in=[1, 3, 5]), name="match_best_of_1_3_5"),
            models.CheckConstraint(
                condition=~Q(outcome__in=["walkover", "decision"]) | ~Q(reason=""), name="match_decision_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """The match's one name, on every page, message and sheet: "Semi-final, match 5", "Final",
        "Losers' round 2, match 7" as the tournament's bracket names it (see
        :meth:`tournament.bracket.Bracket.match_name`), "Night 3, match 2" in a league. Matches are
        numbered from 1 through the whole bracket (or night) in playing order; byes have none."""
        if self.is_league:
            return f"Night {self.round}, match {self.number}"
        return self.tournament.bracket.match_name(self.stage, self.round, self.number)

    @property
    def label(self) -> str:
        """The name in lower case: "semi-final, match 5", "night 3, match 2" (:attr:`in_sentence`
        adds the article a sentence needs)."""
        return self.name[0].lower() + self.name[1:]

    @property
    def in_sentence(self) -> str:
        """The name inside a sentence, with its article where it takes one: "the semi-final,
        match 5", "the final", but "night 3, match 2" (a night is named by its number)."""
        return self.label if self.is_league else f"the {self.label}"

    @property
    def subject(self) -> str:
        """The name opening a sentence: "The semi-final, match 5 is finished", "Night 3, match 2 is…"."""
        return self.in_sentence[0].upper() + self.in_sentence[1:]

    def seat_names(self) -> dict[Seat, str]:
        """Who sits where in this match's games: home North–South, away East–West (each team's
        players in registration order); an empty seat's name is ""."""
        seats = dict.fromkeys(Seat, "")
        for team, pair in ((self.home, (Seat.NORTH, Seat.SOUTH)), (self.away, (Seat.EAST, Seat.WEST))):
            names = [player.name for player in team.players.all()] if team else []
            seats.update(zip(pair, names, strict=False))
        return seats

    @property
    def is_league(self) -> bool:
        return self.stage == self.Stage.LEAGUE

    @property
    def is_final(self) -> bool:
        return self.stage == self.Stage.FINAL

    @property
    def is_waiting(self) -> bool:
        return self.status == self.Status.WAITING

    @property
    def is_ready(self) -> bool:
        return self.status == self.Status.READY

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_seated(self) -> bool:
        """At its table, its round (a league night) seated but not started: play has not begun."""
        return self.is_playing and self.games.filter(round__status=Round.Status.PLANNED).exists()

    @property
    def is_bye(self) -> bool:
        return self.status == self.Status.BYE

    @property
    def is_not_needed(self) -> bool:
        return self.status == self.Status.NOT_NEEDED

    @property
    def is_open(self) -> bool:
        """Its teams are known and it has no result: it can be played, or settled without play."""
        return self.status in (self.Status.READY, self.Status.PLAYING)

    @property
    def is_walkover(self) -> bool:
        return self.outcome == self.Outcome.WALKOVER

    @property
    def is_decision(self) -> bool:
        """Settled by the director's decision (its reason on the record), not by its games."""
        return self.outcome == self.Outcome.DECISION

    @property
    def was_played_out(self) -> bool:
        """Finished by its games alone (no walkover, decision or time call to mention)."""
        return self.outcome == self.Outcome.PLAYED

    @property
    def games_to_win(self) -> int:
        return self.best_of // 2 + 1

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.BYE, self.Status.NOT_NEEDED)

    @property
    def loser(self) -> Team | None:
        if self.status != self.Status.FINISHED or self.winner_id is None:
            return None
        return self.away if self.winner_id == self.home_id else self.home
