"""Read-side views of a tournament: standings, the fee ledger, the live board, CSV exports.

Each loader reads a fixed number of queries however many tables there are.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.sql.constants import CURSOR, GET_ITERATOR_CHUNK_SIZE

from scoring import HandResult, Replay, Seat, Side, words
from scoring.describe import bid_name
from tournament import csvsafe
from tournament.models import (
    HAND_FIELDS,
    Game,
    Hand,
    Match,
    Payment,
    Payout,
    Player,
    Round,
    Seating,
    SitOut,
    Team,
    Tournament,
    playing_name,
)
from tournament.prizes import prize_amounts
from tournament.standings import RoundScore, Standing, rank, sit_out_points

ZERO = Decimal("0.00")
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class StandingRow:
    standing: Standing[int]
    name: str
    division: str
    withdrawn: bool


def standings_rows(tournament: Tournament) -> list[StandingRow]:
    """Individual standings (split partners) or team standings (fixed), ranked.

    Five queries whatever the size of the event, each reading plain columns (no joins but the
    players' teams), so that a national event of 4,000 players ranks in a fraction of a second.
    """
    # Plain tuples, in the model's order: a team's names, and equal entrants, in the order every
    # other page shows them.
    players = list(
        Player.objects.filter(team__tournament=tournament).values_list(
            "id", "name", "division", "team_id", "team__status"
        )
    )
    split = tournament.split_partners
    played = dict(tournament.rounds.exclude(status=Round.Status.PLANNED).values_list("id", "number"))
    # Each game's side scores by round, then table: one dict a side and round, keyed by plain
    # numbers (no object a game for the garbage collector to walk while the page is built).
    ns_at: dict[int, dict[int, RoundScore]] = {round_id: {} for round_id in played}
    ew_at: dict[int, dict[int, RoundScore]] = {round_id: {} for round_id in played}
    made = _RoundScores()
    # Unordered: the models' orderings join the tables to sort rows nobody reads in order.
    games = Game.objects.filter(round_id__in=list(played), match__isnull=True).order_by()
    # Read out of the loop: an enum's member is a look-up each time, and this loop runs 8,000
    # times for a national event.
    finished_status, ns, ew = Game.Status.FINISHED, Side.NS.value, Side.EW.value
    for round_id, table_id, ns_score, ew_score, status, winner in _streamed(
        games.values_list("round_id", "table_id", "ns_score", "ew_score", "status", "winner")
    ):
        number = played[round_id]
        finished = status == finished_status
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
    for round_id, table_id, seat, player in _streamed(
        seatings.values_list("round_id", "table_id", "seat", "player_id")
    ):
        if (score := side_scores[seat][round_id].get(table_id)) is not None:
            scores[entrant_of[player]].append(score)
    credits: dict[int, RoundScore] = {}  # by round: what everyone sitting it out is credited with
    for round_id, player in SitOut.objects.filter(round_id__in=list(played)).values_list("round_id", "player_id"):
        number = played[round_id]
        entrant = entrant_of[player]
        if not any(s.round == number for s in scores[entrant]):
            if round_id not in credits:
                sides = [s.points for at in (ns_at, ew_at) for s in at[round_id].values()]
                credits[round_id] = RoundScore(number, sit_out_points(sides), None, sat_out=True)
            scores[entrant].append(credits[round_id])
    return _rows(players, scores, split)


def _streamed(rows: QuerySet) -> Iterator[tuple]:
    """The rows of ``rows``, a ``values_list`` of columns Django does not convert (numbers, text),
    a few at a time as the loop takes them.

    Iterating a queryset reads all its rows into a list first: a national event's 32,000 seats,
    held at once, set off the garbage collector's pass over every object of the process on most
    standings pages; read a few at a time, on about one page in three. The cursor is a plain one
    on every database (``QuerySet.iterator()`` would take a server-side cursor on PostgreSQL,
    which a connection pooler in transaction mode cannot keep).
    """
    compiler = rows.query.get_compiler(rows.db)
    cursor = compiler.execute_sql(CURSOR)
    if cursor is None:  # Django sends no query it knows to be empty (``IN ()``)
        return
    with cursor:
        assert not compiler.get_converters([column for column, *_ in compiler.select]), "a column Django would convert"
        while batch := cursor.fetchmany(GET_ITERATOR_CHUNK_SIZE):
            yield from batch


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


@dataclass(frozen=True)
class Ledger:
    fees_expected: Decimal
    payments: Decimal
    refunds: Decimal
    owed_back: Decimal  # what teams paid beyond their fees, net of refunds: theirs, not the pool's
    prizes_promised: Decimal  # the prizes' amounts as defined, or once worked out, as awarded
    prizes_awarded: Decimal
    paid_out: Decimal
    outstanding_fees: Decimal

    @property
    def collected(self) -> Decimal:
        return self.payments - self.refunds

    @property
    def fees_paid(self) -> Decimal:
        """The fees due and paid: the pool a prize's "% of fees" shares, never a team's excess."""
        return self.collected - self.owed_back

    @property
    def prizes_unpaid(self) -> Decimal:
        return self.prizes_awarded - self.paid_out

    @property
    def house(self) -> Decimal:
        """What stays with the house once every awarded prize is paid (negative: the house pays)."""
        return self.fees_paid - self.prizes_awarded

    @property
    def house_pays(self) -> Decimal:
        """What the house pays out of its own pocket for the prizes awarded (zero when the fees cover them)."""
        return max(ZERO, -self.house)

    @property
    def shortfall(self) -> Decimal:
        """How far the prizes promised exceed the fees paid (zero when the fees cover them)."""
        return max(ZERO, self.prizes_promised - self.fees_paid)


def ledger(tournament: Tournament) -> Ledger:
    money = Payment.objects.filter(team__tournament=tournament).aggregate(
        payments=Sum("amount", filter=Q(kind=Payment.Kind.PAYMENT)),
        refunds=Sum("amount", filter=Q(kind=Payment.Kind.REFUND)),
    )
    payouts = Payout.objects.filter(prize__tournament=tournament).aggregate(
        count=Count("id"), awarded=Sum("amount"), paid=Sum("amount", filter=Q(paid_at__isnull=False))
    )
    teams = teams_with_balance(tournament)
    collected = (money["payments"] or ZERO) - (money["refunds"] or ZERO)
    owed_back = sum((team.owed_back for team in teams), ZERO)
    awarded = payouts["awarded"] or ZERO
    return Ledger(
        outstanding_fees=sum((team.owed for team in teams), ZERO),
        fees_expected=sum((team.due for team in teams if team.status == Team.Status.ACTIVE), ZERO),
        payments=money["payments"] or ZERO,
        refunds=money["refunds"] or ZERO,
        owed_back=owed_back,
        prizes_promised=awarded if payouts["count"] else _prizes_defined(tournament, collected - owed_back),
        prizes_awarded=awarded,
        paid_out=payouts["paid"] or ZERO,
    )


def _prizes_defined(tournament: Tournament, pool: Decimal) -> Decimal:
    fixed, shares = {}, {}
    for pk, amount, share in tournament.prizes.values_list("pk", "amount", "share_percent"):
        if amount is not None:
            fixed[pk] = amount
        else:
            shares[pk] = share
    return sum(prize_amounts(fixed, shares, pool).values(), ZERO)


@dataclass(frozen=True)
class MethodTotal:
    method: str  # the method in words
    payments: Decimal
    refunds: Decimal
    paid_out: Decimal  # prizes handed over this way

    @property
    def net(self) -> Decimal:
        return self.payments - self.refunds - self.paid_out


def payment_entries(tournament: Tournament) -> list[Payment]:
    """Every payment and refund of the event in the order recorded, with its team and recorder."""
    payments = Payment.objects.filter(team__tournament=tournament)
    return list(payments.select_related("team", "recorded_by").prefetch_related("team__players"))


def totals_by_method(tournament: Tournament) -> list[MethodTotal]:
    """Money in and out for each method used (cash first, to count the drawer against): fees in,
    refunds and prizes paid out."""
    sums = (
        Payment.objects.filter(team__tournament=tournament)
        .values("method")
        .annotate(
            payments=Sum("amount", filter=Q(kind=Payment.Kind.PAYMENT)),
            refunds=Sum("amount", filter=Q(kind=Payment.Kind.REFUND)),
        )
    )
    found = {row["method"]: row for row in sums}
    paid = Payout.objects.filter(prize__tournament=tournament, paid_at__isnull=False)
    paid_out = dict(paid.values("method").annotate(total=Sum("amount")).values_list("method", "total"))
    return [
        MethodTotal(
            label,
            found.get(value, {}).get("payments") or ZERO,
            found.get(value, {}).get("refunds") or ZERO,
            paid_out.get(value, ZERO),
        )
        for value, label in Payment.Method.choices
        if value in found or value in paid_out
    ]


def namesakes(team: Team) -> dict[str, list[int]]:
    """For each of ``team``'s players, the other teams of the event with a player of the same
    name (any case, any spacing); only names that repeat."""
    names = {" ".join(p.name.split()).casefold(): p.name for p in team.players.all()}
    found: dict[str, list[int]] = defaultdict(list)
    others = Player.objects.filter(team__tournament_id=team.tournament_id).exclude(team=team)
    for name, number in others.order_by("team__number").values_list("name", "team__number"):
        key = " ".join(name.split()).casefold()
        if key in names and number not in found[names[key]]:
            found[names[key]].append(number)
    return dict(found)


def team_paid(team: Team) -> Decimal:
    """What a team has paid, net of refunds."""
    money = Payment.objects.filter(team=team).aggregate(
        payments=Sum("amount", filter=Q(kind=Payment.Kind.PAYMENT)),
        refunds=Sum("amount", filter=Q(kind=Payment.Kind.REFUND)),
    )
    return (money["payments"] or ZERO) - (money["refunds"] or ZERO)


def fees_due(tournament: Tournament) -> dict[int, Decimal]:
    """Each team's fees so far: the entry fee once, or, for a league paid by the night, the fee for
    each night the team has been seated at a table."""
    teams = tournament.teams.values_list("pk", flat=True)
    if tournament.fee_per != Tournament.FeePer.NIGHT:
        return fees_for(tournament, teams, [])
    seated = Match.objects.filter(tournament=tournament, stage=Match.Stage.LEAGUE, table__isnull=False)
    return fees_for(tournament, teams, seated.values_list("home_id", "away_id"))


def fees_for(tournament: Tournament, teams: Iterable[K], seated: Iterable[tuple[K, K]]) -> dict[K, Decimal]:
    """:func:`fees_due` of ``teams`` (any keys) given the league matches they were ``seated`` at
    (home, away), read from the database or from a file being imported."""
    if tournament.fee_per != Tournament.FeePer.NIGHT:
        return {team: tournament.entry_fee for team in teams}
    nights: dict[K, int] = defaultdict(int)
    for home, away in seated:
        nights[home] += 1
        nights[away] += 1
    return {team: tournament.entry_fee * nights[team] for team in teams}


def teams_with_balance(tournament: Tournament):
    """The tournament's teams with ``due`` (:func:`fees_due`), ``paid``, ``owed`` (due less net
    payments) and ``owed_back`` (net payments beyond what is due, say after the fee was lowered)
    attached."""
    teams = tournament.teams.prefetch_related("players").annotate(
        paid_in=Sum("payments__amount", filter=Q(payments__kind=Payment.Kind.PAYMENT)),
        refunded=Sum("payments__amount", filter=Q(payments__kind=Payment.Kind.REFUND)),
    )
    due = fees_due(tournament)
    out = []
    for team in teams:
        team.paid, team.due = (team.paid_in or ZERO) - (team.refunded or ZERO), due[team.pk]
        owed = team.due - team.paid if team.status == Team.Status.ACTIVE else ZERO
        team.owed = max(ZERO, owed)
        team.owed_back = max(ZERO, team.paid - team.due)
        out.append(team)
    return out


@dataclass(frozen=True)
class BoardRow:
    game: Game
    seats: dict[str, str]
    disputed: int


def board(round_: Round) -> list[BoardRow]:
    """Every table of a round: who sits where, the score, and open disputes."""
    names: dict[int, dict[str, str]] = defaultdict(dict)
    for table, seat, name in round_.seatings.annotate(name=playing_name()).values_list("table_id", "seat", "name"):
        names[table][seat] = name
    games = round_.games.select_related("table", "clock").annotate(
        disputed=Count("hands", filter=Q(hands__disputed=True))
    )
    return [BoardRow(game=g, seats=names[g.table_id], disputed=g.disputed) for g in games.order_by("table__number")]


def sitting_out_names(round_: Round) -> list[str]:
    return list(round_.sit_outs.annotate(name=playing_name()).values_list("name", flat=True))


def standings_csv(rows: list[StandingRow]) -> str:
    """The standings rows (as the tournament's format ranks them) as CSV."""
    rounds = sorted({s.round for row in rows for s in row.standing.rounds if s is not None})
    out = io.StringIO()
    writer = csvsafe.writer(out)
    writer.writerow(["rank", "name", "division", "withdrawn", "total", "rounds won", *[f"round {n}" for n in rounds]])
    for row in rows:
        per_round = {s.round: s.points for s in row.standing.rounds if s is not None}
        writer.writerow(
            [
                row.standing.rank,
                row.name,
                row.division,
                "yes" if row.withdrawn else "",
                row.standing.total,
                row.standing.rounds_won,
            ]
            + [per_round.get(n, "") for n in rounds]
        )
    return out.getvalue()


HAND_CSV_HEADER = [
    "round", "table", "hand", "north", "east", "south", "west",
    "north bid", "east bid", "south bid", "west bid", "north tricks", "east tricks", "south tricks", "west tricks",
    "NS reneges", "EW reneges", "NS table talk", "EW table talk", "misdeal", "NS points", "EW points",
    "NS score", "EW score", "disputed",
]  # fmt: skip


def hands_csv(tournament: Tournament) -> str:
    """Every hand of every table, with the points it scored and the running score."""
    names: dict[tuple[int, int], dict[str, str]] = defaultdict(dict)
    seatings = Seating.objects.filter(round__tournament=tournament).annotate(name=playing_name())
    for round_id, table_id, seat, name in seatings.values_list("round_id", "table_id", "seat", "name"):
        names[round_id, table_id][seat] = name
    hands_by_game: dict[int, list[Hand]] = defaultdict(list)
    for hand in Hand.objects.filter(game__round__tournament=tournament).order_by("game_id", "number"):
        hands_by_game[hand.game_id].append(hand)
    out = io.StringIO()
    writer = csvsafe.writer(out)
    writer.writerow(HAND_CSV_HEADER)
    for game in Game.objects.filter(round__tournament=tournament).select_related("round", "table"):
        game.round.tournament = tournament  # one rule set for every game
        results = game.replay(hands_by_game[game.pk]).results
        seat_names = names[game.round_id, game.table_id]
        for hand, result in zip(hands_by_game[game.pk], results, strict=True):
            writer.writerow(
                [game.round.number, game.table.number, hand.number]
                + [seat_names.get(s, "") for s in Seat]
                + [getattr(hand, f) for f in HAND_FIELDS]
                + (
                    [result.teams[0].points, result.teams[1].points, result.teams[0].score, result.teams[1].score]
                    if result
                    else ["", "", "", ""]
                )
                + ["yes" if hand.disputed else ""]
            )
    return out.getvalue()


@dataclass(frozen=True)
class MovementSeat:
    seat: str
    name: str
    # "from table 2 North", "sat out last round", "joins, playing for Ada"; "" in round 1 (the first seating)
    came_from: str


@dataclass(frozen=True)
class MovementRow:
    table: int
    seats: list[MovementSeat]


def movement_rows(round_: Round) -> list[MovementRow]:
    """Who sits where this round and where each came from (table and seat, or sat out; round 1's
    players come from nowhere: its seating is the first). A substitute playing their first round
    sat nowhere before it: they join, in the seat of the player they play for."""
    before: dict[int, str] = {}
    previous = Round.objects.filter(tournament_id=round_.tournament_id, number=round_.number - 1).first()
    if previous is not None:
        for player, table, seat in previous.seatings.values_list("player_id", "table__number", "seat"):
            before[player] = f"from table {table} {Seat(seat).label}"
        for player in previous.sit_outs.values_list("player_id", flat=True):
            before[player] = "sat out last round"
    tables: dict[int, list[MovementSeat]] = defaultdict(list)
    for table, seat, player, name, entrant, substitute_from in (
        round_.seatings.order_by("table__number")
        .annotate(name=playing_name())
        .values_list("table__number", "seat", "player_id", "name", "player__name", "player__substitute_from")
    ):
        joins = previous is not None and substitute_from == round_.number
        came_from = f"joins, playing for {entrant}" if joins else before.get(player, "")
        tables[table].append(MovementSeat(Seat(seat).label, name, came_from))
    order = {seat.label: i for i, seat in enumerate(Seat)}
    return [MovementRow(t, sorted(seats, key=lambda s: order[s.seat])) for t, seats in sorted(tables.items())]


@dataclass(frozen=True)
class SheetRow:
    hand: Hand
    dealer: str
    result: HandResult | None  # None for a misdeal
    bids: tuple[str, ...] = ()  # North, East, South, West, as the rules name them

    @property
    def points_line(self) -> str:
        """What each side scored and stands at after the hand, "NS +61 → 61 · EW −60 → −60"
        ("" for a misdeal): the line the phone lists a hand by."""
        if self.result is None:
            return ""
        ns, ew = (f"{words.signed(side.points)} → {words.number(side.score)}" for side in self.result.teams)
        return f"NS {ns} · EW {ew}"


def game_sheet(
    game: Game, hands: list[Hand] | None = None, replayed: Replay | None = None, names: dict[Seat, str] | None = None
) -> dict:
    """A table's score sheet: the seats, every hand with its dealer, points and running score.

    ``hands`` are the game's hands in order, ``replayed`` their replay and ``names`` who sits
    where, when the caller has them already (as :func:`tournament.services.enter_hand` returns
    the first two); else they are read here.
    """
    hands = list(game.hands.order_by("number")) if hands is None else hands
    replayed = game.replay(hands) if replayed is None else replayed
    names = game.seat_names() if names is None else names
    sides = {side.value: " & ".join(names[seat] for seat in side.seats) for side in Side}
    rules = game.rules
    rows = [
        SheetRow(hand, dealer.label, result, tuple(bid_name(rules, bid) for bid in hand.entry.bids))
        for hand, dealer, result in zip(hands, replayed.dealers, replayed.results, strict=True)
    ]
    return {
        "seats": {seat.label: names[seat] for seat in Seat},
        "sides": sides,
        "winners": sides.get(game.winner, ""),
        "rows": rows,
        "replay": replayed,
        "rules": rules,
    }
