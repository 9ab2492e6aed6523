"""The fee ledger a treasurer counts the drawer against, and taking the fee at check-in."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.test_league import make_league
from tests.test_printing import pages_text, produce
from tournament.formats.league.services import build_schedule, load_schedule, open_night
from tournament.models import Payment, Payout, Prize
from tournament.money.ledger import fees_due, ledger, payment_entries, team_paid, teams_with_balance, totals_by_method
from tournament.money.services import mark_payout_paid, record_payment
from tournament.printing.documents import fee_ledger
from tournament.teams.services import check_in_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def takings(tournament, director):
    teams = {t.number: t for t in tournament.teams.all()}
    pay = record_payment
    pay(team=teams[1], amount=Decimal("20.00"), kind=Payment.Kind.PAYMENT, method="cash", by=director)
    pay(team=teams[2], amount=Decimal("20.00"), kind=Payment.Kind.PAYMENT, method="card", by=director)
    pay(team=teams[3], amount=Decimal("20.00"), kind=Payment.Kind.PAYMENT, method="cash", note="exact change")
    pay(team=teams[3], amount=Decimal("5.00"), kind=Payment.Kind.REFUND, method="cash", note="student rate")
    return tournament


def test_the_drawer_summary_counts_cash_and_card_apart(takings):
    rows = {row.method: (row.payments, row.refunds, row.net) for row in totals_by_method(takings)}
    assert rows == {
        "Cash": (Decimal("40.00"), Decimal("5.00"), Decimal("35.00")),
        "Card": (Decimal("20.00"), Decimal("0.00"), Decimal("20.00")),
    }
    assert [row.method for row in totals_by_method(takings)] == ["Cash", "Card"]


def test_the_fees_page_lists_every_payment_and_refund(director_client, takings):
    html = director_client.get(reverse("director:fees", args=[takings.pk])).content.decode()
    assert html.count('<tr><td class="when">') == 4
    assert (
        '3. Eve &amp; Finn</td><td>Refund</td><td>Cash</td><td class="num">−$5.00</td><td>–</td><td>student rate'
        in html
    )
    assert '1. Ada &amp; Ben</td><td>Payment</td><td>Cash</td><td class="num">$20.00</td><td>dee</td>' in html
    assert (
        '<th>Cash</th><td class="num">$40.00</td><td class="num">−$5.00</td><td class="num">–</td>'
        '<td class="num"><strong>$35.00' in html
    )


def test_the_ledger_pdf_has_every_entry_and_the_method_totals(takings):
    text = " ".join(pages_text(produce(takings, fee_ledger(takings))))
    assert "By method" in text and "$35.00" in text and "student rate" in text and "exact change" in text
    assert len(payment_entries(takings)) == 4


def test_checking_in_takes_the_fee_in_one_press(director_client, tournament, director):
    team = tournament.teams.get(number=4)
    url = reverse("director:team_arrive", args=[tournament.pk, team.pk])
    teams_page = director_client.get(reverse("director:teams", args=[tournament.pk])).content.decode()
    assert "Team 4 is here and paid $20.00 cash" in teams_page and url in teams_page
    response = director_client.post(url, {"method": "card"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Team 4 is checked in, paid $20.00 card." in response.content.decode()
    team.refresh_from_db()
    payment = team.payments.get()
    assert team.checked_in and (payment.amount, payment.method, payment.recorded_by) == (
        Decimal("20.00"),
        "card",
        director,
    )
    director_client.post(url, {"method": "cash"})  # a second press takes nothing more
    assert team.payments.count() == 1


def test_check_in_with_fee_refuses_an_unknown_method_and_wrong_requests(director_client, tournament):
    team = tournament.teams.get(number=4)
    url = reverse("director:team_arrive", args=[tournament.pk, team.pk])
    director_client.post(url, {"method": "iou"})
    team.refresh_from_db()
    assert not team.checked_in and not team.payments.exists()
    assert director_client.get(url).status_code == 405
    assert director_client.post(url.replace(f"/{team.pk}/", "/999/"), {"method": "cash"}).status_code == 404
    director_client.logout()
    assert director_client.post(url, {"method": "cash"}).status_code == 302 and not team.payments.exists()


def test_a_partly_paid_team_pays_only_the_rest_at_check_in(tournament):
    team = tournament.teams.get(number=5)
    record_payment(team=team, amount=Decimal("15.00"), kind=Payment.Kind.PAYMENT, method="cash")
    payment = check_in_team(team=team, method="cash")
    assert payment.amount == Decimal("5.00") and payment.note == "At check-in"


# --- a payment is never more than the team owes ---------------------------------------------------

OVERPAYMENTS = [
    # (paid before, kind, amount, refused with)
    ("0.00", "payment", "20.00", None),
    ("15.00", "payment", "5.00", None),
    ("15.00", "payment", "5.01", "overpayment"),
    ("15.00", "payment", "50.00", "overpayment"),
    ("20.00", "payment", "0.01", "overpayment"),
    ("20.00", "refund", "20.00", None),
    ("20.00", "refund", "20.01", "refund_too_large"),
]


@pytest.mark.parametrize(("before", "kind", "amount", "code"), OVERPAYMENTS)
def test_a_payment_above_what_the_team_owes_is_refused(tournament, before, kind, amount, code):
    team = tournament.teams.get(number=1)
    if Decimal(before):
        record_payment(team=team, amount=Decimal(before), kind="payment", method="cash")
    recorded = team.payments.count()
    if code is None:
        record_payment(team=team, amount=Decimal(amount), kind=kind, method="cash")
        assert team.payments.count() == recorded + 1
        return
    with pytest.raises(ValidationError) as refused:
        record_payment(team=team, amount=Decimal(amount), kind=kind, method="cash")
    assert [e.code for e in refused.value.error_dict["amount"]] == [code]
    assert team.payments.count() == recorded


def test_a_league_paid_by_the_night_takes_only_the_nights_seated(db):
    tournament = make_league(5, fee_per="night")  # one team rests each night
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    (resting,) = load_schedule(tournament).resting_on(1)
    playing = next(t for t in tournament.teams.all() if t != resting)
    with pytest.raises(ValidationError, match=r"\$0\.00 at most"):
        record_payment(team=resting, amount=tournament.entry_fee, kind="payment", method="cash")
    with pytest.raises(ValidationError, match=r"\$10\.00 at most"):
        record_payment(team=playing, amount=tournament.entry_fee * 2, kind="payment", method="cash")
    record_payment(team=playing, amount=fees_due(tournament)[playing.pk], kind="payment", method="cash")
    assert team_paid(playing) == tournament.entry_fee


def test_the_payments_page_refuses_an_overpayment_next_to_the_amount_naming_the_most(director_client, tournament):
    team = tournament.teams.get(number=2)
    record_payment(team=team, amount=Decimal("15.00"), kind="payment", method="cash")
    url = reverse("director:payments", args=[tournament.pk, team.pk])
    assert 'owes <strong class="owes">$5.00</strong>' in director_client.get(url).content.decode()
    response = director_client.post(url, {"kind": "payment", "amount": "50", "method": "cash", "note": ""})
    assert response.status_code == 422
    errors = response.context["form"].errors.as_data()["amount"]
    assert [e.code for e in errors] == ["overpayment"] and "$5.00 at most" in errors[0].message
    assert team_paid(team) == Decimal("15.00")
    response = director_client.post(url, {"kind": "payment", "amount": "5", "method": "card", "note": ""})
    assert response.status_code == 302 and team_paid(team) == Decimal("20.00")
    assert "owes nothing" in director_client.get(url).content.decode()


def test_the_payments_page_answers_wrong_requests_and_strangers(director_client, tournament, django_user_model):
    team = tournament.teams.get(number=2)
    url = reverse("director:payments", args=[tournament.pk, team.pk])
    paying = {"kind": "payment", "amount": "5", "method": "cash", "note": ""}
    assert director_client.put(url, paying).status_code == 405
    assert director_client.post(url.replace(f"/{team.pk}/", "/999/"), paying).status_code == 404
    stranger = django_user_model.objects.create_user("sam", password="a-long-password-1", is_staff=True)
    director_client.force_login(stranger)
    assert director_client.post(url, paying).status_code == 404
    director_client.logout()
    assert director_client.post(url, paying).status_code == 302 and not team.payments.exists()


# --- what teams paid beyond their fees is theirs ----------------------------------------------------


@pytest.fixture
def fee_lowered(takings):
    """Every team paid $20 (team 3 got $5 back); then the fee came down to $15."""
    for team in takings.teams.filter(number__gt=3):
        record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    takings.entry_fee = Decimal("15.00")
    takings.save(update_fields=["entry_fee"])
    return takings


def test_money_paid_beyond_the_fees_is_owed_back_and_not_in_the_pool(fee_lowered):
    book = ledger(fee_lowered)
    teams = teams_with_balance(fee_lowered)
    excess = sum((t.paid - fee_lowered.entry_fee for t in teams if t.paid > fee_lowered.entry_fee), Decimal(0))
    assert book.owed_back == excess and excess > 0
    assert book.fees_paid == book.collected - excess == fee_lowered.entry_fee * len(teams)
    assert book.house == book.fees_paid - book.prizes_awarded


def test_the_fees_page_lists_who_is_owed_back(director_client, fee_lowered):
    html = director_client.get(reverse("director:fees", args=[fee_lowered.pk])).content.decode()
    assert "Owed back to teams" in html and "Fees paid (the prize pool)" in html
    owed_back = html.split('class="grid owed-back"')[1].split("</table>")[0]
    assert owed_back.count("Record refund") == fee_lowered.teams.count() - 1  # team 3 paid $15 net


# --- the drawer pays the prizes -------------------------------------------------------------------------


@pytest.fixture
def prize_paid(takings):
    team = takings.teams.get(number=1)
    prize = Prize.objects.create(tournament=takings, place=1, amount=Decimal("30.00"))
    first = Payout.objects.create(prize=prize, team=team, amount=Decimal("18.00"))
    Payout.objects.create(prize=prize, team=takings.teams.get(number=2), amount=Decimal("12.00"))
    mark_payout_paid(payout=first, received_by="Ada", method=Payment.Method.CASH)
    return takings


def test_the_drawer_nets_out_prizes_paid_its_way(prize_paid):
    before = {row.method: row.net for row in totals_by_method(prize_paid)}
    rows = {row.method: row for row in totals_by_method(prize_paid)}
    paid = Payout.objects.get(paid_at__isnull=False)
    assert (
        rows["Cash"].paid_out == paid.amount
        and rows["Cash"].net == rows["Cash"].payments - rows["Cash"].refunds - paid.amount
    )
    assert rows["Card"].paid_out == 0
    mark_payout_paid(payout=Payout.objects.get(paid_at__isnull=True), received_by="Cleo", method="card")
    after = {row.method: row.net for row in totals_by_method(prize_paid)}
    assert after["Card"] == before["Card"] - Decimal("12.00") and after["Cash"] == before["Cash"]


def test_a_prize_paid_by_a_method_no_drawer_took_still_shows(takings):
    prize = Prize.objects.create(tournament=takings, place=1, amount=Decimal("10.00"))
    payout = Payout.objects.create(prize=prize, team=takings.teams.get(number=1), amount=Decimal("10.00"))
    mark_payout_paid(payout=payout, received_by="Ada", method=Payment.Method.CHECK)
    check = next(row for row in totals_by_method(takings) if row.method == "Check")
    assert (check.payments, check.paid_out, check.net) == (0, payout.amount, -payout.amount)


def test_a_payout_method_that_does_not_exist_is_refused(prize_paid):
    payout = Payout.objects.get(paid_at__isnull=True)
    with pytest.raises(ValidationError) as refused:
        mark_payout_paid(payout=payout, received_by="Cleo", method="iou")
    assert "method" in refused.value.error_dict
    payout.refresh_from_db()
    assert payout.paid_at is None


def test_the_fees_page_and_the_ledger_pdf_show_the_prizes_paid(director_client, prize_paid):
    html = director_client.get(reverse("director:fees", args=[prize_paid.pk])).content.decode()
    assert '<th>Cash</th><td class="num">$40.00</td><td class="num">−$5.00</td><td class="num">−$18.00</td>' in html
    text = " ".join(pages_text(produce(prize_paid, fee_ledger(prize_paid))))
    assert "Prizes paid" in text and "−$18.00" in text


def test_no_refunds_means_no_refund_line(director_client, tournament):
    record_payment(team=tournament.teams.get(number=1), amount=Decimal("20"), kind="payment", method="cash")
    html = director_client.get(reverse("director:fees", args=[tournament.pk])).content.decode()
    assert "<th>Refunds</th>" not in html and "−$0.00" not in html
