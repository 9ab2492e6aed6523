"""A Swiss event in the app (issue 26): rounds paired from the standings with tables in rank
order, byes, late teams, withdrawals, swaps, the standings with their tiebreaks in words, the
pages, documents, export and import, and the simulation, through the services and the pages."""

import datetime
import io
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.db.models import F
from django.test import Client
from django.urls import reverse

from scoring import Side
from tests.conftest import COUPLES, a_club, make_tournament
from tests.test_league import AWAY_TEN, HOME_TEN, play_to_the_end
from tournament.formats.swiss.forms import SwissSettingsForm
from tournament.formats.swiss.models import LateEntry, SwissSettings, suggested_rounds
from tournament.formats.swiss.services import entrants_changed, score_missed_rounds, swap_teams
from tournament.formats.swiss.simulation import SIMULATION
from tournament.formats.swiss.standings import swiss_matches, swiss_standings
from tournament.formats.swiss.table import Alone, Played, Tiebreak, swiss_table
from tournament.models import Game, Match, Prize, Round, RoundNotReady, Seating, Team, Tournament
from tournament.money.services import award_prizes
from tournament.play.rounds import close_round, start_play, start_round
from tournament.teams.services import register_team, set_team_status
from tournament.transfer.export import export_tournament
from tournament.transfer.write import import_tournament

ROOT = Path(__file__).resolve().parent.parent


def make_swiss(couples: int = 4, **settings) -> Tournament:
    """A Swiss event under rule text 004 (league-300: 30-minute matches), round 1 in registration
    order, with ``couples`` teams registered (Ada & Ben first)."""
    tournament = Tournament.objects.create(
        club=a_club(), name="Open Swiss", date=datetime.date(2026, 11, 28), preset="league-300", format="swiss",
        seating_order=Tournament.SeatingOrder.REGISTRATION, entry_fee=Decimal("10.00"),
    )  # fmt: skip
    SwissSettings.objects.create(tournament=tournament, **settings)
    for index in range(couples):
        first, second = COUPLES[index % len(COUPLES)]
        suffix = "" if index < len(COUPLES) else f" {index // len(COUPLES) + 1}"
        register_team(tournament=tournament, names=[first + suffix, second + suffix])
    return tournament


def pairs(tournament: Tournament, number: int) -> list[tuple[int, int]]:
    """Round ``number``'s pairings by team number, table 1 first."""
    matches = swiss_matches(tournament).filter(round=number, table__isnull=False).select_related("home", "away")
    return [(m.home.number, m.away.number) for m in matches.order_by("number")]


def bye_of(tournament: Tournament, number: int) -> int | None:
    bye = swiss_matches(tournament).filter(round=number, status=Match.Status.BYE).first()
    return bye.home.number if bye else None


def play(round_: Round, winner=lambda m: min(m.home, m.away, key=lambda t: t.number)) -> None:
    """Start ``round_`` and play every pairing to its end: ``winner(match)`` (the lower number
    by default) wins each."""
    start_round(round_=round_)
    for match in swiss_matches(round_.tournament).filter(round=round_.number, status=Match.Status.PLAYING):
        values = HOME_TEN if winner(match) == match.home else AWAY_TEN
        play_to_the_end(match.games.get(), values)


# --- pairing and seating ------------------------------------------------------------------------


@pytest.mark.django_db
def test_round_1_pairs_down_the_seeding_with_the_top_pair_at_table_1_home_north_south():
    tournament = make_swiss(6)
    round_ = start_play(tournament=tournament)
    assert round_.number == 1 and round_.is_planned
    assert pairs(tournament, 1) == [(1, 2), (3, 4), (5, 6)]
    match = swiss_matches(tournament).get(round=1, number=1)
    assert match.table.number == 1 and match.name == "Round 1, match 1" and match.clock.minutes == 30
    seats = {s.seat: s.player.name for s in Seating.objects.filter(round=round_, table=match.table)}
    assert seats == {"N": "Ada", "S": "Ben", "E": "Cleo", "W": "Dan"}
    assert Game.objects.filter(round=round_).count() == 3
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


