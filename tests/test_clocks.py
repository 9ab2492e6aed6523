"""The director's clock: started with a timed round or night, read truly on the board once time is
up, and one match's or table's minutes left set shorter or longer."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import HandEntry
from tests.conftest import even_hand, make_tournament
from tests.test_knockout import LEVEL_HAND, knockout_event, match
from tests.test_league import make_league
from tournament.clocks.forms import ClockForm
from tournament.clocks.services import MAX_MINUTES_LEFT, pause_clock, set_minutes_left, start_round_clock
from tournament.clubs.services import grant
from tournament.formats.registry import format_of
from tournament.models import Clock, ClubMember, Game, HandRevision, Round
from tournament.play.hands import enter_hand
from tournament.play.rounds import start_play, start_round

pytestmark = pytest.mark.django_db


def timed_round(event: str) -> tuple[Round, str]:
    """A seated round of a timed event, not started, and its page: a progressive round (20 minutes)
    or a league's night (rule text 004: 30 minutes)."""
    if event == "league night":
        tournament = make_league()
        round_ = format_of(tournament).start(tournament=tournament)
        return round_, reverse("director:league_night", args=[tournament.pk, round_.number])
    tournament = make_tournament(couples=8, rule_overrides={"time_limit_minutes": 20})
    round_ = start_play(tournament=tournament)
    return round_, reverse("director:round", args=[tournament.pk, round_.number])


def run_out(round_: Round) -> None:
    """Every clock of the round started long enough ago to have run out."""
    Clock.objects.filter(games__round=round_).update(started_at=timezone.now() - datetime.timedelta(hours=2))


def clock_buttons(page: str) -> list[str]:
    return re.findall(r'name="action" value="(?:start|pause)">([^<]*)<', page)


# --- 1. the clock starts with the round ------------------------------------------------------------


@pytest.mark.parametrize("event", ["progressive round", "league night"])
def test_starting_a_timed_round_with_the_box_ticked_starts_its_clock_at_every_table(director_client, event):
    round_, page = timed_round(event)
    start = reverse("director:round_start", args=[round_.tournament_id, round_.number])
    response = director_client.post(start, {"start_clock": "on"}, follow=True)
    assert "has started. Its clock is running." in response.content.decode()
    clocks = Clock.objects.filter(games__round=round_).distinct()
    assert clocks.count() == round_.games.count() and all(clock.running for clock in clocks)
    assert clock_buttons(director_client.get(page).content.decode()) == ["Pause the clock"]


@pytest.mark.parametrize("event", ["progressive round", "league night"])
def test_the_start_button_offers_the_clock_ticked_beside_it_when_the_rules_are_timed(director_client, event):
    round_, page = timed_round(event)
    minutes = round_.tournament.rules.time_limit_minutes
    html = director_client.get(page).content.decode()
    assert f'<input type="checkbox" name="start_clock" checked> Start the {minutes}-minute clock now' in html


def test_an_untimed_round_starts_without_a_clock_box(director_client, tournament):
    start_play(tournament=tournament)
    html = director_client.get(reverse("director:round", args=[tournament.pk, 1])).content.decode()
    assert "Start round 1" in html and "start_clock" not in html
    response = director_client.post(reverse("director:round_start", args=[tournament.pk, 1]), {"start_clock": "on"})
    assert response.status_code == 302 and tournament.rounds.get().is_running
    assert not Clock.objects.filter(tournament=tournament).exists()


def test_a_round_started_with_the_box_unticked_keeps_its_clock_for_the_clock_button(director_client):
    round_, page = timed_round("progressive round")
    response = director_client.post(reverse("director:round_start", args=[round_.tournament_id, 1]), follow=True)
    assert "Round 1 has started." in response.content.decode() and "clock is running" not in response.content.decode()
    assert not Clock.objects.filter(tournament=round_.tournament, started_at__isnull=False).exists()
    assert clock_buttons(director_client.get(page).content.decode()) == ["Start the 20-minute clock"]


def test_starting_a_round_already_running_is_refused_and_leaves_its_clock_alone(director_client):
    round_, _ = timed_round("progressive round")
    start_round(round_=round_)
    start = reverse("director:round_start", args=[round_.tournament_id, 1])
    response = director_client.post(start, {"start_clock": "on"}, follow=True)
    assert "Round 1 is already playing." in response.content.decode()
    assert not Clock.objects.filter(tournament=round_.tournament, started_at__isnull=False).exists()


