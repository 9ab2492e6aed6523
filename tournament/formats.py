"""Event formats as strategies behind one interface, chosen by the tournament's ``format``.

A format answers what the views and services need to know without asking which format it is:
what starting play seats (a progressive round 1, or a knockout's first matches at their tables),
what a changed game decides (nothing until a progressive round closes; a knockout's match, and
who advances), the places (standings, or the bracket), and which director page runs play.
Look a tournament's format up with :func:`format_of`; add a format by adding a class here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.urls import reverse

from tournament import knockout, knockout_reports, league, services
from tournament.models import Game, Match, Round, Team, Tournament
from tournament.reports import StandingRow, standings_rows
from tournament.standings import TIEBREAK_TEXT, Standing

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
LEAGUE_WORDS = MatchWords("Won the match", "the league table", "won the match", "win the match")


class EventFormat:
    """The interface: every method has the progressive behaviour's meaning in the other formats."""

    start_label = "Seat round 1"
    start_text = "Seat round 1 when the teams are here."
    is_knockout = False
    places_text = TIEBREAK_TEXT
    no_team_swaps = "Teams are swapped on the round's page, before the round starts."
    round_name = "Round"  # what a round of play is called: a league's are nights
    # Everyone's pages (URL names): the public page and the projector, shown at /s/<id>/ and
    # /s/<id>/projector/ whatever the format.
    public_page = "public:standings"
    projector_page = "public:projector"
    public_title = "Live standings"
    standings_page = "director:standings"  # the director's Standings tab
    # That page shows this partial, given standings_context()'s values.
    standings_partial = "public/standings.html#standings"

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        """Seat the first round (or wave) of play; returns the round now being played or planned."""
        raise NotImplementedError

    def game_changed(self, *, game: Game) -> None:
        """A hand was entered or corrected, or a tie decided, at ``game``: act on what it decides."""
        raise NotImplementedError

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        """Every entrant's place, best first: what the standings pages and the prizes use."""
        raise NotImplementedError

    def standings_context(self, tournament: Tournament) -> dict[str, Any]:
        """What :attr:`standings_partial` shows."""
        return {"rows": self.standings(tournament)}

    def prize_ties(self, tournament: Tournament) -> str:
        """How entrants level in the standings share prizes (see :mod:`tournament.prizes`)."""
        return tournament.prize_ties

    def match_words(self, match: Match) -> MatchWords:
        """The words for ``match``'s result (a knockout's by default)."""
        return KNOCKOUT_WORDS

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        """The director's page where ``round_`` is run."""
        return reverse("director:round", args=[tournament.pk, round_.number])

    def progress(self, tournament: Tournament) -> tuple[int, int, str]:
        """How far play has got, for the dashboard: (done, of, what), e.g. (2, 5, "rounds")."""
        return tournament.rounds.count(), tournament.rounds_planned, "rounds"

    def swap_teams(self, *, tournament: Tournament, first: Team, second: Team, by: User = None) -> None:
        """Exchange two teams' matches before either has started (see :func:`knockout.swap_teams`)."""
        raise ValidationError(self.no_team_swaps, code="no_team_swaps")

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        """Close ``round_`` (refused while a table plays on); returns the next round, seated, if any."""
        return services.close_round(round_=round_, by=by)

    def closed(self, tournament: Tournament, round_: Round, following: Round | None) -> tuple[str, str]:
        """What the director is told when ``round_`` has closed, and the page they go to next."""
        if following is None:
            return f"Round {round_.number} closed: the tournament is over.", reverse(
                "director:standings", args=[tournament.pk]
            )
        return f"Round {round_.number} closed. Here is round {following.number}'s movement.", reverse(
            "director:round", args=[tournament.pk, following.number]
        )


class Progressive(EventFormat):
    """Progressive tables: a movement seats each round; results move players when it closes."""

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        return services.seat_first_round(tournament=tournament, by=by)

    def game_changed(self, *, game: Game) -> None:
        return None  # the round's close reads every table's result

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        return standings_rows(tournament)