@pytest.mark.django_db
def test_round_1_by_the_directors_seeds_or_a_draw_from_the_tournaments_seed():
    seeded = make_swiss(4)
    Tournament.objects.filter(pk=seeded.pk).update(seating_order=Tournament.SeatingOrder.DIRECTOR)
    for number, seed in ((1, 4), (2, 3), (3, 2), (4, 1)):
        Team.objects.filter(tournament=seeded, number=number).update(seed=seed)
    start_play(tournament=seeded)
    assert pairs(seeded, 1) == [(4, 3), (2, 1)]
    drawn = [make_swiss(8) for _ in range(2)]
    for tournament in drawn:
        Tournament.objects.filter(pk=tournament.pk).update(seating_order=Tournament.SeatingOrder.RANDOM, seating_seed=7)
        start_play(tournament=tournament)
    assert pairs(drawn[0], 1) == pairs(drawn[1], 1) != [(1, 2), (3, 4), (5, 6), (7, 8)]


@pytest.mark.django_db
def test_a_swiss_event_needs_two_teams_and_pairs_round_1_once():
    with pytest.raises(ValidationError, match="at least two teams"):
        start_play(tournament=make_swiss(1))
    tournament = make_swiss(2)
    start_play(tournament=tournament)
    with pytest.raises(ValidationError, match="paired already"):
        start_play(tournament=tournament)


@pytest.mark.django_db
def test_an_odd_field_gives_the_lowest_ranked_team_the_bye_as_a_round_won_by_the_settings_score():
    tournament = make_swiss(5, bye_points_for=250, bye_points_against=100)
    round_ = start_play(tournament=tournament)
    assert pairs(tournament, 1) == [(1, 2), (3, 4)] and bye_of(tournament, 1) == 5
    line = next(line for line in swiss_standings(tournament).lines if line.name == "Iris & Jack")
    assert line.row.won == 0  # the bye counts once the round starts, as the games do
    start_round(round_=round_)
    line = next(line for line in swiss_standings(tournament).lines if line.name == "Iris & Jack")
    assert (line.row.won, line.row.byes, line.row.difference, line.row.buchholz) == (1, 1, 150, 0)


@pytest.mark.django_db
def test_the_next_round_is_paired_from_the_standings_as_a_round_closes():
    tournament = make_swiss(8, rounds=3)
    play(start_play(tournament=tournament))  # 1, 3, 5 and 7 win
    second = close_round(round_=tournament.rounds.get(number=1))
    assert second.number == 2 and second.is_planned
    # The winners head the standings (level on 1 won, in seeding order), so they play at tables 1-2.
    assert pairs(tournament, 2) == [(1, 3), (5, 7), (2, 4), (6, 8)]
    play(second)
    close_round(round_=second)
    assert pairs(tournament, 3)[0] == (1, 5)  # the two unbeaten teams at table 1


@pytest.mark.django_db
def test_a_round_closes_only_when_every_pairing_is_decided_and_the_last_finishes_the_event():
    tournament = make_swiss(4, rounds=1)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    first = swiss_matches(tournament).get(round=1, number=1)
    play_to_the_end(first.games.get(), HOME_TEN)
    with pytest.raises(RoundNotReady, match="table 2"):
        close_round(round_=round_)
    play_to_the_end(swiss_matches(tournament).get(round=1, number=2).games.get(), AWAY_TEN)
    assert close_round(round_=round_) is None
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert [line.name for line in swiss_standings(tournament).lines][:2] == ["Ada & Ben", "Gina & Hugo"]


@pytest.mark.django_db
def test_a_best_of_three_pairing_plays_its_games_at_its_table_and_counts_once():
    tournament = make_swiss(2, best_of=3, rounds=1)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    match = swiss_matches(tournament).get(round=1)
    play_to_the_end(match.games.get(match_game=1), HOME_TEN)
    play_to_the_end(match.games.get(match_game=2), HOME_TEN)
    match.refresh_from_db()
    assert match.is_finished and match.games.count() == 2 and match.winner.number == 1
    assert [line.row.won for line in swiss_standings(tournament).lines] == [1, 0]


# --- the director's changes -----------------------------------------------------------------------


@pytest.mark.django_db
def test_two_teams_swap_places_before_a_round_starts_and_their_seats_follow(director):
    tournament = make_swiss(5)
    round_ = start_play(tournament=tournament)
    team = {t.number: t for t in tournament.teams.all()}
    what = swap_teams(tournament=tournament, first=team[2], second=team[3], by=director)
    assert what == "Teams 2 and 3 swapped places: team 2 to table 2, team 3 to table 1."
    assert pairs(tournament, 1) == [(1, 3), (2, 4)]
    seats = {s.seat: s.player.name for s in Seating.objects.filter(round=round_, table__number=2)}
    assert seats == {"N": "Cleo", "S": "Dan", "E": "Gina", "W": "Hugo"}
    swap_teams(tournament=tournament, first=team[1], second=team[5])  # into the bye
    assert bye_of(tournament, 1) == 1 and pairs(tournament, 1)[0] == (5, 3)
    assert round_.seating_changes.count() == 2


