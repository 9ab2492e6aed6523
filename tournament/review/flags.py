"""A round's flags read from the database: a fixed number of queries however many tables, then
:func:`tournament.review.detect.detect` on plain values, each flag beside its check (if any).

What is read, and the readings it rests on:

- the stored totals against a replay of each game's hands under its own rules;
- the phone's times of entry (``Hand.keyed_at``; desk entries have none);
- the revisions made after the round's ``closed_at`` (none while it runs), with the values each changed;
- what each table's phone reported when the round closed (:class:`~tournament.review.models.PhoneAtClose`);
- the hands of a paper sheet keyed twice whose keyings differ (tournament.keying);
- the club's finished games of rounds closed before this one (of every event of the club; all of
  them while this round runs), whose margins give the 99th percentile. Rounds closed later do not
  count, so a round's margin flag does not come or go as the club plays on.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from scoring import InvalidHand
from tournament.keying.forms import differences
from tournament.keying.services import mismatches
from tournament.models import Game, Hand, HandRevision, Round, Tournament
from tournament.play.board import hands_by_game
from tournament.review.detect import CloseReport, Flag, GameFacts, HandFacts, KeyedApart, LateChange, detect
from tournament.review.models import FlagCheck, PhoneAtClose
from tournament.standings.snapshot import snapshot


@dataclass(frozen=True)
class ShownFlag:
    flag: Flag
    check: FlagCheck | None


@dataclass(frozen=True)
class RoundFlags:
    round: Round
    shown: tuple[ShownFlag, ...]

    @property
    def unchecked(self) -> int:
        return sum(1 for shown in self.shown if shown.check is None)

    @property
    def all_checked(self) -> bool:
        return self.unchecked == 0


def round_flags(round_: Round) -> RoundFlags:
    """Every flag of ``round_`` (none before it starts), each with its check, in table order."""
    if round_.is_planned:
        return RoundFlags(round_, ())
    games = list(round_.games.select_related("table", "match", "round__tournament").order_by("table__number"))
    for game in games:
        if game.match is not None:
            game.match.tournament = round_.tournament  # its rules read the tournament's without a query
    hands = hands_by_game(Hand.objects.filter(game__round=round_).order_by("game", "number", "deal"))
    facts = [_game_facts(game, hands.get(game.pk, [])) for game in games]
    by_id = {game.pk: game for game in games}
    flags = detect(
        games=facts, late_changes=_late_changes(round_, by_id), reports=_reports(round_),
        club_margins=_club_margins(round_),
        keyed_apart=[KeyedApart(m.game_id, m.table, m.hand, m.words, m.keyings) for m in mismatches(round_)],
    )  # fmt: skip
    checks = {check.key: check for check in round_.flag_checks.select_related("checked_by")}
    return RoundFlags(round_, tuple(ShownFlag(flag, checks.get(flag.key)) for flag in flags))


def unchecked_by_round(tournament: Tournament) -> dict[int, int]:
    """How many flags of each round of ``tournament`` wait to be checked, by round number (rounds
    with none left out). Finding them replays every started round's games, so the answer is kept
    in the event's snapshot under its ``changed_at`` stamp: every write stamps the event anew
    (:mod:`tournament.locking`), so a count is never older than the event."""

    def count() -> dict[int, int]:
        counts = {}
        for round_ in tournament.rounds.exclude(status=Round.Status.PLANNED).order_by("number"):
            round_.tournament = tournament
            if unchecked := round_flags(round_).unchecked:
                counts[round_.number] = unchecked
        return counts

    name = f"unchecked flags {tournament.changed_at.isoformat()}"
    return snapshot(tournament.pk, name, tournament.changed_at, count).value


def flag_keys(round_: Round) -> set[str]:
    """The keys of the flags ``round_`` has now (what a "checked" may name)."""
    return {shown.flag.key for shown in round_flags(round_).shown}


def _game_facts(game: Game, hands: list[Hand]) -> GameFacts:
    try:
        replayed = game.replay(hands)
    except InvalidHand as error:
        replayed, problem = None, error.message
    else:
        problem = ""
    results = replayed.results if replayed else (None,) * len(hands)
    return GameFacts(
        id=game.pk,
        table=game.table.number,
        finished=game.is_finished,
        stored_scores=(game.ns_score, game.ew_score),
        stored_bags=(game.ns_bags, game.ew_bags),
        replayed_scores=replayed.game.scores if replayed else None,
        replayed_bags=replayed.game.bags if replayed else None,
        replay_error=problem,
        hands=tuple(
            HandFacts(
                id=hand.pk,
                number=hand.number,
                deal=hand.deal,
                version=hand.version,
                misdeal=bool(hand.misdeal),
                keyed_at=hand.keyed_at,
                points=(result.teams[0].points, result.teams[1].points) if result else None,
            )
            for hand, result in zip(hands, results, strict=True)
        ),
    )


def _late_changes(round_: Round, games: dict[int, Game]) -> list[LateChange]:
    """The revisions made after the close, each with the values it changed in the words the paper
    sheet's keying grid uses (``games`` by id, for their rules)."""
    if round_.closed_at is None:
        return []
    revisions = HandRevision.objects.filter(hand__game__round=round_, changed_at__gt=round_.closed_at)
    rows = revisions.values_list("pk", "hand__game_id", "hand__game__table__number", "hand__number", "hand__deal",
                                 "source", "changed_at", "before", "after")  # fmt: skip
    return [
        LateChange(
            revision=pk,
            game=game,
            table=table,
            hand=number,
            deal=deal,
            by_table=source == HandRevision.Source.TABLE,
            at=timezone.localtime(at),
            what=_changed_words(games[game], before, after),
        )
        for pk, game, table, number, deal, source, at, before, after in rows
    ]


def _changed_words(game: Game, before: dict | None, after: dict) -> str:
    """What a revision changed, "North's tricks 4 → 5; East's bid 3 → Nil" ("" for a first entry)."""
    if not before:
        return ""
    return "; ".join(
        f"{column.label} {old or '–'} → {new or '–'}" for column, old, new in differences(game.rules, before, after)
    )


def _reports(round_: Round) -> list[CloseReport]:
    rows = PhoneAtClose.objects.filter(round=round_).values_list("table_id", "table__number", "waiting")
    return [CloseReport(table_id=table_id, table=number, waiting=waiting) for table_id, number, waiting in rows]


def _club_margins(round_: Round) -> list[int]:
    games = Game.objects.filter(
        round__tournament__club_id=round_.tournament.club_id, round__status=Round.Status.CLOSED,
        status=Game.Status.FINISHED,
    ).exclude(round=round_)  # fmt: skip
    if round_.closed_at is not None:
        games = games.filter(round__closed_at__lt=round_.closed_at)
    return [abs(ns - ew) for ns, ew in games.values_list("ns_score", "ew_score")]