# --- 2. the board after time is up -----------------------------------------------------------------


@pytest.mark.parametrize("event", ["progressive round", "league night"])
def test_once_the_clock_has_run_out_the_page_says_time_is_up_with_no_clock_button(director_client, event):
    round_, page = timed_round(event)
    start_round(round_=round_)
    start_round_clock(round_=round_)
    run_out(round_)
    html = director_client.get(page).content.decode()
    assert clock_buttons(html) == [] and "Time is up" in html


def test_once_every_table_has_finished_the_page_offers_no_clock_to_start(director_client):
    round_, page = timed_round("progressive round")
    start_round(round_=round_)
    start_round_clock(round_=round_)
    round_.games.update(status=Game.Status.FINISHED, winner="NS")
    html = director_client.get(page).content.decode()
    assert clock_buttons(html) == [] and "Time is up" not in html


def test_a_table_given_minutes_after_time_is_up_brings_back_the_pause_button(director_client):
    round_, page = timed_round("progressive round")
    start_round(round_=round_)
    start_round_clock(round_=round_)
    run_out(round_)
    clock = round_.games.get(table__number=1).clock
    set_minutes_left(clock=clock, minutes=5)
    assert clock_buttons(director_client.get(page).content.decode()) == ["Pause the clock"]


def end_on_time(game: Game) -> Game:
    """Hand 1 entered after the game's clock ran out: time is called on it, and NS's 61 to 60
    ends the game."""
    run_out(game.round)
    entry = HandEntry.from_fields(even_hand(7))
    return enter_hand(game=game, number=1, entry=entry, source=HandRevision.Source.TABLE).game


def board_rows(director_client, round_: Round) -> dict[str, str]:
    url = reverse("director:round", args=[round_.tournament_id, round_.number])
    html = director_client.get(url, HTTP_HX_REQUEST="true").content.decode()
    return {row.split("Open table ")[1].split('"')[0]: row for row in html.split("<tr")[2:]}


def test_a_table_that_ended_on_time_shows_finished_and_not_time_called(director_client):
    round_, _ = timed_round("progressive round")
    start_round(round_=round_)
    start_round_clock(round_=round_)
    game = end_on_time(round_.games.get(table__number=1))
    assert game.is_finished and game.time_up_hand == 1
    rows = board_rows(director_client, round_)
    assert "Finished: won by" in rows["1"] and "ended on time" in rows["1"]
    assert "time called" not in rows["1"] and "Time: finish this hand" not in rows["1"] and "+5 min" not in rows["1"]
    assert "ended on time" not in rows["2"] and "Time: finish this hand" in rows["2"] and "+5 min" in rows["2"]


def test_a_table_still_playing_after_time_was_called_shows_time_called(director_client):
    round_, _ = timed_round("progressive round")
    start_round(round_=round_)
    start_round_clock(round_=round_)
    run_out(round_)
    entry = HandEntry.from_fields(LEVEL_HAND)  # both sides set, level: one more hand is played
    table = round_.games.get(table__number=1)
    game = enter_hand(game=table, number=1, entry=entry, source=HandRevision.Source.TABLE).game
    assert game.time_called and not game.is_finished
    assert "time called" in board_rows(director_client, round_)["1"]


# --- 3. setting one clock's minutes left -----------------------------------------------------------


def started_final(minutes_ago: int = 10) -> tuple[Clock, str]:
    """A knockout's final (30-minute clock, rule text 004) started ``minutes_ago``; its clock URL."""
    tournament = knockout_event(teams=2)
    clock = match(tournament, "F1").clock
    clock.started_at = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    clock.save()
    return clock, reverse("director:clock", args=[tournament.pk, clock.pk])


@pytest.mark.parametrize("minutes", [5, 0, 45])
def test_the_director_sets_a_matchs_minutes_left_shorter_or_longer(director_client, minutes):
    clock, url = started_final()
    response = director_client.post(url, {"action": "set", "minutes_left": str(minutes)}, follow=True)
    assert response.redirect_chain[0][1] == 302
    left = f"{minutes} minute{'s' if minutes != 1 else ''}"
    assert f"Table 1&#x27;s clock now has {left} left." in response.content.decode()
    clock.refresh_from_db()
    assert abs(clock.remaining_seconds() - minutes * 60) <= 2
    assert clock.running and clock.minutes == 30 and clock.extra_minutes == 0