@pytest.mark.django_db
def test_a_swap_is_refused_within_one_pairing_and_once_the_round_has_started():
    tournament = make_swiss(4)
    round_ = start_play(tournament=tournament)
    team = {t.number: t for t in tournament.teams.all()}
    with pytest.raises(ValidationError, match="play each other"):
        swap_teams(tournament=tournament, first=team[1], second=team[2])
    start_round(round_=round_)
    with pytest.raises(ValidationError, match="paired but not started"):
        swap_teams(tournament=tournament, first=team[1], second=team[3])


@pytest.mark.django_db
def test_a_late_team_joins_the_next_round_with_a_loss_for_each_round_missed():
    tournament = make_swiss(4, rounds=3)
    play(start_play(tournament=tournament))
    late = register_team(tournament=tournament, names=["Kara", "Leo"])  # during round 1
    entry = LateEntry.objects.get(team=late)
    assert entry.joined_round == 2
    second = close_round(round_=tournament.rounds.get(number=1))
    paired = [n for pair in pairs(tournament, 2) for n in pair] + [bye_of(tournament, 2)]
    assert sorted(paired) == [1, 2, 3, 4, 5]
    line = next(line for line in swiss_standings(tournament).lines if line.row.team == late.pk)
    assert (line.row.played, line.row.won, line.row.lost) == (1, 0, 1)
    assert "joined at round 2" in line.note
    score_missed_rounds(entry=entry, won=True, points_for=200, points_against=150)
    line = next(line for line in swiss_standings(tournament).lines if line.row.team == late.pk)
    assert (line.row.won, line.row.difference, line.row.buchholz) == (1, 50, 0)
    assert second.is_planned


@pytest.mark.django_db
def test_a_team_arriving_while_the_next_round_is_seated_is_paired_into_it_at_once():
    tournament = make_swiss(4, rounds=3)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    register_team(tournament=tournament, names=["Kara", "Leo"])
    assert bye_of(tournament, 2) is not None and len(pairs(tournament, 2)) == 2
    assert "paired again" in tournament.rounds.get(number=2).seating_changes.get().description


@pytest.mark.django_db
def test_a_withdrawn_team_is_paired_no_more_and_a_seated_round_is_paired_again():
    tournament = make_swiss(5, rounds=3)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    team3 = tournament.teams.get(number=3)
    set_team_status(team=team3, status=Team.Status.WITHDRAWN)
    paired = [n for pair in pairs(tournament, 2) for n in pair]
    assert 3 not in paired and len(paired) == 4 and bye_of(tournament, 2) is None
    line = next(line for line in swiss_standings(tournament).lines if line.row.team == team3.pk)
    assert line.withdrawn and line.note == "withdrew before round 2"


@pytest.mark.django_db
def test_entrants_changing_before_round_1_is_paired_changes_nothing():
    tournament = make_swiss(3)
    entrants_changed(tournament=tournament, reason="Team 3 arrived late")
    assert not LateEntry.objects.exists() and not tournament.rounds.exists()


# --- standings and their words --------------------------------------------------------------------


def test_buchholz_sums_the_opponents_wins_and_leaves_a_bye_out():
    played = [Played(1, "A", "B", "A", 300, 100), Played(1, "C", "D", "C"), Played(2, "A", "C", "C"),
              Played(2, "B", "D", "B")]  # fmt: skip
    table = swiss_table(["A", "B", "C", "D", "E"], played, [Alone(1, "E", True), Alone(2, "E", True)])
    rows = {row.team: row for row in table.rows}
    assert (rows["A"].won, rows["A"].buchholz) == (1, 1 + 2)
    assert (rows["E"].won, rows["E"].buchholz, rows["E"].byes) == (2, 0, 2)
    assert [row.team for row in table.rows][:2] == ["C", "E"]  # level on 2 won: C's Buchholz 1 + 1, E's none


