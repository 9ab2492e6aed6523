"""A club's season (tournament.seasons): its events' places made season standings by the club's
rule, its pages, CSV and PDF; a player's page. Expected values are worked out by hand from how
each event was played."""

from __future__ import annotations

import csv
import datetime
import io
from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse

from scoring import HandEntry
from tests.conftest import a_club, even_hand, finish_game, make_tournament
from tests.events import correct_hand
from tournament.clubs.services import create_club, grant
from tournament.models import ClubMember, RosterPlayer, Tournament
from tournament.play.rounds import close_round, start_play, start_round
from tournament.seasons import places as stored
from tournament.seasons.models import Season, SeasonEvent, StoredPlaces
from tournament.seasons.player import player_events
from tournament.seasons.services import save_season
from tournament.seasons.standings import season_tables
from tournament.teams.services import register_team

pytestmark = pytest.mark.django_db

TABLE = [10, 8, 6, 5]


def _on(day: int, tournament):
    """``tournament`` played on ``day`` of November 2026."""
    tournament.date = datetime.date(2026, 11, day)
    tournament.save(update_fields=["date"])
    return tournament


def _event(day: int, *, split: bool, ns_wins: tuple[bool, bool], name: str = ""):
    """Four couples, one round at two tables, by registration: Ada & Ben (NS) v Cleo & Dan at table
    1, Eve & Finn (NS) v Gina & Hugo at table 2; each table's winner 244, its loser 240."""
    tournament = _on(day, make_tournament(couples=4, split=split, name=name or f"Night {day}", rounds_planned=1))
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game, ns in zip(round_.games.order_by("table__number"), ns_wins, strict=True):
        finish_game(game, ns_tricks=7 if ns else 6)
    close_round(round_=round_)
    return tournament


@pytest.fixture
def nights():
    """Night 6 (fixed): Ada & Ben and Gina & Hugo win, tied 1st (9 each), the others tied 3rd
    ((6 + 5) / 2 = 5½). Night 13 (fixed): Cleo & Dan and Gina & Hugo win. Night 20 (split
    partners): Ada, Ben, Gina and Hugo tied 1st ((10 + 8 + 6 + 5) / 4 = 7¼), the others 5th (0)."""
    return [
        _event(6, split=False, ns_wins=(True, False)),
        _event(13, split=False, ns_wins=(False, False)),
        _event(20, split=True, ns_wins=(True, False)),
    ]


def _season(events, rule="places", best_n=None, name="Fall Fridays"):
    return save_season(club_id=a_club().pk, season_id=None, name=name, rule=rule, points_table=TABLE,
                       best_n=best_n, events=events)  # fmt: skip


def _rows(table):
    return [(line.standing.rank, line.name, str(line.standing.points)) for line in table.lines]


def test_points_by_place_rank_the_teams_and_the_players_apart(nights):
    tables = season_tables(_season(nights))
    # Gina & Hugo 9 + 9; Cleo & Dan 5½ + 9 and Ada & Ben 9 + 5½, the same places: the most
    # recent night puts Cleo & Dan ahead; Eve & Finn 5½ + 5½.
    assert _rows(tables.teams) == [
        (1, "Gina & Hugo", "18"), (2, "Cleo & Dan", "29/2"), (3, "Ada & Ben", "29/2"), (4, "Eve & Finn", "11"),
    ]  # fmt: skip
    assert [line.standing.decided_by for line in tables.teams.lines] == ["", "", "the most recent events", ""]
    assert [e.name for e in tables.players.events] == ["Night 20"]
    players = _rows(tables.players)
    assert players[:4] == [(1, name, "29/4") for name in ("Ada", "Ben", "Gina", "Hugo")]
    assert players[4:] == [(5, name, "0") for name in ("Cleo", "Dan", "Eve", "Finn")]


def test_total_score_adds_each_events_points(nights):
    tables = season_tables(_season(nights[:2], rule="total"))
    assert _rows(tables.teams) == [
        (1, "Gina & Hugo", "488"), (2, "Cleo & Dan", "484"), (3, "Ada & Ben", "484"), (4, "Eve & Finn", "480"),
    ]  # fmt: skip


