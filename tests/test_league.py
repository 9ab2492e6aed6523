"""A league season in the app (issue 12): the schedule as matches, nights, postponements, late
joiners, withdrawals and the league table, through the services and the director's pages."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from scoring import HandEntry, Seat
from tests.conftest import make_tournament
from tournament.formats.league.models import LeagueSettings
from tournament.formats.league.schedule import Missed, PlayedResults
from tournament.formats.league.services import (
    add_late_team,
    build_schedule,
    can_postpone,
    close_night,
    load_schedule,
    nights,
    open_night,
    postpone_match,
    start_championship,
    withdraw_team,
)
from tournament.formats.league.standings import (
    champion,
    championship_matches,
    league_standings,
    standing_rows,
)
from tournament.formats.league.standings import league_matches as matches_of
from tournament.models import Game, Match, Round, RoundNotReady, Team, Tournament
from tournament.play.rounds import close_round, start_round


def make_league(couples: int = 4, **fields) -> Tournament:
    """A league under rule text 004 with ``couples`` teams registered (Ada & Ben first)."""
    import datetime
    from decimal import Decimal

    from tests.conftest import COUPLES, a_club, format_settings
    from tournament.teams.services import register_team

    tournament = Tournament.objects.create(
        club=a_club(),
        name="Tuesday league",
        date=datetime.date(2026, 11, 20),
        preset="league-300",
        format="round_robin",
        entry_fee=Decimal("10.00"),
    )
    Tournament.objects.filter(pk=tournament.pk).update(**format_settings(tournament, **fields))
    tournament.refresh_from_db()
    for first, second in COUPLES[:couples]:
        register_team(tournament=tournament, names=[first, second])
    return tournament


def league_matches(tournament):
    return list(matches_of(tournament).order_by("round", "number"))


def finish(match: Match, *, winner: Team, home_points: int, away_points: int, bags=(0, 0)) -> None:
    """A decided match as the match services leave it: one finished game and the match's winner."""
    game = match.games.first()
    game.ns_score, game.ew_score, game.ns_bags, game.ew_bags = home_points, away_points, *bags
    game.status, game.winner = Game.Status.FINISHED, "NS" if winner == match.home else "EW"
    game.save()
    match.status, match.winner, match.outcome = Match.Status.FINISHED, winner, Match.Outcome.PLAYED
    match.save()


@pytest.mark.django_db
@pytest.mark.parametrize(("couples", "legs", "nights", "matches"), [(4, 1, 3, 6), (5, 1, 5, 10), (4, 2, 6, 12)])
def test_making_the_schedule_creates_every_match_night_by_night(couples, legs, nights, matches):
    tournament = make_league(couples, legs=legs)
    build_schedule(tournament=tournament)
    saved = league_matches(tournament)
    assert len(saved) == matches
    assert max(m.round for m in saved) == nights
    assert all(m.status == Match.Status.READY and m.stage == Match.Stage.LEAGUE for m in saved)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(ValidationError, match="already made"):
        build_schedule(tournament=tournament)


@pytest.mark.django_db
def test_a_league_needs_two_teams():
    with pytest.raises(ValidationError, match="at least two teams"):
        build_schedule(tournament=make_league(1))


@pytest.mark.django_db
def test_opening_a_night_seats_each_match_at_a_table_home_north_south():
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    round_ = open_night(tournament=tournament, night=1)
    assert round_.status == Round.Status.PLANNED
    for table_number, match in enumerate(league_matches(tournament)[:2], start=1):
        assert (match.table.number, match.status) == (table_number, Match.Status.PLAYING)
        seats = dict(round_.seatings.filter(table=match.table).values_list("seat", "player__team"))
        assert seats[Seat.NORTH] == seats[Seat.SOUTH] == match.home_id
        assert seats[Seat.EAST] == seats[Seat.WEST] == match.away_id
        assert match.games.get().clock.minutes == 30  # rule text 004's time limit
    with pytest.raises(ValidationError, match="Close the night"):
        open_night(tournament=tournament, night=2)


@pytest.mark.django_db
def test_nights_open_in_order():
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    with pytest.raises(ValidationError, match="next is night 1"):
        open_night(tournament=tournament, night=2)


@pytest.mark.django_db
def test_a_night_closes_only_when_every_match_is_decided():
    from tests.conftest import finish_game

    tournament = make_league(4)
    build_schedule(tournament=tournament)
    round_ = open_night(tournament=tournament, night=1)
    start_round(round_=round_)
    with pytest.raises(ValidationError, match="still playing at table 1, 2"):
        close_night(round_=round_)
    for match in league_matches(tournament)[:2]:
        finish_game(match.games.get(), hands=1)
        finish(match, winner=match.home, home_points=300, away_points=100)
    close_night(round_=round_)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


@pytest.mark.django_db
def test_postponing_moves_a_match_and_the_schedule_says_from_where():
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    match = league_matches(tournament)[0]
    postpone_match(match=match, to_night=4)
    match.refresh_from_db()
    assert (match.round, match.postponed_from) == (4, 1)
    with pytest.raises(ValidationError, match=r"Ada & Ben already plays on night 2"):
        postpone_match(match=match, to_night=2)


@pytest.mark.django_db
def test_a_match_cannot_move_onto_a_night_already_opened():
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    later = league_matches(tournament)[2]
    with pytest.raises(ValidationError, match="opened already"):
        postpone_match(match=later, to_night=1)
    start_round(round_=tournament.rounds.get(number=1))
    started = league_matches(tournament)[0]
    with pytest.raises(ValidationError, match="not yet started") as refused:
        postpone_match(match=started, to_night=4)
    assert refused.value.code == "started"