def test_median_buchholz_leaves_out_the_best_and_worst_opponent_once_three_are_met():
    played = [Played(1, "A", "B", "A"), Played(2, "A", "C", "A"), Played(3, "A", "D", "A"),
              Played(1, "C", "D", "C"), Played(2, "B", "D", "B"), Played(3, "B", "C", "B")]  # fmt: skip
    rows = {row.team: row for row in swiss_table(["A", "B", "C", "D"], played).rows}
    assert (rows["A"].buchholz, rows["A"].median_buchholz) == (2 + 1 + 0, 1)


def test_each_tie_is_explained_in_words_tiebreak_by_tiebreak():
    played = [Played(1, "A", "B", "A", 300, 200), Played(1, "C", "D", "C", 300, 100)]
    table = swiss_table(["A", "B", "C", "D"], played, tiebreaks=[Tiebreak.BUCHHOLZ, Tiebreak.POINT_DIFFERENCE])
    assert [row.team for row in table.rows] == ["C", "A", "B", "D"]
    assert table.ties == (
        "A and C are level on 1 won: Buchholz level (0 each); point difference C +200, A +100.",
        "B and D are level on 0 won: Buchholz level (1 each); point difference B −100, D −200.",
    )


def test_head_to_head_splits_teams_level_on_everything_before_it_and_level_teams_share_a_place():
    played = [Played(1, "A", "B", "B"), Played(1, "C", "D", "C"), Played(2, "A", "D", "A"), Played(2, "B", "C", "C")]
    table = swiss_table(["A", "B", "C", "D"], played, tiebreaks=[Tiebreak.HEAD_TO_HEAD])
    assert [(row.rank, row.team) for row in table.rows] == [(1, "C"), (2, "B"), (3, "A"), (4, "D")]
    assert "A and B are level on 1 won: head to head B 1 won, A 0 won." in table.ties
    level = swiss_table(["A", "B"], [], tiebreaks=[Tiebreak.BUCHHOLZ])
    assert [row.rank for row in level.rows] == [1, 1]
    assert level.ties == ("A and B are level on 0 won and on Buchholz: they share 1st.",)


def test_a_tiebreak_named_twice_is_refused():
    with pytest.raises(ValueError, match="once"):
        swiss_table(["A"], [], tiebreaks=[Tiebreak.BUCHHOLZ, Tiebreak.BUCHHOLZ])


@pytest.mark.django_db
def test_the_standings_rank_a_played_event_and_prizes_go_by_them(director_client):
    tournament = make_swiss(4, rounds=2)
    play(start_play(tournament=tournament))
    play(close_round(round_=tournament.rounds.get(number=1)))
    close_round(round_=tournament.rounds.get(number=2))
    lines = swiss_standings(tournament).lines
    assert (lines[0].name, lines[0].row.won) == ("Ada & Ben", 2)
    Prize.objects.create(tournament=tournament, kind="place", place=1, amount=Decimal("30"))
    (payout,) = award_prizes(tournament=tournament)
    assert payout.team.number == 1 and payout.amount == 30


# --- settings --------------------------------------------------------------------------------------


def test_the_suggested_rounds_are_enough_to_separate_a_winner():
    assert [suggested_rounds(n) for n in (1, 2, 9, 16, 17, 256)] == [1, 2, 5, 5, 6, 9]


@pytest.mark.django_db
def test_the_settings_form_suggests_rounds_for_the_field_and_refuses_a_tiebreak_twice():
    tournament = make_swiss(9)
    form = SwissSettingsForm(instance=tournament.swiss_settings, teams=9, prefix="swiss")
    assert "Suggested for 9 teams: 5" in form.fields["rounds"].help_text
    data = {"swiss-rounds": "5", "swiss-bye_points_for": "0", "swiss-bye_points_against": "0", "swiss-best_of": "1",
            "swiss-tiebreak_1": "buchholz", "swiss-tiebreak_2": "buchholz"}  # fmt: skip
    form = SwissSettingsForm(data, instance=tournament.swiss_settings, prefix="swiss")
    assert not form.is_valid() and form.has_error("tiebreak_1", "tiebreak_repeated")
    data |= {"swiss-rounds": "0", "swiss-tiebreak_2": "head-to-head"}
    form = SwissSettingsForm(data, instance=tournament.swiss_settings, prefix="swiss")
    assert not form.is_valid() and "rounds" in form.errors


