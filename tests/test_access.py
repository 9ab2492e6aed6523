"""Who reaches what: tournaments belong to their directors, assistants run rounds but not money
or rules, the superuser sees all; logins are throttled per address and per account."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.conftest import a_club, even_hand, make_tournament
from tests.test_views_director import NEW
from tournament.access import ASSISTANT_PAGES, role_of, visible_tournaments
from tournament.clubs.services import create_club, grant
from tournament.models import ClubMember, Hand, Payment, Round, Tournament
from tournament.play.rounds import start_play
from tournament.transfer.export import export_tournament
from tournament.urls import director_patterns

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    def make(name: str):
        return django_user_model.objects.create_user(name, password="a-long-password-1", is_staff=True)

    return make


@pytest.fixture
def owned(staff, running_round):
    tournament = running_round.tournament
    owner, helper = staff("olive"), staff("hank")
    grant(club=tournament.club, user=owner, role=ClubMember.Role.DIRECTOR)
    grant(club=tournament.club, user=helper, role=ClubMember.Role.ASSISTANT)
    return tournament, owner, helper


def _as(client, user):
    client.force_login(user)
    return client


def test_a_new_tournament_belongs_to_the_club_of_the_director_who_created_it(client, staff):
    olive = staff("olive")
    club = create_club(name="Olive's club", owner=olive)
    _as(client, olive).post(reverse("director:tournament_new"), NEW)
    tournament = Tournament.objects.get(name="Spring Open")
    assert tournament.club == club
    assert role_of(olive, tournament.pk) == ClubMember.Role.OWNER
    assert client.get(reverse("director:dashboard", args=[tournament.pk])).status_code == 200


def test_another_director_gets_404_and_does_not_see_it_listed(client, staff, owned):
    tournament, _, _ = owned
    stranger = _as(client, staff("sam"))
    game = tournament.rounds.get().games.first()
    for target in (
        reverse("director:dashboard", args=[tournament.pk]),
        reverse("director:game", args=[tournament.pk, game.pk]),
        reverse("director:export_json", args=[tournament.pk]),
        reverse("director:print_document", args=[tournament.pk, "standings"]),
    ):
        assert stranger.get(target).status_code == 404, target
    assert stranger.post(reverse("director:round_close", args=[tournament.pk, 1])).status_code == 404
    assert tournament.name not in stranger.get(reverse("director:home")).content.decode()


@pytest.mark.parametrize(
    ("page", "extra"),
    [("payments", "team"), ("fees", None), ("tournament_edit", None), ("prizes", None), ("prize_add", None),
     ("prizes_award", None), ("export_json", None), ("print_document", "payouts"), ("print_document", "fee-ledger")],
)  # fmt: skip
def test_an_assistant_cannot_reach_money_or_rules(client, owned, page, extra):
    tournament, _, helper = owned
    args = [tournament.pk]
    if extra == "team":
        args.append(tournament.teams.first().pk)
    elif extra:
        args.append(extra)
    client = _as(client, helper)
    response = client.get(reverse(f"director:{page}", args=args))
    assert response.status_code == 403
    assert "assistants run rounds and hands only" in response.content.decode()
    if page == "payments":
        post = client.post(reverse("director:payments", args=args), {"kind": "refund", "amount": "5", "method": "cash"})
        assert post.status_code == 403 and not Payment.objects.exists()


def test_an_assistants_dashboard_links_only_to_the_pages_they_may_open(client, owned):
    tournament, owner, helper = owned
    director_only = [reverse(f"director:{page}", args=[tournament.pk])
                     for page in ("fees", "prizes", "tournament_edit", "export_json")]  # fmt: skip
    shared = reverse("director:teams", args=[tournament.pk])
    dashboard = reverse("director:dashboard", args=[tournament.pk])
    for user, sees_money in ((owner, True), (helper, False)):
        html = _as(client, user).get(dashboard).content.decode()
        assert f'href="{shared}"' in html
        assert [f'href="{url}"' in html for url in director_only] == [sees_money] * 4, user


def test_an_assistant_runs_rounds_and_corrects_hands(client, owned):
    tournament, _, helper = owned
    client = _as(client, helper)
    game = tournament.rounds.get().games.get(table__number=1)
    assert client.get(reverse("director:dashboard", args=[tournament.pk])).status_code == 200
    assert client.get(reverse("director:print_document", args=[tournament.pk, "standings"])).status_code == 200
    hand = {**even_hand(), "number": 1}
    response = client.post(reverse("director:game_hand", args=[tournament.pk, game.pk]), hand)
    assert response.status_code == 302
    correction = {**even_hand(8), "number": 1, "version": 1}
    client.post(reverse("director:game_hand", args=[tournament.pk, game.pk]), correction)
    stored = Hand.objects.get(game=game, number=1)
    assert stored.version == 2 and stored.revisions.last().changed_by == helper


def test_the_superuser_and_the_owner_see_everything(client, owned, director, staff):
    tournament, owner, _ = owned
    other = make_tournament(couples=2, name="Elsewhere", club=a_club("Another club"))
    assert set(visible_tournaments(director)) >= {tournament, other}
    assert list(visible_tournaments(owner)) == [tournament]
    assert _as(client, owner).get(reverse("director:fees", args=[tournament.pk])).status_code == 200


def test_starting_a_round_is_open_to_an_assistant(client, staff, tournament):
    helper = staff("hank")
    grant(club=tournament.club, user=helper, role=ClubMember.Role.ASSISTANT)
    start_play(tournament=tournament)
    _as(client, helper).post(reverse("director:round_start", args=[tournament.pk, 1]))
    assert tournament.rounds.get().status == Round.Status.RUNNING


# --- login throttling ------------------------------------------------------------------------------


def _attempt(client, url: str, username: str, password: str, address: str = "10.0.0.7"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("login", ["login", "admin:login"])
def test_five_wrong_passwords_lock_the_account_and_say_when_to_retry(client, staff, login):
    staff("olive")
    url = reverse(login)
    for _ in range(4):
        assert _attempt(client, url, "olive", "wrong").status_code == 200
    locked = _attempt(client, url, "olive", "wrong")
    assert locked.status_code == 429
    # The right password is refused too while the lock lasts, from another address as well.
    again = _attempt(client, url, "olive", "a-long-password-1", address="10.0.0.99")
    assert again.status_code == 429
    text = again.content.decode()
    assert "Try again after " in text and "(15 minutes at most)" in text and again["Retry-After"] == "900"
    assert "_auth_user_id" not in client.session


def test_one_address_guessing_many_accounts_is_locked_out(client, staff):
    staff("olive")
    url = reverse("login")
    for name in ("a", "b", "c", "d", "e"):
        _attempt(client, url, name, "wrong", address="10.0.0.8")
    assert _attempt(client, url, "olive", "a-long-password-1", address="10.0.0.8").status_code == 429
    assert _attempt(client, url, "olive", "a-long-password-1", address="10.0.0.9").status_code == 302


def test_a_good_login_after_a_few_mistakes_works(client, staff):
    staff("olive")
    url = reverse("login")
    for _ in range(3):
        _attempt(client, url, "olive", "wrong")
    assert _attempt(client, url, "olive", "a-long-password-1").status_code == 302


def test_an_imported_tournament_belongs_to_the_club_it_was_imported_into(client, staff, tournament):
    olive = staff("olive")
    club = create_club(name="Olive's club", owner=olive)
    upload = SimpleUploadedFile("t.json", json.dumps(export_tournament(tournament)).encode())
    response = _as(client, olive).post(reverse("director:import"), {"file": upload, "club": club.pk})
    assert response.status_code == 302
    imported = Tournament.objects.exclude(pk=tournament.pk).get()
    assert imported.club == club
    assert role_of(olive, imported.pk) == ClubMember.Role.OWNER
    assert role_of(olive, tournament.pk) is None


def test_an_assistant_is_not_shown_links_to_money_or_rules(client, owned):
    tournament, owner, helper = owned
    fees = reverse("director:fees", args=[tournament.pk])
    edit = reverse("director:tournament_edit", args=[tournament.pk])
    dashboard = reverse("director:dashboard", args=[tournament.pk])
    as_helper = _as(client, helper).get(dashboard).content.decode()
    assert fees not in as_helper and edit not in as_helper
    assert reverse("director:round", args=[tournament.pk, 1]) in as_helper
    as_owner = _as(client, owner).get(dashboard).content.decode()
    assert fees in as_owner and edit in as_owner


def test_every_page_an_assistant_may_use_exists():
    assert {pattern.name for pattern in director_patterns} >= ASSISTANT_PAGES
