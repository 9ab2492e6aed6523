"""Running a tournament through the services: registration, money, rounds, hands, prizes."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from scoring import HandEntry, InvalidHand, Seat
from tests.conftest import even_hand, finish_game, make_tournament, tie_then_break
from tests.events import correct_hand
from tests.test_rotation import DEMO_WINNERS
from tournament.events.services import update_tournament
from tournament.formats.progressive.movement import load_movement, swap_players, swap_teams
from tournament.formats.progressive.standings import standings_rows
from tournament.models import (
    Game,
    HandRevision,
    Payment,
    Prize,
    Round,
    RoundNotReady,
    Seating,
    SeatingChange,
    Team,
    Tournament,
)
from tournament.money.ledger import ledger, team_paid
from tournament.money.services import award_prizes, mark_payout_paid, record_payment
from tournament.play.games import decide_tie, flag_dispute, resolve_dispute
from tournament.play.hands import HandConflict, enter_hand
from tournament.play.rounds import close_round, start_play, start_round
from tournament.simulation.demo import load_demo
from tournament.standings.ranking import round_note
from tournament.teams.services import register_team, set_team_status

pytestmark = pytest.mark.django_db


# --- registration and fees ----------------------------------------------------------------------


def test_teams_are_numbered_in_registration_order(tournament):
    team = register_team(tournament=tournament, names=["Quinn", "Rosa"], divisions=["female", ""])
    assert team.number == 9
    assert [p.division for p in team.players.all()] == ["female", ""]


def test_registration_closes_when_the_tournament_is_finished(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(ValidationError) as refused:
        register_team(tournament=tournament, names=["Late", "Comer"])
    assert refused.value.code == "finished"


def test_payments_and_refunds_make_what_a_team_owes(tournament):
    team = tournament.teams.get(number=1)
    record_payment(team=team, amount=Decimal("20.00"), kind=Payment.Kind.PAYMENT, method="cash")
    record_payment(team=team, amount=Decimal("5.00"), kind=Payment.Kind.REFUND, method="cash")
    assert team_paid(team) == Decimal("15.00")
    books = ledger(tournament)
    assert (books.fees_expected, books.collected, books.outstanding_fees) == (
        Decimal("160.00"),
        Decimal("15.00"),
        Decimal("145.00"),
    )


def test_a_refund_cannot_exceed_what_was_paid(tournament):
    team = tournament.teams.get(number=1)
    record_payment(team=team, amount=Decimal("10.00"), kind=Payment.Kind.PAYMENT, method="cash")
    with pytest.raises(ValidationError) as refused:
        record_payment(team=team, amount=Decimal("10.01"), kind=Payment.Kind.REFUND, method="cash")
    assert "amount" in refused.value.message_dict


def test_the_database_refuses_a_negative_payment(tournament):
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(team=tournament.teams.first(), amount=Decimal("-1"), method="cash")


# --- seating and rounds --------------------------------------------------------------------------


def test_round_one_seats_couples_across_in_registration_order(tournament):
    round_ = start_play(tournament=tournament)
    table_1 = dict(round_.seatings.filter(table__number=1).values_list("seat", "player__name"))
    assert table_1 == {"N": "Ada", "S": "Ben", "E": "Cleo", "W": "Dan"}
    assert round_.games.count() == 4
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_random_seating_is_reproducible_from_its_seed(db):
    def first_table(seed: int) -> list[str]:
        t = make_tournament(seating_order=Tournament.SeatingOrder.RANDOM, seating_seed=seed)
        round_ = start_play(tournament=t)
        return list(round_.seatings.order_by("table__number", "seat").values_list("player__name", flat=True))

    assert first_table(7) == first_table(7)
    assert first_table(7) != first_table(8) or first_table(7) != first_table(9)


def test_only_checked_in_teams_are_seated_once_check_in_is_used(tournament):
    tournament.teams.filter(number__lte=5).update(checked_in=True)
    round_ = start_play(tournament=tournament)
    assert round_.games.count() == 2
    assert round_.sit_outs.count() == 2  # five couples: the last one sits out


def test_seating_needs_two_teams(db):
    with pytest.raises(ValidationError) as refused:
        start_play(tournament=make_tournament(couples=1))
    assert refused.value.code == "too_few_teams"


def test_a_round_cannot_close_while_a_table_is_still_playing(running_round):
    finish_game(running_round.games.get(table__number=1))
    with pytest.raises(RoundNotReady, match="still playing at table 2, 3, 4"):
        close_round(round_=running_round)


def test_a_tied_table_holds_the_round_until_one_more_hand_or_a_decision(running_round):
    for game in running_round.games.all():
        finish_game(game, hands=2, ns_tricks=7)
        finish_game(game, hands=2, ns_tricks=6)  # 71+71+60+60 v 60+60+71+71: level
    tied = running_round.games.get(table__number=1)
    assert tied.status == Game.Status.TIED
    with pytest.raises(RoundNotReady, match="tied at table 1, 2, 3, 4"):
        close_round(round_=running_round)
    finish_game(tied, hands=1, ns_tricks=7)
    decide_tie(game=running_round.games.get(table__number=2), winner="EW", how="high card")
    with pytest.raises(RoundNotReady, match="tied at table 3, 4"):
        close_round(round_=running_round)


def test_closing_a_round_seats_the_next_by_the_movement(finished_round):
    following = close_round(round_=finished_round)
    assert following.number == 2 and following.status == Round.Status.PLANNED
    table_1 = dict(following.seatings.filter(table__number=1).values_list("seat", "player__name"))
    # NS won everywhere: Ada & Ben stay at table 1, Eve & Finn come up from table 2, partners split.
    assert table_1 == {"N": "Ada", "E": "Ben", "S": "Eve", "W": "Finn"}
    table_4 = set(following.seatings.filter(table__number=4).values_list("player__name", flat=True))
    assert table_4 == {"Olga", "Paul", "Cleo", "Dan"}  # table 1's losers go to the last table


def test_the_demo_walkthrough_puts_no_couple_back_together(db):
    tournament = load_demo().tournament
    round_ = tournament.rounds.get()
    for sides in DEMO_WINNERS:
        if round_.status == Round.Status.PLANNED:
            start_round(round_=round_)
        for game, side in zip(round_.games.order_by("table__number"), sides.split(), strict=True):
            finish_game(game, ns_tricks=10 if side == "NS" else 3, hands=4 - game.hands.count())
            game.refresh_from_db()
            assert game.winner == side
        round_ = close_round(round_=round_)
    partners = [
        frozenset(pair)
        for played in tournament.rounds.all()
        for table in load_movement(played).tables
        for pair in (table.north_south, table.east_west)
    ]
    # Eve & Finn, Iris & Jack, Gina & Hugo are not reunited in round 5: that takes round 1's seats.
    assert len(partners) == len(set(partners)) == 5 * 8


def test_the_last_round_finishes_the_tournament(db):
    tournament = make_tournament(couples=4, rounds_planned=1)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    assert close_round(round_=round_) is None
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_withdrawal_reseats_a_planned_round_and_is_recorded(finished_round, tournament):
    following = close_round(round_=finished_round)
    set_team_status(team=tournament.teams.get(number=8), status=Team.Status.WITHDRAWN)
    seated = set(following.seatings.values_list("player__name", flat=True))
    sitting = set(following.sit_outs.values_list("player__name", flat=True))
    assert {"Olga", "Paul"}.isdisjoint(seated | sitting)
    assert len(seated) == 12 and len(sitting) == 2
    assert "re-seated" in following.seating_changes.get().description


def test_a_late_couple_joins_at_the_next_round(finished_round, tournament):
    register_team(tournament=tournament, names=["Quinn", "Rosa"])
    following = close_round(round_=finished_round)
    placed = set(following.seatings.values_list("player__name", flat=True)) | set(
        following.sit_outs.values_list("player__name", flat=True)
    )
    assert {"Quinn", "Rosa"} <= placed
    assert following.sit_outs.count() == 2  # nine couples: one sits out


def test_swapping_two_players_before_the_start_is_recorded(tournament):
    round_ = start_play(tournament=tournament)
    ada, ben = (tournament.teams.get(number=1).players.get(name=n) for n in ("Ada", "Ben"))
    iris = tournament.teams.get(number=5).players.get(name="Iris")
    swap_players(round_=round_, first=ben, second=iris)
    assert Seating.objects.get(round=round_, player=iris).table.number == 1
    assert Seating.objects.get(round=round_, player=ben).table.number == 3
    assert SeatingChange.objects.get(round=round_).description == "Swapped Ben and Iris."
    with pytest.raises(ValidationError):
        swap_players(round_=round_, first=ada, second=ada)


def test_players_cannot_be_swapped_once_the_round_runs(running_round, tournament):
    first, second = tournament.teams.get(number=1).players.all()
    with pytest.raises(ValidationError) as refused:
        swap_players(round_=running_round, first=first, second=second)
    assert refused.value.code == "round_started"


def test_swapping_two_teams_moves_both_partners(tournament):
    round_ = start_play(tournament=tournament)
    swap_teams(round_=round_, first=tournament.teams.get(number=1), second=tournament.teams.get(number=8))
    table_4 = set(round_.seatings.filter(table__number=4).values_list("player__name", flat=True))
    assert table_4 == {"Ada", "Ben", "Mia", "Noah"}


# --- hands --------------------------------------------------------------------------------------


def test_entering_a_hand_scores_it_and_keeps_its_history(running_round):
    game = running_round.games.get(table__number=1)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(7)), source=HandRevision.Source.TABLE)
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score, game.hands_played) == (61, 60, 1)
    revision = HandRevision.objects.get()
    assert revision.before is None and revision.after["north_tricks"] == 4


def test_the_same_hand_entered_twice_is_stored_once(running_round):
    game = running_round.games.get(table__number=1)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(7)), source=HandRevision.Source.TABLE)
    with pytest.raises(HandConflict) as conflict:
        enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(6)), source=HandRevision.Source.TABLE)
    assert conflict.value.hand.north_tricks == 4
    assert game.hands.count() == 1


def test_a_correction_based_on_a_stale_version_is_refused(running_round):
    game = running_round.games.get(table__number=1)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(7)), source=HandRevision.Source.TABLE)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(6)), source="director", expected_version=1)
    with pytest.raises(HandConflict, match="changed by someone else"):
        enter_hand(
            game=game,
            number=1,
            entry=HandEntry.from_fields(even_hand(8)),
            source=HandRevision.Source.TABLE,
            expected_version=1,
        )
    revisions = list(HandRevision.objects.order_by("id"))
    assert [r.before and r.before["north_tricks"] for r in revisions] == [None, 4]
    game.refresh_from_db()
    assert game.ns_score == 60


def test_a_hand_that_breaks_a_rule_is_refused_and_nothing_is_stored(running_round):
    game = running_round.games.get(table__number=1)
    with pytest.raises(InvalidHand) as refused:
        enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(7) | {"west_tricks": 4}), source="table")
    assert refused.value.code == "tricks_total"
    assert game.hands.count() == 0 and HandRevision.objects.count() == 0


def test_hands_must_come_in_order(running_round):
    game = running_round.games.get(table__number=1)
    with pytest.raises(InvalidHand, match="next hand at this table is hand 1"):
        enter_hand(game=game, number=2, entry=HandEntry.from_fields(even_hand(7)), source="table")


def test_no_hand_after_the_round_is_over(running_round):
    game = running_round.games.get(table__number=1)
    finish_game(game)
    with pytest.raises(InvalidHand, match="game at this table is over"):
        enter_hand(game=game, number=5, entry=HandEntry.from_fields(even_hand(7)), source="table")


def test_a_misdeal_is_recorded_without_a_score_and_the_dealer_deals_again(running_round):
    from tournament.play.board import game_sheet

    game = running_round.games.get(table__number=1)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields({"misdeal": "no_spades"}), source="table")
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(7)), source="table")  # dealt again
    game.refresh_from_db()
    assert (game.hands_played, game.ns_score) == (1, 61)
    rows = game_sheet(game)["rows"]
    first = Seat(game.first_dealer).label
    assert [(row.hand.number, row.hand.deal, row.dealer) for row in rows] == [(1, 1, first), (1, 2, first)]


# --- standings and prizes ------------------------------------------------------------------------


def test_standings_update_as_soon_as_a_hand_is_entered(running_round, tournament):
    game = running_round.games.get(table__number=2)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(8)), source="table")
    top = standings_rows(tournament)[0]
    assert top.name in {"Eve", "Finn"} and top.standing.total == 62


def test_standings_credit_each_player_with_their_sides_round_score(finished_round, tournament):
    rows = {row.name: row.standing for row in standings_rows(tournament)}
    assert rows["Ada"].total == 4 * 61 and rows["Ada"].rounds_won == 1
    assert rows["Cleo"].total == 4 * 60 and rows["Cleo"].rounds_won == 0


def played_round_1(**fields) -> Tournament:
    """Round 1 of a progressive event played out (North–South win every table, 244 to 240)."""
    tournament = make_tournament(**fields)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    return tournament


@pytest.mark.parametrize(
    ("credit", "points", "note"),
    [
        ("round_average", (2 * 244 + 2 * 240) // 4, "sat out: +242, average"),
        ("winners_average", 244, "sat out: +244, winners' average"),
        ("none", 0, "sat out: 0, nothing"),
    ],
)
def test_a_sitter_is_credited_as_the_rule_set_says(db, credit, points, note):
    tournament = played_round_1(couples=5, rule_overrides={"sit_out_credit": credit})
    rows = {row.name: row.standing for row in standings_rows(tournament)}
    iris = rows["Iris"].rounds[0]
    assert (iris.points, iris.sat_out, iris.won, rows["Iris"].rounds_won) == (points, True, None, 0)
    assert round_note(iris) == note


@pytest.mark.parametrize(
    ("counts", "winners", "losers", "note"),
    [
        (False, 242, 242, "tie broken by hand 5, not counted"),
        (True, 303, 302, "tie broken by hand 5, counted"),
    ],
)
def test_the_hand_breaking_a_tied_round_counts_only_when_the_rules_say_so(db, counts, winners, losers, note):
    tournament = make_tournament(couples=4, rule_overrides={"tie_hand_counts": counts})
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    tie_then_break(round_.games.get(table__number=1))
    for game in round_.games.exclude(table__number=1):
        finish_game(game)
    rows = {row.name: row.standing for row in standings_rows(tournament)}
    ada, cleo = rows["Ada"].rounds[0], rows["Cleo"].rounds[0]  # table 1: North–South won the fifth hand
    assert (ada.points, ada.won, cleo.points, cleo.won) == (winners, True, losers, False)
    assert round_note(ada) == round_note(cleo) == note
    assert round_note(rows["Eve"].rounds[0]) == ""  # table 2 played its four hands
    # Not counted, the tied table's losers (242) stay behind table 2's winners (244).
    assert (rows["Cleo"].rank > rows["Eve"].rank) == (not counts)


def test_a_tie_the_director_decides_without_an_extra_hand_has_no_note(db):
    tournament = make_tournament(couples=2)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    finish_game(game, ns_tricks=7, hands=2)
    finish_game(game, ns_tricks=6, hands=2)
    decide_tie(game=game, winner="NS", how="Cut of the cards")
    (first, *_) = standings_rows(tournament)
    assert first.standing.rounds[0].points == 242 and round_note(first.standing.rounds[0]) == ""


def test_prizes_by_place_pay_the_friendly_flyers_100_and_50(db):
    tournament = make_tournament(couples=4, preset="friendly", split=False, rounds_planned=1)
    Prize.objects.create(tournament=tournament, place=1, amount=Decimal("100"))
    Prize.objects.create(tournament=tournament, place=2, amount=Decimal("50"))
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    big = {"north_bid": "5", "south_bid": "5", "east_bid": "1", "west_bid": "1"}  # 10 for 200 each hand
    small = {"north_bid": "4", "south_bid": "4", "east_bid": "2", "west_bid": "3"}
    for game, bids in zip(round_.games.order_by("table__number"), (big, small), strict=True):
        _play_to_target(game, bids)
    close_round(round_=round_)
    payouts = {p.team.number: p.amount for p in award_prizes(tournament=tournament)}
    assert payouts == {1: Decimal("100.00"), 3: Decimal("50.00")}  # table 1's NS scored more than table 2's


def _play_to_target(game, bids):
    tricks = {"north_tricks": 6, "south_tricks": 5, "east_tricks": 1, "west_tricks": 1}
    number = 0
    while game.status != Game.Status.FINISHED:
        number += 1
        enter_hand(game=game, number=number, entry=HandEntry.from_fields(bids | tricks), source="table")
        game.refresh_from_db()


def test_share_prizes_split_the_fees_collected_to_the_cent(finished_round, tournament):
    for team in tournament.teams.all()[:7]:
        record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    Prize.objects.create(tournament=tournament, place=1, share_percent=Decimal("50"))
    Prize.objects.create(tournament=tournament, place=2, share_percent=Decimal("30"))
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    payouts = award_prizes(tournament=tournament)
    # $140 collected: 50% is $70 and 30% is $42, shared among the players level on points.
    assert sum(p.amount for p in payouts) == Decimal("112.00")
    assert ledger(tournament).house == Decimal("28.00")


def test_prizes_cannot_be_reassigned_once_paid(finished_round, tournament):
    Prize.objects.create(tournament=tournament, place=1, amount=Decimal("10"))
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    payout = award_prizes(tournament=tournament)[0]
    mark_payout_paid(payout=payout, received_by="Ada")
    with pytest.raises(ValidationError) as refused:
        award_prizes(tournament=tournament)
    assert refused.value.code == "paid"
    with pytest.raises(ValidationError):
        mark_payout_paid(payout=payout, received_by="Ada")


def test_prizes_wait_for_the_last_round(finished_round, tournament):
    Prize.objects.create(tournament=tournament, place=1, amount=Decimal("10"))
    with pytest.raises(ValidationError) as refused:
        award_prizes(tournament=tournament)
    assert refused.value.code == "not_finished"


def test_a_round_cannot_close_over_an_open_dispute(finished_round):
    hand = finished_round.games.get(table__number=2).hands.first()
    flag_dispute(hand=hand, note="EW count 7")
    with pytest.raises(RoundNotReady, match="disputed at table 2"):
        close_round(round_=finished_round)
    resolve_dispute(hand=hand, resolution="recounted")
    assert close_round(round_=finished_round).number == 2


def test_a_rule_change_rescores_every_game(finished_round, tournament):
    update_tournament(tournament=tournament, changes={"rule_overrides": {"overtrick_points": 0}})
    game = finished_round.games.get(table__number=1)
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (240, 240) and game.status == "tied"


def test_a_rule_change_that_breaks_a_stored_hand_is_refused_and_nothing_changes(finished_round, tournament):
    with pytest.raises(ValidationError, match=r"Round 1, table 1, hand 1: .*at least 7"):
        update_tournament(tournament=tournament, changes={"rule_overrides": {"min_team_bid": 7}})
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {}
    assert finished_round.games.get(table__number=1).ns_score == 4 * 61


def test_a_correction_in_a_closed_round_must_leave_the_game_decided(finished_round, director):
    close_round(round_=finished_round)
    game = finished_round.games.get(table__number=1)
    hand = game.hands.get(number=4)
    level = {**hand.snapshot(), "north_tricks": 3, "east_tricks": 4}  # 243 v 241: North–South still win
    enter_hand(
        game=game, number=4, entry=HandEntry.from_fields(level), source="director", by=director, expected_version=1
    )
    hand = game.hands.get(number=3)
    tie = {**hand.snapshot(), "north_tricks": 3, "east_tricks": 4}  # 242 v 242: undecided
    with pytest.raises(InvalidHand) as refused:
        enter_hand(
            game=game, number=3, entry=HandEntry.from_fields(tie), source="director", by=director, expected_version=1
        )
    assert refused.value.code == "closed_round_undecided"
    assert game.hands.get(number=3).version == 1


def test_a_correction_that_flips_a_closed_round_reseats_the_next_if_not_started(finished_round, director):
    following = close_round(round_=finished_round)
    game = finished_round.games.get(table__number=2)
    notices = []
    for number in range(1, 5):
        hand = game.hands.get(number=number)
        entry = HandEntry.from_fields({**hand.snapshot(), "north_tricks": 2, "east_tricks": 5})
        corrected = correct_hand(game=game, number=number, entry=entry, by=director,
                                          expected_version=hand.version)  # fmt: skip
        notices.append(corrected.notice)
    game.refresh_from_db()
    assert game.winner == "EW"
    assert "re-seated" in notices[0] and notices[1:] == ["", "", ""]  # the first correction flipped it
    table_1 = set(following.seatings.filter(table__number=1).values_list("player__name", flat=True))
    assert {"Gina", "Hugo"} <= table_1  # table 2's new winners moved up
