"""A progressive event's rules in words: how players move between tables, what a player sitting
out a round is credited with and what the hand breaking a tied round counts for, from the rule
set, for the rule handout and under the standings.

Rule text 003 describes the movement for couples who split after every round; what it says of
teams who stay together is only that the winning team moves on, so the rest of a fixed-partner
movement is marked "Our reading:". The other texts describe no evening of several tables, so
under their presets (topic ``movement``) the whole movement is marked. What a sitter-out scores
and what the extra hand of a tied round counts for are the preset's readings (topics
``sit_out_credit`` and ``tie_hand``) unless the tournament set them itself.
"""

from __future__ import annotations

from scoring.describe import OUR_READING, Section, marked
from scoring.presets import readings_of
from scoring.rules import RuleSet
from tournament.formats.progressive import movement
from tournament.models import Tournament
from tournament.standings.ranking import CREDIT_WORDS

SPLIT_MOVES = (
    "After each round the side with more points at each table moves up one table (table 2's winners "
    "to table 1, and so on); the winners at table 1 stay. The losers at table 1 go to the last table. "
    "Partners split: each newcomer partners one of the two players already there. With an odd number "
    "of couples, table 1's losers sit out a round and come back at the last table. Each player is "
    "credited with their side's score for the round; the highest total wins."
)
SPLIT_PAIRING = (
    OUR_READING + "of the two ways the newcomers can split, the one is seated whose partners have not "
    "played together yet this evening; failing that, the one repeating fewer partnerships."
)
FIXED_MOVES = (
    "Partners stay together all evening. After each game the winning team moves up one table (table 2's "
    "winners to table 1, and so on)."
)
FIXED_REST = (
    "the winners at table 1 stay, the losers at table 1 go to the last table, and with an odd number of "
    "teams table 1's losers sit out a round and come back at the last table."
)
FIXED_RANKING = (
    OUR_READING + "teams are ranked on their total points over all games, as players are when partners split."
)


def moves(key: str, readings: frozenset[str]) -> tuple[str, ...]:
    """How players move between tables, run as ``key`` (split or fixed), marked as the preset's
    ``readings`` say: under a text with no evening of several tables (topic ``movement``), every
    sentence is our reading."""
    if key == movement.SPLIT:
        return marked("movement", SPLIT_MOVES, readings), SPLIT_PAIRING
    told = "" if "movement" in readings else (
        "the text describes the rest of the movement for couples who split; teams who stay together move the "
        "same way: "
    )  # fmt: skip
    return marked("movement", FIXED_MOVES, readings), OUR_READING + told + FIXED_REST, FIXED_RANKING


def sit_out_sentence(rules: RuleSet, *, split: bool) -> str:
    """What a player (split partners) or team sitting out a round is credited with."""
    reason = ", so sitting out neither helps nor hurts" if rules.sit_out_credit == "round_average" else ""
    who = "player" if split else "team"
    return f"A {who} sitting out a round is credited with {CREDIT_WORDS[rules.sit_out_credit]}{reason}."


def tie_hand_sentence(rules: RuleSet, *, split: bool) -> str:
    """What the extra hand of a round tied after its hands counts for; "" for rules whose games
    are not rounds of so many hands."""
    hands = rules.hands_per_round
    if hands is None:
        return ""
    who = "each player is credited with their side's" if split else "each team is credited with its"
    breaks = f"The extra hand that breaks a round tied after {hands} hands decides who wins the table and moves"
    if rules.tie_hand_counts:
        return f"{breaks}, and its points count like any other hand's."
    return f"{breaks}, but its points do not count: {who} score after {hands} hands."


def handout_section(tournament: Tournament, *, key: str) -> Section:
    """The handout's "Moving between tables" for ``tournament``, run as ``key`` (split or fixed)."""
    rules, split = tournament.rules, key == movement.SPLIT
    readings = readings_of(tournament.preset, tournament.rule_overrides)
    paragraphs = [*moves(key, readings), marked("sit_out_credit", sit_out_sentence(rules, split=split), readings)]
    if tie := tie_hand_sentence(rules, split=split):
        paragraphs.append(marked("tie_hand", tie, readings))
    return Section("Moving between tables", tuple(paragraphs))
