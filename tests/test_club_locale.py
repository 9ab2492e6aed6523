"""A club's time zone and currency symbol on its events' pages, sheets and exports: one club in
Chicago paying in dollars, one in Berlin paying in euros, served by the same process one request
after another without either's setting reaching the other's pages."""

import csv
import datetime
import io
import json
import zoneinfo
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from tests.conftest import finish_game, make_tournament
from tournament.clubs import locale
from tournament.models import Club, Dispute, Hand, Invitation, Payment, PrintJob, Prize, RosterPlayer, Tournament
from tournament.money.services import award_prizes, record_payment
from tournament.play.games import flag_dispute
from tournament.play.rounds import close_round, start_play, start_round
from tournament.printing import documents, jobs
from tournament.standings import snapshot
from tournament.transfer.csv import hands_csv
from tournament.transfer.write import import_tournament

pytestmark = pytest.mark.django_db

# 19:05 UTC on a Friday in November: 13:05 in Chicago (UTC−6), 20:05 in Berlin (UTC+1).
MOMENT = datetime.datetime(2026, 11, 20, 19, 5, tzinfo=datetime.UTC)


def club(name: str, time_zone: str, currency: str) -> Club:
    return Club.objects.create(name=name, time_zone=time_zone, currency=currency)


@pytest.fixture
def chicago(db) -> Tournament:
    return make_tournament(couples=4, club=club("Windy City Spades", "America/Chicago", "$"))


@pytest.fixture
def berlin(db) -> Tournament:
    return make_tournament(couples=4, club=club("Berliner Pik", "Europe/Berlin", "€"), name="Pik-Abend")


def paid_at_moment(tournament: Tournament, amount: str = "20.00") -> Payment:
    payment = record_payment(team=tournament.teams.get(number=1), amount=Decimal(amount), kind="payment",
                             method="cash")  # fmt: skip
    Payment.objects.filter(pk=payment.pk).update(recorded_at=MOMENT)
    return payment


def text_of(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def produce(tournament: Tournament, document: documents.Document) -> str:
    job = jobs.produce(tournament, document)  # the tests' task backend renders it as it is queued
    job.refresh_from_db()
    assert job.status == PrintJob.Status.DONE, job.error
    return text_of(bytes(job.pdf))


def hand_at_moment(tournament: Tournament) -> Hand:
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    finish_game(game, hands=1)
    game.hands.update(entered_at=MOMENT)
    return game.hands.get()


def assert_nothing_active() -> None:
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE
    assert locale.currency() == locale.DEFAULT_CURRENCY


# --- amounts ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "symbol", "shown"),
    [
        ("1250", "$", "$1,250.00"),
        ("20", "€", "€20.00"),
        ("-5", "£", "−£5.00"),
        ("20", "CHF", "CHF 20.00"),
        ("-150", "kr", "−kr 150.00"),
        ("0.5", "R$", "R$0.50"),
        ("5", "Fr.", "Fr. 5.00"),
    ],
)
def test_an_amount_is_written_after_its_symbol_and_a_code_is_set_apart_by_a_space(amount, symbol, shown):
    assert locale.format_money(amount, symbol) == shown


def test_an_amount_takes_the_active_clubs_symbol_and_the_default_outside_a_club(berlin):
    assert locale.format_money("20") == "$20.00"
    with locale.using(berlin.club):
        assert locale.format_money("20") == "€20.00"
        assert timezone.localtime(MOMENT).hour == 20
    assert_nothing_active()


# --- pages --------------------------------------------------------------------------------------------


def test_the_fee_page_shows_times_in_the_clubs_zone_and_amounts_in_its_currency(director_client, chicago, berlin):
    paid_at_moment(chicago)
    paid_at_moment(berlin)
    euros = director_client.get(reverse("director:fees", args=[berlin.pk])).content.decode()
    dollars = director_client.get(reverse("director:fees", args=[chicago.pk])).content.decode()
    assert "Fri Nov 20, 20:05" in euros and "€20.00" in euros and "$" not in euros.split("<main")[-1]
    assert "Fri Nov 20, 13:05" in dollars and "$20.00" in dollars and "€" not in dollars
    assert_nothing_active()  # each request's zone and symbol went with it


def test_the_prizes_page_and_the_dashboard_speak_the_clubs_currency(director_client, berlin):
    Prize.objects.create(tournament=berlin, place=1, amount="40")
    prizes = director_client.get(reverse("director:prizes", args=[berlin.pk])).content.decode()
    assert "€40.00" in prizes and "$40.00" not in prizes
    paid_at_moment(berlin)
    dashboard = director_client.get(reverse("director:dashboard", args=[berlin.pk])).content.decode()
    assert "€20.00" in dashboard


