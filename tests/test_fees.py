"""The fee ledger a treasurer counts the drawer against, and taking the fee at check-in."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.test_printing import pages_text, produce
from tournament import printing, services
from tournament.models import Payment
from tournament.reports import payment_entries, totals_by_method

pytestmark = pytest.mark.django_db


@pytest.fixture
def takings(tournament, director):
    teams = {t.number: t for t in tournament.teams.all()}
    pay = services.record_payment
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
    text = " ".join(pages_text(produce(takings, printing.fee_ledger(takings))))
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
    services.record_payment(team=team, amount=Decimal("15.00"), kind=Payment.Kind.PAYMENT, method="cash")
    payment = services.check_in_team(team=team, method="cash")
    assert payment.amount == Decimal("5.00") and payment.note == "At check-in"
