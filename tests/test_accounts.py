"""Accounts without a terminal: password reset links (made by a superuser, or by an owner for an
account that is the club's alone; by email where the site sends email), the first owner's link
(manage.py first_owner), and EMAIL_URL read into Django's email settings."""

import datetime
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth.models import Group, Permission
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tournament.clubs.services import change_role, create_club, grant, invite
from tournament.models import Club, ClubMember, Invitation
from tournament.settings import parse_email_url

pytestmark = pytest.mark.django_db

Role = ClubMember.Role


@pytest.fixture
def person(django_user_model):
    def make(name: str, **fields):
        return django_user_model.objects.create_user(name, password="old-password-77", **fields)

    return make


@pytest.fixture
def club(person):
    club = create_club(name="Riverside", owner=person("olive"))
    grant(club=club, user=person("dan"), role=Role.DIRECTOR)
    return club


def _member(club, username):
    return club.members.get(user__username=username)


def _owner_makes_link(client, club, username) -> object:
    client.force_login(_member(club, "olive").user)
    return client.post(reverse("director:club_reset_link", args=[club.pk, _member(club, username).pk]))


def _choose_password(client, link: str, password: str = "brand-new-pass-31"):
    """Open a reset link as its person would and choose ``password``; the last answer."""
    client.logout()
    opened = client.get(link, follow=True)
    if not opened.context["validlink"]:
        return opened
    form_url = opened.redirect_chain[-1][0]
    return client.post(form_url, {"new_password1": password, "new_password2": password})


# --- reset links made by hand ---------------------------------------------------------------------


def test_the_owner_makes_a_reset_link_that_sets_a_new_password_once(client, club, django_user_model):
    response = _owner_makes_link(client, club, "dan")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    link = response.context["link"]
    assert link.startswith("http://testserver/reset/")
    assert _choose_password(client, link).status_code == 302
    dan = django_user_model.objects.get(username="dan")
    assert dan.check_password("brand-new-pass-31")
    again = _choose_password(client, link, "another-pass-99")
    assert again.status_code == 200 and "no longer works" in again.content.decode()
    dan.refresh_from_db()
    assert dan.check_password("brand-new-pass-31")


