"""Standings order and prize awards (pure functions), with ties and every cent accounted for."""

from decimal import Decimal

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.test_printing import pages_text, produce
from tournament.models import Payment, Payout, Prize, Tournament
from tournament.money.ledger import ledger
from tournament.money.prizes import PrizeSpec, allocate, award
from tournament.money.services import award_prizes, mark_payout_paid, record_payment
from tournament.play.rounds import close_round
from tournament.printing.documents import payout_sheet
from tournament.standings.ranking import RoundScore, rank, round_note, round_notes, sit_out_credit, sit_out_points


def scores(*rounds: tuple[int, bool | None]) -> list[RoundScore]:
    return [RoundScore(i, points, won) for i, (points, won) in enumerate(rounds, start=1)]


def test_standings_rank_by_total_points_first():
    table = rank({"ann": scores((50, True), (30, False)), "bob": scores((90, True), (10, False))})
    assert [(s.rank, s.entrant, s.total) for s in table] == [(1, "bob", 100), (2, "ann", 80)]


def test_equal_totals_are_broken_by_rounds_won():
    table = rank({"ann": scores((50, True), (50, True)), "bob": scores((90, True), (10, False))})
    assert [s.entrant for s in table] == ["ann", "bob"]


def test_then_by_the_most_recent_round():
    table = rank({"ann": scores((70, True), (30, False)), "bob": scores((30, False), (70, True))})
    assert [s.entrant for s in table] == ["bob", "ann"]


def test_entrants_level_on_everything_share_a_rank():
    table = rank({"ann": scores((50, True)), "bob": scores((50, True)), "cy": scores((10, False))})
    assert [s.rank for s in table] == [1, 1, 3]


def test_a_missed_round_leaves_a_gap_and_counts_as_zero_in_the_tiebreak():
    late = [RoundScore(2, 50, True)]
    table = rank({"ann": scores((20, False), (30, True)), "late": late})
    assert [(s.entrant, [r and r.points for r in s.rounds]) for s in table] == [
        ("late", [None, 50]),
        ("ann", [20, 30]),
    ]
    level = rank({"ann": scores((25, True), (25, True)), "bob": [RoundScore(2, 25, True), RoundScore(3, 25, True)]})
    assert [s.entrant for s in level] == ["bob", "ann"]  # bob scored in the latest round, ann did not play it


def test_sit_out_credit_is_the_rounds_average_rounded_half_up():
    assert sit_out_points([40, 61]) == 51
    assert sit_out_points([40, 60, -10]) == 30
    assert sit_out_points([]) == 0


# --- prizes ---------------------------------------------------------------------------------------

FRIENDLY_PRIZES = [PrizeSpec(1, Decimal("100.00"), place=1), PrizeSpec(2, Decimal("50.00"), place=2)]


SIDES = [(61, True), (60, False), (83, True), (-40, False), (50, None)]  # the last table still playing


