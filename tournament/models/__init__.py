"""The tournament's records, by capability: the club that owns events (:mod:`.clubs`), an event
and its people (:mod:`.events`), play at the tables (:mod:`.play`), matches and clocks
(:mod:`.matches`), money (:mod:`.money`) and printed documents (:mod:`.printing`). A format keeps
its own settings in its own package."""

from tournament.models.clubs import Club, ClubMember, Invitation
from tournament.models.events import (
    MONEY,
    PRESET_CHOICES,
    Player,
    RosterPlayer,
    Team,
    Tournament,
    roster_key,
    rule_set,
)
from tournament.models.history import Dispute, HandRevision
from tournament.models.matches import BEST_OF, Clock, Match
from tournament.models.money import Payment, Payout, Prize, ordinal
from tournament.models.play import (
    BID_CHOICES,
    BID_VALUES,
    HAND_FIELDS,
    MISDEAL_CHOICES,
    RECORDED,
    SEAT_CHOICES,
    SIDE_CHOICES,
    Game,
    GameQuerySet,
    Hand,
    Round,
    RoundNotReady,
    Seating,
    SeatingChange,
    SitOut,
    Standing,
    Table,
    new_token,
    playing_name,
)
from tournament.models.printing import PrintJob

__all__ = [
    "BEST_OF",
    "BID_CHOICES",
    "BID_VALUES",
    "HAND_FIELDS",
    "MISDEAL_CHOICES",
    "MONEY",
    "PRESET_CHOICES",
    "RECORDED",
    "SEAT_CHOICES",
    "SIDE_CHOICES",
    "Clock",
    "Club",
    "ClubMember",
    "Dispute",
    "Game",
    "GameQuerySet",
    "Hand",
    "HandRevision",
    "Invitation",
    "Match",
    "Payment",
    "Payout",
    "Player",
    "PrintJob",
    "Prize",
    "RosterPlayer",
    "Round",
    "RoundNotReady",
    "Seating",
    "SeatingChange",
    "SitOut",
    "Standing",
    "Table",
    "Team",
    "Tournament",
    "new_token",
    "ordinal",
    "playing_name",
    "roster_key",
    "rule_set",
]  # fmt: skip