class Knockout(EventFormat):
    """A bracket: each match at a free table; a match's result moves its winner on at once."""

    start_label = "Draw the bracket and start"
    start_text = "Draw the bracket when the teams are here; the first matches take their tables at once."
    is_knockout = True
    public_page = "public:bracket"
    projector_page = "public:bracket_projector"
    public_title = "Live bracket"
    places_text = (
        "Places come from the bracket: the champion, the final's loser, then third (the third-place match, "
        "or the semi-final losers sharing it); further teams share a place with those knocked out in the same round."
    )

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        return knockout.draw_bracket(tournament=tournament, by=by)

    def game_changed(self, *, game: Game) -> None:
        if game.match_id is not None:
            knockout.game_changed(game=game)

    standings_partial = "knockout/standings.html#places"

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        """The teams out so far (every team at the end) by their bracket place: the standing's
        total is the points they scored, its rounds won the matches they won."""
        return [
            StandingRow(
                Standing(r.place, r.team, r.points, r.matches_won, (), (r.place,)), r.name, r.division, r.withdrawn
            )
            for r in knockout_reports.place_rows(tournament)
            if r.place is not None
        ]

    def standings_context(self, tournament: Tournament) -> dict[str, Any]:
        return {"places": knockout_reports.place_rows(tournament)}

    def prize_ties(self, tournament: Tournament) -> str:
        return "tiebreak"  # the bracket is the only tiebreak: teams sharing a place share its prizes

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        return reverse("director:bracket", args=[tournament.pk])

    def progress(self, tournament: Tournament) -> tuple[int, int, str]:
        """Matches played of those to play: byes never count, a second final only once it is needed."""
        real = tournament.matches.filter(number__gt=0).exclude(status__in=[Match.Status.BYE, Match.Status.NOT_NEEDED])
        done = real.filter(status=Match.Status.FINISHED).count()
        return done, real.count(), "matches played"

    def swap_teams(self, *, tournament: Tournament, first: Team, second: Team, by: User = None) -> None:
        knockout.swap_teams(tournament=tournament, first=first, second=second, by=by)

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        raise ValidationError("A knockout's round closes by itself when the final is decided.", code="closes_itself")


class League(EventFormat):
    """A season of nights: each night seats its scheduled matches; the top teams then play the
    championship as a small knockout (see :mod:`tournament.league`)."""

    start_label = "Make the schedule and seat night 1"
    start_text = "Make the season's schedule when every team is registered; night 1's tables are seated at once."
    places_text = (
        "Places come from the championship (the champion, the finalist, then the semi-finalists), "
        "then the league table for everyone else."
    )

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        league.build_schedule(tournament=tournament, by=by)
        return league.open_night(tournament=tournament, night=1, by=by)

    def game_changed(self, *, game: Game) -> None:
        if game.match_id is None:
            return
        if game.match.stage == Match.Stage.LEAGUE:
            league.game_changed(game=game)
        else:
            knockout.game_changed(game=game)

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        return league.standing_rows(tournament)

    def match_words(self, match: Match) -> MatchWords:
        return LEAGUE_WORDS if match.is_league else KNOCKOUT_WORDS  # the championship is a knockout

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        if league.league_matches(tournament).filter(round=round_.number).exists():
            return reverse("director:league_night", args=[tournament.pk, round_.number])
        return reverse("director:league_schedule", args=[tournament.pk]) + "#championship"

    def progress(self, tournament: Tournament) -> tuple[int, int, str]:
        """Nights closed of the season's nights (the championship after them is not a night)."""
        nights = league.load_schedule(tournament).nights
        return tournament.rounds.filter(number__lte=nights, status=Round.Status.CLOSED).count(), nights, "nights played"

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        league.close_night(round_=round_)
        return None  # the director opens the next night from the schedule

    def closed(self, tournament: Tournament, round_: Round, following: Round | None) -> tuple[str, str]:
        return f"Night {round_.number} closed.", reverse("director:league_schedule", args=[tournament.pk])

    round_name = "Night"
    public_page = "public:league"
    projector_page = "public:league_projector"
    public_title = "Live league table"
    # One ranking: the league table, headed by the championship's places once they are decided.
    standings_page = "director:league_table"
    no_team_swaps = (
        "In a league the schedule decides who meets whom, and the league table seeds the championship: "
        "move a match to another night (Postpone) or to another table instead."
    )


PROGRESSIVE, KNOCKOUT, LEAGUE = Progressive(), Knockout(), League()
FORMATS: dict[str, EventFormat] = {
    Tournament.Format.PROGRESSIVE_SPLIT: PROGRESSIVE,
    Tournament.Format.PROGRESSIVE_FIXED: PROGRESSIVE,
    Tournament.Format.SINGLE_ELIMINATION: KNOCKOUT,
    Tournament.Format.DOUBLE_ELIMINATION: KNOCKOUT,
    Tournament.Format.ROUND_ROBIN: LEAGUE,
}


def format_of(tournament: Tournament) -> EventFormat:
    return FORMATS[tournament.format]
