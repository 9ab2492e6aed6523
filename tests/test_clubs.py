"""A club's own pages: its settings and people (owner only to change, directors to see), its
invitations (made, revoked, accepted once, expiring), and who gets 403 or 404 there."""

import datetime
import threading

import pytest
from django.db import close_old_connections
from django.urls import reverse
from django.utils import timezone

from tournament.access import club_role
from tournament.clubs.services import InvitationUnusable, accept_invitation, create_club, grant, invite
from tournament.models import Club, ClubMember, Invitation

pytestmark = pytest.mark.django_db

Role = ClubMember.Role


@pytest.fixture
def person(django_user_model):
    def make(name: str):
        return django_user_model.objects.create_user(name, password="a-long-password-1")

    return make


@pytest.fixture
def club(person):
    """Riverside, owned by olive, with dan directing and ann assisting."""
    club = create_club(name="Riverside", owner=person("olive"))
    grant(club=club, user=person("dan"), role=Role.DIRECTOR)
    grant(club=club, user=person("ann"), role=Role.ASSISTANT)
    return club


def _login(client, club, username):
    client.force_login(club.members.get(user__username=username).user)
    return client


def _member(club, username):
    return club.members.get(user__username=username)


# --- the club page --------------------------------------------------------------------------------


def test_the_owner_sees_people_settings_and_the_invitation_form(client, club):
    page = _login(client, club, "olive").get(reverse("director:club", args=[club.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "dan" in text and "ann" in text and "Save settings" in text and "Make the link" in text
    assert "no-store" in page["Cache-Control"]


def test_a_director_sees_the_people_but_no_settings_or_invitations(client, club):
    page = _login(client, club, "dan").get(reverse("director:club", args=[club.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "olive" in text and "ann" in text
    assert "Save settings" not in text and "Make the link" not in text


def test_an_assistant_gets_403_and_a_stranger_404_on_the_club_page(client, club, person):
    url = reverse("director:club", args=[club.pk])
    assert _login(client, club, "ann").get(url).status_code == 403
    client.force_login(person("sam"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("director:club", args=[club.pk + 99])).status_code == 404


def test_someone_logged_out_is_sent_to_log_in(client, club):
    response = client.get(reverse("director:club", args=[club.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_owner_saves_the_club_settings(client, club):
    response = _login(client, club, "olive").post(
        reverse("director:club", args=[club.pk]),
        {"name": "Riverside Spades", "time_zone": "America/Chicago", "currency": "£"},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.time_zone, club.currency) == ("Riverside Spades", "America/Chicago", "£")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("time_zone", "Mars/Olympus", "Select a valid choice"), ("currency", "   ", "This field is required"),
     ("name", "", "This field is required")],
)  # fmt: skip
def test_bad_club_settings_are_refused_naming_the_field(client, club, field, value, words):
    data = {"name": "Riverside", "time_zone": "UTC", "currency": "$", field: value}
    response = _login(client, club, "olive").post(reverse("director:club", args=[club.pk]), data)
    assert response.status_code == 422
    assert words in response.content.decode()
    assert response.context["settings_form"].errors[field]
    club.refresh_from_db()
    assert (club.time_zone, club.currency) == ("UTC", "$")


def test_a_director_may_not_save_the_settings(client, club):
    data = {"name": "Mine now", "time_zone": "UTC", "currency": "$"}
    assert _login(client, club, "dan").post(reverse("director:club", args=[club.pk]), data).status_code == 403
    club.refresh_from_db()
    assert club.name == "Riverside"


def test_the_club_page_refuses_other_methods(client, club):
    assert _login(client, club, "olive").put(reverse("director:club", args=[club.pk])).status_code == 405


def test_your_clubs_lists_each_club_with_your_role(client, club, person):
    other = create_club(name="Hilltop", owner=person("hugo"))
    grant(club=other, user=_member(club, "dan").user, role=Role.ASSISTANT)
    text = _login(client, club, "dan").get(reverse("director:clubs")).content.decode()
    assert "Riverside" in text and "Hilltop" in text and "Assistant" in text and "Director" in text


# --- roles and removal ----------------------------------------------------------------------------


def test_the_owner_makes_a_director_an_assistant(client, club):
    dan = _member(club, "dan")
    url = reverse("director:club_member", args=[club.pk, dan.pk])
    assert _login(client, club, "olive").post(url, {"role": "assistant"}).status_code == 302
    dan.refresh_from_db()
    assert dan.role == Role.ASSISTANT


def test_the_owner_hands_the_club_to_a_director_and_becomes_a_director(client, club):
    dan = _member(club, "dan")
    _login(client, club, "olive").post(reverse("director:club_member", args=[club.pk, dan.pk]), {"role": "owner"})
    roles = dict(club.members.values_list("user__username", "role"))
    assert roles == {"olive": Role.DIRECTOR, "dan": Role.OWNER, "ann": Role.ASSISTANT}
    # Olive is a director now: the people's buttons are no longer hers.
    assert (
        client.post(reverse("director:club_member", args=[club.pk, dan.pk]), {"role": "assistant"}).status_code == 403
    )


def test_the_ownership_goes_only_to_a_director(client, club):
    ann = _member(club, "ann")
    response = _login(client, club, "olive").post(
        reverse("director:club_member", args=[club.pk, ann.pk]), {"role": "owner"}
    )
    assert response.status_code == 422
    assert "make them a director first" in response.content.decode()
    assert club.members.filter(role=Role.OWNER).get().user.username == "olive"


def test_the_owners_own_role_cannot_be_changed(client, club):
    olive = _member(club, "olive")
    response = _login(client, club, "olive").post(
        reverse("director:club_member", args=[club.pk, olive.pk]), {"role": "assistant"}
    )
    assert response.status_code == 422
    olive.refresh_from_db()
    assert olive.role == Role.OWNER


def test_an_unknown_role_is_refused_naming_the_field(client, club):
    dan = _member(club, "dan")
    response = _login(client, club, "olive").post(
        reverse("director:club_member", args=[club.pk, dan.pk]), {"role": "king"}
    )
    assert response.status_code == 422
    assert "Role:" in response.content.decode()
    dan.refresh_from_db()
    assert dan.role == Role.DIRECTOR


def test_role_changes_need_the_owner_a_member_of_the_club_and_a_post(client, club, person):
    dan, ann = _member(club, "dan"), _member(club, "ann")
    other = create_club(name="Hilltop", owner=person("hugo"))
    hugo = other.members.get()
    owner = _login(client, club, "olive")
    assert owner.get(reverse("director:club_member", args=[club.pk, ann.pk])).status_code == 405
    assert (
        owner.post(reverse("director:club_member", args=[club.pk, hugo.pk]), {"role": "assistant"}).status_code == 404
    )
    assert owner.post(reverse("director:club_member", args=[club.pk, 9999]), {"role": "assistant"}).status_code == 404
    director = _login(client, club, "dan")
    assert (
        director.post(reverse("director:club_member", args=[club.pk, ann.pk]), {"role": "director"}).status_code == 403
    )
    assert dict(club.members.values_list("user__username", "role"))["ann"] == Role.ASSISTANT
    assert dan.role == Role.DIRECTOR


def test_the_owner_removes_a_member_but_not_herself(client, club):
    owner = _login(client, club, "olive")
    ann, olive = _member(club, "ann"), _member(club, "olive")
    assert owner.post(reverse("director:club_member_remove", args=[club.pk, ann.pk])).status_code == 302
    assert not club.members.filter(user__username="ann").exists()
    response = owner.post(reverse("director:club_member_remove", args=[club.pk, olive.pk]))
    assert response.status_code == 422 and "hand the ownership" in response.content.decode()
    assert club.members.filter(pk=olive.pk).exists()


def test_removal_needs_the_owner_a_member_and_a_post(client, club):
    ann = _member(club, "ann")
    url = reverse("director:club_member_remove", args=[club.pk, ann.pk])
    assert _login(client, club, "olive").get(url).status_code == 405
    assert client.post(reverse("director:club_member_remove", args=[club.pk, 9999])).status_code == 404
    assert _login(client, club, "dan").post(url).status_code == 403
    assert _login(client, club, "ann").post(url).status_code == 403
    assert club.members.filter(pk=ann.pk).exists()


def test_a_removed_member_no_longer_reaches_the_club(client, club):
    dan = _member(club, "dan")
    _login(client, club, "olive").post(reverse("director:club_member_remove", args=[club.pk, dan.pk]))
    client.force_login(dan.user)
    assert client.get(reverse("director:club", args=[club.pk])).status_code == 404


# --- invitations ----------------------------------------------------------------------------------


def test_the_owner_makes_an_invitation_and_sees_its_link_once(client, club):
    response = _login(client, club, "olive").post(
        reverse("director:club_invite", args=[club.pk]), {"role": "assistant", "days": "3"}
    )
    assert response.status_code == 200
    link = response.context["link"]
    assert link.startswith("http://testserver/join/")
    invitation = Invitation.objects.get(club=club)
    assert invitation.role == Role.ASSISTANT and invitation.created_by.username == "olive"
    assert abs(invitation.expires_at - timezone.now() - datetime.timedelta(days=3)) < datetime.timedelta(minutes=1)
    # The club page lists it, without its link (only its digest is kept).
    page = client.get(reverse("director:club", args=[club.pk])).content.decode()
    assert "Revoke" in page and link not in page and link.rsplit("/", 2)[-2] not in page


def test_the_link_uses_the_sites_address_when_one_is_set(client, club, settings):
    settings.SPADES_BASE_URL = "https://spades.example.org"
    response = _login(client, club, "olive").post(
        reverse("director:club_invite", args=[club.pk]), {"role": "director", "days": "7"}
    )
    assert response.context["link"].startswith("https://spades.example.org/join/")


@pytest.mark.parametrize(
    ("data", "field"),
    [({"role": "owner", "days": "7"}, "role"), ({"role": "director", "days": "0"}, "days"),
     ({"role": "director", "days": "31"}, "days"), ({"role": "director", "days": "soon"}, "days")],
)  # fmt: skip
def test_a_bad_invitation_is_refused_naming_the_field(client, club, data, field):
    response = _login(client, club, "olive").post(reverse("director:club_invite", args=[club.pk]), data)
    assert response.status_code == 422
    assert response.context["invitation_form"].errors[field]
    assert not Invitation.objects.exists()


def test_invitations_need_the_owner_and_a_post(client, club, person):
    url = reverse("director:club_invite", args=[club.pk])
    assert _login(client, club, "olive").get(url).status_code == 405
    assert (
        client.post(reverse("director:club_invite", args=[club.pk + 99]), {"role": "director", "days": "7"}).status_code
        == 404
    )
    assert _login(client, club, "dan").post(url, {"role": "director", "days": "7"}).status_code == 403
    client.force_login(person("sam"))
    assert client.post(url, {"role": "director", "days": "7"}).status_code == 404
    assert not Invitation.objects.exists()


def test_the_owner_revokes_an_invitation_and_its_link_opens_nothing(client, club):
    invitation, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    owner = _login(client, club, "olive")
    url = reverse("director:club_invitation_revoke", args=[club.pk, invitation.pk])
    assert owner.get(url).status_code == 405
    assert _login(client, club, "dan").post(url).status_code == 403
    assert Invitation.objects.filter(pk=invitation.pk).exists()
    assert _login(client, club, "olive").post(url).status_code == 302
    assert not Invitation.objects.filter(pk=invitation.pk).exists()
    assert client.post(url).status_code == 404
    client.logout()
    assert client.get(reverse("join", args=[token])).status_code == 404


def test_an_invitation_of_another_club_cannot_be_revoked_from_this_one(client, club, person):
    other = create_club(name="Hilltop", owner=person("hugo"))
    invitation, _ = invite(club_id=other.pk, role=Role.DIRECTOR, by=None, days=7)
    response = _login(client, club, "olive").post(
        reverse("director:club_invitation_revoke", args=[club.pk, invitation.pk])
    )
    assert response.status_code == 404
    assert Invitation.objects.filter(pk=invitation.pk).exists()


@pytest.mark.parametrize(
    ("username", "button"),
    [("olive", 'aria-label="Riverside: people and settings">People and settings</a>'),
     ("dan", 'aria-label="Riverside: people">People</a>'), ("ann", None)],
)  # fmt: skip
def test_the_home_pages_club_buttons_read_differently(client, club, username, button):
    page = _login(client, club, username).get(reverse("director:home")).content.decode()
    assert f'<a class="button" href="{reverse("director:clubs")}">Your clubs</a>' in page
    club_page = f'<a class="button" href="{reverse("director:club", args=[club.pk])}"'
    assert (f"{club_page} {button}" in page) if button else (club_page not in page)


# --- joining --------------------------------------------------------------------------------------

SIGN_UP = {"username": "nina", "password1": "river-bend-42x", "password2": "river-bend-42x"}


def test_the_join_page_names_the_club_and_role(client, club):
    _, token = invite(club_id=club.pk, role=Role.ASSISTANT, by=None, days=7)
    page = client.get(reverse("join", args=[token]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Riverside" in text and "assistant" in text and "Make my account" in text


def test_a_new_person_signs_up_through_an_invitation_and_lands_on_the_clubs_events(client, club, django_user_model):
    invitation, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    response = client.post(reverse("join", args=[token]), SIGN_UP)
    assert response.status_code == 302 and response["Location"] == reverse("director:home")
    nina = django_user_model.objects.get(username="nina")
    assert club_role(nina, club.pk) == Role.DIRECTOR and nina.check_password("river-bend-42x")
    assert not nina.is_staff and not nina.is_superuser
    invitation.refresh_from_db()
    assert invitation.used_by == nina and invitation.used_at is not None
    # Logged in as nina: the club page is hers to see.
    assert client.get(reverse("director:club", args=[club.pk])).status_code == 200


@pytest.mark.parametrize(
    ("data", "field"),
    [({**SIGN_UP, "password2": "something-else-9"}, "password2"),
     ({**SIGN_UP, "password1": "123", "password2": "123"}, "password2"),
     ({**SIGN_UP, "username": "DAN"}, "username"), ({**SIGN_UP, "username": ""}, "username")],
)  # fmt: skip
def test_a_bad_sign_up_is_refused_naming_the_field_and_leaves_the_link_unused(client, club, data, field):
    invitation, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    response = client.post(reverse("join", args=[token]), data)
    assert response.status_code == 422
    assert response.context["form"].errors[field]
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_someone_logged_in_joins_with_one_button(client, club, person):
    _, token = invite(club_id=club.pk, role=Role.ASSISTANT, by=None, days=7)
    hugo = person("hugo")
    client.force_login(hugo)
    assert "Join as hugo" in client.get(reverse("join", args=[token])).content.decode()
    assert client.post(reverse("join", args=[token])).status_code == 302
    assert club_role(hugo, club.pk) == Role.ASSISTANT


def test_a_member_cannot_use_an_invitation_to_change_their_own_role(client, club):
    invitation, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    response = _login(client, club, "ann").post(reverse("join", args=[token]))
    assert response.status_code == 422 and "already" in response.content.decode()
    assert _member(club, "ann").role == Role.ASSISTANT
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_an_invitation_works_once(client, club, django_user_model):
    _, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    client.post(reverse("join", args=[token]), SIGN_UP)
    client.logout()
    second = client.post(reverse("join", args=[token]), {**SIGN_UP, "username": "otto"})
    assert second.status_code == 410 and "was used" in second.content.decode()
    assert client.get(reverse("join", args=[token])).status_code == 410
    assert not django_user_model.objects.filter(username="otto").exists()


def test_an_expired_invitation_opens_nothing(client, club, django_user_model):
    invitation, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    page = client.get(reverse("join", args=[token]))
    assert page.status_code == 410 and "expired" in page.content.decode()
    assert client.post(reverse("join", args=[token]), SIGN_UP).status_code == 410
    assert not django_user_model.objects.filter(username="nina").exists()


def test_an_unknown_invitation_is_a_clear_404(client, db):
    page = client.get(reverse("join", args=["not-a-real-token"]))
    assert page.status_code == 404 and "No such invitation" in page.content.decode()


def test_the_join_page_refuses_other_methods(client, club):
    _, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    assert client.put(reverse("join", args=[token])).status_code == 405


def test_an_acceptance_that_comes_second_is_refused_and_saves_nothing(club, person):
    _, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    accept_invitation(token=token, user=person("first"))
    with pytest.raises(InvitationUnusable):
        accept_invitation(token=token, user=person("second"))
    assert set(club.members.values_list("user__username", flat=True)) == {"olive", "dan", "ann", "first"}


@pytest.mark.django_db(transaction=True)
def test_of_two_simultaneous_acceptances_one_wins(person):
    club = create_club(name="Riverside", owner=person("olive"))
    _, token = invite(club_id=club.pk, role=Role.DIRECTOR, by=None, days=7)
    joiners = [person("first"), person("second")]
    start, results = threading.Barrier(2), []

    def accept(user):
        start.wait()
        try:
            accept_invitation(token=token, user=user)
            results.append("joined")
        except InvitationUnusable:
            results.append("refused")
        finally:
            close_old_connections()

    threads = [threading.Thread(target=accept, args=[user]) for user in joiners]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["joined", "refused"]
    assert club.members.count() == 2
    assert Club.objects.count() == 1