@pytest.mark.django_db
def test_a_match_seated_on_a_night_not_started_can_move_and_frees_its_table():
    """A team calls in after the night is opened, before it starts: its match leaves its table."""
    tournament = make_league(4)  # rule text 004: matches have a 30-minute clock
    build_schedule(tournament=tournament)
    night = open_night(tournament=tournament, night=1)
    seated, other = league_matches(tournament)[:2]
    table, clock = seated.table, seated.clock
    assert clock is not None and seated.is_seated
    postpone_match(match=seated, to_night=4)
    seated.refresh_from_db()
    assert (seated.round, seated.postponed_from, seated.status) == (4, 1, Match.Status.READY)
    assert (seated.table, seated.clock) == (None, None)
    assert not seated.games.exists()
    assert not night.seatings.filter(table=table).exists()
    assert not type(clock).objects.filter(pk=clock.pk).exists()
    other.refresh_from_db()
    assert other.is_seated and night.seatings.filter(table=other.table).count() == 4
    start_round(round_=night)  # the night plays on without it
    assert not can_postpone(other, night)


@pytest.mark.django_db
def test_a_late_joiner_plays_the_resting_team_and_forfeits_nights_gone():
    from tournament.teams.services import register_team

    tournament = make_league(3)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    newcomer = register_team(tournament=tournament, names=["Zoe", "Yann"])
    assert add_late_team(team=newcomer, missed=Missed.FORFEIT) == 2
    theirs = list(matches_of(tournament).filter(home=newcomer) | matches_of(tournament).filter(
        away=newcomer
    ))  # fmt: skip
    assert len(theirs) == 3
    (forfeit,) = [m for m in theirs if m.outcome == Match.Outcome.WALKOVER]
    assert forfeit.round == 1 and forfeit.winner_id != newcomer.pk and forfeit.status == Match.Status.FINISHED
    assert sorted(m.round for m in theirs if m.status == Match.Status.READY) == [2, 3]


@pytest.mark.django_db
@pytest.mark.parametrize("played", list(PlayedResults))
def test_a_withdrawal_turns_the_rest_into_walkovers_and_the_table_says_so(played):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)

    round_ = tournament.rounds.get(number=1)
    start_round(round_=round_)
    first, second = league_matches(tournament)[:2]
    finish(first, winner=first.home, home_points=300, away_points=120)
    finish(second, winner=second.home, home_points=300, away_points=200)
    close_night(round_=round_)
    leaving = first.home
    assert withdraw_team(team=leaving, played=played) == 2
    later = matches_of(tournament).filter(round__gte=2).filter(home=leaving) | matches_of(tournament).filter(
        round__gte=2, away=leaving
    )
    assert all(m.outcome == Match.Outcome.WALKOVER and m.winner_id != leaving.pk for m in later)
    first.refresh_from_db()
    assert first.void is (played is PlayedResults.VOID)
    standings = league_standings(tournament)
    line = next(line for line in standings.lines if line.row.team == leaving.pk)
    kept = "voided" if played is PlayedResults.VOID else "stand"
    assert line.withdrawn and f"withdrew before night 2: played results {kept}" in line.note
    assert line.row.won == (0 if played is PlayedResults.VOID else 1)
    assert line.row.lost == 0  # its walkovers on nights 2 and 3 count on those nights, not before


@pytest.mark.django_db
def test_a_withdrawals_walkovers_count_on_their_nights_not_before():
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    night_1 = open_night(tournament=tournament, night=1)
    start_round(round_=night_1)
    for match in league_matches(tournament)[:2]:
        finish(match, winner=match.home, home_points=300, away_points=120)
    close_night(round_=night_1)
    leaving = league_matches(tournament)[0].away
    withdraw_team(team=leaving, played=PlayedResults.STAND)

    def record(team_id):
        row = next(line.row for line in league_standings(tournament).lines if line.row.team == team_id)
        return row.played, row.won, row.lost

    night_2 = matches_of(tournament).filter(round=2)
    walkover_2 = night_2.get(outcome=Match.Outcome.WALKOVER)
    assert record(leaving.pk) == (1, 0, 1) and record(walkover_2.winner_id) == (1, 1, 0)
    open_night(tournament=tournament, night=2)
    assert record(leaving.pk) == (2, 0, 2) and record(walkover_2.winner_id) == (2, 2, 0)


@pytest.mark.django_db
def test_the_league_table_ranks_by_matches_won_then_the_directors_tiebreakers():
    tournament = make_league(4, tiebreakers="point-difference")
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    one, two = league_matches(tournament)[:2]
    finish(one, winner=one.home, home_points=300, away_points=100)
    finish(two, winner=two.away, home_points=250, away_points=310)
    standings = league_standings(tournament)
    assert [(line.row.rank, line.row.team) for line in standings.lines] == [
        (1, one.home_id),
        (2, two.away_id),
        (3, two.home_id),
        (4, one.away_id),
    ]
    assert standings.ties[0].endswith(f"point difference {one.home.names} +200, {two.away.names} +60.")
    assert standings.order.startswith("Ranked by matches won, then fewest lost. Then point difference")


# --- the pages ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_schedule_page_shows_each_night_its_matches_and_who_rests(director_client):
    tournament = make_league(5)
    url = reverse("director:league_schedule", args=[tournament.pk])
    assert "Make the schedule" in director_client.get(url).content.decode()
    director_client.post(reverse("director:league_build", args=[tournament.pk]))
    page = director_client.get(url).content.decode()
    assert page.count('class="card night"') == 5 and page.count("Resting:") == 5
    assert "Open night 1: seat the tables" in page