TOURNAMENT_FORM = {
    "name": "Open Swiss", "date": "2026-11-28", "preset": "league-300", "format": "swiss", "entry_fee": "10",
    "prize_ties": "share", "paper_size": "letter", "seating_order": "registration", "seating_seed": "0",
    "rounds_planned": "5", "swiss-rounds": "6", "swiss-bye_points_for": "300", "swiss-bye_points_against": "0",
    "swiss-best_of": "3", "swiss-tiebreak_1": "point-difference", "swiss-tiebreak_2": "buchholz",
}  # fmt: skip


@pytest.mark.django_db
def test_a_director_makes_a_swiss_event_with_its_settings_on_the_tournament_form(director_client):
    response = director_client.post(reverse("director:tournament_new"), {**TOURNAMENT_FORM, "club": a_club().pk})
    assert response.status_code == 302
    settings = Tournament.objects.get(name="Open Swiss").swiss_settings
    assert (settings.rounds, settings.bye_points_for, settings.best_of) == (6, 300, 3)
    assert settings.swiss_tiebreaks == (Tiebreak.POINT_DIFFERENCE, Tiebreak.BUCHHOLZ)


@pytest.mark.django_db
def test_a_split_partner_preset_is_refused_for_a_swiss_event_naming_the_format_field(director_client):
    response = director_client.post(reverse("director:tournament_new"), {**TOURNAMENT_FORM, "preset": "progressive",
                                                              "club": a_club().pk})  # fmt: skip
    assert response.status_code == 422
    assert "played with partners who split each round: choose the matching format" in response.content.decode()
    assert response.context["form"].has_error("format", "partners_mismatch")


# --- pages ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_swiss_page_shows_the_round_its_pairings_in_rank_order_and_the_bye(director_client):
    tournament = make_swiss(5)
    start_play(tournament=tournament)
    page = director_client.get(reverse("director:swiss", args=[tournament.pk])).content.decode()
    assert "Round 1" in page and "Start round 1" in page and "Swap two teams" in page
    assert page.index("Table 1") < page.index("Table 2") and "Bye:</strong> Iris &amp; Jack" in page


@pytest.mark.django_db
def test_starting_play_from_the_dashboard_leads_to_the_swiss_page_and_a_closed_rounds_board_stays_the_cores(
    director_client,
):
    tournament = make_swiss(4, rounds=2)
    response = director_client.post(reverse("director:seat_first", args=[tournament.pk]))
    assert response.url == reverse("director:swiss", args=[tournament.pk])
    play(tournament.rounds.get(number=1))
    close_round(round_=tournament.rounds.get(number=1))
    dashboard = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    assert reverse("director:round_board", args=[tournament.pk, 1]) in dashboard
    assert reverse("director:swiss", args=[tournament.pk]) in dashboard


@pytest.mark.django_db
def test_before_round_1_the_swiss_page_says_how_rounds_are_paired(director_client):
    tournament = make_swiss(4)
    page = director_client.get(reverse("director:swiss", args=[tournament.pk])).content.decode()
    assert "Round 1 is paired from the dashboard" in page


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["director:swiss", "director:swiss_standings"])
def test_swiss_pages_are_for_directors_and_swiss_events_only(director_client, name):
    tournament = make_swiss(4)
    start_play(tournament=tournament)
    url = reverse(name, args=[tournament.pk])
    assert Client().get(url).status_code == 302  # to the login page
    assert director_client.get(url).status_code == 200
    assert director_client.get(reverse(name, args=[make_tournament(couples=4).pk])).status_code == 404


@pytest.mark.django_db
def test_swapping_through_the_page(director_client):
    tournament = make_swiss(4)
    start_play(tournament=tournament)
    team = {t.number: t.pk for t in tournament.teams.all()}
    url = reverse("director:swiss_swap", args=[tournament.pk])
    response = director_client.post(url, {"swap-first": team[2], "swap-second": team[3]}, follow=True)
    assert "Teams 2 and 3 swapped places: team 2 to table 2, team 3 to table 1." in response.content.decode()
    assert pairs(tournament, 1) == [(1, 3), (2, 4)]
    response = director_client.post(url, {"swap-first": team[2], "swap-second": team[2]}, follow=True)
    assert "Choose two different teams." in response.content.decode()
    response = director_client.post(url, {"swap-first": team[1], "swap-second": team[3]}, follow=True)
    assert "play each other" in response.content.decode()
    assert director_client.post(url, {"swap-first": "x"}, follow=True).status_code == 200
    assert pairs(tournament, 1) == [(1, 3), (2, 4)]
    assert director_client.get(url).status_code == 405
    assert director_client.post(reverse("director:swiss_swap", args=[999999])).status_code == 404
    assert Client().post(url).status_code == 302


