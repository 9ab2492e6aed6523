"""A Swiss event's documents: its standings with each tie explained, the pairings of the latest
round table by table, and the rule handout's section on how pairings are made (from the settings)."""

from __future__ import annotations

from scoring.words import listed
from tournament.formats.swiss.models import settings_of, suggested_rounds
from tournament.formats.swiss.standings import round_plan, swiss_standings
from tournament.models import Team, Tournament
from tournament.printing.documents import Document, base_context


def standings_sheet(tournament: Tournament) -> Document:
    title = "Swiss standings"
    context = {**base_context(tournament, title), "standings": swiss_standings(tournament),
               "settings": settings_of(tournament)}  # fmt: skip
    return Document("swiss-standings", title, "swiss/print_standings.html", [context])


def pairings_sheet(tournament: Tournament) -> Document:
    """The latest round's pairings, table 1 (the best-ranked pairing) first, and the bye."""
    title = "Pairings"
    last = tournament.rounds.order_by("-number").first()
    plan = round_plan(tournament, last.number) if last else None
    context = {**base_context(tournament, title), "plan": plan, "round": last}
    return Document("swiss-pairings", title, "swiss/print_pairings.html", [context])


def pairing_words(tournament: Tournament) -> tuple[str, ...]:
    """How pairings are made, in the handout's words, from ``tournament``'s Swiss settings."""
    settings = settings_of(tournament)
    teams = tournament.teams.filter(status=Team.Status.ACTIVE).count() if tournament.pk else 0
    suggested = f" (for {teams} teams ⌈log2 teams⌉ + 1 would be {suggested_rounds(teams)})" if teams > 1 else ""
    first = {
        Tournament.SeatingOrder.RANDOM: "by a draw",
        Tournament.SeatingOrder.REGISTRATION: "in registration order",
        Tournament.SeatingOrder.DIRECTOR: "by the director's seeds",
    }[tournament.seating_order]
    games = "one game" if settings.best_of == 1 else f"the best of {settings.best_of} games"
    words = [
        f"This is a Swiss event of {settings.rounds} rounds{suggested}. Partners stay together, every team plays "
        f"every round and nobody is eliminated. Each pairing plays {games} at a table.",
        f"Round 1 is paired {first}: the first team against the second, the third against the fourth, and so on. "
        "From round 2 the teams are ranked by the standings so far and paired the same way down the ranking (Monrad), "
        "a team moving down to the next candidate when the pair would be a rematch: no two teams meet twice while "
        "any pairing of the round without a rematch exists. Pairs stay as close in the ranking as that allows.",
        "The best-ranked pairing plays at table 1, the next at table 2, and so on down the ranking.",
        f"With an odd number of teams one team has a bye each round: the lowest-ranked team that has not had one. "
        f"A bye counts as a round won, scored {settings.bye_points_for} to {settings.bye_points_against}; "
        "Buchholz and median Buchholz leave it out (it has no opponent).",
    ]
    breaks = [t.label for t in settings.swiss_tiebreaks]
    then = f", then {listed(breaks)}, in that order" if breaks else ""
    words.append(f"The standings rank teams by rounds won{then}. Buchholz is the sum of the wins of every opponent "
                 "met; median Buchholz leaves out the best and the worst of them.")  # fmt: skip
    words.append("A team arriving late joins from the next round; each round it missed counts as a loss unless "
                 "the director scores it otherwise. A team that withdraws is paired no more.")  # fmt: skip
    return tuple(words)