@pytest.mark.django_db
def test_the_schedule_writes_each_result_as_the_bracket_does_and_names_a_directors_decision(director_client):
    import io

    from pypdf import PdfReader

    from tournament.matches.services import settle_match

    tournament = make_league(4)
    build_schedule(tournament=tournament)
    start_round(round_=open_night(tournament=tournament, night=1))
    played, decided = league_matches(tournament)[:2]
    finish(played, winner=played.home, home_points=360, away_points=-120)
    settle_match(outcome="decision", match=decided, winner=decided.away, reason="Time up and level")
    page = director_client.get(reverse("director:league_schedule", args=[tournament.pk])).content.decode()
    assert f"{escape(played.home.names)} won 360 to −120" in page
    assert f"{escape(decided.away.names)} won on the director's decision (Time up and level)" in page
    assert "won, 0" not in page
    public = Client().get(reverse("public:league", args=[tournament.pk])).content.decode()
    assert "(360 to −120)" in public and "(decided by the director)" in public
    printed = director_client.get(reverse("director:print_document", args=[tournament.pk, "season-schedule"])).content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(printed)).pages)
    assert "360 to −120" in text and "decided by the director" in text and "0 to 0" not in text


@pytest.mark.django_db
def test_postponing_through_the_page(director_client):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    match = league_matches(tournament)[0]
    url = reverse("director:league_postpone", args=[tournament.pk, match.pk])
    response = director_client.post(url, {"night": "4"}, follow=True)
    assert "The match moved to night 4." in response.content.decode()
    assert "(postponed from night 1)" in response.content.decode()
    bad = director_client.post(url, {"night": "two"}, follow=True).content.decode()
    assert "Move to night: give a night number from 1." in bad
    busy = director_client.post(url, {"night": "2"}, follow=True).content.decode()
    assert "already plays on night 2" in busy
    assert director_client.get(url).status_code == 405
    assert director_client.post(reverse("director:league_postpone", args=[tournament.pk, 999999])).status_code == 404


@pytest.mark.django_db
def test_joining_late_and_withdrawing_through_the_page(director_client):
    from tournament.teams.services import register_team

    tournament = make_league(4)
    build_schedule(tournament=tournament)
    newcomer = register_team(tournament=tournament, names=["Zoe", "Yann"])
    join = director_client.post(
        reverse("director:league_join", args=[tournament.pk]),
        {"join-team": newcomer.pk, "join-missed": "make-up"},
        follow=True,
    )
    assert f"Team {newcomer.number} joins from night 1." in join.content.decode()
    assert matches_of(tournament).count() == 10
    leaving = Team.objects.get(tournament=tournament, number=1)
    gone = director_client.post(
        reverse("director:league_withdraw", args=[tournament.pk]),
        {"withdraw-team": leaving.pk, "withdraw-played": "stand"},
        follow=True,
    )
    assert "Team 1 withdrew: its matches from night 1 are walkovers." in gone.content.decode()
    missing = director_client.post(reverse("director:league_withdraw", args=[tournament.pk]), {}, follow=True)
    assert "Choose the team withdrawing" in missing.content.decode()


@pytest.mark.django_db
def test_a_night_through_the_pages(director_client):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    opened = director_client.post(reverse("director:league_night_open", args=[tournament.pk, 1]), follow=True)
    page = opened.content.decode()
    assert "Night 1" in page and "Start night 1" in page and "Table links and QR codes" in page
    director_client.post(reverse("director:round_start", args=[tournament.pk, 1]))
    assert tournament.rounds.get(number=1).status == Round.Status.RUNNING
    refused = director_client.post(reverse("director:round_close", args=[tournament.pk, 1]), follow=True)
    assert "Night 1 cannot close: still playing at table 1, 2." in refused.content.decode()


@pytest.mark.django_db
def test_the_league_table_for_the_director_the_public_and_the_projector(director_client):
    client = Client()
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    one = league_matches(tournament)[0]
    finish(one, winner=one.home, home_points=300, away_points=100)
    for response in (
        director_client.get(reverse("director:league_table", args=[tournament.pk])),
        client.get(reverse("public:league", args=[tournament.pk])),
        client.get(reverse("public:league_projector", args=[tournament.pk])),
    ):
        page = response.content.decode()
        assert response.status_code == 200 and escape(one.home.names) in page
        assert "Table 1" in page  # tonight's pairings with their tables
    fragment = client.get(reverse("public:league", args=[tournament.pk]), headers={"HX-Request": "true"})
    assert fragment.content.decode().startswith('<div id="league"')


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("director:league_schedule", []),
        ("director:league_table", []),
        ("director:league_night", [1]),
    ],
)
def test_league_pages_are_for_directors_and_league_tournaments_only(director_client, name, args):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    url = reverse(name, args=[tournament.pk, *args])
    assert Client().get(url).status_code == 302  # to the login page
    assert director_client.get(url).status_code == 200
    progressive = make_tournament(couples=4)
    assert director_client.get(reverse(name, args=[progressive.pk, *args])).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["director:league_build", "director:league_join", "director:league_withdraw"])
def test_league_actions_refuse_get_and_strangers(director_client, name):
    tournament = make_league(4)
    url = reverse(name, args=[tournament.pk])
    assert director_client.get(url).status_code == 405
    assert Client().post(url).status_code == 302


