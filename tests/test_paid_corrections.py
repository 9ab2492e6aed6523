"""Corrections after prizes are paid: the director is warned before a correction that gives a paid
prize to someone else, saves it only on confirming, and the prizes page lists it to review."""

from decimal import Decimal

import pytest
from django.urls import reverse

from scoring import HandEntry
from tests.conftest import even_hand
from tests.events import correct_hand
from tournament.models import Hand, Payout, Prize, Tournament
from tournament.money.prizes import Award, Paid, holders, moved, no_longer_held
from tournament.money.services import award_prizes, mark_payout_paid, record_payment
from tournament.money.winners import PaidPlacesMove, payouts_to_review
from tournament.play.rounds import close_round
from tournament.play.views import CONFIRM_FIELD

# --- which paid payouts a change moves (pure) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "moves"),
    [({1: {"ann"}}, {1: {"bob"}}, [1]),  # 1st place goes to someone else
     ({1: {"ann"}}, {1: {"ann", "bob"}}, []),  # shared now: ann still holds it
     ({1: {"ann"}}, {1: {"ann"}}, []),  # nothing moved
     ({1: {"bob"}}, {1: {"bob"}}, []),  # already someone else's before: no news, the review list has it
     ({1: {"bob"}}, {1: {"cy"}}, [1]),  # someone else's before, and moved again
     ({1: {"ann"}}, {}, [1])],  # nobody holds it now
)  # fmt: skip
def test_a_change_moves_the_paid_payouts_whose_prize_it_takes_from_the_payee(before, after, moves):
    paid = [Paid(1, 1, "ann"), Paid(2, 2, "cy")]
    as_held = {prize: frozenset(entrants) for prize, entrants in before.items()} | {2: frozenset({"cy"})}
    now = {prize: frozenset(entrants) for prize, entrants in after.items()} | {2: frozenset({"cy"})}
    assert [p.id for p in moved(paid, as_held, now)] == moves


def test_a_paid_payout_to_review_is_one_whose_prize_the_payee_does_not_hold():
    paid = [Paid(1, 1, "ann"), Paid(2, 1, "bob"), Paid(3, 2, "cy")]
    now = holders([Award(1, "ann", Decimal("20")), Award(1, "dan", Decimal("20")), Award(2, "cy", Decimal("5"))])
    assert [p.id for p in no_longer_held(paid, now)] == [2]


# --- the director's correction (database) -------------------------------------------------------------


def _hand(ns_tricks: int) -> HandEntry:
    return HandEntry.from_fields(even_hand(ns_tricks))


@pytest.fixture
def paid(finished_round, tournament):
    """The event over: table 1's North–South players lead by one point (245 to 244) and share
    the $40 first prize, both halves paid."""
    table_1 = finished_round.games.get(table__number=1)
    correct_hand(game=table_1, number=1, entry=_hand(8), expected_version=1)  # NS 62 instead of 61
    close_round(round_=finished_round)
    for team in tournament.teams.all():
        record_payment(team=team, amount=tournament.entry_fee, kind="payment", method="cash")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    Prize.objects.create(tournament=tournament, place=1, amount=Decimal("40.00"))
    for payout in award_prizes(tournament=tournament):
        mark_payout_paid(payout=payout, received_by=payout.recipient)
    return tournament


def _ns_names(game) -> set[str]:
    return {s.player.name for s in game.round.seatings.filter(table=game.table, seat__in=["N", "S"])}


def _post(client, tournament, table: int, ns_tricks: int, **extra):
    game = tournament.rounds.get(number=1).games.get(table__number=table)
    data = {"number": 1, "version": game.hands.get(number=1).version, **even_hand(ns_tricks), **extra}
    return game, client.post(reverse("director:game_hand", args=[tournament.pk, game.pk]), data)


@pytest.mark.django_db
def test_a_correction_that_moves_a_paid_place_warns_and_saves_nothing(director_client, paid):
    game, response = _post(director_client, paid, table=2, ns_tricks=9)  # table 2's NS now lead: 246 to 245
    assert response.status_code == 409
    page = response.content.decode()
    assert "This correction moves prizes already paid" in page and "Save the correction anyway" in page
    table_1, table_2 = _ns_names(paid.rounds.get(number=1).games.get(table__number=1)), _ns_names(game)
    moves = response.context["moved"].moves
    assert {m.payout.recipient for m in moves} == table_1
    assert all(set(m.held_by) == table_2 and m.payout.amount == Decimal("20.00") for m in moves)
    assert all(name in page for name in table_1 | table_2) and "1st place" in page and "$20.00" in page
    hand = game.hands.get(number=1)
    assert (hand.version, hand.north_tricks) == (1, 4)  # as it was: nothing saved
    assert payouts_to_review(paid) == []


@pytest.mark.django_db
def test_the_warning_posts_the_same_hand_again_with_the_confirmation(director_client, paid):
    _, response = _post(director_client, paid, table=2, ns_tricks=9)
    repost = dict(response.context["repost"])
    assert repost | {"number": int(repost["number"])} == {"number": 1, "version": "1", **{
        k: str(v) for k, v in even_hand(9).items()}}  # fmt: skip
    assert f'name="{CONFIRM_FIELD}" value="{response.context["moved"].token}"' in response.content.decode()


