"""The interface between the core and a format (:class:`EventFormat`), and the registry that finds
a tournament's format (:func:`format_of`). See the package's docstring for how a format plugs in."""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring import RuleSet
from scoring.describe import Section
from tournament.models import Game, Match, Round, Team, Tournament, rule_set
from tournament.standings.rows import StandingRow

User = AbstractBaseUser | None


@dataclass(frozen=True)
class MatchWords:
    """How a match's result is worded on its page and in messages: a knockout's winner goes
    through (shown on the bracket); a league match's winner has won it (shown in the league table)."""

    winner: str  # the label of the winner's field: "Goes through"
    shown: str  # where the result shows: "the bracket"
    went: str  # "went through"
    go: str  # "go through", after a team's names


KNOCKOUT_WORDS = MatchWords("Goes through", "the bracket", "went through", "go through")


@dataclass(frozen=True)
class Document:
    """A document a format adds to the Print tab: its ``name`` in the URL, its title and what it
    holds, and ``make(tournament, base_url)``, which builds it as a printable document (see
    :mod:`tournament.printing.documents`)."""

    name: str
    title: str
    about: str  # what it holds, in a few words; or, when not ``offered``, why there is nothing to print
    make: Callable[[Tournament, str | None], Any]
    offered: bool = True


@dataclass(frozen=True)
class RulePart:
    """Games a format plays under a preset of their own (a knockout's final, a league's
    championship final), as the rule handout names them in a part of their own: ``title`` ("The
    final") and the ``preset`` they are played under, without the tournament's own changes;
    ``overrides``: the fields their match changes in it (JSON, as :attr:`Match.rule_overrides`)."""

    title: str
    preset: str
    overrides: str = "{}"

    @property
    def rules(self) -> RuleSet:
        """The rule set these games are played under."""
        return rule_set(self.preset, self.overrides)


@dataclass(frozen=True)
class Nav:
    """A link a format adds to the director's pages: its label, its URL, (for a tab) the name
    a page gives the tab it is on and (for a tab standing for one round) that round's number."""

    label: str
    url: str
    tab: str = ""
    round: int | None = None


@dataclass(frozen=True)
class Simulation:
    """``manage.py simulate <name>``: a whole event of the format played with random legal hands
    on a throw-away database (see :mod:`tournament.simulation`)."""

    name: str
    help: str
    add_arguments: Callable[[ArgumentParser], None]
    run: Callable[[dict[str, Any]], dict[str, Any]]  # the command's options → the log, as JSON values
    lines: Callable[[dict[str, Any]], list[str]]  # the log in words