def test_a_message_about_money_uses_the_clubs_symbol(director_client, berlin):
    team = berlin.teams.get(number=1)
    url = reverse("director:team_arrive", args=[berlin.pk, team.pk])
    response = director_client.post(url, {"method": "cash"}, follow=True)
    assert response.status_code == 200
    assert "paid €20.00 cash" in response.content.decode()


def test_a_refused_payment_names_the_amounts_in_the_clubs_currency(director_client, berlin):
    team = berlin.teams.get(number=1)
    url = reverse("director:payments", args=[berlin.pk, team.pk])
    response = director_client.post(url, {"kind": "payment", "amount": "25.00", "method": "cash"})
    assert response.status_code == 422
    assert "€20.00 at most (due €20.00, paid €0.00)" in response.content.decode()


def test_a_payment_and_a_payout_name_their_amount_in_the_active_clubs_currency(berlin):
    payment = paid_at_moment(berlin)
    assert str(payment) == "Payment of $20.00 for team 1"  # no club active: the default symbol
    with locale.using(berlin.club):
        assert str(payment) == "Payment of €20.00 for team 1"


def test_the_tables_phone_page_shows_a_disputes_time_in_the_clubs_zone(client, berlin, chicago):
    for tournament, shown in ((berlin, "raised 20:05"), (chicago, "raised 13:05")):
        hand = hand_at_moment(tournament)
        flag_dispute(hand=hand, note="Revoke at trick 9")
        Dispute.objects.filter(hand=hand).update(raised_at=MOMENT)
        page = client.get(reverse("table:page", args=[hand.game.table.token]))
        assert page.status_code == 200 and shown in page.content.decode()
    assert_nothing_active()


class _Fixed:
    """django.utils.timezone as the snapshot module sees it, with "now" at :data:`MOMENT`."""

    @staticmethod
    def now() -> datetime.datetime:
        return MOMENT


@pytest.mark.parametrize("htmx", [{}, {"HTTP_HX_REQUEST": "true"}], ids=["page", "poll"])
@pytest.mark.parametrize("page", ["public:standings", "public:projector"])
def test_a_public_page_says_as_of_when_in_the_clubs_zone(client, berlin, chicago, monkeypatch, page, htmx):
    monkeypatch.setattr(snapshot, "timezone", _Fixed)
    euros = client.get(reverse(page, args=[berlin.pk]), **htmx).content.decode()
    dollars = client.get(reverse(page, args=[chicago.pk]), **htmx).content.decode()
    assert "20:05" in euros and "19:05" not in euros and "13:05" not in euros
    assert "13:05" in dollars and "20:05" not in dollars


def test_a_roster_persons_page_dates_in_the_clubs_zone(director_client, berlin):
    person = RosterPlayer.objects.filter(club=berlin.club).first()
    # Late on the 20th in UTC is already the 21st in Berlin.
    RosterPlayer.objects.filter(pk=person.pk).update(
        created_at=datetime.datetime(2026, 11, 20, 23, 30, tzinfo=datetime.UTC)
    )
    html = director_client.get(reverse("director:roster_player", args=[person.club_id, person.pk])).content.decode()
    assert "since Sat Nov 21, 2026" in html


def test_the_join_page_gives_an_invitations_expiry_in_its_clubs_zone(client, berlin, chicago):
    for tournament, shown in ((berlin, "27 Nov 2026 20:05"), (chicago, "27 Nov 2026 13:05")):
        invitation, token = Invitation.issue(club=tournament.club, role="assistant")
        Invitation.objects.filter(pk=invitation.pk).update(expires_at=MOMENT + datetime.timedelta(days=7))
        page = client.get(reverse("join", args=[token])).content.decode()
        assert f"until {shown}." in page, tournament.club


def test_the_first_owners_join_page_keeps_the_servers_zone(client, db):
    invitation, token = Invitation.issue(club=None, club_name="Riverside", role="owner")
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=MOMENT)
    assert "until 20 Nov 2026 19:05" in client.get(reverse("join", args=[token])).content.decode()


def test_a_page_that_fails_leaves_no_zone_behind(director_client, berlin):
    assert director_client.get(reverse("director:payments", args=[berlin.pk, 9999])).status_code == 404
    assert_nothing_active()


def test_a_page_of_no_club_keeps_the_servers_zone_and_the_default_symbol(director_client, berlin):
    director_client.get(reverse("director:fees", args=[berlin.pk]))
    home = director_client.get(reverse("director:home"))
    assert home.status_code == 200
    assert_nothing_active()


