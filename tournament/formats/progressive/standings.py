"""A progressive event's standings: every player (split partners) or team (fixed partners)
ranked by their round scores (:mod:`tournament.standings.ranking`).

Five queries whatever the size of the event, each reading plain columns (no joins but the
players' teams), so that a national event of 4,000 players ranks in a fraction of a second; a
sixth reads the hands of the tables whose tie an extra hand broke, when the rule set credits
the scores before it (``tie_hand_counts`` false).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from scoring import HandEntry, HandResult, RuleSet, Side, replay
from tournament.formats.progressive.movement import SPLIT
from tournament.models import Game, Hand, Player, Round, Seating, SitOut, Team, Tournament
from tournament.standings.ranking import RoundScore, rank, sit_out_credit
from tournament.standings.rows import StandingRow


def standings_rows(tournament: Tournament, *, through: int | None = None) -> list[StandingRow]:
    """Individual standings (split partners) or team standings (fixed), ranked; with ``through``,
    as they stood once round ``through`` was over (the rounds after it not read).

    A player sitting out a round is credited by the rule set's ``sit_out_credit``; a table
    tied after the round's hands is credited with its scores after them unless
    ``tie_hand_counts`` (the extra hand still decides who won). See the module's docstring for
    the queries.
    """
    # Plain tuples, in the model's order: a team's names, and equal entrants, in the order every
    # other page shows them.
    players = list(
        Player.objects.filter(team__tournament=tournament).values_list(
            "id", "name", "division", "team_id", "team__status"
        )
    )
    split = tournament.format == SPLIT
    rules = tournament.rules
    rounds = tournament.rounds.exclude(status=Round.Status.PLANNED)
    if through is not None:
        rounds = rounds.filter(number__lte=through)
    played = dict(rounds.values_list("id", "number"))
    # Each game's side scores by round, then table: one dict a side and round, keyed by plain
    # numbers (no object a game for the garbage collector to walk while the page is built).
    ns_at: dict[int, dict[int, RoundScore]] = {round_id: {} for round_id in played}
    ew_at: dict[int, dict[int, RoundScore]] = {round_id: {} for round_id in played}
    made = _RoundScores()
    # Unordered: the models' orderings join the tables to sort rows nobody reads in order.
    games = list(
        Game.objects.filter(round_id__in=list(played), match__isnull=True)
        .order_by()
        .values_list("id", "round_id", "table_id", "ns_score", "ew_score", "status", "winner", "hands_played")
    )
    # Read out of the loop: an enum's member is a look-up each time, and this loop runs 8,000
    # times for a national event.
    finished_status, ns, ew = Game.Status.FINISHED, Side.NS.value, Side.EW.value
    per_round = rules.hands_per_round or 0
    # A finished game past its round's hands was tied after them: an extra hand broke the tie.
    broken = {game[0] for game in games if per_round and game[5] == finished_status and game[7] > per_round}
    level = _scores_after(rules, broken, per_round) if broken and not rules.tie_hand_counts else {}
    for game_id, round_id, table_id, ns_score, ew_score, status, winner, hands in games:
        number = played[round_id]
        finished = status == finished_status
        if game_id in broken:
            ns_points, ew_points = level.get(game_id, (ns_score, ew_score))
            tie = {"tie_hand": hands, "tie_counted": rules.tie_hand_counts}
            ns_at[round_id][table_id] = RoundScore(number, ns_points, winner == ns, **tie)
            ew_at[round_id][table_id] = RoundScore(number, ew_points, winner == ew, **tie)
        else:
            ns_at[round_id][table_id] = made[number, ns_score, winner == ns if finished else None]
            ew_at[round_id][table_id] = made[number, ew_score, winner == ew if finished else None]
    # Partners share their side's score. A team's two players sit on one side, so with fixed
    # partners the side's first seat alone scores for the team, and only those seats are read.
    side_scores: dict[str, dict[int, dict[int, RoundScore]]] = {}
    for side, at in (Side.NS, ns_at), (Side.EW, ew_at):
        for seat in side.seats if split else side.seats[:1]:
            side_scores[seat.value] = at
    entrant_of = {pid: pid if split else team for pid, _, _, team, _ in players}
    scores: dict[int, list[RoundScore]] = defaultdict(list)
    seatings = Seating.objects.filter(round_id__in=list(played)).order_by()
    if not split:
        seatings = seatings.filter(seat__in=list(side_scores))
    for round_id, table_id, seat, player in seatings.values_list("round_id", "table_id", "seat", "player_id"):
        if (score := side_scores[seat][round_id].get(table_id)) is not None:
            scores[entrant_of[player]].append(score)
    credits: dict[int, RoundScore] = {}  # by round: what everyone sitting it out is credited with
    for round_id, player in SitOut.objects.filter(round_id__in=list(played)).values_list("round_id", "player_id"):
        number = played[round_id]
        entrant = entrant_of[player]
        if not any(s.round == number for s in scores[entrant]):
            if round_id not in credits:
                sides = [(s.points, s.won) for at in (ns_at, ew_at) for s in at[round_id].values()]
                points = sit_out_credit(rules.sit_out_credit, sides)
                credits[round_id] = RoundScore(number, points, None, sat_out=True, credit=rules.sit_out_credit)
            scores[entrant].append(credits[round_id])
    return _rows(players, scores, split)


def _scores_after(rules: RuleSet, games: set[int], hands: int) -> dict[int, tuple[int, int]]:
    """Each of ``games``' side scores after its first ``hands`` scored hands (one query: the
    games' hands, replayed)."""
    entries: dict[int, list[HandEntry]] = defaultdict(list)
    for hand in Hand.objects.filter(game_id__in=games).order_by("game_id", "number", "deal"):
        entries[hand.game_id].append(hand.entry)
    return {game: scores_after(replay(rules, played).results, hands) for game, played in entries.items()}


def scores_after(results: Sequence[HandResult | None], hands: int) -> tuple[int, int]:
    """The side scores after the first ``hands`` scored ``results`` (None: a misdeal)."""
    scored = [result for result in results if result is not None][:hands]
    if not scored:
        return 0, 0
    ns, ew = scored[-1].teams
    return ns.score, ew.score


class _RoundScores(dict):
    """RoundScores by (round, points, won), each made on first asking: the many sides that score
    alike share one (a national event's 16,000 sides make about 4,000), fewer objects to build
    and for the garbage collector to walk. A RoundScore is frozen, so sharing it is safe."""

    def __missing__(self, key: tuple[int, int, bool | None]) -> RoundScore:
        score = self[key] = RoundScore(*key)
        return score


def _rows(players: list[tuple], scores: dict[int, list[RoundScore]], split: bool) -> list[StandingRow]:
    """The ranked rows of ``players`` (id, name, division, team id and team status, in the
    model's order), each entrant with its ``scores``."""
    if split:
        meta = {pid: (name, division, status == Team.Status.WITHDRAWN) for pid, name, division, _, status in players}
    else:
        names, divisions, gone = defaultdict(list), defaultdict(set), {}
        for _, name, division, team, status in players:
            names[team].append(name)
            divisions[team].add(division)
            gone[team] = status == Team.Status.WITHDRAWN
        meta = {
            team: (" & ".join(names[team]), next(iter(divisions[team])) if len(divisions[team]) == 1 else "", out)
            for team, out in gone.items()
        }
    # A withdrawn entrant who never played a round is not in the standings at all.
    meta = {e: m for e, m in meta.items() if not (m[2] and not scores.get(e))}
    ranked = rank({entrant: scores.get(entrant, []) for entrant in meta})
    return [StandingRow(s, *meta[s.entrant]) for s in ranked]
