"""Play: the tables, rounds and their seating, each table's game and its hands
(their history: :mod:`.history`).

A table's game caches its running score (``ns_score``…) so standings and boards read one row per
table; :meth:`Game.rescore` is the one place that recomputes it from the hands.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scoring import Game as Scored
from scoring import HandEntry, Replay, RuleSet, Seat, Side, replay
from scoring.entry import FIELD_NAMES
from scoring.rules import MISDEAL_REASONS
from tournament.models.events import Player, Tournament
from tournament.models.matches import Clock, Match

# The database stores a seat as "N" and a side as "NS"; the names come from scoring's enums.
SEAT_CHOICES = [(seat.value, seat.label) for seat in Seat]
SIDE_CHOICES = [(side.value, side.label) for side in Side]
Standing = tuple[tuple[int, int], tuple[int, int]]
"""Each side's (score, bags), North–South first."""


class RoundNotReady(ValidationError):
    """A round cannot change state yet; the message says which tables hold it up."""


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

    def start(self, *, called: str) -> None:
        """Start a seated round; ``called`` is what the event calls it ("Round 3", "Night 3")."""
        if self.status != self.Status.PLANNED:
            raise RoundNotReady(f"{called} is already {self.get_status_display().lower()}.")
        self.status = self.Status.RUNNING
        self.started_at = timezone.now()
        self.save(update_fields=["status", "started_at"])

    def close(self, *, called: str) -> None:
        """Close a running round; :class:`RoundNotReady` names every table still unfinished, tied
        or disputed. ``called`` is what the event calls it ("Round 3", "Night 3"). The caller holds
        the tournament's lock (tournament.locking), so no hand is being saved meanwhile."""
        if self.status != self.Status.RUNNING:
            raise RoundNotReady(f"{called} is not running, so it cannot be closed.")
        games = list(self.games.select_related("table").order_by("table__number"))
        tied = [g.table.number for g in games if g.status == Game.Status.TIED]
        playing = [g.table.number for g in games if g.status == Game.Status.PLAYING]
        disputed = sorted(set(self.games.filter(hands__disputed=True).values_list("table__number", flat=True)))
        problems = []
        if disputed:
            problems.append(f"a hand is disputed at table {_numbers(disputed)} (resolve it first)")
        if playing:
            problems.append(f"still playing at table {_numbers(playing)}")
        if tied:
            problems.append(f"tied at table {_numbers(tied)} (play one more hand or record the decision)")
        if problems:
            raise RoundNotReady(f"{called} cannot close: " + "; ".join(problems) + ".")
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
        """The :meth:`current` game of round ``round_number`` at the table whose link is ``token``,
        with its round, tournament, table, match and clock, in one query."""
        games = self.select_related("round__tournament", "table", "match", "clock")
        return games.filter(table__token=token, round__number=round_number).current()


def _current_of(games: Iterable[Game]) -> Game | None:
    games = sorted(games, key=lambda game: game.pk, reverse=True)
    return next((game for game in games if game.status == Game.Status.PLAYING), games[0] if games else None)


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
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="games")
    match_game = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Game 1, 2, … of its match.")
    clock = models.ForeignKey(Clock, null=True, blank=True, on_delete=models.SET_NULL, related_name="games")
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
        """The rule set this game is scored by: its match's (a final may be played under its own),
        else the tournament's."""
        match = self.match  # no query without one; an import's unsaved match is read as assigned
        return match.rules if match is not None else self.round.tournament.rules

    @property
    def time_called(self) -> bool:
        return self.time_up_hand is not None

    @property
    def ended_on_time(self) -> bool:
        """Whether the clock ended this finished game: time was called, so the game stopped after
        the hand under way (or the first from there leaving the scores unequal)."""
        return self.is_finished and self.time_called

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
        round's seating."""
        if self.match_id:
            return self.match.seat_names()
        seatings = self.round.seatings.filter(table_id=self.table_id).annotate(name=playing_name())
        names = dict(seatings.values_list("seat", "name"))
        return {seat: names.get(seat, "") for seat in Seat}

    @property
    def standing(self) -> Standing:
        """Each side's (score, bags) now, from the cached totals: the standing before the next hand."""
        return (self.ns_score, self.ns_bags), (self.ew_score, self.ew_bags)

    @staticmethod
    def next_number(last: Hand | None) -> int:
        """The number of the hand after ``last`` (the game's last deal, None before any): the same
        number after a misdeal, whose hand is dealt again, else the next."""
        if last is None:
            return 1
        return last.number if last.misdeal else last.number + 1

    def hand_numbered(self, number: int, deal: int | None = None) -> Hand:
        """Hand ``number``: its ``deal``, else its last (the one played after any misdeals);
        raises :class:`Hand.DoesNotExist` when there is none."""
        deals = self.hands.filter(number=number) if deal is None else self.hands.filter(number=number, deal=deal)
        hand = deals.order_by("-deal").first()
        if hand is None:
            raise Hand.DoesNotExist(f"There is no hand {number} at table {self.table.number}.")
        return hand

    def standing_before(self, number: int, hands: list[Hand]) -> Standing:
        """Each side's (score, bags) before hand ``number``, replaying the ``hands`` before it."""
        return self.replay([hand for hand in hands if hand.number < number]).standing_before(number)

    def replay(self, hands: list[Hand] | None = None) -> Replay:
        """This table's game replayed from ``hands`` (all its hands, in order, if not given):
        one result per hand, ``None`` for a misdeal. :class:`scoring.InvalidHand` names the
        first hand the tournament's rules refuse."""
        hands = list(self.hands.order_by("number", "deal")) if hands is None else hands
        return replay(
            self.rules,
            [hand.entry for hand in hands],
            first_dealer=Seat(self.first_dealer),
            numbers=[hand.number for hand in hands],
        )

    def replay_next(self, hand: Hand) -> Replay:
        """``hand``, the next after every stored one, scored on this game's stored totals: the
        hands before it stand in those totals and are not replayed, so its results and dealers
        hold ``hand`` alone. The totals are the last replay saved (its :data:`RECORDED` columns),
        read under the tournament's lock (see :func:`tournament.play.hands.enter_hand`)."""
        rules = self.rules
        scores, bags = (self.ns_score, self.ew_score), (self.ns_bags, self.ew_bags)
        start = Scored.resumed(rules, scores, bags, self.hands_played)
        return replay(rules, [hand.entry], first_dealer=self.next_dealer, numbers=[hand.number], start=start)

    def rescore(self, hands: list[Hand] | None = None) -> Replay:
        """Recompute the cached totals and status from the hands (all of them, in order) and save."""
        hands = list(self.hands.order_by("number", "deal")) if hands is None else hands
        replayed = self.replay(hands)
        self.record(replayed, hands)
        return replayed

    def record(self, replayed: Replay, hands: list[Hand]) -> None:
        """Save the totals and status of ``replayed``, this game's ``hands`` scored (all of them,
        or the new last scored hand alone when :meth:`replay_next` scored it: the ending by time
        reads only the last scored hand)."""
        self.apply(replayed, hands)
        self.save(update_fields=RECORDED)

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
"""The columns :meth:`Game.record` writes: what a replay of the hands decides."""


