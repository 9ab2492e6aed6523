"""Rule sets in words, generated from their fields so the text can never disagree with scoring.

:func:`summary` is one line; :func:`handout` is the full rule sheet: sections of plain
sentences, a scoring table, and worked examples whose numbers :func:`scoring.score_hand`
computes from the same rule set.

A sentence that states our reading of something the rule text leaves unsaid starts with
"Our reading:" (:data:`OUR_READING`), so players can tell the text's rules from the house's.
Which topics are readings comes from the preset (:func:`scoring.presets.readings_of`); a few
readings hold under every text (a side bids at most 13, a misdeal's redeal) and are always marked.
A sentence that follows from the rules themselves (a score can go below zero when something
costs points) is not a reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.examples import Example, worked_examples
from scoring.hand import BLIND_NIL, NIL
from scoring.rules import RuleSet
from scoring.words import listed, ordinal, quantity, signed

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
    if rules.contract == "player":
        parts.append("each player's bid scored on its own")
    parts.append("set: scores 0" if rules.set_penalty == "zero" else "set: minus 10 a trick bid")
    parts.append(f"nil {rules.nil_points}" if rules.nil_points is not None else "no nil")
    if rules.blind_nil_points is not None:
        behind = f" (when {rules.blind_nil_min_deficit} behind)" if rules.blind_nil_min_deficit else ""
        parts.append(f"{rules.blind_nil_name} {rules.blind_nil_points}{behind}")
    if rules.big_bid is not None:
        parts.append(f"{rules.big_bid} or more bid: {_big_bid_value(rules)}")
    parts.append(f"{rules.bag_limit} bags cost {rules.bag_penalty}" if rules.bag_limit else "no bag penalty")
    if rules.min_team_bid:
        parts.append(f"side bids at least {rules.min_team_bid}")
    if rules.deck == "jokers":
        parts.append("jokers deck")
    return " · ".join(parts)


@dataclass(frozen=True)
class Section:
    title: str
    paragraphs: tuple[str, ...] = ()
    table: tuple[tuple[str, str], ...] = ()
    examples: tuple[Example, ...] = field(default=())


@dataclass(frozen=True)
class Event:
    """What the handout says about the event itself, which its tournament settles, not its rule
    set: the rounds it plays (None when its format plays no set number of rounds), what a round
    is called ("round", "night"), and its prizes in words ("1st place: $100.00")."""

    rounds: int | None = None
    round_name: str = "round"
    prizes: tuple[str, ...] = ()


def handout(
    rules: RuleSet,
    *,
    readings: frozenset[str] = frozenset(),
    extra: Sequence[Section] = (),
    event: Event | None = None,
) -> list[Section]:
    """The rule sheet for ``rules``, then the ``event``'s rounds and prizes, then the ``extra``
    sections its tournament's format writes (how players move between tables, how matches go).

    ``readings`` names the topics (:data:`scoring.presets.READING_FIELDS`) where the rule set
    holds our reading of the text: those sentences start "Our reading:".
    """
    say = _Sayer(readings)
    sections = [
        Section("The cards", _cards(rules, say)),
        Section("Bidding", _bidding(rules, say)),
        Section("Play", _play(rules, say)),
        Section("Scoring", _scoring_words(rules, say), _scoring_table(rules, say)),
        Section("Worked examples", examples=worked_examples(rules)),
    ]
    penalties = _penalties(rules, say)
    if penalties:
        sections.append(Section(_penalties_title(rules), penalties))
    sections += [
        Section("Misdeals", _misdeals(rules, say)),
        Section("End of the game", _ending(rules, say)),
    ]
    if event is not None and (event.rounds or event.prizes):
        sections.append(Section("This event", _event(event)))
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
            "are still 52 cards, 13 dealt to each player one at a time.",
            say("seating", "Partners sit opposite each other."),
            "Spades are always trump, ranking from the top: big joker, little joker, two of spades, "
            "then ace, king, queen and down to three of spades. The jokers count as spades.",
            say(
                "joker_ranks",
                "The text's note that the ace of spades is the lowest trump means the lowest of these four; "
                "it still beats the king of spades.",
            ),
            "The other suits rank ace (high), king, queen, jack, ten and down to two in clubs, down to three "
            "in hearts and diamonds.",
        ]
    else:
        lines = [
            "A standard pack of 52 cards, 13 dealt to each player one at a time.",
            say("seating", "Partners sit opposite each other."),
            "In every suit the ace is high, then king, queen, jack, ten and down to two. Spades are "
            "always trump: any spade beats any card of another suit.",
        ]
    if rules.cut == "players_in_turn":
        lines.append(
            "The dealer shuffles and asks the players to cut, starting with the player on the dealer's right "
            "and going on in turn."
        )
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
        "non_dealing_side": "The side that did not deal bids first, then the dealer's side; each player bids once.",
    }[rules.bidding_starts]
    if rules.contract == "player":
        contract = "Each player bids the tricks they expect to take; each player's bid is their own contract."
    else:
        contract = "Each player bids the tricks they expect to take; partners' bids add up to their side's contract."
    lines = [say("bidding_starts", order), say("no_passing", "Nobody may pass."), contract]
    if rules.has_nil:
        low = max(rules.min_player_bid, 1)
        lines.append(
            say("player_bids", f"A bid is a number from {low} to 13, or nil: a promise to take no trick at all.")
        )
    else:
        lines.append(f"A bid is a number from {rules.min_player_bid} to 13. There is no nil: a bid of 0 is just 0.")
    lines.append(say("bids_total", "The two sides' bids need not add up to 13."))
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
    """What the blind nil is and who may bid it; with no deficit to meet, the texts say nothing
    about the score, and neither does the handout."""
    name = rules.blind_nil_name
    who = "before either partner looks at their cards" if rules.blind_nil_by_side else "before looking at the cards"
    text = f"A {name} is a nil bid {who}."
    if rules.blind_nil_min_deficit:
        text += f" It may be bid only by a side at least {rules.blind_nil_min_deficit} points behind."
    if rules.blind_nil_exchange:
        text += " " + _exchange(rules, rules.blind_nil_exchange, name)
    return text


def _play(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    if rules.first_lead == "lowest_club":
        first = "To the first trick everyone plays their lowest club; the highest club wins it and leads next."
    else:
        first = "The player to the dealer's left leads first, any suit but spades."
    lines = [
        first,
        "Follow suit if you can; if you cannot, play any card, a spade (trumping) or another suit.",
        "A trick goes to the highest spade in it, or else to the highest card of the suit led.",
        say("trick_leads", "The winner of a trick leads to the next one."),
    ]
    if rules.has_nil or rules.contract == "player":
        # A nil, or a bid scored player by player, is made or set on the player's own tricks.
        lines.append(
            say("tricks_kept", "Every trick is kept by the player who wins it, so each player's tricks can be counted.")
        )
    lines.append(
        say("spades_lead", "Spades may not be led until spades are broken, unless the leader holds only spades.")
    )
    lines.append(say("spades_broken", "Spades are broken once a spade has been played on a trick of another suit."))
    if rules.bid_talk == "no_card_details":
        lines.append("During play, partners must not discuss their hands across the table.")
    return tuple(lines)


def _scoring_words(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    set_text = _set_text(rules)
    extra = f"{_points(rules.overtrick_points)} for each extra trick"
    if rules.contract == "player":
        words = [
            f"Each player's bid is scored on its own and partners' points are added up: a player who takes at "
            f"least their bid scores 10 points a trick bid; one who falls short is set and {set_text}.",
            say(
                "player_contract",
                f"Each extra trick scores {_points(rules.overtrick_points)}, and partners' extra tricks count "
                "together as their side's bags.",
            ),
        ]
    else:
        words = [
            f"A side that takes at least its contract scores 10 points a trick bid and {extra}. "
            f"A side that falls short is set and {set_text}."
        ]
    if rules.big_bid is not None:
        words.extend(_big_bid_words(rules, say))
    if rules.has_nil:
        words.extend(_nil_words(rules, say))
    words.extend(_bag_words(rules, say))
    if _can_lose_points(rules):
        words.append("A side's score can go below zero.")
    return tuple(words)


def _set_text(rules: RuleSet) -> str:
    return "loses 10 points for each trick bid" if rules.set_penalty == "minus_bid" else "scores nothing for the hand"


def _big_bid_words(rules: RuleSet, say: _Sayer) -> list[str]:
    big = rules.big_bid
    if rules.big_bid_bonus is None:
        made = f"scores {rules.big_bid_points} for making it instead of 10 a trick"
    else:
        made = f"scores 10 a trick bid plus {rules.big_bid_bonus} for making it (10 × bid + {rules.big_bid_bonus})"
    if rules.contract == "player":
        first = say(
            "player_contract",
            f"A side whose two bids add up to {big} or more is scored as one side contract, which {made}.",
        )
    else:
        first = f"A side bidding {big} or more {made}."
    loss = (
        f"loses {rules.big_bid_penalty}"
        if rules.big_bid_penalty is not None
        else f"is set as usual and {_set_text(rules)}"
    )
    return [
        first,
        say("big_bid_overtricks", f"Extra tricks over such a bid still score {_points(rules.overtrick_points)} each."),
        say("big_bid_penalty", f"Set on such a bid, a side {loss}."),
    ]


def _big_bid_value(rules: RuleSet) -> str:
    """What a made big bid scores, in a table cell or the summary: "200", "10 × bid + 50"."""
    if rules.big_bid_bonus is None:
        return str(rules.big_bid_points)
    return f"10 × bid + {rules.big_bid_bonus}"


def _can_lose_points(rules: RuleSet) -> bool:
    """Whether anything in ``rules`` takes points off a side, so a score can fall below zero."""
    return any((rules.set_penalty == "minus_bid", rules.has_nil, rules.bag_limit is not None, rules.big_bid_penalty))


def _nil_words(rules: RuleSet, say: _Sayer) -> list[str]:
    blind = f" A {rules.blind_nil_name} wins or loses {rules.blind_nil_points}." if rules.has_blind_nil else ""
    words = [
        f"A nil that takes no trick wins {rules.nil_points} for the side; one that takes a trick loses "
        f"{rules.nil_points}. The partner's own bid is scored as usual.{blind}"
    ]
    failed = {
        "bags": "Tricks a failed nil bidder takes do not help the partner but count as extra tricks (bags).",
        "count_for_partner": "Tricks a failed nil bidder takes count toward the partner's bid.",
        "ignored": "Tricks a failed nil bidder takes count for nothing: not toward the partner's bid, not as bags.",
    }[rules.failed_nil_tricks]
    words.append(say("failed_nil_tricks", failed))
    words.append(say("two_nils", _two_nils(rules)))
    return words


def _two_nils(rules: RuleSet) -> str:
    kinds = f"nil (or {rules.blind_nil_name})" if rules.has_blind_nil else "nil"
    if rules.both_nil == "separate":
        return f"When both partners bid {kinds}, each nil is scored on its own."
    value = "both values" if rules.both_nil_points is None else str(rules.both_nil_points)
    if rules.both_nil == "zero_if_split":
        kinds = f"nil (any mix of nil and {rules.blind_nil_name})" if rules.has_blind_nil else "nil"
        return (
            f"When both partners bid {kinds}, the side wins {value} if both make it, scores 0 if only one does, "
            f"and loses {value} if both fail."
        )
    otherwise = "nothing otherwise" if rules.both_nil == "all_or_nothing" else f"it loses {value} otherwise"
    return f"When both partners bid {kinds}, the side scores {value} if both make it, {otherwise}."


def _bag_words(rules: RuleSet, say: _Sayer) -> list[str]:
    if rules.bag_limit is None:
        return [say("no_bag_penalty", "Extra tricks (bags) are counted but cost nothing.")]
    limit, penalty = rules.bag_limit, rules.bag_penalty
    if rules.bag_overflow == "carry":
        return [
            f"Extra tricks are bags. Each time a side's bags reach {limit} it loses {penalty} points, so it can "
            "happen more than once.",
            say("bag_overflow", f"Bags past the {ordinal(limit)} carry over toward the next {limit}."),
        ]
    return [
        f"Extra tricks are bags. Each time a side's bags reach {limit} it loses {penalty} points and the count goes "
        "back to zero.",
        say("bag_overflow", f"Bags past the {ordinal(limit)} in that hand are dropped."),
    ]


def _scoring_table(rules: RuleSet, say: _Sayer) -> tuple[tuple[str, str], ...]:
    if rules.contract == "player":
        rows = [
            ("Own bid made", "+10 a trick bid"),
            (say("player_contract", "Each extra trick"), signed(rules.overtrick_points)),
            ("Own bid set", "−10 a trick bid" if rules.set_penalty == "minus_bid" else "0"),
        ]
    else:
        rows = [
            ("Contract made", "+10 a trick bid"),
            ("Each extra trick", signed(rules.overtrick_points)),
            ("Contract set", "−10 a trick bid" if rules.set_penalty == "minus_bid" else "0"),
        ]
    if rules.big_bid is not None:
        loss = f"−{rules.big_bid_penalty}" if rules.big_bid_penalty is not None else rows[2][1]
        made = _big_bid_value(rules)
        rows.append((f"{rules.big_bid} or more bid: made / set", f"{'' if '×' in made else '+'}{made} / {loss}"))
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
        rows.append(_two_nils_row(rules, rules.both_nil_points))
    if rules.bag_limit is not None:
        rows.append((f"Every {rules.bag_limit} bags", f"−{rules.bag_penalty}"))
    if rules.has_reneg_penalty:
        rows.append((say("reneg", "Reneg"), _reneg_cell(rules)))
    if rules.table_talk_tricks:
        rows.append(("Table talk", f"−{rules.table_talk_tricks} trick an incident"))
    return tuple(rows)


def _two_nils_row(rules: RuleSet, value: int) -> tuple[str, str]:
    if rules.both_nil == "zero_if_split":
        return ("Both partners nil: both made / one / neither", f"+{value} / 0 / −{value}")
    if rules.both_nil == "team_contract":
        return ("Both partners nil: both made / not", f"+{value} / −{value}")
    return ("Both partners nil: both made / not", f"+{value} / 0")


def _reneg_cell(rules: RuleSet) -> str:
    tricks, award = quantity(rules.reneg_tricks, "trick"), rules.reneg_points_to_opponents
    if rules.reneg_tricks_to == "opponents" and rules.reneg_tricks and award and not rules.reneg_trick_points:
        return f"{tricks} and +{award} to the opponents"
    parts = []
    if rules.reneg_tricks_to == "nobody" and rules.reneg_tricks:
        parts.append(f"−{tricks}")
    elif rules.reneg_tricks:
        each = f", +{rules.reneg_trick_points} each" if rules.reneg_trick_points else ""
        parts.append(f"{tricks} to the opponents{each}")
    if award:
        parts.append(f"opponents +{award}")
    return "; ".join(parts)


def _penalties_title(rules: RuleSet) -> str:
    """The penalties the rules have, by name: "Reneg", "Reneg and table talk"."""
    title = " and ".join(rules.penalties)
    return title[0].upper() + title[1:]


def _penalties(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    lines = []
    if rules.has_reneg_penalty:
        lines.append(say("reneg", _reneg_words(rules)))
        if rules.reneg_tricks_to == "opponents" and rules.reneg_tricks and rules.reneg_trick_points is not None:
            lines.append(say("reneg_trick_points", _received_tricks_words(rules)))
    if rules.table_talk_tricks:
        lines.append(
            f"Table talk: if an opponent or the dealer believes partners are talking about the game, the dealer "
            f"makes the call; each incident takes {quantity(rules.table_talk_tricks, 'trick')} off the guilty "
            f"{'player' if rules.contract == 'player' else 'side'}, scoring for nobody."
        )
    if lines and rules.contract == "player":
        lines.append(say("player_contract", "Penalty tricks come off the offending player's own tricks."))
    elif lines and rules.has_nil and (rules.reneg_tricks or rules.table_talk_tricks):
        lines.append(
            _reading(
                "penalty tricks come off the nil bidder's partner first, never below zero; a nil is made or failed "
                "on the tricks its bidder took."
            )
        )
    return tuple(lines)


def _reneg_words(rules: RuleSet) -> str:
    text = "A reneg (not following suit when able), once found, "
    award = rules.reneg_points_to_opponents
    tricks = quantity(rules.reneg_tricks, "trick")
    who = "the player who reneged" if rules.contract == "player" else "the offending side"
    if not rules.reneg_tricks:
        text += f"gives the other side {award} points."
    elif rules.reneg_tricks_to == "nobody":
        text += f"costs {who} {tricks}, which score for nobody."
    elif rules.reneg_trick_points is None:
        text += f"costs {who} {tricks}, which go to the other side and count as its own tricks."
    elif rules.reneg_trick_points:
        text += f"costs {who} {tricks}, which go to the other side, each worth " \
                f"{rules.reneg_trick_points} points to it."  # fmt: skip
    else:
        text += f"costs {who} {tricks}, which go to the other side."
    if award and rules.reneg_tricks:
        text += f" The other side is also awarded {award} points."
    if rules.contract == "player":  # the penalty is the player's: their partner's bid is untouched
        return text + " The player who reneged must still make their own bid with the tricks they have left."
    return text + " The offending side must still make its original bid with the tricks it has left."


def _received_tricks_words(rules: RuleSet) -> str:
    if rules.reneg_trick_points:
        return "Tricks received count toward the receivers' bid and are never bags."
    award = rules.reneg_points_to_opponents
    flat = f" The {award} points are awarded whatever the offending side holds." if award else ""
    beyond = f"the {award}" if award else "that"
    return (
        f"The tricks that can move (no more than the offending side took) count toward the receivers' bid, are "
        f"never bags and earn nothing beyond {beyond}.{flat}"
    )


# Who may call a misdeal for each cause found before bidding: the player it was dealt to.
_DEALT = {"no_face_cards": "no face cards", "no_spades": "no spades"}


def _misdeals(rules: RuleSet, say: _Sayer) -> tuple[str, ...]:
    reasons = rules.misdeal_reasons
    count_before = "wrong_card_count" in reasons and not rules.misdeal_card_count_any_time
    dealt = [words for reason, words in _DEALT.items() if reason in reasons]
    causes = [f"was dealt {listed(dealt, 'or')}"] if dealt else []
    if count_before:
        causes.append("does not hold 13 cards")
    lines = []
    if causes:
        who = ", or who ".join(causes)
        comma = "," if len(causes) > 1 else ""
        lines.append(say("misdeals", f"Before bidding starts, a player who {who}{comma} may call a misdeal."))
    if rules.misdeal_card_count_any_time and "wrong_card_count" in reasons:
        lines.append(
            "If a player is found to hold the wrong number of cards at any point of the hand, the dealer "
            "declares a misdeal."
        )
    if "table_talk_in_bidding" in reasons:
        lines.append("The other side may call a misdeal when a player gives away their hand while bidding.")
        lines.append(
            say(
                "misdeal_timing",
                "The text says misdeals are called before bidding starts, yet lists talk about a hand during the "
                "bidding as one: the other side calls that one during the bidding, before the first card is led.",
            )
        )
    lines.append(say("misdeal_redeal", "A misdeal scores nothing; the cards are shuffled and dealt again."))
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
        lines.append("One player at each table keeps the table's bids and scores for the round.")
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


def _event(event: Event) -> tuple[str, ...]:
    lines = []
    if event.rounds:
        played = "is" if event.rounds == 1 else "are"
        lines.append(f"{quantity(event.rounds, event.round_name).capitalize()} {played} played.")
    if event.prizes:
        lines.append(f"Prizes: {'; '.join(event.prizes)}.")
    return tuple(lines)


def _two_players(rules: RuleSet) -> tuple[str, ...]:
    return (
        "Two players, no partners, and no deal: the shuffled pack lies face down as a stock. Taking turns (who "
        "starts alternates from hand to hand), a player takes the top card and either keeps it, then looks at the "
        "next one and discards it face down, or discards it before looking at the next one, which they must keep. "
        "When the stock is gone each holds 13 cards; the discards are not used.",
        f"A {rules.blind_nil_name} must be bid before drawing any card. Bidding, play and scoring are otherwise "
        "as above.",
    )


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"