def test_best_one_counts_each_teams_best_night_and_marks_the_other_not_counted(nights):
    tables = season_tables(_season(nights[:2], rule="best_n", best_n=1))
    # 9 each for three teams: Gina & Hugo won twice; Cleo & Dan won the most recent night.
    assert _rows(tables.teams) == [
        (1, "Gina & Hugo", "9"), (2, "Cleo & Dan", "9"), (3, "Ada & Ben", "9"), (4, "Eve & Finn", "11/2"),
    ]  # fmt: skip
    ada = tables.teams.lines[2]
    assert [(c.place, c.counted) for c in ada.cells] == [(1, True), (3, False)]


def test_a_team_is_the_same_two_people_whatever_order_they_registered_in():
    first = _on(6, make_tournament(couples=0, name="One", rounds_planned=1))
    second = _on(13, make_tournament(couples=0, name="Two", rounds_planned=1))

    for tournament, names in ((first, ["Ada", "Ben"]), (second, ["Ben", "Ada"])):
        register_team(tournament=tournament, names=names)
        register_team(tournament=tournament, names=["Cleo", "Dan"])
    for tournament in (first, second):
        tournament.format = "progressive_fixed"
        tournament.save(update_fields=["format"])
        round_ = start_play(tournament=tournament)
        start_round(round_=round_)
        finish_game(round_.games.get())
        close_round(round_=round_)
    tables = season_tables(_season([first, second]))
    assert [(line.standing.rank, set(line.names), line.standing.points) for line in tables.teams.lines] == [
        (1, {"Ada", "Ben"}, 20), (2, {"Cleo", "Dan"}, 16),
    ]  # fmt: skip


def test_an_entrant_not_on_the_roster_is_left_out_and_counted(nights):
    player = nights[0].teams.get(number=4).players.first()
    player.roster = None
    player.save(update_fields=["roster"])
    nights[0].save(update_fields=["changed_at"])
    tables = season_tables(_season(nights[:1]))
    assert tables.teams.left_out == 1
    assert [line.name for line in tables.teams.lines] == ["Ada & Ben", "Cleo & Dan", "Eve & Finn"]


# --- the director's pages -----------------------------------------------------------------------------


def _form(events, **fields):
    return {"name": "Fall Fridays", "rule": "places", "points_table": "10, 8, 6, 5",
            "events": [e.pk for e in events], **fields}  # fmt: skip


def test_a_director_creates_a_season_and_sees_its_standings(director_client, nights):
    club = a_club()
    response = director_client.post(reverse("director:season_new", args=[club.pk]), _form(nights))
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("director:season", args=[club.pk, season.pk])
    assert season.points_table == TABLE and set(SeasonEvent.objects.values_list("tournament", flat=True)) == {
        e.pk for e in nights
    }
    html = director_client.get(response["Location"]).content.decode()
    assert (
        ">Gina</a> &amp; <a" in html and "14½" in html and "7¼" in html and "behind on the most recent events" in html
    )


def test_editing_a_season_changes_its_rule_and_events(director_client, nights):
    season = _season(nights)
    url = reverse("director:season_edit", args=[a_club().pk, season.pk])
    assert director_client.get(url).status_code == 200
    response = director_client.post(url, _form(nights[:2], rule="best_n", best_n="1"))
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.rule, season.best_n, season.season_events.count()) == ("best_n", 1, 2)


@pytest.mark.parametrize(
    ("fields", "field", "code"),
    [
        ({"name": " "}, "name", "required"),
        ({"points_table": "10, eight"}, "points_table", "points_not_numbers"),
        ({"points_table": "10, -2"}, "points_table", "points_not_numbers"),
        ({"points_table": ""}, "points_table", "points_required"),
        ({"rule": "best_n"}, "best_n", "best_n_required"),
        ({"rule": "best_n", "best_n": "0"}, "best_n", "min_value"),
        ({"rule": "luck"}, "rule", "invalid_choice"),
    ],
)
def test_a_bad_season_form_names_its_field_and_saves_nothing(director_client, nights, fields, field, code):
    response = director_client.post(reverse("director:season_new", args=[a_club().pk]), _form(nights, **fields))
    assert response.status_code == 422
    assert response.context["form"].has_error(field, code)
    assert not Season.objects.exists()