# --- fees -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_fee_by_the_night_is_owed_for_each_night_a_team_is_seated_and_paid_in_parts(director_client):
    from decimal import Decimal

    from tournament.money.ledger import ledger, teams_with_balance
    from tournament.money.services import record_payment

    tournament = make_league(5, fee_per="night")  # $10 a night; one team rests each night
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    (resting,) = load_schedule(tournament).resting_on(1)
    playing = next(t for t in tournament.teams.all() if t != resting)
    record_payment(team=playing, amount=Decimal("4.00"), kind="payment", method="cash")
    record_payment(team=playing, amount=Decimal("5.00"), kind="payment", method="card")
    owed = {team.pk: (team.due, team.owed) for team in teams_with_balance(tournament)}
    assert owed[resting.pk] == (Decimal("0.00"), Decimal("0.00"))
    assert owed[playing.pk] == (Decimal("10.00"), Decimal("1.00"))
    assert ledger(tournament).fees_expected == Decimal("40.00")
    page = director_client.get(reverse("director:payments", args=[tournament.pk, playing.pk])).content.decode()
    assert "a team each night it plays" in page and "paid <strong>$9.00</strong>" in page


@pytest.mark.django_db
def test_a_season_fee_is_owed_once_whatever_the_nights():
    from decimal import Decimal

    from tournament.money.ledger import teams_with_balance

    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    assert {team.due for team in teams_with_balance(tournament)} == {Decimal("10.00")}


# --- printing -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_season_schedule_and_the_league_table_print(director_client, tmp_path):
    import io

    from pypdf import PdfReader

    tournament = make_league(5)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    match = league_matches(tournament)[0]
    finish(match, winner=match.home, home_points=300, away_points=120)
    postpone_match(match=league_matches(tournament)[-1], to_night=6)
    for name, words in (
        ("season-schedule", ["Once · 6 nights", "Night 1", "Night 6", "(from night 5)", "Resting:", "300 to 120"]),
        ("league-table", ["League table", "Ranked by matches won", match.home.names]),
    ):
        response = director_client.get(reverse("director:print_document", args=[tournament.pk, name]))
        pdf = response.content
        assert response["Content-Type"] == "application/pdf"
        (tmp_path / f"{name}.pdf").write_bytes(pdf)
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
        assert all(word in text for word in words), (name, text[:400])
    page = director_client.get(reverse("director:print", args=[tournament.pk])).content.decode()
    assert "Season schedule" in page and "League table" in page


# --- matches played at the table -------------------------------------------------------------------

HOME_TEN = {"north_bid": "5", "south_bid": "5", "east_bid": "2", "west_bid": "2",
            "north_tricks": 5, "south_tricks": 5, "east_tricks": 2, "west_tricks": 1}  # fmt: skip
AWAY_TEN = {"east_bid": "5", "west_bid": "5", "north_bid": "2", "south_bid": "2",
            "east_tricks": 5, "west_tricks": 5, "north_tricks": 2, "south_tricks": 1}  # fmt: skip


def play_to_the_end(game, values) -> None:
    from tournament.models import HandRevision
    from tournament.play.hands import enter_hand

    game.refresh_from_db()
    number = game.hands.count()
    while game.status != Game.Status.FINISHED:
        number += 1
        enter_hand(game=game, number=number, entry=HandEntry.from_fields(values), source=HandRevision.Source.TABLE)
        game.refresh_from_db()


@pytest.mark.django_db
def test_a_best_of_three_league_match_plays_its_games_at_its_table_and_counts_once():

    tournament = make_league(4, best_of=3)
    build_schedule(tournament=tournament)
    round_ = open_night(tournament=tournament, night=1)
    start_round(round_=round_)
    match = league_matches(tournament)[0]
    for number, values in ((1, HOME_TEN), (2, AWAY_TEN), (3, HOME_TEN)):
        game = match.games.get(match_game=number)
        assert (game.round_id, game.table_id) == (round_.pk, match.table_id)
        play_to_the_end(game, values)
    match.refresh_from_db()
    assert (match.status, match.winner_id, match.games.count()) == (Match.Status.FINISHED, match.home_id, 3)
    line = next(line for line in league_standings(tournament).lines if line.row.team == match.home_id)
    assert (line.row.played, line.row.won, line.row.points_for, line.row.points_against) == (
        1,
        1,
        360 * 2 - 120,
        360 - 240,
    )


@pytest.mark.django_db
def test_a_correction_that_undoes_a_result_reopens_the_match_and_the_table_drops_it():
    from tournament.models import HandRevision
    from tournament.play.hands import enter_hand

    tournament = make_league(4)
    build_schedule(tournament=tournament)
    round_ = open_night(tournament=tournament, night=1)
    start_round(round_=round_)
    match = league_matches(tournament)[0]
    game = match.games.get()
    play_to_the_end(game, HOME_TEN)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    hand = game.hands.get(number=3)  # it was the away side that bid and took ten
    enter_hand(game=game, number=3, entry=HandEntry.from_fields(AWAY_TEN), source=HandRevision.Source.DIRECTOR,
                        expected_version=hand.version)  # fmt: skip
    match.refresh_from_db()
    assert (match.status, match.winner_id, match.outcome) == (Match.Status.PLAYING, None, "")
    line = next(line for line in league_standings(tournament).lines if line.row.team == match.home_id)
    assert (line.row.played, line.row.won) == (0, 0)
    play_to_the_end(game, AWAY_TEN)
    match.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.FINISHED, match.away_id)


