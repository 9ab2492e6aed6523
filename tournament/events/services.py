"""An event's own writes: creating it, changing its settings and rules, who runs it.

Every function is keyword-only, atomic and takes the tournament's lock first
(:mod:`tournament.locking`). A change of rules (or of the format's settings, such as a final's
rule set) scores every hand again under the lock, so a hand saved meanwhile waits and is then
scored under the new rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from scoring import InvalidHand
from tournament.clocks.services import apply_time_limits
from tournament.events.rule_change import RuleChangePreview, preview
from tournament.formats.registry import format_of
from tournament.locking import lock_tournament
from tournament.models import Game, Hand, Round, Tournament
from tournament.money.winners import PaidPlacesMove, paid_places
from tournament.play.board import hands_by_game

User = AbstractBaseUser | None
TOURNAMENT_FIELDS = frozenset(field.name for field in Tournament._meta.concrete_fields) - {
    "id", "club", "created_at", "changed_at",
}  # fmt: skip


@transaction.atomic
def create_tournament(*, tournament: Tournament, by: Any, settings: forms.Form | None = None) -> Tournament:
    """Save a new ``tournament`` (its club set: the club's people run it), and its format's
    ``settings`` (a valid :meth:`~tournament.formats.registry.EventFormat.settings_form`, if the
    format has one). ``by`` is who made it."""
    tournament.save()
    if settings is not None:
        format_of(tournament).save_settings(tournament=tournament, form=settings)
    return tournament


@transaction.atomic
def update_tournament(
    *, tournament: Tournament, changes: Mapping[str, Any], settings: forms.Form | None = None, by: User = None
) -> tuple[Tournament, list[str]]:
    """Change a tournament's fields (``changes``: field name to new value) and its format's
    ``settings``; if the rules any game is scored by changed, score every hand again under them.
    A time limit set, changed or taken away applies to the matches and tables still playing.

    Returns the saved tournament and the closed-round tables whose winner flipped. A value the
    model refuses raises :class:`ValidationError`; so does a stored hand the new rules refuse,
    rolling everything back.
    """
    locked, before = _changed(tournament, changes, settings)
    if _rules_of_games(locked) == before:
        return locked, []
    return locked, _rescore_all(locked, by=by)


def _changed(
    tournament: Tournament, changes: Mapping[str, Any], settings: forms.Form | None
) -> tuple[Tournament, tuple]:
    """Lock ``tournament``, make and save the changes (the format's settings, and what depends on
    them, too); returns it and the rules its games were scored by before."""
    unknown = set(changes) - TOURNAMENT_FIELDS
    if unknown:
        raise TypeError(f"update_tournament cannot change {', '.join(sorted(unknown))}")
    locked = lock_tournament(tournament.pk)
    before = _rules_of_games(locked)
    for field, value in changes.items():
        setattr(locked, field, value)
    locked.full_clean()
    locked.save(update_fields=list(changes) or None)
    event_format = format_of(locked)
    if settings is not None:
        event_format.save_settings(tournament=locked, form=settings)
    event_format.rules_changed(tournament=locked)
    apply_time_limits(tournament=locked)
    return locked, before


def _rules_of_games(tournament: Tournament) -> tuple:
    """What decides how every game is scored: the tournament's rules and each match's own."""
    presets = tournament.matches.exclude(preset="").order_by("pk").values_list("pk", "preset", "rule_overrides")
    return tournament.rules, tuple(presets)


class _DryRun(Exception):
    def __init__(self, result: RuleChangePreview) -> None:
        self.result = result


def preview_update(
    *, tournament: Tournament, changes: Mapping[str, Any], settings: forms.Form | None = None
) -> RuleChangePreview:
    """What :func:`update_tournament` would do to the games played (see
    :func:`~tournament.events.rule_change.preview`), worked out by making the change and rolling
    it back: no game is scored differently from the way the change itself would score it."""
    try:
        with transaction.atomic():
            paid = paid_places(lock_tournament(tournament.pk))  # who held the paid prizes before
            locked, before = _changed(tournament, changes, settings)
            if _rules_of_games(locked) == before:
                raise _DryRun(RuleChangePreview([]))
            result = preview(locked)
            if not result.refused:  # what the format would refuse of the results the new rules give
                try:
                    _rescore_all(locked)
                    if paid is not None:
                        paid.check()
                except ValidationError as error:
                    result = replace(result, blocked=" ".join(error.messages))
                except PaidPlacesMove as moved:  # the director sees them before confirming
                    result = replace(result, paid_moves=tuple(moved.moves))
            raise _DryRun(result)
    except _DryRun as dry_run:
        return dry_run.result


def _rescore_all(tournament: Tournament, by: User = None) -> list[str]:
    """Score every game's hands again under the rules they are now played by, and tell the format
    of each match game whose result that changes (a match decided, undone or won by the other team
    moves its bracket or league table at once, as a correction would). Returns the closed-round tables
    whose winner flipped; raises :class:`ValidationError` naming the game whose hands or result the
    new rules cannot stand."""
    flipped = []
    event_format = format_of(tournament)
    hands = hands_by_game(Hand.objects.filter(game__round__tournament=tournament).order_by("game_id", "number", "deal"))
    games = Game.objects.select_related("round", "table", "match").filter(round__tournament=tournament, pk__in=hands)
    for game in games.order_by("round__number", "match__position", "match_game", "table__number"):
        game.round.tournament = tournament  # one rule set for every game
        if game.match is not None:
            game.match.tournament = tournament
        before = game.status, game.winner
        try:
            game.rescore(hands[game.pk])
            # A match keeps its result (and a bracket moves on from it), so it must follow its
            # game's at once; a round of tables is read as it stands (its close, the standings).
            if game.match is not None and (game.status, game.winner) != before:
                event_format.game_changed(game=game, winner_before=before[1], by=by)
        except InvalidHand as error:
            message = f"{_where(game)}, {error.message}: the new rules refuse it."
            raise ValidationError(message, code="breaks_hands") from None
        if game.round.status == Round.Status.CLOSED and game.winner != before[1]:
            flipped.append(f"round {game.round.number} table {game.table.number}")
    return flipped


def _where(game: Game) -> str:
    """Where a game is, opening a sentence: its round and table, or its match ("The final")."""
    if game.match is not None:
        return game.match.subject + (f", game {game.match_game}" if game.match.best_of > 1 else "")
    return f"Round {game.round.number}, table {game.table.number}"