def _clock_moved(minutes: int) -> type:
    """A datetime whose now() is ``minutes`` ahead: what the reset tokens read the time with."""
    later = datetime.datetime.now() + datetime.timedelta(minutes=minutes)

    class Moved(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return later

    return Moved


def test_a_reset_link_expires_after_the_reset_timeout(client, club, settings, django_user_model):
    settings.PASSWORD_RESET_TIMEOUT = 3600
    link = _owner_makes_link(client, club, "dan").context["link"]
    with mock.patch("django.contrib.auth.tokens.datetime", _clock_moved(59)):
        assert client.get(link, follow=True).context["validlink"]
    with mock.patch("django.contrib.auth.tokens.datetime", _clock_moved(61)):
        expired = _choose_password(client, link)
    assert expired.status_code == 200 and "no longer works" in expired.content.decode()
    assert django_user_model.objects.get(username="dan").check_password("old-password-77")


def test_the_owner_may_not_reset_someone_who_is_in_another_club(client, club, person):
    other = create_club(name="Hilltop", owner=person("hugo"))
    grant(club=other, user=_member(club, "dan").user, role=Role.ASSISTANT)
    response = _owner_makes_link(client, club, "dan")
    assert response.status_code == 403
    assert "belongs to another club too" in response.content.decode()


def test_the_owner_may_not_reset_a_superuser_of_the_club(client, club, person):
    boss = person("boss", is_superuser=True)
    grant(club=club, user=boss, role=Role.DIRECTOR)
    response = _owner_makes_link(client, club, "boss")
    assert response.status_code == 403 and "only a superuser" in response.content.decode()


def test_a_superuser_resets_a_member_of_several_clubs(client, club, person):
    other = create_club(name="Hilltop", owner=person("hugo"))
    grant(club=other, user=_member(club, "dan").user, role=Role.ASSISTANT)
    client.force_login(person("root", is_superuser=True))
    response = client.post(reverse("director:club_reset_link", args=[club.pk, _member(club, "dan").pk]))
    assert response.status_code == 200 and "/reset/" in response.context["link"]


def test_reset_links_need_the_owner_a_member_and_a_post(client, club, person):
    url = reverse("director:club_reset_link", args=[club.pk, _member(club, "dan").pk])
    client.force_login(_member(club, "olive").user)
    assert client.get(url).status_code == 405
    assert client.post(reverse("director:club_reset_link", args=[club.pk, 9999])).status_code == 404
    client.force_login(_member(club, "dan").user)
    assert (
        client.post(reverse("director:club_reset_link", args=[club.pk, _member(club, "olive").pk])).status_code == 403
    )
    client.force_login(person("sam"))
    assert client.post(url).status_code == 404


def test_a_superuser_makes_a_reset_link_for_any_account(client, person, django_user_model):
    loner = person("loner")
    client.force_login(person("root", is_superuser=True))
    listing = client.get(reverse("director:accounts"))
    assert listing.status_code == 200 and "loner" in listing.content.decode()
    response = client.post(reverse("director:account_reset_link", args=[loner.pk]))
    assert response.status_code == 200
    assert _choose_password(client, response.context["link"]).status_code == 302
    assert django_user_model.objects.get(username="loner").check_password("brand-new-pass-31")


def _join_hilltop(user, person):
    grant(club=create_club(name="Hilltop", owner=person("hugo")), user=user, role=Role.ASSISTANT)


def _in_a_group(user, person):
    user.groups.add(Group.objects.create(name="Helpers"))


def _with_a_permission(user, person):
    user.user_permissions.add(Permission.objects.get(codename="view_club"))


def _made_superuser(user, person):
    user.is_superuser = True
    user.save(update_fields=["is_superuser"])


def _made_staff(user, person):
    user.is_staff = True
    user.save(update_fields=["is_staff"])


def _made_owner(user, person):
    club = Club.objects.get(name="Riverside")
    change_role(club_id=club.pk, member_id=_member(club, user.username).pk, role=Role.OWNER)


@pytest.mark.parametrize(
    "opens_more",
    [_join_hilltop, _in_a_group, _with_a_permission, _made_superuser, _made_staff, _made_owner],
)
def test_an_owners_reset_link_stops_working_once_the_account_opens_more_than_it_did(
    client, club, person, django_user_model, opens_more
):
    link = _owner_makes_link(client, club, "dan").context["link"]
    dan = django_user_model.objects.get(username="dan")
    opens_more(dan, person)
    refused = _choose_password(client, link)
    assert refused.status_code == 200 and "no longer works" in refused.content.decode()
    assert django_user_model.objects.get(username="dan").check_password("old-password-77")


def test_a_reset_link_opened_before_the_account_joins_another_club_sets_no_password(
    client, club, person, django_user_model
):
    link = _owner_makes_link(client, club, "dan").context["link"]
    client.logout()
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    _join_hilltop(django_user_model.objects.get(username="dan"), person)
    data = {"new_password1": "brand-new-pass-31", "new_password2": "brand-new-pass-31"}
    refused = client.post(form_url, data)
    assert refused.status_code == 200 and "no longer works" in refused.content.decode()
    assert django_user_model.objects.get(username="dan").check_password("old-password-77")


def test_the_accounts_page_is_the_superusers_alone(client, club, person):
    loner = person("loner")
    client.force_login(_member(club, "olive").user)
    assert client.get(reverse("director:accounts")).status_code == 404
    assert client.post(reverse("director:account_reset_link", args=[loner.pk])).status_code == 404
    client.force_login(person("root", is_superuser=True))
    assert client.get(reverse("director:account_reset_link", args=[loner.pk])).status_code == 405
    assert client.post(reverse("director:account_reset_link", args=[9999])).status_code == 404


# --- email ----------------------------------------------------------------------------------------


def test_without_email_the_login_page_offers_no_email_and_the_reset_page_is_absent(client, settings, db):
    settings.SPADES_EMAIL = False
    assert "owner can make you a reset link" in client.get(reverse("login")).content.decode()
    assert client.get(reverse("password_reset")).status_code == 404


def test_with_email_a_reset_link_is_sent_and_works(client, club, settings, django_user_model):
    settings.SPADES_EMAIL = True
    django_user_model.objects.filter(username="dan").update(email="dan@example.org")
    assert "Forgot your password?" in client.get(reverse("login")).content.decode()
    response = client.post(reverse("password_reset"), {"email": "dan@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["dan@example.org"]
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset/" in line)
    assert _choose_password(client, link.replace("http://testserver", "")).status_code == 302
    assert django_user_model.objects.get(username="dan").check_password("brand-new-pass-31")


def test_an_emailed_reset_link_stops_working_once_the_account_joins_another_club(
    client, club, person, settings, django_user_model
):
    settings.SPADES_EMAIL = True
    django_user_model.objects.filter(username="dan").update(email="dan@example.org")
    client.post(reverse("password_reset"), {"email": "dan@example.org"})
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset/" in line)
    _join_hilltop(django_user_model.objects.get(username="dan"), person)
    refused = _choose_password(client, link.replace("http://testserver", ""))
    assert refused.status_code == 200 and "no longer works" in refused.content.decode()


def test_with_email_the_owner_may_send_an_invitation(client, club, settings):
    settings.SPADES_EMAIL = True
    client.force_login(_member(club, "olive").user)
    data = {"role": "director", "days": "7", "email": "nina@example.org"}
    response = client.post(reverse("director:club_invite", args=[club.pk]), data)
    assert response.status_code == 200 and "emailed to nina@example.org" in response.content.decode()
    assert mail.outbox[0].to == ["nina@example.org"] and response.context["link"] in mail.outbox[0].body
    bad = client.post(reverse("director:club_invite", args=[club.pk]), {**data, "email": "not-an-address"})
    assert bad.status_code == 422 and bad.context["invitation_form"].errors["email"]
    assert len(mail.outbox) == 1


def test_without_email_the_invitation_form_asks_no_address(client, club, settings):
    settings.SPADES_EMAIL = False
    client.force_login(_member(club, "olive").user)
    data = {"role": "director", "days": "7", "email": "nina@example.org"}
    page = client.get(reverse("director:club", args=[club.pk]))
    assert "email" not in page.context["invitation_form"].fields
    assert client.post(reverse("director:club_invite", args=[club.pk]), data).status_code == 200
    assert not mail.outbox


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://mailer:s%40cret@mail.example.org:2525", {"EMAIL_HOST": "mail.example.org", "EMAIL_PORT": 2525,
         "EMAIL_HOST_USER": "mailer", "EMAIL_HOST_PASSWORD": "s@cret", "EMAIL_USE_TLS": False}),
        ("smtp+tls://u:p@smtp.example.org", {"EMAIL_PORT": 587, "EMAIL_USE_TLS": True, "EMAIL_USE_SSL": False}),
        ("smtp+ssl://u:p@smtp.example.org", {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True}),
        ("console://", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
    ],
)  # fmt: skip
def test_email_url_becomes_djangos_email_settings(url, expected):
    parsed = parse_email_url(url)
    assert {name: parsed[name] for name in expected} == expected