@pytest.mark.django_db
def test_a_no_show_on_a_night_is_a_walkover_from_the_match_page(director_client):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    match = league_matches(tournament)[0]
    page = director_client.get(reverse("director:match", args=[tournament.pk, match.pk])).content.decode()
    assert "Night 1, match 1" in page
    response = director_client.post(
        reverse("director:match_decide", args=[tournament.pk, match.pk]),
        {"kind": "walkover", "winner": match.away_id, "reason": "Ada & Ben did not come"},
    )
    assert response.status_code == 302 and response.url == reverse("director:league_night", args=[tournament.pk, 1])
    match.refresh_from_db()
    assert (match.outcome, match.winner_id) == (Match.Outcome.WALKOVER, match.away_id)
    line = next(line for line in league_standings(tournament).lines if line.row.team == match.away_id)
    assert (line.row.won, line.row.points_for) == (1, 0)


# --- the tournament form --------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_director_orders_the_league_tiebreakers_on_the_tournament_form(director_client):
    data = {
        "name": "Tuesday league", "date": "2026-11-24", "preset": "league-300", "format": "round_robin",
        "rounds_planned": 5, "entry_fee": "10", "seating_order": "registration", "seating_seed": 0,
        "prize_ties": "share", "paper_size": "letter", "league-legs": 2, "league-championship_teams": 4,
        "league-fee_per": "night", "league-best_of": 1, "league-final_best_of": 1,
        "league-tiebreaker_1": "point-difference", "league-tiebreaker_2": "head-to-head",
    }  # fmt: skip
    response = director_client.post(reverse("director:tournament_new"), data)
    assert response.status_code == 302
    settings = LeagueSettings.objects.get(tournament__name="Tuesday league")
    assert settings.tiebreakers == "point-difference,head-to-head"
    assert (settings.legs, settings.championship_teams, settings.fee_per) == (2, 4, "night")
    twice = director_client.post(reverse("director:tournament_new"), data | {"league-tiebreaker_2": "point-difference"})
    assert twice.status_code == 422
    settings_form = twice.context["form"].settings_forms["round_robin"]
    assert "Choose each league tiebreaker at most once." in settings_form.errors["tiebreaker_1"]


@pytest.mark.django_db
def test_the_teams_page_sends_a_league_withdrawal_to_the_league_page(director_client):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    team = tournament.teams.get(number=1)
    response = director_client.post(
        reverse("director:team_status", args=[tournament.pk, team.pk]), {"status": "withdrawn"}, follow=True
    )
    assert "a team withdraws on the League page" in response.content.decode()
    team.refresh_from_db()
    assert team.status == Team.Status.ACTIVE


@pytest.mark.django_db
def test_the_everyone_pages_of_a_league_are_its_league_table():
    tournament = make_league(4)
    for name, target in (("public:standings", "public:league"), ("public:projector", "public:league_projector")):
        response = Client().get(reverse(name, args=[tournament.pk]))
        assert response.status_code == 302 and response.url == reverse(target, args=[tournament.pk])


@pytest.mark.django_db
def test_a_long_league_table_pages_on_the_projector(monkeypatch):
    monkeypatch.setattr("tournament.formats.league.views.PROJECTOR_STANDINGS_ROWS", 3)
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    url = reverse("public:league_projector", args=[tournament.pk])
    first = Client().get(url, headers={"HX-Request": "true"}).content.decode()
    second = Client().get(url, {"page": 2}, headers={"HX-Request": "true"}).content.decode()
    assert first.startswith('<div id="projector"') and "page 1 of 2" in first and f"{url}?page=2" in first
    assert "page 2 of 2" in second and f"{url}?page=1" in second
    assert first.count('<td class="rank">') == 3 and second.count('<td class="rank">') == 1


@pytest.mark.django_db
def test_the_dashboard_counts_a_leagues_nights_played(director_client):
    tournament = make_league(4)  # three nights
    build_schedule(tournament=tournament)
    night = open_night(tournament=tournament, night=1)
    for m in matches_of(tournament).filter(round=1):
        finish(m, winner=m.home, home_points=300, away_points=100)
    start_round(round_=night)
    close_night(round_=night)
    page = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    assert '<span class="big">1/3</span> nights played' in page and "Night 1" in page


def play_nights(tournament: Tournament, last: int, first: int = 1, winner=lambda match: match.home) -> None:
    """Nights ``first`` to ``last`` opened, played (each match won 300 to 100 by ``winner(match)``,
    its home team unless told) and closed."""
    for number in range(first, last + 1):
        night = open_night(tournament=tournament, night=number)
        start_round(round_=night)
        for m in matches_of(tournament).filter(round=number, status=Match.Status.PLAYING):
            won = winner(m)
            finish(m, winner=won, home_points=300 if won == m.home else 100, away_points=100 if won == m.home else 300)
        close_night(round_=night)