def test_an_event_belongs_to_one_season_at_most(director_client, nights):
    _season(nights[:1], name="Earlier")
    form_page = director_client.get(reverse("director:season_new", args=[a_club().pk])).content.decode()
    assert f'value="{nights[0].pk}"' not in form_page and f'value="{nights[1].pk}"' in form_page
    assert "Night 13 (Fri Nov 13, 2026)" in form_page  # dated as the event pages date them
    response = director_client.post(reverse("director:season_new", args=[a_club().pk]), _form(nights))
    assert response.status_code == 422 and response.context["form"].has_error("events", "invalid_choice")
    assert "Choose among the club&#x27;s events that are in no other season." in response.content.decode()


def test_another_clubs_event_cannot_be_chosen(director_client, nights):
    elsewhere = make_tournament(couples=0, name="Elsewhere", club=a_club("Other club"))
    response = director_client.post(reverse("director:season_new", args=[a_club().pk]), _form([elsewhere]))
    assert response.status_code == 422 and response.context["form"].has_error("events", "invalid_choice")


def test_a_season_name_is_the_clubs_once(director_client, nights):
    _season(nights[:1])
    response = director_client.post(reverse("director:season_new", args=[a_club().pk]), _form(nights[1:]))
    assert response.status_code == 422 and response.context["form"].has_error("name", "name_taken")


@pytest.mark.parametrize(
    ("page", "method"),
    [("season_new", "put"), ("season_edit", "delete"), ("season", "post"), ("season_csv", "post"),
     ("season_print", "post"), ("seasons", "post")],
)  # fmt: skip
def test_season_pages_refuse_other_methods(director_client, nights, page, method):
    season = _season(nights)
    args = [a_club().pk] + ([] if page in ("seasons", "season_new") else [season.pk])
    assert getattr(director_client, method)(reverse(f"director:{page}", args=args)).status_code == 405


@pytest.mark.parametrize("page", ["season", "season_edit", "season_csv", "season_print"])
def test_a_missing_season_is_404(director_client, nights, page):
    assert director_client.get(reverse(f"director:{page}", args=[a_club().pk, 999])).status_code == 404


def test_another_clubs_season_is_404_to_a_director_of_its_own_club(client, django_user_model, nights):
    season = _season(nights)
    bea = django_user_model.objects.create_user("bea")
    other = create_club(name="Bea's club", owner=bea)
    client.force_login(bea)
    assert client.get(reverse("director:season", args=[a_club().pk, season.pk])).status_code == 404
    # Asked for under her own club's address, the season is not found either.
    assert client.get(reverse("director:season", args=[other.pk, season.pk])).status_code == 404
    assert client.post(reverse("director:season_edit", args=[other.pk, season.pk]), _form(nights)).status_code == 404


def test_an_assistant_sees_the_season_but_cannot_create_or_change_one(client, django_user_model, nights):
    season = _season(nights)
    abe = django_user_model.objects.create_user("abe")
    grant(club=a_club(), user=abe, role=ClubMember.Role.ASSISTANT)
    client.force_login(abe)
    club = a_club().pk
    assert client.get(reverse("director:season", args=[club, season.pk])).status_code == 200
    assert client.get(reverse("director:seasons", args=[club])).status_code == 200
    assert client.post(reverse("director:season_new", args=[club]), _form(nights[:1], name="X")).status_code == 403
    assert client.post(reverse("director:season_edit", args=[club, season.pk]), _form([])).status_code == 403
    assert Season.objects.get().season_events.count() == 3