@pytest.mark.django_db
def test_confirming_saves_the_correction_and_the_prizes_page_lists_the_payouts_to_review(director_client, paid):
    _, warned = _post(director_client, paid, table=2, ns_tricks=9)
    token = warned.context["moved"].token
    game, response = _post(director_client, paid, table=2, ns_tricks=9, **{CONFIRM_FIELD: token})
    assert response.status_code == 302
    assert game.hands.get(number=1).north_tricks == 6
    page = director_client.get(response["Location"]).content.decode()
    assert "After this correction 2 payouts already paid belong to someone else" in page
    prizes = director_client.get(reverse("director:prizes", args=[paid.pk])).content.decode()
    assert "Paid prizes to review" in prizes
    review = payouts_to_review(paid)
    assert {m.payout.recipient for m in review} == _ns_names(paid.rounds.get(number=1).games.get(table__number=1))
    assert all(set(m.held_by) == _ns_names(game) for m in review)
    assert all(m.payout.recipient in prizes for m in review) and "Holds it now" in prizes


@pytest.mark.django_db
def test_the_review_list_goes_once_the_places_are_back_with_the_payees(director_client, paid):
    _, warned = _post(director_client, paid, table=2, ns_tricks=9)
    _post(director_client, paid, table=2, ns_tricks=9, **{CONFIRM_FIELD: warned.context["moved"].token})
    _, back = _post(director_client, paid, table=2, ns_tricks=7)  # gives 1st back: no warning
    assert back.status_code == 302
    assert payouts_to_review(paid) == []
    prizes = director_client.get(reverse("director:prizes", args=[paid.pk])).content.decode()
    assert "Paid prizes to review" not in prizes and "Winners and payouts" in prizes


@pytest.mark.django_db
def test_a_confirmation_for_other_moves_warns_again(director_client, paid):
    _, response = _post(director_client, paid, table=2, ns_tricks=9, **{CONFIRM_FIELD: "1-2_3-4"})
    assert response.status_code == 409 and response.context["moved"].moves
    assert response.context["moved"].token != "1-2_3-4"


@pytest.mark.parametrize("ns_tricks", [6, 8])  # table 3's NS fall behind, or climb level with the leaders
@pytest.mark.django_db
def test_a_correction_that_leaves_the_paid_places_saves_at_once(director_client, paid, ns_tricks):
    game, response = _post(director_client, paid, table=3, ns_tricks=ns_tricks)
    assert response.status_code == 302
    assert game.hands.get(number=1).version == 2
    assert payouts_to_review(paid) == []


@pytest.mark.django_db
def test_without_paid_prizes_a_correction_that_moves_places_saves_at_once(director_client, paid):
    Payout.objects.update(paid_at=None, received_by="")
    game, response = _post(director_client, paid, table=2, ns_tricks=9)
    assert response.status_code == 302 and game.hands.get(number=1).north_tricks == 6


@pytest.mark.django_db
def test_the_service_refuses_an_unconfirmed_move_and_rolls_the_correction_back(paid):
    game = paid.rounds.get(number=1).games.get(table__number=2)
    with pytest.raises(PaidPlacesMove) as refused:
        correct_hand(game=game, number=1, entry=_hand(9), expected_version=1)
    assert refused.value.code == "paid_places_move" and len(refused.value.moves) == 2
    assert Hand.objects.get(game=game, number=1).version == 1
    game.refresh_from_db()
    assert game.ns_score == 244


@pytest.mark.django_db
def test_a_stranger_cannot_confirm_a_correction(client, django_user_model, paid):
    _, warned = _post(client, paid, table=2, ns_tricks=9)
    assert warned.status_code == 302 and warned["Location"].startswith("/login/")
    client.force_login(django_user_model.objects.create_user("sam", password="a-long-password-1", is_staff=True))
    game, response = _post(client, paid, table=2, ns_tricks=9, **{CONFIRM_FIELD: "anything"})
    assert response.status_code == 404 and game.hands.get(number=1).version == 1


@pytest.mark.django_db
def test_a_rule_change_that_moves_paid_places_names_them_before_the_director_confirms(director_client, paid):
    from tests.test_rule_change import _post as post_rules

    # Every bag costing 100 sinks North–South (a bag a hand), so East–West lead and first prize is theirs.
    response = post_rules(director_client, paid, '{"bag_limit": 1, "bag_penalty": 100}')
    html = response.content.decode()
    assert "Prizes already paid would belong to someone else" in html
    payees = sorted(p.recipient for p in Payout.objects.filter(prize__tournament=paid))
    assert all(name in html for name in payees)
    assert Tournament.objects.get(pk=paid.pk).rule_overrides == {}  # nothing changed before confirming
    confirmed = post_rules(director_client, paid, '{"bag_limit": 1, "bag_penalty": 100}', confirm_rules="yes")
    assert confirmed.status_code == 302
    assert len(payouts_to_review(paid)) == len(payees)  # the prizes page lists them to review
