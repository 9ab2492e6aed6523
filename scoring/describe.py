"""Rule sets in words, generated from their fields so the text can never disagree with scoring.

:func:`summary` is one line; :func:`handout` is the full rule sheet: sections of plain
sentences, a scoring table, and worked examples whose numbers :func:`scoring.score_hand`
computes from the same rule set.

A sentence that states our reading of something the rule text leaves unsaid starts with
"Our reading:" (:data:`OUR_READING`), so players can tell the text's rules from the house's.
Which topics are readings comes from the preset (:func:`scoring.presets.readings_of`); a few
readings hold under every text (a side bids at most 13, a misdeal's redeal) and are always marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.hand import BLIND_NIL, NIL, PlayerHand, SideHand, score_hand
from scoring.rules import MISDEAL_REASONS, RuleSet
from scoring.words import listed, signed

OUR_READING = "Our reading: "


def bid_name(rules: RuleSet, bid: object) -> str:
    """A bid as players say it: "7", "Nil", or the blind nil by the rules' name ("Double nil")."""
    if bid is None or bid == "":
        return ""
    if bid == BLIND_NIL:
        return rules.blind_nil_name.capitalize()
    return "Nil" if bid == NIL else str(bid)


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
        parts.append(f"{rules.blind_nil_name} {rules.blind_nil_points}{behind}")
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


def handout(rules: RuleSet, *, readings: frozenset[str] = frozenset(), extra: Sequence[Section] = ()) -> list[Section]:
    """The rule sheet for ``rules``, with the ``extra`` sections its tournament's format writes (how
    players move between tables, how matches go) after the end of the game.

    ``readings`` names the topics (:data:`scoring.presets.READING_FIELDS`) where the rule set
    holds our reading of the text: those sentences start "Our reading:".
    """
    say = _Sayer(readings)
    sections = [
        Section("The cards", _cards(rules, say)),
        Section("Bidding", _bidding(rules, say)),
        Section("Play", _play(rules, say)),
        Section("Scoring", _scoring_words(rules, say), _scoring_table(rules)),
        Section("Worked examples", examples=_examples(rules)),
    ]
    penalties = _penalties(rules, say)
    if penalties:
        sections.append(Section(_penalties_title(rules), penalties))
    sections += [
        Section("Misdeals", _misdeals(rules, say)),
        Section("End of the game", _ending(rules, say)),
    ]
    sections += extra
    if rules.two_player_variant:
        sections.append(Section("Spades for two", _two_players(rules)))
    return sections


@dataclass(frozen=True)
class _Sayer:
    """Writes a sentence, marked "Our reading:" when its topic is one of ``readings``."""

    readings: frozenset[str]

    def __call__(self, topic: str, sentence: str) -> str:
        return _reading(sentence) if topic in self.readings else sentence


def _reading(sentence: str) -> str:
    return OUR_READING + sentence[0].lower() + sentence[1:]


def marked(topic: str, sentence: str, readings: frozenset[str]) -> str:
    """``sentence`` as the handout prints it: marked "Our reading:" when ``topic`` is one of
    ``readings`` (for the sections a tournament's format writes)."""
    return _Sayer(readings)(topic, sentence)


