"""Returning players: the club roster offers names as they are typed, and shows a person's events."""

import datetime

import pytest
from django.urls import reverse

from tests.conftest import a_club, finish_game, make_tournament
from tournament.models import ClubMember, Player, RosterPlayer, Team
from tournament.play.rounds import close_round, start_play, start_round
from tournament.teams.services import register_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def last_week(db):
    """Last week's event, played to the end of round 1."""
    tournament = make_tournament(couples=4, name="Last week", rounds_planned=1)
    tournament.date = datetime.date(2026, 11, 13)
    tournament.save()
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    close_round(round_=round_)
    return tournament


def test_a_returning_player_is_the_same_person_on_the_roster(last_week):
    tonight = make_tournament(couples=0, name="Tonight")
    team = register_team(tournament=tonight, names=["  ADA ", "Zed"])
    ada = team.players.get(name="ADA")
    assert ada.roster == Player.objects.get(team__tournament=last_week, name="Ada").roster
    assert team.players.get(name="Zed").roster.name == "Zed"  # someone new joins the roster


def test_names_are_offered_as_they_are_typed(director_client, last_week):
    url = reverse("director:roster_search", args=[last_week.pk])
    html = director_client.get(url, {"first": "ad"}, HTTP_HX_REQUEST="true").content.decode()
    assert '<option value="Ada" label="Ada · 1 event, last Fri Nov 13, 2026">' in html
    assert "Ben" not in html
    assert director_client.get(url, {"second": "a"}).content.decode().strip() == ""  # one letter: too few


def test_the_registration_desk_offers_only_names_of_its_tournaments_club(director_client, last_week):
    """The superuser reaches both clubs; each desk still offers only its own club's roster."""
    elsewhere = make_tournament(couples=0, name="Elsewhere", club=a_club("Other club"))
    register_team(tournament=elsewhere, names=["Adam", "Eve"])
    here = director_client.get(reverse("director:roster_search", args=[last_week.pk]), {"first": "ad"})
    there = director_client.get(reverse("director:roster_search", args=[elsewhere.pk]), {"first": "ad"})
    assert 'value="Ada"' in here.content.decode() and 'value="Adam"' not in here.content.decode()
    assert 'value="Adam"' in there.content.decode() and 'value="Ada"' not in there.content.decode()


def test_another_clubs_director_reaches_none_of_the_roster(client, last_week, django_user_model):
    other = django_user_model.objects.create_user("other", password="x")
    mine = make_tournament(couples=0, name="Mine", club=a_club("Other club"))
    mine.club.members.create(user=other, role=ClubMember.Role.DIRECTOR)
    register_team(tournament=mine, names=["Adam", "Eve"])
    client.force_login(other)
    html = client.get(reverse("director:roster_search", args=[mine.pk]), {"first": "ad"}).content.decode()
    assert 'value="Adam"' in html and 'value="Ada"' not in html
    ada = RosterPlayer.objects.get(name="Ada")
    club = last_week.club_id
    assert client.get(reverse("director:roster_search", args=[last_week.pk]), {"first": "ad"}).status_code == 404
    assert client.get(reverse("director:club_roster", args=[club])).status_code == 404
    assert client.get(reverse("director:roster_player", args=[club, ada.pk])).status_code == 404
    # Nor through their own club's address: the person is not on that roster.
    assert client.get(reverse("director:roster_player", args=[mine.club_id, ada.pk])).status_code == 404
    roster = client.get(reverse("director:club_roster", args=[mine.club_id]), {"q": "a"}).content.decode()
    assert "Adam" in roster and "Ada<" not in roster


def test_one_director_cannot_rename_a_player_of_another_clubs_events(client, last_week, django_user_model):
    other = django_user_model.objects.create_user("other", password="x")
    a_club("Other club").members.create(user=other, role=ClubMember.Role.OWNER)
    ada = RosterPlayer.objects.get(name="Ada")
    client.force_login(other)
    for club in (last_week.club_id, a_club("Other club").pk):
        response = client.post(reverse("director:roster_rename", args=[club, ada.pk]), {"name": "Mallory"})
        assert response.status_code == 404
    ada.refresh_from_db()
    assert ada.name == "Ada"


def test_the_registration_form_asks_the_roster_as_names_are_typed(director_client, last_week):
    html = director_client.get(reverse("director:teams", args=[last_week.pk])).content.decode()
    assert 'list="roster-first"' in html and '<datalist id="roster-first">' in html
    assert f'hx-get="{reverse("director:roster_search", args=[last_week.pk])}"' in html
    ada = RosterPlayer.objects.get(name="Ada")
    assert reverse("director:roster_player", args=[last_week.club_id, ada.pk]) in html  # her history: one click away


def test_the_club_roster_lists_its_people_and_finds_them_by_name(director_client, last_week):
    make_tournament(couples=1, name="Elsewhere", club=a_club("Other club"))  # another Ada, another club
    url = reverse("director:club_roster", args=[last_week.club_id])
    html = director_client.get(url).content.decode()
    ada = RosterPlayer.objects.get(name="Ada", club=last_week.club)
    assert reverse("director:roster_player", args=[last_week.club_id, ada.pk]) in html and "Hugo" in html
    assert html.count(">Ada</a>") == 1
    found = director_client.get(url, {"q": "  AD "}).content.decode()
    assert ">Ada</a>" in found and "Hugo" not in found
    assert "No one on the roster has “Zz” in their name." in director_client.get(url, {"q": "Zz"}).content.decode()
    assert director_client.get(url, {"q": "x" * 81}).status_code == 200  # too long: the whole roster, not a 500
    assert director_client.post(url).status_code == 405
    assert director_client.get(reverse("director:club_roster", args=[9999])).status_code == 404


