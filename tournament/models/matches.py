"""Matches and clocks: two teams playing one game or the best of N at a table, and the time limit
that counts down on a match or a table.

What a match's games decide, and what a decided match moves on, is the business of
:mod:`tournament.matches` and of the format that plays it.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from scoring import RuleSet, Seat
from tournament.models.events import PRESET_CHOICES, Team, Tournament, rule_set

BEST_OF = [(1, "One game"), (3, "Best of 3"), (5, "Best of 5")]


class Clock(models.Model):
    """A time limit that counts down: a knockout match's, or one progressive table's in a round.

    Running while started and not paused; ``paused_seconds`` adds up earlier pauses, and the time
    the director gave back by setting the minutes left (:func:`tournament.clocks.services.set_minutes_left`).
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
    """A match between two teams: played as one game or the best of 3 or 5 at a table. The format
    that plays matches makes them and names them: a knockout's bracket slots (``key`` ``W1-1``,
    ``L2-3``, ``F1``, ``3P``), a league's fixtures (``L1-3-5``) and its championship."""

    class Stage(models.TextChoices):
        WINNERS = "winners", "Winners' bracket"
        LOSERS = "losers", "Losers' bracket"
        FINAL = "final", "Final"
        THIRD_PLACE = "third-place", "Third place"
        LEAGUE = "league", "League"
        SWISS = "swiss", "Swiss round"

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
    # The match's one name, on every page, message and sheet, as its format gives it when it makes
    # the match: "Semi-final, match 5", "Final", "Losers' round 2, match 7", "Night 3, match 2".
    name = models.CharField(max_length=80, blank=True)
    # Its games' rule set when it is not the tournament's (a knockout's final may have its own).
    preset = models.CharField(max_length=40, choices=PRESET_CHOICES, blank=True)
    # Fields a match's own preset is played with changed, as a tournament's rule_overrides: rules
    # kept for a match played before a preset changed (migration 0015).
    rule_overrides = models.JSONField(default=dict, blank=True)
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField(help_text="The slot's place in the bracket's playing order.")
    home = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    away = models.ForeignKey(Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    best_of = models.PositiveSmallIntegerField(choices=BEST_OF, default=1)
    status = models.CharField(max_length=12, choices=Status, default=Status.WAITING)
    table = models.ForeignKey("Table", null=True, blank=True, on_delete=models.RESTRICT, related_name="matches")
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
    def rules(self) -> RuleSet:
        """The rule set of this match's games: its own preset (with its overrides) or the tournament's."""
        if not self.preset:
            return self.tournament.rules
        return rule_set(self.preset, json.dumps(self.rule_overrides, sort_keys=True))

    @property
    def label(self) -> str:
        """The name in lower case: "semi-final, match 5", "night 3, match 2" (:attr:`in_sentence`
        adds the article a sentence needs)."""
        return self.name[0].lower() + self.name[1:]

    @property
    def in_sentence(self) -> str:
        """The name inside a sentence, with its article where it takes one: "the semi-final,
        match 5", "the final", but "night 3, match 2" (a night is named by its number)."""
        return self.label if self.in_round else f"the {self.label}"

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
    def in_round(self) -> bool:
        """A match of a numbered round (a league's night, a Swiss round), not of a bracket: it is
        named by its round's number ("night 3, match 2"), with no article."""
        return self.stage in (self.Stage.LEAGUE, self.Stage.SWISS)

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
        return self.is_playing and self.games.filter(round__status="planned").exists()

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