@pytest.mark.django_db
def test_the_standings_tab_of_a_league_is_its_table_headed_by_the_champion(director_client):
    from tournament.matches.services import settle_match

    tournament = make_league(3)
    build_schedule(tournament=tournament)
    play_nights(tournament, load_schedule(tournament).nights)
    response = director_client.get(reverse("director:standings", args=[tournament.pk]))
    table_url = reverse("director:league_table", args=[tournament.pk])
    assert response.status_code == 302 and response.url == table_url
    assert "Champion:" not in director_client.get(table_url).content.decode()
    start_championship(tournament=tournament)
    (final,) = championship_matches(tournament)
    settle_match(outcome="decision", match=final, winner=final.away, reason="Time up and level: the cut of the cards")
    for page in (director_client.get(table_url), Client().get(reverse("public:league", args=[tournament.pk]))):
        text = page.content.decode()
        assert f"Champion: {escape(final.away.names)}</h2>" in text
        assert f"<strong>2nd</strong> {escape(final.home.names)}" in text
        assert text.index("Champion:") < text.index("league-table")
    places = [row.name for row in standing_rows(tournament)]
    assert places[:2] == [final.away.names, final.home.names]
    # The projector and the director's schedule page name the champion too.
    champion = f'<p class="champion">Champion: <strong>{escape(final.away.names)}</strong></p>'
    schedule_url = reverse("director:league_schedule", args=[tournament.pk])
    assert champion in director_client.get(schedule_url).content.decode()
    projector_url = reverse("public:league_projector", args=[tournament.pk])
    assert champion in Client().get(projector_url).content.decode()
    assert champion in Client().get(projector_url, headers={"HX-Request": "true"}).content.decode()


def _league_pages(director_client, tournament: Tournament) -> dict[str, str]:
    """The pages that name a league's champion: the league table (the director's and everyone's),
    the projector and the director's schedule."""
    urls = {
        "table": (director_client, reverse("director:league_table", args=[tournament.pk])),
        "public": (Client(), reverse("public:league", args=[tournament.pk])),
        "projector": (Client(), reverse("public:league_projector", args=[tournament.pk])),
        "schedule": (director_client, reverse("director:league_schedule", args=[tournament.pk])),
    }
    return {page: client.get(url).content.decode() for page, (client, url) in urls.items()}


@pytest.mark.django_db
def test_a_league_without_a_championship_is_won_by_the_top_of_its_final_table(director_client):
    tournament = make_league(4, championship_teams=0)
    build_schedule(tournament=tournament)
    last = load_schedule(tournament).nights

    def lower_number_wins(match: Match) -> Team:
        return min(match.home, match.away, key=lambda team: team.number)

    play_nights(tournament, last - 1, winner=lower_number_wins)
    assert champion(tournament) is None  # a match still to play
    assert not any("Champion:" in page for page in _league_pages(director_client, tournament).values())
    play_nights(tournament, last, first=last, winner=lower_number_wins)
    top = escape(tournament.teams.get(number=1).names)
    assert champion(tournament).team == tournament.teams.get(number=1).names
    pages = _league_pages(director_client, tournament)
    for page in ("table", "public"):
        assert f"Champion: {top}</h2>" in pages[page] and "top of the final league table" in pages[page]
        assert pages[page].index("Champion:") < pages[page].index("league-table")
    for page in ("projector", "schedule"):
        assert f'<p class="champion">Champion: <strong>{top}</strong></p>' in pages[page]


@pytest.mark.django_db
def test_a_league_without_a_championship_level_at_the_top_leaves_the_champion_to_the_director(director_client):
    tournament = make_league(3, championship_teams=0)
    build_schedule(tournament=tournament)

    def round_the_circle(match: Match) -> Team:  # 1 beats 2, 2 beats 3, 3 beats 1: level on everything
        numbers = {match.home.number, match.away.number}
        beaten = {frozenset({1, 2}): 2, frozenset({2, 3}): 3, frozenset({1, 3}): 1}[frozenset(numbers)]
        return match.away if match.home.number == beaten else match.home

    play_nights(tournament, load_schedule(tournament).nights, winner=round_the_circle)
    assert champion(tournament).team == ""
    for name, page in _league_pages(director_client, tournament).items():
        assert "Champion:" not in page, name
        assert "level at the top after every tiebreaker: the director decides the champion" in page, name


@pytest.mark.django_db
def test_the_schedule_page_offers_what_can_be_done_now(director_client):
    from tournament.teams.services import register_team

    tournament = make_league(4)  # three nights; everyone plays every night
    build_schedule(tournament=tournament)
    url = reverse("director:league_schedule", args=[tournament.pk])
    page = director_client.get(url).content.decode()
    first = league_matches(tournament)[0]
    # No night is free for a team that plays every night: a new night after the last.
    assert f'id="postpone-{first.pk}" type="number" name="night" min="1" value="4"' in page
    play_nights(tournament, 1)
    open_night(tournament=tournament, night=2)
    page = director_client.get(url).content.decode()
    assert "Open night 3" not in page and "It plays from night 3" in page
    night_2 = tournament.rounds.get(number=2)
    start_round(round_=night_2)
    for m in matches_of(tournament).filter(round=2):
        finish(m, winner=m.home, home_points=300, away_points=100)
    close_night(round_=night_2)
    assert "Open night 3: seat the tables" in director_client.get(url).content.decode()
    open_night(tournament=tournament, night=3)
    page = director_client.get(url).content.decode()
    assert "A team joins late" not in page and "no team can join or withdraw now" in page
    newcomer = register_team(tournament=tournament, names=["Zoe", "Yann"])
    with pytest.raises(ValidationError, match="can no longer join") as refused:
        add_late_team(team=newcomer, missed=Missed.MAKE_UP)
    assert refused.value.code == "season_over"


@pytest.mark.django_db
def test_a_postponement_is_offered_the_first_night_both_teams_are_free(director_client):
    tournament = make_league(5)  # five nights, one team resting each
    build_schedule(tournament=tournament)
    (plan,) = nights(tournament, only=1)
    match = plan.matches[0]
    schedule = load_schedule(tournament)
    free = [n for n in range(2, schedule.nights + 2) if not schedule.playing_on(n) & {match.home, match.away}]
    assert match.move_to == free[0]
    page = director_client.get(reverse("director:league_schedule", args=[tournament.pk])).content.decode()
    assert f'id="postpone-{match.pk}" type="number" name="night" min="1" value="{free[0]}"' in page