def _cards(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    if rules.deck == "jokers":
        lines = [
            "Both jokers are added and the two of hearts and two of diamonds are taken out, so there "
            "are still 52 cards, 13 dealt to each player one at a time. Partners sit opposite.",
            "Spades are always trump, ranking from the top: big joker, little joker, two of spades, "
            "then ace, king, queen and down to three of spades. The jokers count as spades.",
            say(
                "joker_ranks",
                "The text's note that the ace of spades is the lowest trump means the lowest of these four; "
                "it still beats the king of spades.",
            ),
            "The other suits rank ace (high), king, queen, jack, ten and down to two.",
        ]
    else:
        lines = [
            "A standard pack of 52 cards, 13 dealt to each player one at a time. Partners sit opposite.",
            "In every suit the ace is high, then king, queen, jack, ten and down to two. Spades are "
            "always trump: any spade beats any card of another suit.",
        ]
    lines.append(say("first_dealer", first_dealer_rule(rules)))
    return tuple(lines)


def first_dealer_rule(rules: RuleSet) -> str:
    """How the first dealer is chosen, in one sentence (the handout's and the phone's)."""
    if rules.first_dealer == "high_card":
        return "The first dealer is the player who draws the high card; the deal then passes clockwise."
    return "The first dealer is chosen at random; the deal then passes clockwise."


def _bidding(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    order = {
        "left_of_dealer": "Bidding starts with the player to the dealer's left and goes clockwise; each player "
        "bids once.",
        "dealer": "The dealer bids first, then each player in turn; each player bids once.",
        "non_dealing_side": "The side that did not deal bids first, then the dealer's side.",
    }[rules.bidding_starts]
    lines = [
        say("bidding_starts", order),
        "Each player bids the tricks they expect to take; partners' bids add up to their side's contract.",
    ]
    if rules.has_nil:
        low = max(rules.min_player_bid, 1)
        lines.append(
            say("player_bids", f"A bid is a number from {low} to 13, or nil: a promise to take no trick at all.")
        )
    else:
        lines.append(f"A bid is a number from {rules.min_player_bid} to 13. There is no nil: a bid of 0 is just 0.")
    lines.append(_reading("a side's two bids together are at most 13."))
    if rules.min_team_bid:
        lines.append(
            f"Each side must bid at least {rules.min_team_bid} tricks together; when one partner bids nil "
            f"the other must bid at least {rules.min_team_bid} alone. A side whose partners both bid nil is exempt."
        )
    talk = {
        "silent": "",
        "bid_only": "Partners may talk about the game only to decide their bid.",
        "no_card_details": "Partners may discuss how many tricks they can take, but must not say anything about "
        "their cards: no specific cards, suits, ranks or missing suits.",
    }[rules.bid_talk]
    if talk:
        lines.append(talk)
    if rules.has_nil and rules.nil_exchange:
        lines.append(_exchange(rules, rules.nil_exchange, "nil"))
    if rules.has_blind_nil:
        lines.append(_blind_nil(rules))
    if rules.has_nil and (rules.nil_exchange or (rules.has_blind_nil and rules.blind_nil_exchange)):
        kinds = f"nil (or {rules.blind_nil_name})" if rules.has_blind_nil else "nil"
        lines.append(say("both_nil_exchange", f"When both partners bid {kinds} there is no exchange."))
    return tuple(lines)


def _exchange(rules: RuleSet, cards: int, bid: str) -> str:
    if rules.card_exchange == "optional_via_dealer":
        return (
            f"After a {bid}, the side may pass {cards} cards each to the dealer, who passes them on to the partner "
            f"(the {bid} bidder usually gives their highest, the partner their lowest)."
        )
    may = "may then exchange" if rules.card_exchange == "optional" else "then exchange"
    wait = " (a partner who has not bid yet bids first)" if rules.card_exchange == "required" else ""
    return f"After a {bid}, the bidder and partner {may} {cards} cards face down{wait}."


def _blind_nil(rules: RuleSet) -> str:
    name = rules.blind_nil_name
    who = "before either partner looks at their cards" if rules.blind_nil_by_side else "before looking at the cards"
    text = f"A {name} is a nil bid {who}."
    if rules.blind_nil_min_deficit:
        text += f" It may be bid only by a side at least {rules.blind_nil_min_deficit} points behind."
    else:
        text += " It may be bid whatever the score."
    if rules.blind_nil_exchange:
        text += " " + _exchange(rules, rules.blind_nil_exchange, name)
    return text


def _play(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    if rules.first_lead == "lowest_club":
        first = "To the first trick everyone plays their lowest club; the highest club wins it and leads next."
    else:
        first = "The player to the dealer's left leads first, any suit but spades."
    return (
        first,
        "Follow suit if you can; if you cannot, play any card, a spade (trumping) or another suit.",
        "A trick goes to the highest spade in it, or else to the highest card of the suit led; its winner leads next.",
        say(
            "spades_broken",
            "Spades may not be led until a spade has been played on another suit, unless the leader holds only spades.",
        ),
    )


def _scoring_words(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    set_text = (
        "loses 10 points for each trick bid" if rules.set_penalty == "minus_bid" else "scores nothing for the hand"
    )
    words = [
        f"A side that takes at least its contract scores 10 points a trick bid and "
        f"{_points(rules.overtrick_points)} for each extra trick. A side that falls short is set and {set_text}."
    ]
    if rules.big_bid is not None:
        words.append(
            f"A side bidding {rules.big_bid} or more scores {rules.big_bid_points} for making it instead of 10 a trick."
        )
        words.append(
            say(
                "big_bid_overtricks",
                f"Extra tricks over such a bid still score {_points(rules.overtrick_points)} each.",
            )
        )
        loss = f"loses {rules.big_bid_penalty}" if rules.big_bid_penalty is not None else set_text
        words.append(say("big_bid_penalty", f"Set on such a bid, a side {loss}."))
    if rules.has_nil:
        words.extend(_nil_words(rules, say))
    if rules.bag_limit is not None:
        if rules.bag_overflow == "carry":
            words.append(
                f"Extra tricks are bags. Each time a side's bags reach {rules.bag_limit} it loses "
                f"{rules.bag_penalty} points; the count keeps the rest, so it can happen more than once."
            )
        else:
            words.append(
                f"Extra tricks are bags. Each time a side's bags reach {rules.bag_limit} it loses {rules.bag_penalty} "
                "points and the count goes back to zero."
            )
            words.append(say("bag_overflow", f"Bags past the {_ordinal(rules.bag_limit)} in that hand are dropped."))
    else:
        words.append(say("no_bag_penalty", "Extra tricks (bags) are counted but cost nothing."))
    return tuple(words)


def _nil_words(rules: RuleSet, say: _Sayer) -> list[str]:
    blind = f" A {rules.blind_nil_name} wins or loses {rules.blind_nil_points}." if rules.has_blind_nil else ""
    words = [
        f"A nil that takes no trick wins {rules.nil_points} for the side; one that takes a trick loses "
        f"{rules.nil_points}. The partner's own bid is scored as usual.{blind}"
    ]
    failed = {
        "bags": "Tricks a failed nil bidder takes do not help the partner but count as extra tricks (bags).",
        "count_for_partner": "Tricks a failed nil bidder takes count toward the partner's bid.",
        "ignored": "Tricks a failed nil bidder takes count for nothing.",
    }[rules.failed_nil_tricks]
    words.append(say("failed_nil_tricks", failed))
    kinds = f"nil (or {rules.blind_nil_name})" if rules.has_blind_nil else "nil"
    if rules.both_nil == "separate":
        both = f"When both partners bid {kinds}, each nil is scored on its own."
    else:
        value = "both values" if rules.both_nil_points is None else str(rules.both_nil_points)
        otherwise = "nothing otherwise" if rules.both_nil == "all_or_nothing" else f"it loses {value} otherwise"
        both = f"When both partners bid {kinds}, the side scores {value} if both make it, {otherwise}."
    words.append(say("two_nils", both))
    return words


def _scoring_table(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    rows = [
        ("Contract made", "+10 a trick bid"),
        ("Each extra trick", signed(rules.overtrick_points)),
        ("Contract set", "−10 a trick bid" if rules.set_penalty == "minus_bid" else "0"),
    ]
    if rules.big_bid is not None:
        loss = f"−{rules.big_bid_penalty}" if rules.big_bid_penalty is not None else rows[2][1]
        rows.append((f"{rules.big_bid} or more bid: made / set", f"+{rules.big_bid_points} / {loss}"))
    if rules.has_nil:
        rows.append(("Nil made / failed", f"+{rules.nil_points} / −{rules.nil_points}"))
    if rules.has_blind_nil:
        rows.append(
            (
                f"{rules.blind_nil_name.capitalize()} made / failed",
                f"+{rules.blind_nil_points} / −{rules.blind_nil_points}",
            )
        )
    if rules.has_nil and rules.both_nil_points is not None:
        rows.append(("Both partners nil, both made", f"+{rules.both_nil_points}"))
    if rules.bag_limit is not None:
        rows.append((f"Every {rules.bag_limit} bags", f"−{rules.bag_penalty}"))
    if rules.reneg_tricks:
        if rules.reneg_tricks_to == "opponents":
            value = f"{rules.reneg_tricks} tricks to the opponents"
            if rules.reneg_trick_points is not None:
                value += f", +{rules.reneg_trick_points} each"
        else:
            value = f"−{rules.reneg_tricks} tricks"
        if rules.reneg_points_to_opponents:
            value += f"; opponents +{rules.reneg_points_to_opponents}"
        rows.append(("Reneg", value))
    if rules.table_talk_tricks:
        rows.append(("Table talk", f"−{rules.table_talk_tricks} trick an incident"))
    return tuple(rows)


def _penalties_title(rules: RuleSet) -> str:
    """The penalties the rules have, by name: "Reneg", "Reneg and table talk"."""
    title = " and ".join(rules.penalties)
    return title[0].upper() + title[1:]


def _penalties(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    lines = []
    if rules.reneg_tricks:
        lines.append(say("reneg", _reneg_words(rules)))
        if rules.reneg_tricks_to == "opponents" and rules.reneg_trick_points is not None:
            lines.append(
                say("reneg_trick_points", "Tricks received count toward the receivers' bid and are never bags.")
            )
    if rules.table_talk_tricks:
        lines.append(
            f"Table talk: if an opponent or the dealer believes partners are talking about the game, the dealer "
            f"makes the call; each incident takes {_count(rules.table_talk_tricks, 'trick')} off the guilty side, "
            "scoring for nobody."
        )
    if lines and rules.has_nil:
        lines.append(
            _reading(
                "penalty tricks come off the nil bidder's partner first, never below zero; a nil is made or failed "
                "on the tricks its bidder took."
            )
        )
    return tuple(lines)


def _reneg_words(rules: RuleSet) -> str:
    tricks = _count(rules.reneg_tricks, "trick")
    text = f"A reneg (not following suit when able), once found, costs the offending side {tricks}"
    if rules.reneg_tricks_to == "nobody":
        text += ", which score for nobody."
    elif rules.reneg_trick_points is None:
        text += ", which go to the other side and count as its own tricks."
    else:
        text += f", which go to the other side, each worth {rules.reneg_trick_points} points to it."
    if rules.reneg_points_to_opponents:
        text += f" The other side also gets {rules.reneg_points_to_opponents} points."
    return text + " The offending side must still make its original bid with the tricks it has left."


def _misdeals(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    any_time = {"wrong_card_count"} if rules.misdeal_card_count_any_time else set()
    reasons = [r for r in rules.misdeal_reasons if r not in any_time and r != "table_talk_in_bidding"]
    lines = []
    if reasons:
        text = listed([MISDEAL_REASONS[r] for r in reasons], "or")
        lines.append(say("misdeals", f"A misdeal may be called before bidding starts when {text}."))
    if rules.misdeal_card_count_any_time and "wrong_card_count" in rules.misdeal_reasons:
        lines.append(
            "If a player is found to hold the wrong number of cards at any point of the hand, the dealer "
            "declares a misdeal."
        )
    if "table_talk_in_bidding" in rules.misdeal_reasons:
        lines.append(
            say(
                "misdeal_timing",
                "The text says misdeals are called before bidding starts, yet lists talk about a hand during the "
                "bidding as one: the other side calls that one during the bidding, before the first card is led.",
            )
        )
    lines.append(say("misdeals", "A misdeal scores nothing; the cards are shuffled and dealt again."))
    lines.append(_reading("the same dealer deals again after a misdeal."))
    return tuple(lines)


def _ending(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    lines = []
    if rules.target_score is not None:
        lines.append(
            f"The first side to reach {rules.target_score} wins. If both reach it on the same hand the higher "
            "score wins."
        )
        lines.append(say("tie", "Equal scores at that point play one more hand."))
    if rules.lose_score is not None:
        lines.append(f"A side at or below {rules.lose_score} loses at once.")
    if rules.hands_per_round is not None:
        lines.append(f"A round is {rules.hands_per_round} hands; the side with more points wins it.")
        lines.append(say("tie", "A tie plays one more hand."))
    if rules.target_score is None and rules.hands_per_round is None:
        lines.append("There is no target score: hands are scored one at a time until the director calls time.")
    if rules.time_limit_minutes:
        lines.append(f"A match has a {rules.time_limit_minutes}-minute limit.")
        # 004 says only that the game under way "will be finished"; how it ends is the settled reading.
        lines.append(
            _reading(
                "When time is called, the hand being played is finished; then the game ends and the higher score "
                "wins it, and on equal scores the next hand decides. In a match of several games, games "
                "not yet started are not played."
            )
        )
    elif "time_limit" in say.readings:
        lines.append(_reading("there is no time limit: the game is played to its end."))
    return tuple(lines)


def _two_players(rules: RuleSet) -> tuple[str, ...]:
    return (
        "Two players, no partners, and no deal: the shuffled pack lies face down as a stock. Taking turns "
        "(who starts alternates from hand to hand), a player takes the top card and either keeps it, then looks "
        "at the next one and discards it face down, or discards it unseen and keeps the next one. When the stock "
        "is gone each holds 13 cards; the discards are not used.",
        f"A {rules.blind_nil_name} must be bid before drawing any card. Bidding, play and scoring are otherwise "
        "as above.",
    )


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
        if rules.reneg_tricks_to == "opponents":
            examples.append(_example(rules, "Your side bids 6 and takes 5; the other side reneges once",
                                     [(3, 3), (3, 2)], [(4, 5), (3, 3)], their_reneges=1))  # fmt: skip
    return tuple(example for example in examples if example is not None)


def _example(
    rules: RuleSet, situation: str, ours: list, theirs: list, *, bags: int = 0, reneges: int = 0, their_reneges: int = 0
) -> Example | None:
    """Score the example with the engine; None if these rules do not allow it (a bid too low)."""
    us = SideHand(players=(PlayerHand(*ours[0]), PlayerHand(*ours[1])), bags=bags, reneges=reneges)
    them_bids = [max(b, rules.min_player_bid, 1 if rules.has_nil else 0) for b, _ in theirs]
    if sum(them_bids) < rules.min_team_bid:
        them_bids[0] += rules.min_team_bid - sum(them_bids)
    them = SideHand(
        players=tuple(PlayerHand(b, t) for b, (_, t) in zip(them_bids, theirs, strict=True)), reneges=their_reneges
    )
    try:
        result = score_hand(rules, [us, them])
    except ValueError:
        return None
    side = result.teams[0]
    return Example(situation=situation, points=side.points, explanation=side.lines)


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