@pytest.mark.django_db
def test_scoring_a_late_teams_missed_rounds_through_the_page(director_client):
    tournament = make_swiss(4, rounds=3)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    late = register_team(tournament=tournament, names=["Kara", "Leo"])
    url = reverse("director:swiss_missed", args=[tournament.pk, late.pk])
    prefix = f"late-{late.pk}"
    page = director_client.get(reverse("director:swiss", args=[tournament.pk])).content.decode()
    assert "Late teams" in page and f'id="id_{prefix}-won"' in page
    data = {f"{prefix}-won": "True", f"{prefix}-points_for": "250", f"{prefix}-points_against": "200"}
    response = director_client.post(url, data, follow=True)
    assert "missed round(s) count as won 250 to 200" in response.content.decode()
    entry = LateEntry.objects.get(team=late)
    assert (entry.won, entry.points_for, entry.points_against) == (True, 250, 200)
    response = director_client.post(url, {**data, f"{prefix}-points_for": "-5"}, follow=True)
    assert "Team 5&#x27;s missed rounds: scored:" in response.content.decode()
    assert LateEntry.objects.get(team=late).points_for == 250
    assert director_client.get(url).status_code == 405
    first = tournament.teams.get(number=1)  # joined on time: no missed rounds to score
    assert director_client.post(reverse("director:swiss_missed", args=[tournament.pk, first.pk])).status_code == 404
    assert Client().post(url, data).status_code == 302


@pytest.mark.django_db
def test_the_rounds_of_a_field_over_400_teams_keep_their_own_places_in_the_playing_order():
    tournament = make_swiss(402, rounds=2)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    # Every home team wins round 1, written straight to the records: how it is won is not the point.
    Game.objects.filter(round=round_).update(status=Game.Status.FINISHED, winner=Side.NS)
    swiss_matches(tournament).update(status=Match.Status.FINISHED, winner=F("home"), outcome=Match.Outcome.PLAYED)
    close_round(round_=round_)
    positions = {r: list(swiss_matches(tournament).filter(round=r).values_list("position", flat=True)) for r in (1, 2)}
    assert len(positions[1]) == len(positions[2]) == 201
    assert max(positions[1]) < min(positions[2])


@pytest.mark.django_db
def test_the_swiss_rounds_and_standings_pages_only_answer_get(director_client):
    tournament = make_swiss(4)
    start_play(tournament=tournament)
    for page in ("director:swiss", "director:swiss_standings"):
        url = reverse(page, args=[tournament.pk])
        assert director_client.get(url).status_code == 200
        assert director_client.post(url).status_code == 405


@pytest.mark.django_db
def test_only_a_director_scores_a_late_teams_missed_rounds(django_user_model, director_client):
    tournament = make_swiss(4, rounds=3)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    late = register_team(tournament=tournament, names=["Kara", "Leo"])
    assistant = django_user_model.objects.create_user("ash", password="x", is_staff=True)
    a_club().members.create(user=assistant, role="assistant")
    client = Client()
    client.force_login(assistant)
    prefix = f"late-{late.pk}"
    data = {f"{prefix}-won": "True", f"{prefix}-points_for": "250", f"{prefix}-points_against": "200"}
    url = reverse("director:swiss_missed", args=[tournament.pk, late.pk])
    assert client.post(url, data).status_code == 403
    assert not LateEntry.objects.get(team=late).won
    rounds_page = reverse("director:swiss", args=[tournament.pk])
    assert "Late teams" not in client.get(rounds_page).content.decode()
    assert "Late teams" in director_client.get(rounds_page).content.decode()


@pytest.mark.django_db
def test_an_assistant_runs_the_swiss_page_and_a_stranger_director_cannot(django_user_model):
    tournament = make_swiss(4)
    start_play(tournament=tournament)
    assistant = django_user_model.objects.create_user("ash", password="x", is_staff=True)
    a_club().members.create(user=assistant, role="assistant")
    stranger = django_user_model.objects.create_user("sol", password="x", is_staff=True)
    a_club("Other club").members.create(user=stranger, role="owner")
    team = {t.number: t.pk for t in tournament.teams.all()}
    url = reverse("director:swiss_swap", args=[tournament.pk])
    for user, status in ((assistant, 302), (stranger, 404)):
        client = Client()
        client.force_login(user)
        assert client.post(url, {"swap-first": team[2], "swap-second": team[3]}).status_code == status
    assert pairs(tournament, 1) == [(1, 3), (2, 4)]