@pytest.mark.django_db
def test_the_move_to_night_box_stays_within_the_season_and_says_when_it_adds_a_night(director_client):
    tournament = make_league(5)  # five nights, one team resting each: no night has both teams free
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    match = league_matches(tournament)[0]
    board = director_client.get(reverse("director:league_night", args=[tournament.pk, 1])).content.decode()
    box = f'id="postpone-{match.pk}" type="number" name="night" min="2" value="6" max="6">'
    assert box + '<small class="muted">a new night after night 5</small>' in board
    url = reverse("director:league_postpone", args=[tournament.pk, match.pk])
    response = director_client.post(url, {"night": "9"}, follow=True)
    assert ("Move to night: the season has 5 nights; choose night 5 or earlier, or 6 for a new night after "
            "the last.") in response.content.decode()  # fmt: skip
    match.refresh_from_db()
    assert (match.round, match.postponed_from) == (1, None)


@pytest.mark.django_db
def test_a_league_match_page_speaks_of_the_league_and_says_seated_before_the_night_starts(director_client):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    night = open_night(tournament=tournament, night=1)
    match = league_matches(tournament)[0]
    url = reverse("director:match", args=[tournament.pk, match.pk])
    page = director_client.get(url).content.decode()
    assert f"<strong>Seated</strong> at table {match.table.number}" in page
    assert "Won the match" in page and "shown in the league table" in page
    assert "Goes through" not in page and "bracket" not in page.split("<main")[-1]
    board = director_client.get(reverse("director:league_night", args=[tournament.pk, 1])).content.decode()
    assert "Playing" not in board.split("<main")[-1] and url in board
    start_round(round_=night)
    assert "<strong>Playing</strong> at table" in director_client.get(url).content.decode()
    decide = reverse("director:match_decide", args=[tournament.pk, match.pk])
    assert decide in director_client.get(url).content.decode()
    assert director_client.get(decide).status_code == 405
    missing = reverse("director:match_decide", args=[tournament.pk, 999999])
    assert director_client.post(missing, {"kind": "decision"}).status_code == 404
    assert Client().post(decide, {"kind": "decision"}).status_code == 302  # to the login page
    bad = director_client.post(decide, {"kind": "decision", "winner": match.home_id, "reason": ""})
    assert bad.status_code == 422 and "Won the match" in bad.content.decode()
    response = director_client.post(
        decide, {"kind": "decision", "winner": match.home_id, "reason": "Time up and level"}, follow=True
    )
    assert f"Night 1, match 1 is settled: {escape(match.home.names)} win the match." in response.content.decode()


@pytest.mark.django_db
def test_postponing_a_seated_match_through_the_page_before_the_night_starts(director_client):
    tournament = make_league(4)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    match = league_matches(tournament)[0]
    schedule = reverse("director:league_schedule", args=[tournament.pk])
    assert f'action="{reverse("director:league_postpone", args=[tournament.pk, match.pk])}"' in (
        director_client.get(schedule).content.decode()
    )
    url = reverse("director:league_postpone", args=[tournament.pk, match.pk])
    board = director_client.get(reverse("director:league_night", args=[tournament.pk, 1])).content.decode()
    assert f'action="{url}"' in board and "A team called in: move to night" in board
    response = director_client.post(url, {"night": "4"}, follow=True)
    assert "The match moved to night 4." in response.content.decode()
    match.refresh_from_db()
    assert (match.round, match.table_id, match.status) == (4, None, Match.Status.READY)
    start_round(round_=tournament.rounds.get(number=1))
    board = director_client.get(reverse("director:league_night", args=[tournament.pk, 1])).content.decode()
    assert "A team called in" not in board  # once the night has started, its matches stay


@pytest.mark.django_db
def test_a_night_with_a_walkover_does_not_list_its_winner_as_resting(director_client):
    tournament = make_league(5)
    build_schedule(tournament=tournament)
    leaving = league_matches(tournament)[0].home
    withdraw_team(team=leaving, played=PlayedResults.STAND)
    walkover = matches_of(tournament).filter(outcome=Match.Outcome.WALKOVER).order_by("round").first()
    (plan,) = nights(tournament, only=walkover.round)
    assert walkover.winner.names not in plan.resting


@pytest.mark.django_db
def test_a_new_leagues_final_takes_the_rule_set_its_rule_text_names(director_client):
    from tournament.events.forms import TournamentForm

    page = director_client.get(reverse("director:tournament_new")).content.decode()
    assert 'data-final-presets="{&quot;league-300&quot;: &quot;championship-500&quot;}"' in page
    for preset, final in (("league-300", "championship-500"), ("classic", "")):
        form = TournamentForm(initial={"preset": preset})
        assert form.settings_forms["round_robin"]["final_preset"].value() == final
        assert form.settings_forms["single_elimination"]["final_preset"].value() == final