class EventFormat:
    """The interface between the core and a format. Every attribute and method has a default
    that suits a format of rounds of tables; a format overrides what it does differently."""

    key = ""  # stored in Tournament.format
    label = ""  # in the tournament form's list of formats
    partners = "fixed"  # "split" when partners change every round (individual scores)
    round_name = "Round"  # what a round of play is called: a league's are nights
    start_label = "Seat round 1"
    start_text = "Seat round 1 when the teams are here."
    places_text = ""  # how the places are decided, in words, under every standings table
    # The core tournament fields the format uses, beyond those every format uses: the tournament
    # form shows them only when this format is chosen.
    uses: tuple[str, ...] = ()
    # Rule-set fields the format's settings form sets (stored in the tournament's rule overrides):
    # the rule changes' JSON leaves them to that form.
    rule_fields: tuple[str, ...] = ()
    # Everyone's pages (URL names): the public page and the projector, reached at /s/<id>/ and
    # /s/<id>/projector/ whatever the format, and the director's Standings tab.
    public_page = "public:standings"
    projector_page = "public:projector"
    standings_page = "director:standings"
    public_title = "Live standings"
    # The template partial the standings pages show, given standings_context()'s values.
    standings_partial = ""
    no_team_swaps = "Teams are swapped on the round's page, before the round starts."
    # The module of the format's pages: ``director_patterns`` (URL names in the "director"
    # namespace) and ``public_patterns`` (in "public"); the core's URLs include them.
    urls: Any = None
    assistant_pages: frozenset[str] = frozenset()  # its director pages (URL names) an assistant may use
    plays_matches = False  # whether its games belong to matches (a progressive round's belong to none)
    prints_rounds = True  # whether the Print tab offers each round's score sheets and movement slips
    documents_title = ""  # the Print tab's heading over the format's own documents
    simulation: Simulation | None = None

    # --- play ----------------------------------------------------------------------------------

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        """Seat the first round (or wave) of play, under the tournament's lock; returns the round
        now being played or planned."""
        raise NotImplementedError

    def game_changed(self, *, game: Game, winner_before: str, by: User = None) -> str:
        """A hand was entered or corrected, or a tie decided, at ``game`` (its winner was
        ``winner_before``): act on what it decides, under the tournament's lock the caller holds.
        Returns what that caused, in words for the director ("" for nothing worth saying).
        Raise :class:`scoring.InvalidHand` to refuse the change."""
        return ""

    def match_settled(self, *, match: Match, by: User = None) -> None:
        """A match was settled without play, or its games ended by the director's decision (a
        walkover, a decision), under the tournament's lock the caller holds: act on its result."""

    def entrants_changed(self, *, tournament: Tournament, reason: str, by: User = None) -> None:
        """A team registered late, was removed, withdrew or came back (``reason`` in words), under
        the tournament's lock: re-seat what is seated but not started, if the format seats so."""

    def check_team_status(self, *, team: Team, status: str) -> None:
        """Refuse (ValidationError) a change of ``team``'s status the format handles its own way."""

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        """Close ``round_`` (refused while a table plays on), under the tournament's lock the
        caller holds; returns the next round, seated, if any."""
        raise NotImplementedError

    def round_title(self, round_: Round) -> str:
        """What ``round_`` is called as a heading or at the start of a sentence: "Round 3", "Night 3"
        (a league's championship, played after its nights: "Championship")."""
        return f"{self.round_name} {round_.number}"

    def round_called(self, round_: Round) -> str:
        """What ``round_`` is called inside a sentence: "round 3", "night 3", "the championship"."""
        return f"{self.round_name.lower()} {round_.number}"

    def closed(self, tournament: Tournament, round_: Round, following: Round | None) -> tuple[str, str]:
        """What the director is told when ``round_`` has closed, and the page they go to next."""
        name = self.round_title(round_)
        if following is None:
            return f"{name} closed: the tournament is over.", reverse("director:standings", args=[tournament.pk])
        return f"{name} closed.", self.play_url(tournament, following)

    def rounds_heading(self, tournament: Tournament) -> str:
        """The dashboard's heading over the list of rounds: "Rounds"."""
        return "Rounds"

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        """The director's page where ``round_`` is run (the core's: its board and controls)."""
        return reverse("director:round_board", args=[tournament.pk, round_.number])

    def progress(self, tournament: Tournament) -> tuple[int, int, str]:
        """How far play has got, for the dashboard: (done, of, what), e.g. (2, 5, "rounds")."""
        return tournament.rounds.count(), tournament.rounds_planned, "rounds"

    def swap_teams(self, *, tournament: Tournament, first: Team, second: Team, by: User = None) -> None:
        """Exchange two teams' places before play starts."""
        raise ValidationError(self.no_team_swaps, code="no_team_swaps")

    def match_words(self, match: Match) -> MatchWords:
        """The words for ``match``'s result (a knockout's by default)."""
        return KNOCKOUT_WORDS

    # --- what the pages show -------------------------------------------------------------------

    def tabs(self, tournament: Tournament) -> list[Nav]:
        """The director's tabs where the format runs play (a progressive event's current round)."""
        return []

    def dashboard_links(self, tournament: Tournament) -> list[Nav]:
        """Links the dashboard offers beside starting play (a knockout's seeds)."""
        return []

    def waiting(self, tournament: Tournament, table_number: int, current: Round | None) -> tuple[str, str]:
        """What a table's page says while its table has no game (heading, text), ``current``
        being the round under way or seated, if any."""
        if current is not None:
            name = self.round_called(current)
            return (
                f"No game at table {table_number} in {name}",
                "This table is not used this round. Keep the page open: it opens by itself when a game is seated here.",
            )
        return (
            f"{self.round_name} 1 is not seated yet",
            "This page opens for scoring by itself once the director seats and starts the first round.",
        )

    def late_entry(self, team: Team, current: Round) -> str:
        """What a team registered once play has begun (``current``: the round under way or
        seated) plays, in words for the director; "" when there is nothing to say."""
        return ""

    def starts(self) -> str:
        """What the director starts for a seated table's page to open for scoring: "the round"."""
        return f"the {self.round_name.lower()}"

    # --- places and money ----------------------------------------------------------------------

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        """Every entrant's place, best first: what the standings pages, exports and prizes use."""
        raise NotImplementedError

    def standings_after(self, tournament: Tournament, number: int) -> list[StandingRow] | None:
        """The standings as they stood once round ``number`` (a league's night) was over: only that round's
        and earlier rounds' games count. None when the format's places cannot be cut at a round (a knockout's)."""
        return None

    def standings_context(self, tournament: Tournament) -> dict[str, Any]:
        """What :attr:`standings_partial` shows."""
        return {"rows": self.standings(tournament)}

    def standings_context_after(self, tournament: Tournament, number: int) -> dict[str, Any] | None:
        """What :attr:`standings_partial` shows as the standings stood once round ``number`` was over
        (the public pages hold later rounds back until their flags are checked, tournament.review);
        None when :meth:`standings_after` is."""
        rows = self.standings_after(tournament, number)
        return None if rows is None else {"rows": rows}

    def places_words(self, tournament: Tournament) -> str:
        """How ``tournament``'s places are decided, in words, under every standings table: the
        :attr:`places_text`, and what the tournament's rules add to it."""
        return self.places_text

    def entrants_are_players(self, tournament: Tournament) -> bool:
        """Whether the standings rank players (split partners) rather than teams."""
        return self.partners == "split"

    def prize_ties(self, tournament: Tournament) -> str:
        """How entrants level in the standings share prizes (see :mod:`tournament.money.prizes`)."""
        return tournament.prize_ties

    def fee_units(self, tournament: Tournament, teams: Sequence[int]) -> dict[int, int]:
        """How many times each of ``teams`` owes the entry fee so far (once, by default)."""
        return dict.fromkeys(teams, 1)

    def fee_basis(self, tournament: Tournament) -> str:
        """Who pays the entry fee how often, in words: "a team"."""
        return "a team"

    # --- settings, documents, transfer, simulation --------------------------------------------

    def settings_form(self, tournament: Tournament | None, data: Any = None) -> forms.Form | None:
        """The form of the format's own settings (None: it has none), bound to ``data`` when given;
        shown under the tournament form when this format is chosen."""
        return None

    def save_settings(self, *, tournament: Tournament, form: forms.Form) -> None:
        """Save a valid :meth:`settings_form`, under the tournament's lock the caller holds."""

    def rules_changed(self, *, tournament: Tournament) -> None:
        """The rules or the format's settings changed (under the lock): bring what depends on them
        (a final's rule set, the time limits of matches at tables) up to date before the core
        scores every hand again."""

    def documents(self, tournament: Tournament) -> list[Document]:
        """The format's own documents on the Print tab, under :attr:`documents_title`."""
        return []

    def round_words(self, round_: Round) -> str:
        """What ``round_``'s games are, inside a sentence ("round 2"), for the sheets printed for it."""
        return self.round_called(round_)

    def handout_sections(self, tournament: Tournament) -> list[Section]:
        """The rule handout's sections the format writes (how players move, how matches go),
        after the sections on scoring and the end of the game."""
        return []

    def rule_parts(self, tournament: Tournament) -> list[RulePart]:
        """The games the format plays under another preset than the tournament's: the rule
        handout prints each such part's rules after the tournament's."""
        return []

    def export(self, tournament: Tournament) -> dict[str, Any]:
        """The format's settings for a tournament export (keys beside the tournament's own)."""
        return {}

    def read_import(self, plan: Any, data: dict[str, Any]) -> None:
        """Read the format's settings from an export being imported (``data``, the file's tournament
        object) once its matches are read and before its games are scored: keep them on ``plan``
        (``plan.format_settings``) for :meth:`check_import` and :meth:`import_settings`, and give
        the matches the rule sets they play by; :class:`ValidationError` names the field."""

    def check_import(self, plan: Any) -> None:
        """Check what the format requires of an export's rounds and matches, once they are read
        (see :mod:`tournament.transfer.restore`), and give its matches their names and rule sets;
        :class:`ValidationError` names the row and field."""

    def import_settings(self, *, tournament: Tournament, plan: Any) -> None:
        """Write the settings :meth:`check_import` kept, for the imported ``tournament``."""


_formats: dict[str, EventFormat] = {}


def register(*formats: EventFormat) -> None:
    """Make ``formats`` available (a format's app does this as it is ready)."""
    for event_format in formats:
        if not event_format.key or event_format.key in _formats:
            raise ValueError(f"format {event_format.key!r}: a key of its own is needed")
        _formats[event_format.key] = event_format


def unregister(key: str) -> None:
    """Take a format away again (for a test's own format)."""
    _formats.pop(key, None)


def format_of(tournament: Tournament) -> EventFormat:
    """The format ``tournament`` is played in."""
    return format_named(tournament.format)


def format_named(key: str) -> EventFormat:
    """The format stored as ``key``."""
    try:
        return _formats[key]
    except KeyError:
        raise LookupError(f"no format {key!r} is installed") from None


def all_formats() -> Iterator[EventFormat]:
    """Every registered format, in the order registered."""
    return iter(list(_formats.values()))


def choices() -> list[tuple[str, str]]:
    """The formats for a choice field: (key, label)."""
    return [(f.key, f.label) for f in _formats.values()]