def test_a_persons_history_lists_only_their_clubs_events(director_client, last_week):
    elsewhere = make_tournament(couples=1, name="Elsewhere", club=a_club("Other club"))
    ada = RosterPlayer.objects.get(name="Ada", club=last_week.club)
    # Even a player linked to her by mistake across clubs stays out of this club's history.
    Player.objects.filter(team__tournament=elsewhere, name="Ada").update(roster=ada)
    html = director_client.get(reverse("director:roster_player", args=[last_week.club_id, ada.pk])).content.decode()
    assert "Last week" in html and "Elsewhere" not in html


def test_an_assistant_sees_a_persons_events_but_does_not_rename_them(client, last_week, django_user_model):
    helper = django_user_model.objects.create_user("hank", password="x")
    last_week.club.members.create(user=helper, role=ClubMember.Role.ASSISTANT)
    ada = RosterPlayer.objects.get(name="Ada")
    client.force_login(helper)
    page = client.get(reverse("director:roster_player", args=[last_week.club_id, ada.pk]))
    assert page.status_code == 200 and "Last week" in page.content.decode()
    assert reverse("director:roster_rename", args=[last_week.club_id, ada.pk]) not in page.content.decode()
    rename = client.post(reverse("director:roster_rename", args=[last_week.club_id, ada.pk]), {"name": "Eve"})
    assert rename.status_code == 403
    ada.refresh_from_db()
    assert ada.name == "Ada"


def test_a_persons_history_lists_every_event_with_their_place(director_client, last_week):
    tonight = make_tournament(couples=0, name="Tonight")
    register_team(tournament=tonight, names=["Ada", "Quinn"])
    ada = RosterPlayer.objects.get(name="Ada")
    html = director_client.get(reverse("director:roster_player", args=[ada.club_id, ada.pk])).content.decode()
    assert html.index("Tonight") < html.index("Last week")
    assert "<td>Ben</td>" in html and "1st of 8" in html and "244" in html


def test_a_persons_history_says_when_their_team_withdrew(director_client, last_week):
    ada = RosterPlayer.objects.get(name="Ada")
    url = reverse("director:roster_player", args=[ada.club_id, ada.pk])
    assert "(team 1)" in director_client.get(url).content.decode()
    last_week.teams.filter(number=1).update(status=Team.Status.WITHDRAWN)
    assert "(team 1, withdrawn)" in director_client.get(url).content.decode()


def test_a_persons_history_writes_a_lost_total_with_a_true_minus_sign(director_client):
    bad_night = make_tournament(couples=4, name="Bad night", rounds_planned=1)
    round_ = start_play(tournament=bad_night)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game, ns_tricks=4)  # North–South set every hand: 4 × −60
    close_round(round_=round_)  # a person's page shows an event's result once the event is over
    ada = RosterPlayer.objects.get(name="Ada")
    html = director_client.get(reverse("director:roster_player", args=[ada.club_id, ada.pk])).content.decode()
    assert '<td class="num">−240</td>' in html and "-240" not in html


def test_renaming_on_the_roster_leaves_each_events_record_as_it_was(director_client, last_week):
    ada = RosterPlayer.objects.get(name="Ada")
    club = last_week.club_id
    url = reverse("director:roster_rename", args=[club, ada.pk])
    response = director_client.post(url, {"name": "Ada  Lovelace"})
    assert response.status_code == 302
    assert response["Location"] == reverse("director:roster_player", args=[club, ada.pk])
    ada.refresh_from_db()
    assert (ada.name, ada.key) == ("Ada Lovelace", "ada lovelace")
    assert Player.objects.get(roster=ada).name == "Ada"
    assert "Ada</td>" in director_client.get(reverse("public:standings", args=[last_week.pk])).content.decode()


@pytest.mark.parametrize(("name", "message"), [("", "Give the name."), ("   ", "Give the name."),
                                               ("x" * 81, "A name is at most 80 characters.")])  # fmt: skip
def test_a_rename_without_a_good_name_says_so_and_changes_nothing(director_client, last_week, name, message):
    ada = RosterPlayer.objects.get(name="Ada")
    response = director_client.post(reverse("director:roster_rename", args=[last_week.club_id, ada.pk]), {"name": name})
    assert response.status_code == 422 and message in response.content.decode()
    ada.refresh_from_db()
    assert ada.name == "Ada"


def test_a_rename_answers_only_a_post_about_someone_on_the_roster(director_client, last_week):
    ada = RosterPlayer.objects.get(name="Ada")
    club = last_week.club_id
    assert director_client.get(reverse("director:roster_rename", args=[club, ada.pk])).status_code == 405
    assert director_client.delete(reverse("director:roster_player", args=[club, ada.pk])).status_code == 405
    missing = director_client.post(reverse("director:roster_rename", args=[club, 9999]), {"name": "Eve"})
    assert missing.status_code == 404
    assert director_client.get(reverse("director:roster_player", args=[club, 9999])).status_code == 404


def test_a_rename_takes_the_clubs_lock(director_client, last_week, monkeypatch):
    from tournament.roster import people

    taken = []
    monkeypatch.setattr(people, "lock_club", lambda club_id: taken.append(club_id))
    ada = RosterPlayer.objects.get(name="Ada")
    director_client.post(reverse("director:roster_rename", args=[last_week.club_id, ada.pk]), {"name": "Ada L"})
    assert taken == [last_week.club_id]


def test_an_imported_event_links_its_players_to_the_roster(last_week):
    from tournament.transfer.export import export_tournament
    from tournament.transfer.write import import_tournament

    copy = import_tournament(export_tournament(last_week), club=a_club())
    ada = RosterPlayer.objects.get(name="Ada")
    assert set(ada.entries.values_list("team__tournament", flat=True)) == {last_week.pk, copy.pk}
