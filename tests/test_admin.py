"""The admin never writes around the services: rules through update_tournament (rescoring),
prizes through save_prize (their checks), money, rounds, seating and games read-only."""

import json
from decimal import Decimal

import pytest
from django.contrib import admin
from django.db import IntegrityError, transaction
from django.urls import reverse

from tournament.events.forms import TournamentForm
from tournament.models import Game, Payment, Payout, Prize, Round, Tournament
from tournament.money.services import record_payment, save_prize

pytestmark = pytest.mark.django_db


def _tournament_form(tournament: Tournament, **changes) -> dict:
    form = TournamentForm(instance=tournament)
    data = {name: form[name].value() for name in TournamentForm.Meta.fields}
    data = {k: ("" if v is None else v) for k, v in data.items()}
    data["require_confirmation"] = "on" if data["require_confirmation"] else ""
    data["third_place_match"] = "on" if data.get("third_place_match") else ""
    data.update({"memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0", **changes})
    return {k: v for k, v in data.items() if v is not False}


def test_a_rule_change_in_the_admin_rescores_every_hand(admin_client, finished_round):
    tournament = finished_round.tournament
    game = finished_round.games.get(table__number=1)
    before = (game.ns_score, game.ns_bags)
    data = _tournament_form(tournament, rule_overrides=json.dumps({"overtrick_points": 5}))
    response = admin_client.post(reverse("admin:tournament_tournament_change", args=[tournament.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    game.refresh_from_db()
    assert game.ns_score != before[0]
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {"overtrick_points": 5}


def test_a_rule_change_the_stored_hands_refuse_is_shown_and_nothing_changes(admin_client, finished_round):
    tournament = finished_round.tournament
    data = _tournament_form(tournament, rule_overrides=json.dumps({"min_player_bid": 4}))
    response = admin_client.post(reverse("admin:tournament_tournament_change", args=[tournament.pk]), data)
    assert response.status_code == 200
    assert "the new rules refuse it" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {}


def test_the_status_of_a_tournament_is_read_only_in_the_admin(admin_client, tournament):
    data = _tournament_form(tournament, status="finished", name="Renamed")
    admin_client.post(reverse("admin:tournament_tournament_change", args=[tournament.pk]), data)
    tournament.refresh_from_db()
    assert (tournament.name, tournament.status) == ("Renamed", Tournament.Status.REGISTRATION)


def test_money_rounds_and_games_are_read_only_in_the_admin(admin_client, finished_round):
    tournament = finished_round.tournament
    team = tournament.teams.first()
    payment = record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    prize = Prize.objects.create(tournament=tournament, place=1, amount=Decimal("50"))
    payout = Payout.objects.create(prize=prize, team=team, amount=Decimal("50"))
    game = finished_round.games.first()
    for model, obj, change in (
        ("payment", payment, {"kind": "refund", "amount": "500.00"}),
        ("payout", payout, {"paid_at_0": "2026-11-20", "paid_at_1": "20:00", "method": "card"}),
        ("round", finished_round, {"status": "closed"}),
        ("game", game, {"winner": "EW"}),
    ):
        change_url = reverse(f"admin:tournament_{model}_change", args=[obj.pk])
        assert admin_client.post(change_url, change).status_code == 403, model
        assert admin_client.get(reverse(f"admin:tournament_{model}_add")).status_code == 403, model
        assert admin_client.get(reverse(f"admin:tournament_{model}_changelist")).status_code == 200, model
    payment.refresh_from_db()
    payout.refresh_from_db()
    assert (payment.kind, payment.amount, payout.paid_at) == ("payment", Decimal("20.00"), None)
    assert Round.objects.get(pk=finished_round.pk).status == Round.Status.RUNNING
    assert Game.objects.get(pk=game.pk).winner == game.winner


def _prize_post(admin_client, tournament: Tournament, **values):
    data = {"tournament": tournament.pk, "kind": "place", "place": "", "division": "", "amount": "",
            "share_percent": "", **values}  # fmt: skip
    return admin_client.post(reverse("admin:tournament_prize_add"), data)


def test_prize_shares_over_100_percent_are_refused_in_the_admin(admin_client, tournament):
    assert _prize_post(admin_client, tournament, place="1", share_percent="60").status_code == 302
    response = _prize_post(admin_client, tournament, place="2", share_percent="50")
    assert response.status_code == 200
    assert "they can share out 100% at most" in response.content.decode()
    duplicate = _prize_post(admin_client, tournament, place="1", amount="10")
    assert "There is already a prize for place 1" in duplicate.content.decode()
    assert list(tournament.prizes.values_list("place", "share_percent")) == [(1, Decimal("60.00"))]


def test_prizes_are_deleted_one_at_a_time_in_the_admin_never_a_selection_at_once(admin_client, tournament):
    assert _prize_post(admin_client, tournament, place="1", share_percent="60").status_code == 302
    prize = tournament.prizes.get()
    listing = admin_client.get(reverse("admin:tournament_prize_changelist")).content.decode()
    assert "delete_selected" not in listing
    bulk = {"action": "delete_selected", "_selected_action": [prize.pk], "post": "yes"}
    admin_client.post(reverse("admin:tournament_prize_changelist"), bulk)
    assert tournament.prizes.filter(pk=prize.pk).exists()
    admin_client.post(reverse("admin:tournament_prize_delete", args=[prize.pk]), {"post": "yes"})
    assert not tournament.prizes.exists()


def test_the_service_checks_shares_under_the_tournaments_lock(tournament):
    save_prize(prize=Prize(tournament=tournament, place=1, share_percent=Decimal("70")))
    with pytest.raises(Exception, match="100% at most"):
        save_prize(prize=Prize(tournament=tournament, place=2, share_percent=Decimal("40")))
    assert tournament.prizes.count() == 1


def test_a_paid_prize_cannot_be_changed(tournament):
    prize = save_prize(prize=Prize(tournament=tournament, place=1, amount=Decimal("50")))
    Payout.objects.create(prize=prize, team=tournament.teams.first(), amount=Decimal("50"), paid_at="2026-11-20T20:00Z")
    prize.amount = Decimal("500")
    with pytest.raises(Exception, match="has been paid out"):
        save_prize(prize=prize)


@pytest.mark.parametrize(
    ("first", "second"),
    [({"place": 1}, {"place": 1}),
     ({"kind": "division", "division": "Female"}, {"kind": "division", "division": "female"})],
)  # fmt: skip
def test_the_database_holds_one_prize_a_place_and_a_division(tournament, first, second):
    Prize.objects.create(tournament=tournament, amount=Decimal("10"), **first)
    with pytest.raises(IntegrityError), transaction.atomic():
        Prize.objects.create(tournament=tournament, amount=Decimal("10"), **second)


def test_an_overpayment_cannot_come_in_through_the_admin(admin_client, tournament):
    team = tournament.teams.first()
    paying = {"team": team.pk, "kind": "payment", "amount": "500.00", "method": "cash", "recorded_at_0": "2026-11-20"}
    assert admin_client.post(reverse("admin:tournament_payment_add"), paying).status_code == 403
    assert not Payment.objects.exists()


def test_a_team_and_its_payments_are_not_edited_in_the_admin(admin_client, tournament):
    team = tournament.teams.first()
    record_payment(team=team, amount=Decimal("20.00"), kind="payment", method="cash")
    page = admin_client.get(reverse("admin:tournament_team_change", args=[team.pk])).content.decode()
    assert 'name="status"' not in page and 'name="payments-0-amount"' not in page
    assert Payment.objects.count() == 1


def test_every_admin_page_renders(admin_client, finished_round):
    Prize.objects.create(tournament=finished_round.tournament, place=1, amount=Decimal("10"))
    for model in admin.site._registry:
        meta = model._meta
        assert admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")).status_code == 200
        obj = model.objects.first()
        if obj is not None:
            change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
            assert admin_client.get(change).status_code == 200, meta.model_name


def test_rule_overrides_nested_1000_deep_are_a_field_error_in_the_admin(admin_client, tournament):
    data = _tournament_form(tournament, rule_overrides="[" * 1000 + "]" * 1000)
    response = admin_client.post(reverse("admin:tournament_tournament_change", args=[tournament.pk]), data)
    assert response.status_code == 200 and "Nested far too deep" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {}