def test_the_csv_lists_both_tables_with_each_events_place_and_points(director_client, nights):
    season = _season(nights, rule="best_n", best_n=1)
    response = director_client.get(reverse("director:season_csv", args=[a_club().pk, season.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["table", "rank", "name", "season points", "events", "2026-11-20 Night 20: place",
                       "2026-11-20 Night 20: points", "not counted"]  # fmt: skip
    assert rows[1] == ["players", "1", "Ada", "7.25", "1", "1", "7.25", ""]
    teams = rows.index(["table", "rank", "name", "season points", "events", "2026-11-06 Night 6: place",
                        "2026-11-06 Night 6: points", "2026-11-13 Night 13: place", "2026-11-13 Night 13: points",
                        "not counted"])  # fmt: skip
    assert rows[teams + 1 :] == [
        ["teams", "1", "Gina & Hugo", "9.00", "2", "1", "9.00", "1", "9.00", "2026-11-06 Night 6"],
        ["teams", "2", "Cleo & Dan", "9.00", "2", "3", "5.50", "1", "9.00", "2026-11-06 Night 6"],
        ["teams", "3", "Ada & Ben", "9.00", "2", "1", "9.00", "3", "5.50", "2026-11-13 Night 13"],
        ["teams", "4", "Eve & Finn", "5.50", "2", "3", "5.50", "3", "5.50", "2026-11-06 Night 6"],
    ]


def test_the_pdf_prints_both_tables(director_client, nights):
    from pypdf import PdfReader

    season = _season(nights)
    response = director_client.get(reverse("director:season_print", args=[a_club().pk, season.pk]) + "?paper=A4")
    assert response["Content-Type"] == "application/pdf"
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    for expected in ("Fall Fridays: season standings", "Players", "Teams", "Gina & Hugo", "14½", "7¼",
                     "Ranked by season points"):  # fmt: skip
        assert expected in text, expected


def test_a_season_with_no_events_has_no_pdf(director_client):
    season = _season([])
    assert director_client.get(reverse("director:season_print", args=[a_club().pk, season.pk])).status_code == 404
    assert (
        "No events in this season yet."
        in director_client.get(reverse("director:season", args=[a_club().pk, season.pk])).content.decode()
    )


# --- public pages ---------------------------------------------------------------------------------------


def test_the_public_season_page_and_projector_need_no_login(client, nights):
    season = _season(nights)
    html = client.get(reverse("public:season", args=[a_club().pk, season.pk])).content.decode()
    gina = RosterPlayer.objects.get(name="Gina")
    assert f'<a href="{reverse("public:player", args=[a_club().pk, gina.pk])}">Gina</a> &amp; ' in html
    assert "Edit the season" not in html
    projector = client.get(reverse("public:season_projector", args=[a_club().pk, season.pk])).content.decode()
    assert "Fall Fridays" in projector and "Gina &amp; Hugo" in projector and "14½" in projector
    assert client.get(reverse("public:season", args=[a_club("Other").pk, season.pk])).status_code == 404


def test_the_player_page_lists_events_places_partners_and_seasons(client, nights):
    _season(nights)
    ada = RosterPlayer.objects.get(name="Ada")
    response = client.get(reverse("public:player", args=[a_club().pk, ada.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    events = [(e.tournament.name, e.place, e.entrants, e.total, e.partners) for e in response.context["events"]]
    assert events == [
        ("Night 20", 1, 8, 244, ("Ben",)), ("Night 13", 3, 4, 240, ("Ben",)), ("Night 6", 1, 4, 244, ("Ben",)),
    ]  # fmt: skip
    assert "3rd of 4 with Ada &amp; Ben (teams)" in html and "1st of 8 (players)" in html
    assert client.get(reverse("public:player", args=[a_club("Other").pk, ada.pk])).status_code == 404
    assert client.post(reverse("public:player", args=[a_club().pk, ada.pk])).status_code == 405


def test_the_player_page_and_the_roster_page_list_each_rounds_partner_at_an_event_of_split_partners(
    client, director_client
):
    from tournament.models import Seating

    tournament = make_tournament(couples=4, split=True, rounds_planned=2)
    round_ = start_play(tournament=tournament)
    while round_ is not None:
        start_round(round_=round_)
        for game in round_.games.all():
            finish_game(game)
        round_ = close_round(round_=round_)
    ada = RosterPlayer.objects.get(name="Ada")
    # Round 2's partner as its seating says: the seat across the table from Ada's.
    seat = Seating.objects.get(round__number=2, player__roster=ada)
    across = {"N": "S", "S": "N", "E": "W", "W": "E"}[seat.seat]
    second = Seating.objects.get(round=seat.round, table=seat.table, seat=across).player.name
    assert second != "Ben"
    response = client.get(reverse("public:player", args=[a_club().pk, ada.pk]))
    [event] = response.context["events"]
    assert event.partners == ("Ben", second)
    assert f"<td>Ben, {second}</td>" in response.content.decode()
    # The director's roster page gives the same line: every partner, the place in words.
    desk = director_client.get(reverse("director:roster_player", args=[a_club().pk, ada.pk])).content.decode()
    from tournament.seasons.templatetags.seasons import place

    in_words = f"{place(event.place)} of 8"  # split partners: eight players placed one by one
    assert f"<td>Ben, {second}</td>" in desk and in_words in desk and in_words in response.content.decode()


def test_the_player_page_gives_no_place_before_an_event_begins(client):
    make_tournament(couples=2, name="Next week", split=False)
    ada = RosterPlayer.objects.get(name="Ada")
    [event] = client.get(reverse("public:player", args=[a_club().pk, ada.pk])).context["events"]
    assert (event.tournament.name, event.place, event.total, event.partners) == ("Next week", None, None, ("Ben",))


@pytest.mark.parametrize(("most", "sizes"), [(5, [4, 4, 4]), (6, [6, 6]), (11, [6, 6]), (12, [12])])
def test_the_season_projector_splits_its_rows_into_pages_of_even_length(client, nights, monkeypatch, most, sizes):
    # 12 rows: the players' 8 (Night 20, split partners) and the teams' 4 (Nights 6 and 13).
    monkeypatch.setattr("tournament.seasons.views.PROJECTOR_ROWS", most)
    season = _season(nights)
    url = reverse("public:season_projector", args=[a_club().pk, season.pk])
    pages = [client.get(url, {"page": n}).context["page"] for n in range(1, len(sizes) + 1)]
    assert [len(page.items) for page in pages] == sizes and {page.count for page in pages} == {len(sizes)}


def test_the_clubs_seasons_are_listed_for_everyone(client, nights):
    season = _season(nights)
    html = client.get(reverse("public:seasons", args=[a_club().pk])).content.decode()
    assert f'<a href="{reverse("public:season", args=[a_club().pk, season.pk])}">Fall Fridays</a>' in html
    assert client.get(reverse("public:seasons", args=[999])).status_code == 404


# Each event's places stored (tournament.seasons.places): read back while its stamp stands.


def _points(table):
    return {line.name: str(line.standing.points) for line in table.lines}


def _worked_out():
    """A spy on the standings worked out for the stored places (the events it was called for)."""
    return mock.patch.object(stored, "event_places", wraps=stored.event_places)


def test_a_season_read_with_the_cache_empty_reads_the_stored_places_in_one_query(nights, django_assert_num_queries):
    season = _season(nights)
    first = season_tables(season)
    assert StoredPlaces.objects.count() == 3
    cache.clear()  # as after a restart
    with _worked_out() as spy, django_assert_num_queries(3):  # the events, their places, the names
        again = season_tables(season)
    assert spy.call_count == 0
    assert _points(again.teams) == _points(first.teams) and _points(again.players) == _points(first.players)


def test_a_corrected_hand_moves_the_season_standings_and_works_out_that_event_alone(nights):
    season = _season(nights[:2])
    assert _points(season_tables(season).teams) == {
        "Gina & Hugo": "18", "Cleo & Dan": "29/2", "Ada & Ben": "29/2", "Eve & Finn": "11",
    }  # fmt: skip
    # Night 13, table 1: Ada & Ben (NS) lost 240 to 244; taking 10 tricks at hand 1 (64, East-West
    # set: -60) they win 244 to 123: tied 1st with Gina & Hugo (244, 9 each), then Eve & Finn
    # (240, 3rd: 6) and Cleo & Dan (123, 4th: 5).
    game = nights[1].rounds.get(number=1).games.get(table__number=1)
    correct_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand(10)), expected_version=1)
    cache.clear()
    with _worked_out() as spy:
        tables = season_tables(season)
    assert [call.args[0].pk for call in spy.call_args_list] == [nights[1].pk]
    assert _points(tables.teams) == {
        "Gina & Hugo": "18", "Ada & Ben": "18", "Eve & Finn": "23/2", "Cleo & Dan": "21/2",
    }  # fmt: skip
    row = StoredPlaces.objects.get(tournament=nights[1])
    assert row.made_from == Tournament.objects.get(pk=nights[1].pk).changed_at


def test_places_stored_under_an_older_stamp_are_worked_out_again(nights):
    season = _season(nights)
    season_tables(season)
    # A reader that stored what it worked out before a write (its stamp older than the event's).
    older = Tournament.objects.get(pk=nights[0].pk).changed_at - datetime.timedelta(seconds=1)
    StoredPlaces.objects.filter(tournament=nights[0]).update(places=[], made_from=older)
    cache.clear()
    with _worked_out() as spy:
        tables = season_tables(season)
    assert spy.call_count == 1
    assert _points(tables.teams)["Gina & Hugo"] == "18"


def test_a_deleted_event_leaves_the_season_with_its_stored_places(nights):
    season = _season(nights)
    season_tables(season)
    Tournament.objects.filter(pk=nights[1].pk).delete()
    assert not StoredPlaces.objects.filter(tournament_id=nights[1].pk).exists()
    tables = season_tables(season)
    assert [e.name for e in tables.teams.events] == ["Night 6"]
    assert _points(tables.teams) == {"Ada & Ben": "9", "Gina & Hugo": "9", "Cleo & Dan": "11/2", "Eve & Finn": "11/2"}


def test_an_event_taken_out_of_the_season_stops_counting_and_its_places_still_serve_the_player_page(nights):
    season = _season(nights)
    season_tables(season)
    save_season(club_id=season.club_id, season_id=season.pk, name=season.name, rule="places",
                points_table=season.points_table, best_n=None, events=nights[:1])  # fmt: skip
    tables = season_tables(season)
    assert [e.name for e in tables.teams.events] == ["Night 6"] and tables.players.events == ()
    ada = RosterPlayer.objects.get(name="Ada")
    with _worked_out() as spy:
        events = player_events(ada)
    assert spy.call_count == 0
    assert [(e.tournament.name, e.place, e.total) for e in events] == [
        ("Night 20", 1, 244), ("Night 13", 3, 240), ("Night 6", 1, 244),
    ]  # fmt: skip


def test_the_player_page_stores_the_places_it_worked_out_for_the_season_to_read(nights):
    ada = RosterPlayer.objects.get(name="Ada")
    player_events(ada)
    assert StoredPlaces.objects.count() == 3
    with _worked_out() as spy:
        season_tables(_season(nights))
    assert spy.call_count == 0


def test_an_event_counts_in_the_season_and_on_the_player_page_once_it_is_finished(client, nights):
    from tournament.seasons.player import player_events

    running = _on(27, make_tournament(couples=4, split=False, name="Night 27", rounds_planned=2))
    round_ = start_play(tournament=running)
    start_round(round_=round_)
    for game in round_.games.all():
        finish_game(game)
    close_round(round_=round_)  # round 2 is seated: the night is not over
    season = _season([*nights[:2], running])
    tables = season_tables(season)
    assert [event.name for event in tables.waiting] == ["Night 27"]
    assert len(tables.teams.events) == 2  # nights 6 and 13 only
    page = client.get(reverse("public:season", args=[season.club_id, season.pk])).content.decode()
    assert "Not counted yet: Night 27." in page
    ada = RosterPlayer.objects.get(club=season.club, name="Ada")
    shown = {line.tournament.name: line.place for line in player_events(ada)}
    assert shown["Night 27"] is None and shown["Night 6"] == 1