def test_setting_a_paused_clocks_minutes_left_keeps_it_paused_at_that_time():
    clock, _ = started_final(minutes_ago=25)
    pause_clock(clock=clock)
    set_minutes_left(clock=clock, minutes=12)
    clock.refresh_from_db()
    assert not clock.running and clock.remaining_seconds() == 12 * 60
    clock.paused_at = clock.started_at  # a pause as early as can be: shortening moves the start back
    clock.save()
    set_minutes_left(clock=clock, minutes=1)
    clock.refresh_from_db()
    assert clock.remaining_seconds() == 60 and clock.paused_at >= clock.started_at and clock.paused_seconds >= 0


def test_setting_one_tables_minutes_left_leaves_the_other_tables_clocks_alone(director_client):
    round_, page = timed_round("progressive round")
    start_round(round_=round_)
    start_round_clock(round_=round_)
    first, second = (round_.games.get(table__number=n).clock for n in (1, 2))
    html = director_client.get(page).content.decode()
    assert f'<label for="left-{first.pk}" class="sr-only">Minutes left at table 1</label>' in html
    director_client.post(
        reverse("director:clock", args=[round_.tournament_id, first.pk]), {"action": "set", "minutes_left": "3"}
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert abs(first.remaining_seconds() - 180) <= 2 and second.remaining_seconds() > 19 * 60


@pytest.mark.parametrize(
    ("value", "message"),
    [("", "How many minutes should be left?"), ("-1", "Minutes left cannot be below 0"),
     ("abc", "Minutes left must be a whole number"), (str(MAX_MINUTES_LEFT + 1), f"at most {MAX_MINUTES_LEFT}")],
)  # fmt: skip
def test_bad_minutes_left_are_refused_with_a_message_and_leave_the_clock(director_client, value, message):
    clock, url = started_final()
    before = clock.remaining_seconds()
    response = director_client.post(url, {"action": "set", "minutes_left": value}, follow=True)
    assert message in response.content.decode()
    clock.refresh_from_db()
    assert abs(clock.remaining_seconds() - before) <= 2


@pytest.mark.parametrize(
    ("value", "code"),
    [("", "minutes_left_required"), ("-1", "min_value"), ("abc", "invalid"), (str(MAX_MINUTES_LEFT + 1), "max_value")],
)
def test_the_clock_form_names_what_is_wrong_with_the_minutes_left(value, code):
    form = ClockForm({"action": "set", "minutes_left": value})
    assert not form.is_valid() and [error.code for error in form.errors.as_data()["minutes_left"]] == [code]


def test_a_clock_not_started_cannot_have_its_minutes_left_set(director_client):
    tournament = knockout_event(teams=2)
    clock = match(tournament, "F1").clock
    url = reverse("director:clock", args=[tournament.pk, clock.pk])
    response = director_client.post(url, {"action": "set", "minutes_left": "5"}, follow=True)
    assert "This clock has not started: start it first" in response.content.decode()
    clock.refresh_from_db()
    assert not clock.started


def test_setting_minutes_left_answers_only_a_post_to_a_clock_of_the_event(director_client):
    clock, url = started_final()
    assert director_client.get(url).status_code == 405
    missing = reverse("director:clock", args=[clock.tournament_id, 999999])
    assert director_client.post(missing, {"action": "set", "minutes_left": "5"}).status_code == 404
    other, _ = started_final()
    elsewhere = reverse("director:clock", args=[clock.tournament_id, other.pk])
    assert director_client.post(elsewhere, {"action": "set", "minutes_left": "5"}).status_code == 404


def test_only_the_events_director_and_assistants_set_a_clock(client, django_user_model):
    clock, url = started_final()
    before = clock.remaining_seconds()
    data = {"action": "set", "minutes_left": "1"}
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    stranger = django_user_model.objects.create_user("sam", password="a-long-password-1", is_staff=True)
    client.force_login(stranger)
    assert client.post(url, data).status_code == 404
    clock.refresh_from_db()
    assert abs(clock.remaining_seconds() - before) <= 2
    helper = django_user_model.objects.create_user("hank", password="a-long-password-1", is_staff=True)
    grant(club=clock.tournament.club, user=helper, role=ClubMember.Role.ASSISTANT)
    client.force_login(helper)
    assert client.post(url, data).status_code == 302
    clock.refresh_from_db()
    assert abs(clock.remaining_seconds() - 60) <= 2
