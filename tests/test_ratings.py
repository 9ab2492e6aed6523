"""Player ratings: Glicko-2 on the club's games (pure code, checked against Glickman's worked
example), the games a club's events give it, and where ratings show."""

import datetime
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.conftest import finish_game, make_tournament
from tournament.models import Game, Player, RosterPlayer, Tournament
from tournament.play.games import decide_tie
from tournament.play.rounds import close_round, start_play, start_round
from tournament.ratings.games import club_periods
from tournament.ratings.glicko2 import (
    NEWCOMER,
    Period,
    PlayerRating,
    Rating,
    Result,
    TeamGame,
    idle,
    partnership,
    rate,
    run,
)
from tournament.ratings.services import Shown, club_ratings, player_rating, roster_ratings
from tournament.teams.services import substitute_player

ROOT = Path(__file__).resolve().parent.parent

# --- the pure rating code --------------------------------------------------------------------------


def test_the_rating_code_imports_no_django():
    code = "import sys, tournament.ratings.glicko2; sys.exit('django' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def test_glickmans_worked_example():
    """The paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300. The paper
    prints 1464.06 and 151.52 from rounded intermediate figures; unrounded, 1464.051 and 151.517."""
    player = Rating(1500, 200, 0.06)
    after = rate(player, [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0), Result(Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


@pytest.mark.parametrize(
    ("score", "rating", "rd"),
    [
        # A newcomer against a newcomer, worked by hand: g(350/173.7178) = 0.66906, E = 0.5,
        # v = 8.9358, RD' = 1/sqrt(1/(2.0148² + 0.06²) + 1/v) = 1.6712 (290.3), and the rating
        # moves by RD'² · g · (s − E) = ±0.9343 (±162.3).
        (1.0, 1662.3, 290.3),
        (0.5, 1500.0, 290.3),
        (0.0, 1337.7, 290.3),
    ],
)
def test_a_newcomers_first_game(score, rating, rd):
    after = rate(NEWCOMER, [Result(NEWCOMER, score)])
    assert after.rating == pytest.approx(rating, abs=0.1)
    assert after.rd == pytest.approx(rd, abs=0.1)


def test_a_win_and_a_loss_are_symmetric():
    winner = rate(Rating(1600, 120), [Result(Rating(1450, 80), 1)])
    loser = rate(Rating(1600, 120), [Result(Rating(1450, 80), 0)])
    drawn = rate(Rating(1600, 120), [Result(Rating(1450, 80), 0.5)])
    assert winner.rating > drawn.rating > loser.rating
    # Two equal partnerships: the winners gain what the losers lose, and all are as sure of it.
    players = run([Period("night", (TeamGame(("a", "b"), ("c", "d"), 1.0),))]).players
    first, second = players["a"], players["c"]
    assert first.now.rating - 1500 == pytest.approx(1500 - second.now.rating)
    assert first.now.rd == second.now.rd


def test_rd_grows_while_idle_up_to_a_newcomers():
    # sqrt((100/173.7178)² + 0.06²) · 173.7178 = 100.54
    assert idle(Rating(1700, 100, 0.06)) == Rating(1700, pytest.approx(100.54, abs=0.01), 0.06)
    assert idle(Rating(1700, 349.9, 0.06)).rd == 350


def test_a_partnership_is_one_opponent_of_mean_rating_and_root_mean_square_rd():
    pair = partnership([Rating(1400, 30), Rating(1600, 40)])
    assert pair.rating == 1500
    assert pair.rd == pytest.approx(35.355, abs=0.001)  # sqrt((900 + 1600) / 2)


def test_a_run_rates_each_period_against_the_ratings_before_it_and_grows_the_idle():
    periods = [
        Period(1, (TeamGame(("a", "b"), ("c", "d"), 1.0),)),
        Period(2, (TeamGame(("a", None), ("e", "f"), 0.0),)),
    ]
    players = run(periods).players
    assert set(players) == {"a", "b", "c", "d", "e", "f"}  # nobody rates an unnamed seat
    assert [point.period for point in players["a"].history] == [1, 2]
    assert players["b"].games == 1 and players["b"].now.rd > players["b"].history[-1].rating.rd  # idle in 2
    # In period 2, e and f beat a (1662.3) with a newcomer: a composite of 1581.2, RD 322.1.
    alone = rate(NEWCOMER, [Result(partnership([players["a"].history[0].rating, NEWCOMER]), 1)])
    assert players["e"].now == alone


def test_a_run_carries_on_from_the_run_before_it():
    periods = [
        Period(1, (TeamGame(("a", "b"), ("c", "d"), 1.0),)),
        Period(2, (TeamGame(("a", "c"), ("e", "f"), 0.5), TeamGame(("b", "d"), ("e", "g"), 0.0))),
        Period(3, (TeamGame(("f", "g"), ("a", "d"), 1.0),)),
    ]
    assert run(periods[1:], start=run(periods[:1])) == run(periods)


@pytest.mark.parametrize(("games", "provisional"), [(0, True), (9, True), (10, False), (25, False)])
def test_a_rating_is_provisional_until_ten_games(games, provisional):
    assert PlayerRating(NEWCOMER, games, ()).provisional is provisional


# --- the games of a club ---------------------------------------------------------------------------


def _night(name: str, day: int, couples: list[tuple[str, str]]):
    """A one-round event of two tables, round 1 seated in registration order (partners together,
    the first couple North–South at table 1 against the second)."""
    from tournament.teams.services import register_team

    tournament = make_tournament(couples=0, name=name, rounds_planned=1)
    tournament.date = datetime.date(2026, 11, day)
    tournament.save()
    for names in couples:
        register_team(tournament=tournament, names=list(names))
    return tournament


def _play(tournament, *, ns_tricks: dict[int, int]):
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    for game in round_.games.select_related("table"):
        finish_game(game, ns_tricks=ns_tricks[game.table.number])
    close_round(round_=round_)


@pytest.fixture
def two_nights(db):
    """Night one: Ada & Ben beat Cleo & Dan, Eve & Finn beat Gina & Hugo. Night two (a week later):
    Hugo plays for Ben, a stranger for Finn; Cleo & Dan beat Ada & Hugo, Eve & the stranger beat
    Iris & Jack."""
    first = _night("Night one", 13, [("Ada", "Ben"), ("Cleo", "Dan"), ("Eve", "Finn"), ("Gina", "Hugo")])
    _play(first, ns_tricks={1: 7, 2: 7})
    second = _night("Night two", 20, [("Ada", "Ben"), ("Cleo", "Dan"), ("Eve", "Finn"), ("Iris", "Jack")])
    substitute_player(player=second.teams.get(number=1).players.get(name="Ben"), substitute=" hugo ", from_round=1)
    substitute_player(player=second.teams.get(number=3).players.get(name="Finn"), substitute="Stranger", from_round=1)
    _play(second, ns_tricks={1: 3, 2: 7})
    return first, second


def _roster(club_id):
    return {person.name: person.pk for person in RosterPlayer.objects.filter(club_id=club_id)}


def test_a_clubs_games_are_its_events_partnerships_in_date_order(two_nights):
    first, second = two_nights
    ids = _roster(first.club_id)
    ada, ben, cleo, dan, eve, finn, gina, hugo, iris, jack = (
        ids[n] for n in ["Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gina", "Hugo", "Iris", "Jack"]
    )
    assert club_periods(first.club_id) == [
        Period(first.pk, (TeamGame((ada, ben), (cleo, dan), 1.0), TeamGame((eve, finn), (gina, hugo), 1.0))),
        # Hugo is rated for Ben's seat; the stranger, on no roster, for nobody's.
        Period(second.pk, (TeamGame((ada, hugo), (cleo, dan), 0.0), TeamGame((eve, None), (iris, jack), 1.0))),
    ]


def test_a_substitute_is_rated_for_the_games_they_played_and_the_absent_player_is_not(two_nights):
    first, _ = two_nights
    ids = _roster(first.club_id)
    players = club_ratings(first.club_id).players
    assert players[ids["Hugo"]].games == 2 and players[ids["Ben"]].games == 1 and players[ids["Finn"]].games == 1
    assert "Stranger" not in ids
    # Ben won his one game (1662.3, RD 290.3) and missed night two: RD 290.3 grows to 290.5.
    assert players[ids["Ben"]].now.rating == pytest.approx(1662.3, abs=0.1)
    assert players[ids["Ben"]].now.rd == pytest.approx(290.5, abs=0.1)


def test_a_tie_the_director_decided_is_rated_a_draw(db):
    night = _night("Tie night", 13, [("Ada", "Ben"), ("Cleo", "Dan")])
    round_ = start_play(tournament=night)
    start_round(round_=round_)
    game = round_.games.get()
    finish_game(game, ns_tricks=7, hands=2)
    finish_game(game, ns_tricks=6, hands=2)  # 242 all
    decide_tie(game=round_.games.get(), winner="NS", how="Cut of the cards")
    (period,) = club_periods(night.club_id)
    assert period.games[0].first_score == 0.5


def test_unfinished_games_and_events_without_play_give_no_period(db):
    night = _night("Tonight", 13, [("Ada", "Ben"), ("Cleo", "Dan")])
    round_ = start_play(tournament=night)
    start_round(round_=round_)
    finish_game(round_.games.get(), hands=1)  # still playing
    assert club_periods(night.club_id) == []


def test_a_game_under_way_when_the_director_settled_its_match_is_not_rated(db):
    import tests.events
    from tournament.models import Game

    event = tests.events.knockout_under_way()  # one match decided by the director after a hand
    settled = Game.objects.get(round__tournament=event, match__outcome="decision", hands_played__gt=0)
    assert settled.status == "finished" and settled.decided_by.startswith("Director's decision: ")
    (period,) = club_periods(event.club_id)
    played = Game.objects.filter(round__tournament=event, status="finished", hands_played__gt=0, decided_by="")
    assert len(period.games) == played.count() == 3
    assert 0.5 not in [game.first_score for game in period.games]


@pytest.mark.parametrize("build", ["knockout_finished", "league_finished", "swiss_under_way"])
def test_a_match_formats_games_rate_the_home_team_against_the_away_team(db, build):
    import tests.events
    from tournament.models import Game

    event = getattr(tests.events, build)()
    periods = club_periods(event.club_id)
    assert [period.key for period in periods] == [event.pk]
    played = Game.objects.filter(round__tournament=event, status="finished", hands_played__gt=0)
    assert len(periods[0].games) == played.count() > 0
    roster_of = dict(Player.objects.filter(team__tournament=event).values_list("roster_id", "team_id"))
    for game in periods[0].games:
        assert len({roster_of[p] for p in game.first}) == 1 and len({roster_of[p] for p in game.second}) == 1
        assert roster_of[game.first[0]] != roster_of[game.second[0]]


def test_a_change_to_the_latest_event_rates_that_event_again_on_the_kept_run(two_nights, django_assert_num_queries):
    from django.core.cache import cache
    from django.utils import timezone

    from tournament.models import Game, Tournament

    first, second = two_nights
    cache.clear()
    before = club_ratings(first.club_id)
    # Night two's table 1 turned round (as a correction would), its tournament stamped as every write does.
    Game.objects.filter(round__tournament=second, table__number=1).update(winner="NS")
    Tournament.objects.filter(pk=second.pk).update(changed_at=timezone.now())
    with django_assert_num_queries(7):  # the stamps and the roster, then night two's games alone
        after = club_ratings(first.club_id)
    assert after == run(club_periods(first.club_id)) != before
    ada = _roster(first.club_id)["Ada"]
    assert after.players[ada].now.rating > before.players[ada].now.rating
    with django_assert_num_queries(2):
        assert club_ratings(first.club_id) == after


# --- where ratings show ---------------------------------------------------------------------------


def test_the_roster_shows_each_persons_rating(two_nights):
    first, _ = two_nights
    ids = _roster(first.club_id)
    shown = roster_ratings(first.club_id)
    assert shown[ids["Ben"]] == Shown(rating=1662, rd=291, games=1, provisional=True)
    assert ids["Iris"] in shown and ids.get("Stranger") not in shown


@pytest.mark.parametrize(("public", "ratings_public", "shown"), [
    (False, False, True), (False, True, True), (True, True, True), (True, False, False),
])  # fmt: skip
def test_a_players_rating_is_private_when_the_club_says_so(two_nights, public, ratings_public, shown):
    first, _ = two_nights
    club = first.club
    club.ratings_public = ratings_public
    club.save()
    ada = RosterPlayer.objects.get(club=club, name="Ada")
    page = player_rating(club, ada, public=public)
    assert (page is not None) is shown
    if shown:
        assert [(line.event, line.games) for line in page.history] == [("Night one", 1), ("Night two", 2)]
        assert page.history[0].rating == 1662 and page.now.games == 2 and page.games_to_go == 8
        assert page.chart.x_labels == ("Nov 13", "Nov 20")
        assert page.chart.series[0].values == (1662.0, page.history[1].rating)


# --- the pages ------------------------------------------------------------------------------------


@pytest.fixture
def people(two_nights, django_user_model):
    """The club's owner, an assistant, and the director of another club."""
    from tournament.clubs.services import create_club, grant

    club = two_nights[0].club
    owner, assistant, stranger = (django_user_model.objects.create_user(n) for n in ("olive", "ann", "bea"))
    grant(club=club, user=owner, role="owner")
    grant(club=club, user=assistant, role="assistant")
    create_club(name="Club B", owner=stranger)
    return club, owner, assistant, stranger


def test_the_roster_page_has_a_rating_column(client, people):
    club, _, assistant, _ = people
    make_tournament(couples=0, name="Next week")  # nobody plays: Zoe has no rating yet
    from tournament.teams.services import register_team

    register_team(tournament=club.tournaments.get(name="Next week"), names=["Zoe", "Ada"])
    client.force_login(assistant)
    html = client.get(reverse("director:club_roster", args=[club.pk])).content.decode()
    rows = {row.split("</a>")[0].rsplit(">", 1)[1]: row for row in html.split("<tr>")[2:]}
    provisional = '<br><small class="muted">provisional</small></td>'
    assert f'<td class="num">1662{provisional}' in rows["Ben"]  # won his one game
    # Hugo lost (1337.7, RD 290.3), then lost as Ben's substitute to Cleo & Dan (both 1337.7, RD 290.3):
    # g = 0.73542, E = 0.5, v = 7.3960, RD' = 1.42450, so he drops 1.42450² · 0.73542 · 0.5 = 0.74616 (129.6).
    assert f'<td class="num">1208{provisional}' in rows["Hugo"]
    assert '<td class="num">–</td>' in rows["Zoe"]
    assert reverse("public:ratings_about", args=[club.pk]) in html


def test_a_roster_players_page_shows_the_rating_after_each_event(client, people):
    club, owner, _, stranger = people
    ben = RosterPlayer.objects.get(club=club, name="Ben")
    url = reverse("director:roster_player", args=[club.pk, ben.pk])
    client.force_login(owner)
    html = client.get(url).content.decode()
    assert "<strong>1662</strong>" in html and "± 291 (deviation) · 1 game" in html  # 290.5: idle at night two
    assert "Provisional: 9 more games until the rating settles." in html
    assert '<td>Night one</td><td class="num">1662</td><td class="num">290</td>' in html
    assert "Night two" not in html.split("rating-history")[1]  # he did not play it
    assert "<svg" not in html  # one event: no line to draw
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_the_page_on_how_ratings_work_is_public_while_the_clubs_ratings_are(client, people):
    club, _, assistant, stranger = people
    url = reverse("public:ratings_about", args=[club.pk])
    html = client.get(url).content.decode()
    assert "Glicko-2" in html and "&spades; Spades Director</a>" in html  # the app's header, not the club's
    assert f'<a href="{reverse("public:seasons", args=[club.pk])}">' in html  # a way back
    club.ratings_public = False
    club.save()
    assert client.get(url).status_code == 404
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    client.force_login(assistant)
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 405
    assert client.get(reverse("public:ratings_about", args=[club.pk + 99])).status_code == 404


@pytest.mark.parametrize(("sent", "public"), [({"ratings_public": "on"}, True), ({}, False)])
def test_the_owner_makes_the_clubs_ratings_public_or_private(client, people, sent, public):
    club, owner, _, _ = people
    club.ratings_public = not public
    club.save()
    data = {"name": club.name, "time_zone": "UTC", "currency": "$", **sent}
    client.force_login(owner)
    assert client.post(reverse("director:club", args=[club.pk]), data).status_code == 302
    club.refresh_from_db()
    assert club.ratings_public is public


def test_bad_club_settings_leave_the_ratings_as_they_were(client, people):
    club, owner, _, _ = people
    client.force_login(owner)
    response = client.post(reverse("director:club", args=[club.pk]), {"name": club.name, "time_zone": "UTC",
                                                                       "currency": " "})  # fmt: skip
    assert response.status_code == 422 and response.context["settings_form"].errors["currency"]
    assert 'name="ratings_public"' in response.content.decode()
    club.refresh_from_db()
    assert club.ratings_public is True


def test_a_players_page_charts_the_rating_over_their_events(client, people):
    club, owner, _, _ = people
    ada = RosterPlayer.objects.get(club=club, name="Ada")
    client.force_login(owner)
    html = client.get(reverse("director:roster_player", args=[club.pk, ada.pk])).content.decode()
    assert "<svg" in html and "Ada's rating after each of 2 events, from 1662 after Night one" in html
    # The chart's text alternative is the history table under it, once: no second table in a details.
    assert "Show as a table" not in html and html.count("<table") == 2  # the events' and the ratings'
    assert '<th class="num">Deviation</th>' in html


@pytest.mark.parametrize(("ratings_public", "viewer", "shown"), [
    (True, None, True), (False, None, False), (False, "ann", True), (False, "bea", False),
])  # fmt: skip
def test_the_public_player_page_shows_the_rating_unless_the_club_keeps_it_to_its_people(
    client, people, ratings_public, viewer, shown
):
    club, _, assistant, stranger = people
    club.ratings_public = ratings_public
    club.save()
    if viewer:
        client.force_login({"ann": assistant, "bea": stranger}[viewer])
    ben = RosterPlayer.objects.get(club=club, name="Ben")
    html = client.get(reverse("public:player", args=[club.pk, ben.pk])).content.decode()
    assert ("1662" in html) is shown  # Ben's rating after his one win
    assert "Night one" in html  # the events he played show whatever the club's choice


def _ada_events(club) -> list[str]:
    ada = RosterPlayer.objects.get(club=club, name="Ada")
    return [line.event for line in player_rating(club, ada, public=False).history]


def test_an_evening_counts_in_the_ratings_once_it_is_finished(two_nights):
    first, _ = two_nights
    third = _night("Night three", 27, [("Ada", "Ben"), ("Cleo", "Dan")])
    round_ = start_play(tournament=third)
    start_round(round_=round_)
    finish_game(round_.games.get(), ns_tricks=7)  # played, but the round (the event) is not closed yet
    assert _ada_events(first.club) == ["Night one", "Night two"]
    close_round(round_=round_)
    assert _ada_events(first.club) == ["Night one", "Night two", "Night three"]


def test_with_checked_rounds_only_an_evening_counts_once_its_flags_are_checked(two_nights):
    from tournament.review.flags import round_flags
    from tournament.review.services import mark_checked

    first, second = two_nights
    club = first.club
    club.publish_checked_only = True
    club.save()
    game = second.rounds.get().games.get(table__number=1)
    Game.objects.filter(pk=game.pk).update(ns_bags=9)  # a stored total its hands do not give
    Tournament.objects.filter(pk=second.pk).update(changed_at=timezone.now())  # as a write stamps it
    assert _ada_events(club) == ["Night one"]
    (flag,) = round_flags(second.rounds.get()).shown
    mark_checked(round_=second.rounds.get(), key=flag.flag.key, note="the sheet agrees")
    assert _ada_events(club) == ["Night one", "Night two"]