@pytest.mark.parametrize("url", ["mail.example.org", "imap://mail.example.org", "smtp://", "smtp://host:port"])
def test_a_malformed_email_url_stops_start_up_naming_it(url):
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        parse_email_url(url)


# --- the first owner ------------------------------------------------------------------------------


def _first_owner(*args: str) -> str:
    return _first_owner_says(*args).splitlines()[-1]


def _first_owner_says(*args: str) -> str:
    out = StringIO()
    call_command("first_owner", *args, stdout=out)
    return out.getvalue()


def test_the_first_owners_link_makes_the_club_and_its_owner_once(client, django_user_model):
    link = _first_owner("--club", "Riverside Spades", "--base-url", "https://spades.example.org/")
    assert link.startswith("https://spades.example.org/join/")
    path = link.removeprefix("https://spades.example.org")
    assert "Riverside Spades" in client.get(path).content.decode()
    signed_up = client.post(path, {"username": "olive", "password1": "river-bend-42x", "password2": "river-bend-42x"})
    assert signed_up.status_code == 302
    club = Club.objects.get(name="Riverside Spades")
    assert club.members.get(user__username="olive").role == Role.OWNER
    client.logout()
    assert (
        client.post(
            path, {"username": "mallory", "password1": "x-long-pass-88", "password2": "x-long-pass-88"}
        ).status_code
        == 410
    )
    assert Club.objects.count() == 1
    with pytest.raises(CommandError, match="already has an owner"):
        _first_owner("--club", "Another", "--base-url", "https://spades.example.org")