def kiritimati_days() -> set[str]:
    """The Line Islands' today (UTC+14), as it may turn over while a test runs."""
    return {timezone.localdate(timezone=zoneinfo.ZoneInfo("Pacific/Kiritimati")).isoformat()}


@pytest.fixture
def islands(settings) -> Club:
    """A club in the Line Islands (UTC+14) on a server in American Samoa (UTC−11): 25 hours apart,
    so the club's today is never the server's."""
    settings.TIME_ZONE = "Pacific/Pago_Pago"
    return club("Line Islands", "Pacific/Kiritimati", "$")


def test_a_new_events_date_is_its_clubs_today(client, django_user_model, islands):
    user = django_user_model.objects.create_user("kiri", is_staff=True)
    islands.members.create(user=user, role="owner")
    client.force_login(user)
    days = kiritimati_days()
    html = client.get(reverse("director:tournament_new")).content.decode()
    days |= kiritimati_days()
    assert any(f'value="{day}"' in html for day in days)
    assert f'value="{timezone.localdate().isoformat()}"' not in html


# --- sheets -------------------------------------------------------------------------------------------


def test_the_fee_ledger_pdf_prints_the_clubs_times_and_currency(berlin, chicago):
    paid_at_moment(berlin)
    paid_at_moment(chicago)
    euros = produce(berlin, documents.fee_ledger(berlin))
    dollars = produce(chicago, documents.fee_ledger(chicago))
    assert "Fri Nov 20, 20:05 1. Ada & Ben" in euros and "€20.00" in euros and "$" not in euros
    assert "Fri Nov 20, 13:05 1. Ada & Ben" in dollars and "$20.00" in dollars and "€" not in dollars
    assert_nothing_active()


def test_the_payout_pdf_and_the_handout_print_prizes_in_the_clubs_currency(berlin):
    for team in berlin.teams.all():
        record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    Prize.objects.create(tournament=berlin, place=1, amount="40")
    handout = produce(berlin, documents.rule_handout(berlin))
    assert "1st place €40.00" in handout
    round_ = start_play(tournament=berlin)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    close_round(round_=round_)
    berlin.status = Tournament.Status.FINISHED
    berlin.save()
    award_prizes(tournament=berlin)
    payouts = produce(berlin, documents.payout_sheet(berlin))
    assert "€40.00" in payouts or "€20.00" in payouts
    assert "$" not in payouts


# --- exports ------------------------------------------------------------------------------------------


def test_the_hands_csv_gives_entry_times_in_the_clubs_zone_and_names_it(director_client, berlin, chicago):
    hand_at_moment(berlin)
    hand_at_moment(chicago)
    for tournament, zone, shown in ((berlin, "Europe/Berlin", "2026-11-20 20:05:00"),
                                    (chicago, "America/Chicago", "2026-11-20 13:05:00")):  # fmt: skip
        response = director_client.get(reverse("director:export_hands", args=[tournament.pk]))
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert rows[0][f"entered at ({zone})"] == shown
    assert hands_csv(berlin).splitlines()[0].endswith("confirmed by,entered at (Europe/Berlin)")


def test_the_json_export_gives_times_with_the_clubs_offset(director_client, berlin, chicago):
    paid_at_moment(berlin)
    paid_at_moment(chicago)
    for tournament, shown in ((berlin, "2026-11-20T20:05:00+01:00"), (chicago, "2026-11-20T13:05:00-06:00")):
        response = director_client.get(reverse("director:export_json", args=[tournament.pk]))
        data = json.loads(b"".join(response.streaming_content) if response.streaming else response.content)
        assert data["teams"][0]["payments"][0]["recorded_at"] == shown


def test_an_exported_time_comes_back_as_the_same_moment_in_another_clubs_event(director_client, berlin, chicago):
    paid_at_moment(berlin)
    response = director_client.get(reverse("director:export_json", args=[berlin.pk]))
    data = json.loads(b"".join(response.streaming_content) if response.streaming else response.content)
    copy = import_tournament(data, club=chicago.club)
    assert Payment.objects.get(team__tournament=copy, team__number=1).recorded_at == MOMENT


def test_a_restored_copys_name_carries_its_clubs_day(islands):
    from tournament.transfer.export import export_tournament

    original = make_tournament(couples=2, club=islands, name="Night")
    days = kiritimati_days()
    copy = import_tournament(export_tournament(original), club=islands)
    days |= kiritimati_days()
    assert copy.name in {f"Night (restored {day})" for day in days}