@pytest.mark.django_db
def test_the_league_page_says_how_the_season_is_played_and_offers_the_championship_when_it_is_over(director_client):
    tournament = make_league(2, legs=2, championship_teams=2, final_preset="championship-500")
    url = reverse("director:league_schedule", args=[tournament.pk])
    page = director_client.get(url).content.decode()
    assert "Twice: home and away; each team plays at most once a night" in page
    assert "every team meets every other twice, home and away" in page
    build_schedule(tournament=tournament)
    final_rules = "League championship game to 500 (jokers deck)"
    assert "the top 2 of the league table play the championship" in director_client.get(url).content.decode()
    play_nights_won_by_team_1(tournament, nights=(1, 2))
    page = director_client.get(url).content.decode()
    assert f"The top 2 of the league table play the final, under {final_rules}." in page
    assert "Start the championship" in page
    director_client.post(reverse("director:league_championship", args=[tournament.pk]))
    page = director_client.get(url).content.decode()
    assert f"The top 2 are playing it; the final under {final_rules}." in page
    final = Match.objects.get(tournament=tournament, stage=Match.Stage.FINAL)
    finish(final, winner=final.home, home_points=500, away_points=200)
    table = director_client.get(reverse("director:league_table", args=[tournament.pk])).content.decode()
    assert f"Places from the championship, its final played under {final_rules}" in table


def play_nights_won_by_team_1(tournament: Tournament, *, nights: tuple[int, ...]) -> None:
    """Open, play and close each of ``nights`` of a two-team league: team 1 wins 300 to 100."""
    for night in nights:
        round_ = open_night(tournament=tournament, night=night)
        start_round(round_=round_)
        (match,) = [m for m in league_matches(tournament) if m.round == night]
        finish(match, winner=tournament.teams.get(number=1), home_points=300, away_points=100)
        close_round(round_=round_)


@pytest.mark.django_db
def test_the_championship_is_called_the_championship_not_a_night_after_the_last(director_client):
    tournament = make_league(4, championship_teams=2, final_preset="championship-500")  # three nights
    build_schedule(tournament=tournament)
    play_nights(tournament, load_schedule(tournament).nights)
    championship = start_championship(tournament=tournament)
    assert championship.number == 4
    pk = tournament.pk
    dashboard = director_client.get(reverse("director:dashboard", args=[pk])).content.decode()
    assert "<h2>3 nights and the championship</h2>" in dashboard and "<td>Championship</td>" in dashboard
    assert '<span class="big">3/3</span> nights played' in dashboard
    board = director_client.get(reverse("director:round_board", args=[pk, 4])).content.decode()
    assert "<title>Championship · " in board and "<h1>Championship <small" in board
    assert "Close the championship</button>" in board
    links = director_client.get(reverse("director:round_links", args=[pk, 4])).content.decode()
    assert "<h1>Championship: table links</h1>" in links
    printing = director_client.get(reverse("director:print", args=[pk])).content.decode()
    assert "<h2>Championship <small" in printing and "<li>Night 3" in printing
    public = Client().get(reverse("public:league", args=[pk])).content.decode()
    assert "Championship: playing" in public
    projector = Client().get(reverse("public:league_projector", args=[pk])).content.decode()
    assert "<p>Championship: playing</p>" in projector
    for page in (dashboard, board, links, printing, public, projector):
        assert "Night 4" not in page and "night 4" not in page
    with pytest.raises(RoundNotReady, match="Championship cannot close: still playing"):
        close_round(round_=championship)


@pytest.mark.django_db
def test_the_championship_board_names_the_teams_at_each_table(director_client):
    tournament = make_league(4, championship_teams=2)
    build_schedule(tournament=tournament)
    play_nights(tournament, load_schedule(tournament).nights)
    championship = start_championship(tournament=tournament)
    board = director_client.get(reverse("director:round_board", args=[tournament.pk, championship.number]))
    (match,) = championship.games.select_related("match").values_list("match", flat=True).distinct()
    names = Match.objects.get(pk=match).seat_names()
    html = board.content.decode()
    assert f"{names[Seat.NORTH]} &amp; {names[Seat.SOUTH]}" in html and f"{names[Seat.EAST]} &amp;" in html
    assert all(names.values()) and '<td class="ns" data-label="N–S"> &amp; </td>' not in html


@pytest.mark.django_db
def test_withdrawing_is_not_offered_once_the_season_is_over_and_the_server_refuses_it(director_client):
    tournament = make_league(4, championship_teams=2)  # three nights
    build_schedule(tournament=tournament)
    url = reverse("director:league_schedule", args=[tournament.pk])
    withdraw = reverse("director:league_withdraw", args=[tournament.pk])
    play_nights(tournament, 2)
    assert f'action="{withdraw}"' in director_client.get(url).content.decode()
    play_nights(tournament, 3, first=3)
    page = director_client.get(url).content.decode()
    assert f'action="{withdraw}"' not in page and "A team withdraws" not in page
    assert "Every night of the season has been opened: no team can join or withdraw now." in page
    leaving = tournament.teams.get(number=1)
    refused = director_client.post(withdraw, {"withdraw-team": leaving.pk, "withdraw-played": "stand"}, follow=True)
    assert "The season is over (every night has been opened; the last is night 3): a team can no longer withdraw." in (
        refused.content.decode()
    )
    leaving.refresh_from_db()
    assert leaving.status == Team.Status.ACTIVE and leaving.withdrawn_night is None
    with pytest.raises(ValidationError) as refusal:
        withdraw_team(team=leaving, played=PlayedResults.STAND)
    assert refusal.value.code == "season_over"


@pytest.mark.django_db
def test_registering_during_the_season_says_the_team_is_added_on_the_league_page(director_client):
    tournament = make_league(4, championship_teams=2)
    build_schedule(tournament=tournament)
    open_night(tournament=tournament, night=1)
    response = director_client.post(reverse("director:team_add", args=[tournament.pk]),
                                    {"first": "Zoe", "second": "Yann"}, follow=True)  # fmt: skip
    text = response.content.decode()
    assert "Team 5 plays no league match yet: add it to the season on the League page" in text
    assert "highest table" not in text and "movement" not in text
