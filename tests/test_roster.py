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
    url = reverse("director:roster_search")
    html = director_client.get(url, {"first": "ad"}, HTTP_HX_REQUEST="true").content.decode()
    assert '<option value="Ada" label="Ada · 1 event, last Fri Nov 13, 2026">' in html
    assert "Ben" not in html
    assert director_client.get(url, {"second": "a"}).content.decode().strip() == ""  # one letter: too few


def test_the_roster_offers_only_people_of_the_directors_own_club(client, last_week, django_user_model):
    other = django_user_model.objects.create_user("other", password="x", is_staff=True)
    mine = make_tournament(couples=0, name="Mine", club=a_club("Other club"))
    mine.club.members.create(user=other, role=ClubMember.Role.DIRECTOR)
    register_team(tournament=mine, names=["Adam", "Eve"])
    client.force_login(other)
    html = client.get(reverse("director:roster_search"), {"first": "ad"}).content.decode()
    assert 'value="Adam"' in html and 'value="Ada"' not in html
    ada = RosterPlayer.objects.get(name="Ada")
    assert client.get(reverse("director:roster_player", args=[ada.pk])).status_code == 404


def test_the_registration_form_asks_the_roster_as_names_are_typed(director_client, last_week):
    html = director_client.get(reverse("director:teams", args=[last_week.pk])).content.decode()
    assert 'list="roster-first"' in html and '<datalist id="roster-first">' in html
    assert f'hx-get="{reverse("director:roster_search")}"' in html
    ada = RosterPlayer.objects.get(name="Ada")
    assert reverse("director:roster_player", args=[ada.pk]) in html  # her history: one click away


def test_a_persons_history_lists_every_event_with_their_place(director_client, last_week):
    tonight = make_tournament(couples=0, name="Tonight")
    register_team(tournament=tonight, names=["Ada", "Quinn"])
    ada = RosterPlayer.objects.get(name="Ada")
    html = director_client.get(reverse("director:roster_player", args=[ada.pk])).content.decode()
    assert html.index("Tonight") < html.index("Last week")
    assert "Quinn" in html and "1 of 8" in html and "244" in html


def test_a_persons_history_says_when_their_team_withdrew(director_client, last_week):
    ada = RosterPlayer.objects.get(name="Ada")
    url = reverse("director:roster_player", args=[ada.pk])
    assert "(team 1)" in director_client.get(url).content.decode()
    last_week.teams.filter(number=1).update(status=Team.Status.WITHDRAWN)
    assert "(team 1, withdrawn)" in director_client.get(url).content.decode()


def test_a_persons_history_writes_a_lost_total_with_a_true_minus_sign(director_client):
    bad_night = make_tournament(couples=4, name="Bad night", rounds_planned=1)
    round_ = start_play(tournament=bad_night)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game, ns_tricks=4)  # North–South set every hand: 4 × −60
    ada = RosterPlayer.objects.get(name="Ada")
    html = director_client.get(reverse("director:roster_player", args=[ada.pk])).content.decode()
    assert '<td class="num">−240</td>' in html and "-240" not in html


def test_renaming_on_the_roster_leaves_each_events_record_as_it_was(director_client, last_week):
    ada = RosterPlayer.objects.get(name="Ada")
    url = reverse("director:roster_player", args=[ada.pk])
    assert director_client.post(url, {"name": ""}).status_code == 422
    director_client.post(url, {"name": "Ada  Lovelace"})
    ada.refresh_from_db()
    assert (ada.name, ada.key) == ("Ada Lovelace", "ada lovelace")
    assert Player.objects.get(roster=ada).name == "Ada"
    assert "Ada</td>" in director_client.get(reverse("public:standings", args=[last_week.pk])).content.decode()
    assert director_client.get(reverse("director:roster_player", args=[9999])).status_code == 404
    assert director_client.delete(url).status_code == 405


def test_an_imported_event_links_its_players_to_the_roster(last_week):
    from tournament.transfer.export import export_tournament
    from tournament.transfer.write import import_tournament

    copy = import_tournament(export_tournament(last_week), club=a_club())
    ada = RosterPlayer.objects.get(name="Ada")
    assert set(ada.entries.values_list("team__tournament", flat=True)) == {last_week.pk, copy.pk}