@pytest.mark.django_db
def test_the_public_page_and_projector_show_the_standings_and_the_next_rounds_pairings(client):
    tournament = make_swiss(5, rounds=3)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    assert client.get(reverse("public:standings", args=[tournament.pk])).url == reverse(
        "public:swiss", args=[tournament.pk]
    )
    page = client.get(reverse("public:swiss", args=[tournament.pk])).content.decode()
    assert "Round 2 pairings" in page and "about to start" in page and "Buchholz" in page
    assert "Ranked by rounds won" in page and "are level on 1 won" in page
    projector = client.get(reverse("public:swiss_projector", args=[tournament.pk])).content.decode()
    assert "Round 2 pairings" in projector and "Table 1" in projector and "Ada &amp; Ben" in projector
    fragment = client.get(reverse("public:swiss", args=[tournament.pk]), headers={"HX-Request": "true"})
    assert fragment.content.decode().startswith('<div id="swiss"')


@pytest.mark.django_db
def test_the_standings_tab_and_the_dashboard_speak_of_the_swiss(director_client):
    tournament = make_swiss(4, rounds=3)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    standings = director_client.get(reverse("director:standings", args=[tournament.pk]), follow=True)
    assert "Swiss standings" in standings.content.decode()
    dashboard = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    assert "1 of 3" in dashboard or "1/3" in dashboard


# --- documents ------------------------------------------------------------------------------------


def _pdf_text(response) -> str:
    from pypdf import PdfReader

    assert response["Content-Type"] == "application/pdf"
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(response.content)).pages)


@pytest.mark.django_db
def test_the_standings_pairings_and_handout_print_with_how_pairings_are_made(director_client):
    tournament = make_swiss(5, rounds=4, bye_points_for=300)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    url = lambda name: reverse("director:print_document", args=[tournament.pk, name])  # noqa: E731
    standings = _pdf_text(director_client.get(url("swiss-standings")))
    assert "Swiss standings" in standings and "Ranked by rounds won" in standings and "Buchholz" in standings
    pairings = _pdf_text(director_client.get(url("swiss-pairings")))
    assert "round 2 pairings" in pairings and "Bye:" in pairings
    handout = _pdf_text(director_client.get(url("rules")))
    assert "How pairings are made" in handout and "Swiss event of 4 rounds" in handout
    assert "scored 300 to 0" in handout and "no two teams meet twice" in handout


# --- export, import, simulation ---------------------------------------------------------------------


@pytest.mark.django_db
def test_export_then_import_restores_a_swiss_event_with_its_settings_byes_and_late_teams():
    tournament = make_swiss(5, rounds=3, bye_points_for=200, tiebreaks="head-to-head,buchholz")
    play(start_play(tournament=tournament))
    register_team(tournament=tournament, names=["Kara", "Leo"])
    score_missed_rounds(entry=LateEntry.objects.get(), won=True, points_for=10, points_against=5)
    close_round(round_=tournament.rounds.get(number=1))
    exported = json.loads(json.dumps(export_tournament(tournament)))
    copy = import_tournament(exported, club=a_club())
    assert copy.format == "swiss" and copy.swiss_settings.bye_points_for == 200
    assert copy.swiss_settings.tiebreaks == "head-to-head,buchholz"
    entry = LateEntry.objects.get(team__tournament=copy)
    assert (entry.team.number, entry.joined_round, entry.won, entry.points_for) == (6, 2, True, 10)
    assert pairs(copy, 2) == pairs(tournament, 2) and bye_of(copy, 1) == bye_of(tournament, 1)
    assert [(line.name, line.row.won) for line in swiss_standings(copy).lines] == [
        (line.name, line.row.won) for line in swiss_standings(tournament).lines
    ]
    again = export_tournament(copy)
    assert again["matches"] == exported["matches"] or len(again["matches"]) == len(exported["matches"])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda data: data["matches"][1].update(round=7), "round must be a round played"),
        (
            lambda data: data["matches"][1].update(home=(bye := data["matches"][0]["home"]), winner=bye),
            "plays twice in round 1",
        ),
        (lambda data: data["tournament"].update(swiss_late_entries=[{"team": 99}]), "Late team 1"),
        (lambda data: data["tournament"].update(rounds=0), "rounds"),
    ],
)
def test_an_import_of_a_swiss_event_that_does_not_hold_together_is_refused_naming_the_row(change, words):
    tournament = make_swiss(5, rounds=3)
    play(start_play(tournament=tournament))
    data = json.loads(json.dumps(export_tournament(tournament)))
    change(data)
    with pytest.raises(ValidationError, match=words):
        import_tournament(data, club=a_club())


