"""Rule sets in words, generated from their fields so the text can never disagree with scoring.

:func:`summary` is one line; :func:`handout` is the full rule sheet: sections of plain
sentences, a scoring table, and worked examples whose numbers :func:`scoring.score_hand`
computes from the same rule set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.hand import NIL, PlayerHand, SideHand, score_hand
from scoring.rules import MISDEAL_REASONS, RuleSet


def summary(rules: RuleSet) -> str:
    """One line: how a game ends, what nil is worth, what bags cost."""
    parts = []
    if rules.target_score is not None:
        parts.append(f"Game to {rules.target_score}")
    if rules.hands_per_round is not None:
        parts.append(f"{rules.hands_per_round} hands a round")
    if rules.time_limit_minutes:
        parts.append(f"{rules.time_limit_minutes}-minute limit")
    parts.append("set: scores 0" if rules.set_penalty == "zero" else "set: minus 10 a trick bid")
    parts.append(f"nil {rules.nil_points}" if rules.nil_points is not None else "no nil")
    if rules.blind_nil_points is not None:
        behind = f" (when {rules.blind_nil_min_deficit} behind)" if rules.blind_nil_min_deficit else ""
        parts.append(f"blind nil {rules.blind_nil_points}{behind}")
    if rules.big_bid is not None:
        parts.append(f"{rules.big_bid} or more bid: {rules.big_bid_points}")
    parts.append(f"{rules.bag_limit} bags cost {rules.bag_penalty}" if rules.bag_limit else "no bag penalty")
    if rules.min_team_bid:
        parts.append(f"side bids at least {rules.min_team_bid}")
    if rules.deck == "jokers":
        parts.append("jokers deck")
    return " · ".join(parts)


@dataclass(frozen=True)
class Example:
    """A hand described in words and what it scores, computed by the engine."""

    situation: str
    points: int
    explanation: tuple[str, ...]


@dataclass(frozen=True)
class Section:
    title: str
    paragraphs: tuple[str, ...] = ()
    table: tuple[tuple[str, str], ...] = ()
    examples: tuple[Example, ...] = field(default=())


def handout(rules: RuleSet, *, movement: str = "") -> list[Section]:
    """The rule sheet for ``rules``; ``movement`` adds how players move between tables."""
    sections = [
        Section("The cards", _cards(rules)),
        Section("Bidding", _bidding(rules)),
        Section("Play", _play(rules)),
        Section("Scoring", _scoring_words(rules), _scoring_table(rules), _examples(rules)),
        Section("Penalties", _penalties(rules)),
        Section("Misdeals", _misdeals(rules)),
        Section("End of the game", _ending(rules)),
    ]
    if movement:
        sections.append(Section("Moving between tables", (movement,)))
    return sections


def _cards(rules: RuleSet) -> tuple[str, ...]:
    if rules.deck == "jokers":
        return (
            "Both jokers are added and the two of hearts and two of diamonds are taken out, so there "
            "are still 52 cards, 13 to each player.",
            "Spades are always trump, ranking from the top: big joker, little joker, two of spades, "
            "then ace, king, queen and down to three of spades. The jokers count as spades.",
            "The other suits rank ace (high), king, queen, jack, ten and down to two.",
        )
    return (
        "A standard pack of 52 cards, 13 dealt to each player one at a time. Partners sit opposite.",
        "In every suit the ace is high, then king, queen, jack, ten and down to two. Spades are "
        "always trump: any spade beats any card of another suit.",
    )


def _bidding(rules: RuleSet) -> tuple[str, ...]:
    lines = ["Each player bids the tricks they expect to take; partners' bids add up to their side's contract."]
    if rules.has_nil:
        low = max(rules.min_player_bid, 1)
        lines.append(f"A bid is a number from {low} to 13, or nil: a promise to take no trick at all.")
    else:
        lines.append(f"A bid is a number from {rules.min_player_bid} to 13. There is no nil: a bid of 0 is just 0.")
    if rules.min_team_bid:
        lines.append(
            f"Each side must bid at least {rules.min_team_bid} tricks together; when one partner bids nil "
            f"the other must bid at least {rules.min_team_bid} alone. A side whose partners both bid nil is exempt."
        )
    if rules.has_nil and rules.nil_exchange:
        lines.append(f"After a nil, the nil bidder and partner exchange {rules.nil_exchange} cards face down.")
    if rules.has_blind_nil:
        when = (
            f" It may be bid only by a side at least {rules.blind_nil_min_deficit} points behind."
            if rules.blind_nil_min_deficit
            else ""
        )
        swap = (
            f" The blind nil bidder and partner then exchange {rules.blind_nil_exchange} cards."
            if rules.blind_nil_exchange
            else ""
        )
        lines.append(f"A blind nil is a nil bid before looking at the cards.{when}{swap}")
    return tuple(lines)


def _play(rules: RuleSet) -> tuple[str, ...]:
    if rules.first_lead == "lowest_club":
        first = "To the first trick everyone plays their lowest club; the highest club wins it and leads next."
    else:
        first = "The player to the dealer's left leads first, any suit but spades."
    return (
        first,
        "Follow suit if you can; if you cannot, play any card, a spade (trumping) or another suit.",
        "A trick goes to the highest spade in it, or else to the highest card of the suit led; its winner leads next.",
        "Spades may not be led until a spade has been played on another suit, unless the leader holds only spades.",
    )


def _scoring_words(rules: RuleSet) -> tuple[str, ...]:
    words = []
    set_text = (
        "loses 10 points for each trick bid" if rules.set_penalty == "minus_bid" else "scores nothing for the hand"
    )
    words.append(
        f"A side that takes at least its contract scores 10 points a trick bid and "
        f"{_points(rules.overtrick_points)} for each extra trick. A side that falls short is set and {set_text}."
    )
    if rules.big_bid is not None:
        loss = rules.big_bid_penalty if rules.big_bid_penalty is not None else "the usual set penalty"
        words.append(
            f"A side bidding {rules.big_bid} or more scores {rules.big_bid_points} for making it instead of "
            f"10 a trick (extra tricks still count); set, it loses {loss}."
        )
    if rules.has_nil:
        words.append(_nil_words(rules))
    if rules.bag_limit is not None:
        carry = (
            "the count keeps the rest, so it can happen more than once"
            if rules.bag_overflow == "carry"
            else "the count goes back to zero and the rest is dropped"
        )
        words.append(
            f"Extra tricks are bags. Each time a side's bags reach {rules.bag_limit} it loses "
            f"{rules.bag_penalty} points; {carry}."
        )
    else:
        words.append("Extra tricks (bags) are counted but cost nothing.")
    return tuple(words)


def _nil_words(rules: RuleSet) -> str:
    blind = f" A blind nil wins or loses {rules.blind_nil_points}." if rules.has_blind_nil else ""
    text = (
        f"A nil that takes no trick wins {rules.nil_points} for the side; one that takes a trick loses "
        f"{rules.nil_points}. The partner's own bid is scored as usual.{blind}"
    )
    failed = {
        "bags": " Tricks a failed nil bidder takes do not help the partner but count as extra tricks (bags).",
        "count_for_partner": " Tricks a failed nil bidder takes count toward the partner's bid.",
        "ignored": " Tricks a failed nil bidder takes count for nothing.",
    }[rules.failed_nil_tricks]
    both = {
        "separate": " When both partners bid nil, each nil is scored on its own.",
        "all_or_nothing": " When both partners bid nil, the side scores both values only if both make it, "
        "nothing otherwise.",
        "team_contract": " When both partners bid nil, the side wins both values if both make it and loses "
        "both otherwise.",
    }[rules.both_nil]
    return text + failed + both


def _scoring_table(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    rows = [
        ("Contract made", "+10 a trick bid"),
        ("Each extra trick", _signed(rules.overtrick_points)),
        ("Contract set", "−10 a trick bid" if rules.set_penalty == "minus_bid" else "0"),
    ]
    if rules.big_bid is not None:
        loss = f"−{rules.big_bid_penalty}" if rules.big_bid_penalty is not None else rows[2][1]
        rows.append((f"{rules.big_bid} or more bid: made / set", f"+{rules.big_bid_points} / {loss}"))
    if rules.has_nil:
        rows.append(("Nil made / failed", f"+{rules.nil_points} / −{rules.nil_points}"))
    if rules.has_blind_nil:
        rows.append(("Blind nil made / failed", f"+{rules.blind_nil_points} / −{rules.blind_nil_points}"))
    if rules.bag_limit is not None:
        rows.append((f"Every {rules.bag_limit} bags", f"−{rules.bag_penalty}"))
    if rules.reneg_tricks:
        to = f"; opponents +{rules.reneg_points_to_opponents}" if rules.reneg_points_to_opponents else ""
        rows.append(("Reneg", f"−{rules.reneg_tricks} tricks{to}"))
    if rules.table_talk_tricks:
        rows.append(("Table talk", f"−{rules.table_talk_tricks} trick an incident"))
    return tuple(rows)


def _penalties(rules: RuleSet) -> tuple[str, ...]:
    lines = []
    if rules.reneg_tricks:
        award = (
            f" and the other side gets {rules.reneg_points_to_opponents} points"
            if rules.reneg_points_to_opponents
            else ""
        )
        lines.append(
            f"Reneg: not following suit when able. Each reneg takes {rules.reneg_tricks} tricks off the "
            f"offending side (they score for nobody){award}. The side must still make its bid with what is left."
        )
    if rules.table_talk_tricks:
        lines.append(
            f"Table talk: partners may talk only to agree their bid. Each incident the dealer calls takes "
            f"{_count(rules.table_talk_tricks, 'trick')} off the guilty side."
        )
    else:
        lines.append("No talk about the hands across the table.")
    if rules.has_nil:
        lines.append("Penalty tricks come off the partner of a nil bidder first and never go below zero.")
    return tuple(lines)


def _misdeals(rules: RuleSet) -> tuple[str, ...]:
    reasons = "; ".join(MISDEAL_REASONS[r] for r in rules.misdeal_reasons)
    return (
        f"A misdeal may be called before bidding starts when {reasons}.",
        "A misdeal scores nothing: the same dealer shuffles and deals again.",
    )


def _ending(rules: RuleSet) -> tuple[str, ...]:
    lines = []
    if rules.target_score is not None:
        lines.append(
            f"The first side to reach {rules.target_score} wins. If both reach it on the same hand the higher "
            "score wins; equal scores play one more hand."
        )
    if rules.lose_score is not None:
        lines.append(f"A side at or below {rules.lose_score} loses at once.")
    if rules.hands_per_round is not None:
        lines.append(
            f"A round is {rules.hands_per_round} hands; the side with more points wins it. A tie plays one more hand."
        )
    if rules.time_limit_minutes:
        lines.append(
            f"A match has a {rules.time_limit_minutes}-minute limit: a game under way when time runs out "
            "is played to its end."
        )
    return tuple(lines)


def _examples(rules: RuleSet) -> tuple[Example, ...]:
    examples = [_example(rules, "Your side bids 5 and takes 7", [(3, 4), (2, 3)], [(3, 3), (3, 3)])]
    examples.append(_example(rules, "Your side bids 6 and takes 4", [(3, 2), (3, 2)], [(3, 5), (3, 4)]))
    if rules.has_nil:
        examples.append(_example(rules, "North bids nil and takes none; South bids 4 and takes 4",
                                 [(NIL, 0), (4, 4)], [(4, 5), (4, 4)]))  # fmt: skip
        examples.append(_example(rules, "North bids nil but takes 1; South bids 4 and takes 4",
                                 [(NIL, 1), (4, 4)], [(4, 4), (4, 4)]))  # fmt: skip
    if rules.bag_limit is not None:
        before = rules.bag_limit - 1
        examples.append(_example(rules, f"Your side has {before} bags, bids 4 and takes 6",
                                 [(2, 3), (2, 3)], [(4, 5), (3, 2)], bags=before))  # fmt: skip
    if rules.big_bid is not None:
        low = rules.big_bid - rules.big_bid // 2
        examples.append(_example(rules, f"Your side bids {rules.big_bid} and takes {rules.big_bid}",
                                 [(low, low), (rules.big_bid - low, rules.big_bid - low)],
                                 [(1, 13 - rules.big_bid), (max(1, rules.min_team_bid - 1), 0)]))  # fmt: skip
    if rules.reneg_tricks:
        examples.append(_example(rules, "Your side bids 5, takes 7, and reneges once",
                                 [(3, 4), (2, 3)], [(3, 3), (3, 3)], reneges=1))  # fmt: skip
    return tuple(example for example in examples if example is not None)


def _example(
    rules: RuleSet, situation: str, ours: list, theirs: list, *, bags: int = 0, reneges: int = 0
) -> Example | None:
    """Score the example with the engine; None if these rules do not allow it (a bid too low)."""
    us = SideHand(players=(PlayerHand(*ours[0]), PlayerHand(*ours[1])), bags=bags, reneges=reneges)
    them_bids = [max(b, rules.min_player_bid, 1 if rules.has_nil else 0) for b, _ in theirs]
    if sum(them_bids) < rules.min_team_bid:
        them_bids[0] += rules.min_team_bid - sum(them_bids)
    them = SideHand(players=tuple(PlayerHand(b, t) for b, (_, t) in zip(them_bids, theirs, strict=True)))
    try:
        result = score_hand(rules, [us, them])
    except ValueError:
        return None
    side = result.teams[0]
    return Example(situation=situation, points=side.points, explanation=side.lines)


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def _signed(n: int) -> str:
    return f"+{n}" if n else "0"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