BID_VALUES = [str(n) for n in range(14)] + ["nil", "blind_nil"]
BID_CHOICES = [(v, {"nil": "Nil", "blind_nil": "Blind nil"}.get(v, v)) for v in BID_VALUES]
MISDEAL_CHOICES = [(key, text[0].upper() + text[1:]) for key, text in MISDEAL_REASONS.items()]


class Hand(models.Model):
    """One deal at a table: four bids and tricks (or a misdeal), and the infractions."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    # A misdeal keeps its hand's number (rule texts 002 and 004: the same dealer deals the same
    # hand again), so the phone counts hands as the paper sheet does. ``deal`` counts the deals
    # of hand ``number``: 1, then 2 after a misdeal, and so on; every deal but a number's last is
    # a misdeal.
    deal = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
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
    # Under rules that score each player's own bid (contract "player") an infraction's tricks
    # come off its player's own: who committed each is kept here, and the side's counts above
    # are their sums. Under side contracts these stay 0.
    north_reneges = models.PositiveSmallIntegerField(default=0)
    east_reneges = models.PositiveSmallIntegerField(default=0)
    south_reneges = models.PositiveSmallIntegerField(default=0)
    west_reneges = models.PositiveSmallIntegerField(default=0)
    north_table_talk = models.PositiveSmallIntegerField(default=0)
    east_table_talk = models.PositiveSmallIntegerField(default=0)
    south_table_talk = models.PositiveSmallIntegerField(default=0)
    west_table_talk = models.PositiveSmallIntegerField(default=0)
    misdeal = models.CharField(max_length=30, choices=MISDEAL_CHOICES, blank=True)
    disputed = models.BooleanField(default=False)
    dispute_note = models.CharField(max_length=300, blank=True)
    dispute_resolution = models.CharField(max_length=300, blank=True)
    confirmed_by = models.CharField(max_length=20, blank=True, help_text="Initials of the opponent who confirmed.")
    version = models.PositiveIntegerField(default=1)
    entered_at = models.DateTimeField(default=timezone.now)
    # When the phone says its scorekeeper entered the hand (the phone's own clock): a hand that waited
    # on an offline phone keeps the time it was entered, not the time it was sent. None for a hand
    # keyed at the desk or imported.
    keyed_at = models.DateTimeField(null=True, blank=True)
    # Made on the phone for one attempt at entering the hand: a retry of the same attempt (the
    # answer was lost, or the hand waited on the phone) finds the hand instead of storing it twice.
    # None (not "") for a hand entered without one, the director's: the unique index then holds
    # only keys, and a key is looked up through it whatever the database plans.
    entry_key = models.CharField(max_length=64, null=True, blank=True, default=None, editable=False)  # noqa: DJ001

    class Meta:
        ordering = ["game", "number", "deal"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number", "deal"], name="one_deal_per_hand_number"),
            models.CheckConstraint(condition=Q(deal__gte=1), name="hand_deal_from_1"),
            models.UniqueConstraint(fields=["entry_key"], name="one_hand_per_entry_key"),
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
        return f"{self.game}, {self.label}"

    @property
    def row_id(self) -> str:
        """The id of its row in a list of hands: "hand-3", "hand-3-deal-2" for a deal after a misdeal."""
        return f"hand-{self.number}" + (f"-deal-{self.deal}" if self.deal > 1 else "")

    @property
    def label(self) -> str:
        """ "hand 3", or "hand 3, deal 2" for a hand dealt again after a misdeal."""
        return f"hand {self.number}" + (f", deal {self.deal}" if self.deal > 1 else "")

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