def test_simulate_takes_the_format_as_an_option_or_as_its_sub_command():
    from tournament.management.commands.simulate import _format_as_kind

    assert _format_as_kind(["manage.py", "simulate", "--format", "swiss", "--teams", "9"]) == [
        "manage.py", "simulate", "swiss", "--teams", "9"]  # fmt: skip
    assert _format_as_kind(["manage.py", "simulate", "--seed", "2", "--format=swiss"])[2] == "swiss"
    assert _format_as_kind(["manage.py", "simulate", "league", "--teams", "4"])[2] == "league"


@pytest.mark.django_db
def test_simulate_logs_the_issues_json_shape_with_standings_in_rank_order():
    log = json.loads(json.dumps(SIMULATION.run({"teams": 9, "rounds": 4, "seed": 5, "best_of": 1})))
    assert set(log) == {"format", "teams", "rounds", "standings"} and log["format"] == "swiss"
    assert log["teams"] == list(range(1, 10)) and [r["round"] for r in log["rounds"]] == [1, 2, 3, 4]
    for entry in log["rounds"]:
        assert set(entry) == {"round", "bye", "pairings"} and entry["bye"] in log["teams"]
        assert [p["table"] for p in entry["pairings"]] == [1, 2, 3, 4]
        for pairing in entry["pairings"]:
            assert set(pairing) == {"table", "teams", "winner"} and pairing["winner"] in pairing["teams"]
    assert len({r["bye"] for r in log["rounds"]}) == 4  # a bye each round, to a team without one
    standings = log["standings"]
    assert all(set(s) == {"team", "wins", "buchholz"} for s in standings)
    assert [s["wins"] for s in standings] == sorted((s["wins"] for s in standings), reverse=True)
    assert sum(s["wins"] for s in standings) == 4 * 4 + 4  # a winner a pairing, and each bye


@pytest.mark.django_db
@pytest.mark.parametrize(("teams", "rounds", "seed"), [(9, 4, 5), (8, 4, 1), (12, 5, 3), (16, 5, 7), (17, 5, 2)])
def test_a_whole_event_paired_from_its_standings_has_no_rematch_and_no_second_bye(teams, rounds, seed):
    log = SIMULATION.run({"teams": teams, "rounds": rounds, "seed": seed, "best_of": 1})
    met = [frozenset(p["teams"]) for entry in log["rounds"] for p in entry["pairings"]]
    assert len(met) == len(set(met)), "two teams met twice"
    byes = [entry["bye"] for entry in log["rounds"] if entry["bye"] is not None]
    assert len(byes) == len(set(byes)) == (rounds if teams % 2 else 0)


def test_the_simulate_command_runs_from_the_shell_on_a_throwaway_database(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "simulate", "--format", "swiss", "--teams", "6", "--rounds", "3", "--seed", "2"],
        env={**__import__("os").environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'real.sqlite3'}",
             "DJANGO_DEBUG": "true"},
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout.startswith("A Swiss event of 6 teams over 3 rounds.") and "Standings:" in done.stdout


def test_simulate_refuses_more_rounds_than_a_field_can_play_without_rematches():
    with pytest.raises(ValueError, match="--rounds"):
        SIMULATION.run({"teams": 4, "rounds": 4, "seed": 1, "best_of": 1})


@pytest.mark.django_db
def test_a_swiss_rounds_score_sheets_and_the_cores_event_documents_print(director_client):
    tournament = make_swiss(5, rounds=2)
    play(start_play(tournament=tournament))
    close_round(round_=tournament.rounds.get(number=1))
    url = lambda name: reverse("director:print_document", args=[tournament.pk, name])  # noqa: E731
    sheets = _pdf_text(director_client.get(url("score-sheets") + "?round=2"))
    assert "round 2, match 1" in sheets and "round 2, match 2" in sheets
    standings = _pdf_text(director_client.get(url("standings")))
    assert "Ada & Ben" in standings
    page = director_client.get(reverse("director:print", args=[tournament.pk])).content.decode()
    assert "Swiss standings" in page and "Pairings" in page and "How pairings" not in page