def test_the_first_owner_command_needs_the_sites_address(settings, db):
    settings.SPADES_BASE_URL, settings.DEBUG = "", False
    with pytest.raises(CommandError, match="--base-url"):
        _first_owner("--club", "Riverside")
    settings.SPADES_BASE_URL = "https://spades.example.org"
    assert _first_owner("--club", "Riverside").startswith("https://spades.example.org/join/")


@pytest.mark.parametrize("args", [("--club", "  "), ("--club", "Riverside", "--days", "0")])
def test_the_first_owner_command_refuses_bad_arguments(args, db):
    with pytest.raises(CommandError):
        _first_owner(*args, "--base-url", "https://spades.example.org")
    assert not Invitation.objects.exists()


def test_a_newer_first_owner_link_replaces_the_older_and_says_so(client, db):
    first = _first_owner_says("--club", "Riverside", "--base-url", "http://testserver")
    second = _first_owner_says("--club", "Riverside", "--base-url", "http://testserver")
    assert "no longer works" not in first
    assert "The earlier first owner's link no longer works" in second
    old, new = (said.splitlines()[-1].removeprefix("http://testserver") for said in (first, second))
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200


def test_in_debug_mode_the_first_owners_link_defaults_to_the_debug_servers_address(settings, db):
    settings.SPADES_BASE_URL, settings.DEBUG = "", True
    said = _first_owner_says("--club", "Riverside")
    assert "No --base-url and no SPADES_BASE_URL: the link uses http://127.0.0.1:8000 (debug mode)" in said
    assert said.splitlines()[-1].startswith("http://127.0.0.1:8000/join/")


@pytest.mark.slow  # manage.py in a process of its own
def test_the_first_owner_command_on_a_database_not_migrated_says_to_migrate(tmp_path):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env = {**clean, "DJANGO_DEBUG": "true", "DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}"}
    done = subprocess.run(
        [sys.executable, "manage.py", "first_owner", "--club", "Riverside", "--base-url", "https://spades.example.org"],
        cwd=Path(__file__).resolve().parent.parent, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "CommandError: The database is not set up: run `manage.py migrate` first." in done.stderr
    assert "Traceback" not in done.stderr


def test_the_first_owner_command_exits_with_1_once_a_club_has_an_owner(club):
    with pytest.raises(CommandError, match="already has an owner") as refused:
        _first_owner("--club", "X", "--base-url", "https://a.example")
    assert refused.value.returncode == 1
    assert not Invitation.objects.filter(club__isnull=True).exists()


def test_a_logged_in_person_becomes_the_first_owner_with_one_button(client, person):
    link = _first_owner("--club", "Riverside", "--base-url", "http://testserver").removeprefix("http://testserver")
    olive = person("olive")
    client.force_login(olive)
    assert client.post(link).status_code == 302
    assert Club.objects.get(name="Riverside").members.get(user=olive).role == Role.OWNER


def test_an_invitation_for_a_director_is_not_an_owners(club):
    invitation, _ = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    assert invitation.club == club and invitation.role == Role.DIRECTOR


def test_with_email_a_new_account_may_give_its_address_for_resets(client, club, settings, django_user_model):
    settings.SPADES_EMAIL = True
    _, token = invite(club_id=club.pk, role=Role.ASSISTANT, by=None, days=7)
    data = {
        "username": "nina",
        "email": "nina@example.org",
        "password1": "river-bend-42x",
        "password2": "river-bend-42x",
    }
    assert client.post(reverse("join", args=[token]), data).status_code == 302
    assert django_user_model.objects.get(username="nina").email == "nina@example.org"