@pytest.mark.parametrize(
    ("basis", "credit"),
    [("round_average", (61 + 60 + 83 - 40 + 50 + 2) // 5), ("winners_average", 72), ("none", 0)],
)
def test_sit_out_credit_on_each_basis_a_director_can_choose(basis, credit):
    assert sit_out_credit(basis, SIDES) == credit


def test_winners_average_before_any_table_has_finished_is_nothing():
    assert sit_out_credit("winners_average", [(20, None), (30, None)]) == 0


@pytest.mark.parametrize(
    ("score", "note"),
    [
        (RoundScore(3, 139, None, sat_out=True, credit="round_average"), "sat out: +139, average"),
        (RoundScore(3, -12, None, sat_out=True, credit="winners_average"), "sat out: \u221212, winners' average"),
        (RoundScore(3, 0, None, sat_out=True, credit="none"), "sat out: 0, nothing"),
        (RoundScore(2, 242, True, tie_hand=5), "tie broken by hand 5, not counted"),
        (RoundScore(2, 302, False, tie_hand=6, tie_counted=True), "tie broken by hand 6, counted"),
        (RoundScore(2, 61, True), ""),
    ],
)
def test_a_round_with_a_note_says_what_its_points_are(score, note):
    assert round_note(score) == note


def test_the_notes_under_the_standings_name_each_round_once_with_its_mark():
    sat = RoundScore(2, 139, None, sat_out=True, credit="round_average")
    tie = RoundScore(1, 242, True, tie_hand=5)
    lines = [(tie, sat), (RoundScore(1, 242, False, tie_hand=5), RoundScore(2, 61, True)), (None, sat)]
    assert round_notes(lines) == [
        "\u2020 Round 1: tie broken by hand 5, not counted",
        "* Round 2: sat out: +139, average",
    ]


def totals(awards) -> dict:
    out: dict = {}
    for a in awards:
        out[a.entrant] = out.get(a.entrant, Decimal("0")) + a.amount
    return out


def test_fixed_prizes_by_place_as_the_friendly_flyer_pays():
    table = rank({"t1": scores((300, True)), "t2": scores((200, True)), "t3": scores((100, False))})
    assert totals(award(FRIENDLY_PRIZES, table, ties="share")) == {"t1": Decimal("100.00"), "t2": Decimal("50.00")}


def test_two_tied_for_first_share_first_and_second():
    table = rank({"t1": scores((300, True)), "t2": scores((300, False)), "t3": scores((100, False))})
    assert totals(award(FRIENDLY_PRIZES, table, ties="share")) == {"t1": Decimal("75.00"), "t2": Decimal("75.00")}


def test_tiebreak_rule_lets_rounds_won_decide():
    table = rank({"t1": scores((300, True)), "t2": scores((300, False)), "t3": scores((100, False))})
    assert totals(award(FRIENDLY_PRIZES, table, ties="tiebreak")) == {"t1": Decimal("100.00"), "t2": Decimal("50.00")}


def test_three_way_tie_for_second_splits_to_the_cent():
    table = rank({"a": scores((9, True)), "b": scores((5, True)), "c": scores((5, True)), "d": scores((5, True))})
    won = totals(award(FRIENDLY_PRIZES, table, ties="share"))
    assert won["a"] == Decimal("100.00")
    assert sorted(won[x] for x in "bcd") == [Decimal("16.66"), Decimal("16.67"), Decimal("16.67")]


def test_odd_cents_of_several_shared_prizes_spread_over_the_tied_group():
    prizes = [PrizeSpec(1, Decimal("100.00"), place=1), PrizeSpec(2, Decimal("50.00"), place=2),
              PrizeSpec(3, Decimal("10.00"), place=3)]  # fmt: skip
    table = rank({"a": scores((5, True)), "b": scores((5, True)), "c": scores((5, True))})
    won = totals(award(prizes, table, ties="share"))
    assert sum(won.values()) == Decimal("160.00")
    assert max(won.values()) - min(won.values()) <= Decimal("0.01")


def test_division_prize_goes_to_the_best_of_the_division_without_a_place_prize():
    prizes = [PrizeSpec(1, Decimal("20.00"), place=1), PrizeSpec(9, Decimal("10.00"), division="female")]
    table = rank({"ann": scores((90, True)), "bob": scores((80, True)), "cat": scores((70, True))})
    divisions = {"ann": "female", "cat": "female"}
    awards = award(prizes, table, ties="share", divisions=divisions)
    assert [(a.prize_id, a.entrant) for a in awards] == [(1, "ann"), (9, "cat")]


def test_unknown_tie_rule_is_a_bug():
    with pytest.raises(ValueError):
        award(FRIENDLY_PRIZES, [], ties="coin")


@given(
    total=st.decimals(min_value=0, max_value=100000, places=2),
    weights=st.lists(st.integers(min_value=1, max_value=100), min_size=1, max_size=12),
)
def test_allocate_accounts_for_every_cent(total, weights):
    shares = allocate(total, weights)
    assert sum(shares) == total
    assert all(share >= 0 and share == share.quantize(Decimal("0.01")) for share in shares)


# --- the prizes against the fees (database) -------------------------------------------------------------


@pytest.fixture
def closed(finished_round, tournament):
    """The event over, every team paid in full."""
    close_round(round_=finished_round)
    for team in tournament.teams.all():
        record_payment(team=team, amount=tournament.entry_fee, kind="payment", method="cash")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.django_db
def test_a_share_of_the_fees_counts_fees_paid_never_money_owed_back(closed):
    fees = closed.entry_fee * closed.teams.count()
    closed.entry_fee -= Decimal("5.00")  # lowered after everyone paid: $5 each is owed back
    closed.save(update_fields=["entry_fee"])
    Prize.objects.create(tournament=closed, place=1, share_percent=Decimal("40"))
    payouts = award_prizes(tournament=closed)
    pool = fees - Decimal("5.00") * closed.teams.count()
    assert sum(p.amount for p in payouts) == pool * Decimal("0.40")
    book = ledger(closed)
    assert (book.fees_paid, book.owed_back) == (pool, fees - pool)
    assert book.house == pool - sum(p.amount for p in payouts)


@pytest.mark.django_db
def test_prizes_promised_beyond_the_fees_are_warned_of_and_paid_by_the_house(director_client, closed):
    fees = closed.entry_fee * closed.teams.count()
    for place, amount in ((1, fees), (2, Decimal("30.00"))):
        Prize.objects.create(tournament=closed, place=place, amount=amount)
    assert ledger(closed).shortfall == Decimal("30.00")
    warning = "The prizes promised ($190.00) exceed the fees collected ($160.00) by <strong>$30.00</strong>"
    for page in ("prizes", "dashboard"):
        assert warning in director_client.get(reverse(f"director:{page}", args=[closed.pk])).content.decode()
    award_prizes(tournament=closed)
    html = director_client.get(reverse("director:prizes", args=[closed.pk])).content.decode()
    assert warning in html and "Paid by the house" in html and "Stays with the house" not in html
    assert '<td class="num owes"><strong>$30.00</strong>' in html and "−$30.00" not in html
    text = " ".join(pages_text(produce(closed, payout_sheet(closed))))
    assert "Paid by the house $30.00" in text


@pytest.mark.django_db
def test_prizes_the_fees_cover_bring_no_warning(director_client, closed):
    Prize.objects.create(tournament=closed, place=1, share_percent=Decimal("100"))
    html = director_client.get(reverse("director:prizes", args=[closed.pk])).content.decode()
    assert ledger(closed).shortfall == 0 and "exceed the fees" not in html and "Stays with the house" in html


@pytest.fixture
def awarded(closed):
    Prize.objects.create(tournament=closed, place=1, amount=Decimal("40.00"))
    award_prizes(tournament=closed)
    return closed


@pytest.mark.django_db
def test_a_payout_is_paid_by_the_method_chosen_and_the_sheet_shows_it(director_client, awarded):
    payout = Payout.objects.filter(prize__tournament=awarded).first()
    url = reverse("director:payout_paid", args=[awarded.pk, payout.pk])
    assert director_client.post(url, {"received_by": "Ada Brooks", "method": "card"}).status_code == 302
    payout.refresh_from_db()
    assert (payout.received_by, payout.method, payout.paid_at is not None) == ("Ada Brooks", "card", True)
    assert "(card)" in director_client.get(reverse("director:prizes", args=[awarded.pk])).content.decode()
    text = " ".join(pages_text(produce(awarded, payout_sheet(awarded))))
    assert "Paid by" in text and "Card" in text


@pytest.mark.django_db
def test_marking_a_payout_paid_refuses_bad_input_wrong_requests_and_strangers(
    director_client, awarded, django_user_model
):
    payout = Payout.objects.filter(prize__tournament=awarded).first()
    url = reverse("director:payout_paid", args=[awarded.pk, payout.pk])
    page = director_client.post(url, {"received_by": "Ada", "method": "iou"}, follow=True).content.decode()
    assert "Paid by: Select a valid choice." in page
    assert director_client.get(url).status_code == 405
    assert director_client.post(url.replace(f"/{payout.pk}/", "/999999/"), {"received_by": "Ada"}).status_code == 404
    stranger = django_user_model.objects.create_user("sam", password="a-long-password-1", is_staff=True)
    director_client.force_login(stranger)
    assert director_client.post(url, {"received_by": "Ada", "method": "cash"}).status_code == 404
    director_client.logout()
    assert director_client.post(url, {"received_by": "Ada", "method": "cash"}).status_code == 302
    payout.refresh_from_db()
    assert payout.paid_at is None


@pytest.mark.django_db
def test_a_payout_paid_without_a_method_named_is_cash(awarded):
    payout = Payout.objects.filter(prize__tournament=awarded).first()
    mark_payout_paid(payout=payout, received_by="Ada")
    payout.refresh_from_db()
    assert payout.method == Payment.Method.CASH
