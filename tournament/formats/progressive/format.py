"""The progressive format as the core sees it (see :class:`tournament.formats.registry.EventFormat`)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from scoring.describe import OUR_READING, Section
from tournament.formats.progressive import movement, urls
from tournament.formats.progressive.simulation import SIMULATION
from tournament.formats.progressive.standings import standings_rows
from tournament.formats.registry import EventFormat, Nav, User
from tournament.models import Game, Round, Tournament
from tournament.standings.ranking import TIEBREAK_TEXT
from tournament.standings.rows import StandingRow

MOVES = {
    movement.SPLIT: (
        "After each round the side with more points at each table moves up one table (table 2's winners "
        "to table 1, and so on); the winners at table 1 stay. The losers at table 1 go to the last table. "
        "Partners split: each newcomer partners one of the two players already there. With an odd number "
        "of couples, table 1's losers sit out a round and come back at the last table. Each player is "
        "credited with their side's score for the round; the highest total wins.",
        OUR_READING + "of the two ways the newcomers can split, the one is seated whose partners have not "
        "played together yet this evening; failing that, the one repeating fewer partnerships.",
    ),
    movement.FIXED: (
        "Partners stay together all evening. After each game the winning team moves up one table and the "
        "winners at table 1 stay; the losers at table 1 go to the last table. With an odd number of "
        "teams, table 1's losers sit out a round. Teams are ranked on their total points.",
    ),
}


class Progressive(EventFormat):
    """Progressive tables: a movement seats each round; results move players when it closes."""

    uses = ("rounds_planned", "seating_order", "prize_ties")
    places_text = TIEBREAK_TEXT
    standings_partial = "progressive/standings.html#standings"
    urls = urls
    assistant_pages = frozenset({"round", "round_swap"})
    simulation = SIMULATION

    def __init__(self, *, split: bool) -> None:
        self.key = movement.SPLIT if split else movement.FIXED
        self.partners = "split" if split else "fixed"
        self.label = (
            "Progressive tables, partners split (individual scores)"
            if split
            else "Progressive tables, fixed partners (team scores)"
        )

    def start(self, *, tournament: Tournament, by: User = None) -> Round:
        return movement.seat_first_round(tournament=tournament, by=by)

    def game_changed(self, *, game: Game, winner_before: str, by: User = None) -> str:
        # A round's close reads every table's result; only a closed round's changed result moves anything.
        if game.round.status != Round.Status.CLOSED or game.winner == winner_before:
            return ""
        return movement.result_changed(game, by=by)

    def entrants_changed(self, *, tournament: Tournament, reason: str, by: User = None) -> None:
        movement.replan(tournament, by=by, reason=reason)

    def close_round(self, *, round_: Round, by: User = None) -> Round | None:
        return movement.close_round(round_, called=f"{self.round_name} {round_.number}")

    def play_url(self, tournament: Tournament, round_: Round) -> str:
        return reverse("director:round", args=[tournament.pk, round_.number])

    def closed(self, tournament: Tournament, round_: Round, following: Round | None) -> tuple[str, str]:
        if following is None:
            return super().closed(tournament, round_, following)
        return f"Round {round_.number} closed. Here is round {following.number}'s movement.", self.play_url(
            tournament, following
        )

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        return standings_rows(tournament)

    def standings_context(self, tournament: Tournament) -> dict[str, Any]:
        return {"rows": self.standings(tournament), "entrant_word": "Player" if self.partners == "split" else "Team"}

    def tabs(self, tournament: Tournament) -> list[Nav]:
        current = tournament.current_round()
        if current is None:
            return []
        url = reverse("director:round", args=[tournament.pk, current.number])
        return [Nav(f"Round {current.number}", url, "round")]

    def handout_sections(self, tournament: Tournament) -> list[Section]:
        return [Section("Moving between tables", MOVES[self.key])]
