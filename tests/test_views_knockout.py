"""The knockout pages: bracket and match board, settling and seating matches, clocks, the public bracket."""

import datetime
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from tests.conftest import make_tournament
from tests.test_knockout import current_game, enter, hand, knockout_event, match, win_game
from tests.test_league import make_league
from tests.test_snapshot import _Later
from tournament.clocks.services import start_match_clocks
from tournament.formats.knockout.reports import PROJECTOR_COLUMNS, PROJECTOR_PLAYING_ROWS
from tournament.formats.registry import format_of
from tournament.models import Clock, Game, Match, Round, Tournament
from tournament.play.games import record_phone_report
from tournament.play.rounds import start_play, start_round
from tournament.standings import snapshot

pytestmark = pytest.mark.django_db


def test_the_director_draws_a_knockout_from_the_dashboard_and_lands_on_the_bracket(director_client):
    tournament = knockout_event(teams=4)
    tournament.rounds.all().delete()
    tournament.matches.all().delete()
    response = director_client.get(reverse("director:dashboard", args=[tournament.pk]))
    assert b"Draw the bracket and start" in response.content
    response = director_client.post(reverse("director:seat_first", args=[tournament.pk]))
    assert response.status_code == 302 and response.url == reverse("director:bracket", args=[tournament.pk])
    assert tournament.matches.filter(status=Match.Status.PLAYING).count() == 2


def test_a_knockouts_round_is_not_closed_by_hand_the_final_closes_it(director_client):
    tournament = knockout_event(teams=4)
    response = director_client.post(reverse("director:round_close", args=[tournament.pk, 1]), follow=True)
    assert "closes by itself when the final is decided" in response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("director:bracket", args=[tournament.pk])
    assert tournament.rounds.get().status == Round.Status.RUNNING


def test_the_bracket_page_shows_the_matches_playing_with_tables_and_clocks(director_client):
    tournament = knockout_event(teams=5)
    Clock.objects.filter(tournament=tournament).update(started_at=timezone.now())
    page = director_client.get(reverse("director:bracket", args=[tournament.pk])).content.decode()
    assert "Now playing" in page and "Start clock" not in page and "Pause" in page
    assert 'data-clock data-remaining="' in page
    assert "(1) Ada &amp; Ben" in page and "bye" in page
    fragment = director_client.get(reverse("director:bracket", args=[tournament.pk]), headers={"HX-Request": "true"})
    assert fragment.content.decode().startswith('<div id="bracket-board"')


def test_the_bracket_pages_are_headed_with_the_knockouts_kind(client, director_client):
    tournament = knockout_event(teams=4)
    heading = "<h1>Knockout: single elimination (fixed partners)</h1>"
    assert heading in director_client.get(reverse("director:bracket", args=[tournament.pk])).content.decode()
    assert heading in client.get(reverse("public:bracket", args=[tournament.pk])).content.decode()


def test_the_bracket_page_reads_as_many_queries_for_16_matches_playing_as_for_2(director_client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for teams in (4, 32):
        tournament = knockout_event(teams=teams)
        with CaptureQueriesContext(connection) as captured:
            director_client.get(reverse("director:bracket", args=[tournament.pk]))
        counts.append(len(captured))
    assert counts[0] == counts[1]  # every match is named from one read of the bracket


def test_the_bracket_page_needs_a_director(client):
    tournament = knockout_event(teams=2)
    response = client.get(reverse("director:bracket", args=[tournament.pk]))
    assert response.status_code == 302 and "/login/" in response.url


def test_a_walkover_is_recorded_with_its_reason(director_client):
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1")
    url = reverse("director:match_decide", args=[tournament.pk, first.pk])
    response = director_client.post(url, {"kind": "walkover", "winner": first.away_id, "reason": "No show"})
    assert response.status_code == 302
    first.refresh_from_db()
    assert (first.winner_id, first.outcome, first.reason) == (first.away_id, "walkover", "No show")


def test_a_decision_without_a_reason_is_refused_next_to_the_field(director_client):
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1")
    url = reverse("director:match_decide", args=[tournament.pk, first.pk])
    response = director_client.post(url, {"kind": "decision", "winner": first.home_id, "reason": ""})
    assert response.status_code == 422 and b"This field is required" in response.content
    response = director_client.post(url, {"kind": "decision", "winner": 999999, "reason": "x"})
    assert response.status_code == 422
    assert match(tournament, "W1-1").status == Match.Status.PLAYING


def test_match_actions_refuse_get_and_missing_matches(director_client):
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1")
    url = reverse("director:match_decide", args=[tournament.pk, first.pk])
    assert director_client.get(url).status_code == 405
    missing = reverse("director:match_decide", args=[tournament.pk, 999999])
    assert director_client.post(missing, {"kind": "decision"}).status_code == 404


def test_match_actions_need_a_director(client):
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1")
    url = reverse("director:match_decide", args=[tournament.pk, first.pk])
    assert client.post(url, {"kind": "walkover", "winner": first.home_id, "reason": "x"}).status_code == 302
    assert match(tournament, "W1-1").outcome == ""


def test_the_director_seats_a_waiting_match_at_a_free_table(director_client):
    tournament = knockout_event(teams=4, tables_available=1)
    second = match(tournament, "W1-2")
    assert second.status == Match.Status.READY
    url = reverse("director:match_table", args=[tournament.pk, second.pk])
    busy = match(tournament, "W1-1").table
    director_client.post(url, {"table": busy.pk})
    assert match(tournament, "W1-2").status == Match.Status.READY  # table 1 is in use
    tournament.tables.create(number=2)
    director_client.post(url, {"table": tournament.tables.get(number=2).pk})
    assert match(tournament, "W1-2").table.number == 2


def test_clock_actions_start_pause_and_extend_and_refuse_bad_minutes(director_client):
    tournament = knockout_event(teams=2)
    clock = match(tournament, "F1").clock
    url = reverse("director:clock", args=[tournament.pk, clock.pk])
    director_client.post(url, {"action": "start"})
    director_client.post(url, {"action": "extra", "minutes": "5"})
    director_client.post(url, {"action": "extra", "minutes": "abc"})
    director_client.post(url, {"action": "pause"})
    clock.refresh_from_db()
    assert clock.started and not clock.running and clock.extra_minutes == 5
    assert director_client.get(url).status_code == 405
    assert director_client.post(reverse("director:clock", args=[tournament.pk, 999999])).status_code == 404


def test_a_progressive_rounds_clock_runs_at_every_table(director_client, running_round):
    tournament = running_round.tournament
    tournament.rule_overrides = {"time_limit_minutes": 20}
    tournament.save()
    director_client.post(reverse("director:round_clock", args=[tournament.pk, running_round.number]))
    clocks = Clock.objects.filter(games__round=running_round)
    assert clocks.count() == running_round.games.count() and all(c.running for c in clocks)
    page = director_client.get(reverse("director:round", args=[tournament.pk, running_round.number]))
    assert b"data-clock" in page.content


def _clock_buttons(director_client, url: str) -> list[str]:
    return re.findall(r'name="action" value="(start|pause)">([^<]*)<', director_client.get(url).content.decode())


@pytest.mark.parametrize("event", ["progressive round", "league night"])
def test_the_round_page_offers_start_while_the_clock_is_stopped_and_pause_while_it_runs(director_client, event):
    if event == "league night":
        tournament = make_league()  # rule text 004: a 30-minute clock
        round_ = format_of(tournament).start(tournament=tournament)
        page = reverse("director:league_night", args=[tournament.pk, 1])
    else:
        tournament = make_tournament(couples=8, rule_overrides={"time_limit_minutes": 20})
        round_ = start_play(tournament=tournament)
        page = reverse("director:round", args=[tournament.pk, 1])
    minutes = tournament.rules.time_limit_minutes
    start_round(round_=round_)
    clock = reverse("director:round_clock", args=[tournament.pk, 1])
    assert _clock_buttons(director_client, page) == [("start", f"Start the {minutes}-minute clock")]
    director_client.post(clock, {"action": "start"})
    assert _clock_buttons(director_client, page) == [("pause", "Pause the clock")]
    director_client.post(clock, {"action": "pause"})
    # Paused 5 minutes 30 seconds in: resuming says so, with the minutes left (rounded up).
    for paused in Clock.objects.filter(games__round=round_).distinct():
        paused.paused_at = paused.started_at + datetime.timedelta(minutes=5, seconds=30)
        paused.save()
    assert _clock_buttons(director_client, page) == [("start", f"Resume the clock ({minutes - 5} minutes left)")]


def test_a_round_clock_without_a_time_limit_is_refused_with_a_message(director_client, running_round):
    response = director_client.post(
        reverse("director:round_clock", args=[running_round.tournament_id, running_round.number]), follow=True
    )
    assert b"no time limit" in response.content


def test_the_table_phone_counts_down_and_says_time_when_it_runs_out(client):
    tournament = knockout_event(teams=2)
    final = match(tournament, "F1")
    url = reverse("table:page", args=[final.table.token])
    final.clock.started_at = timezone.now()
    final.clock.save()
    page = client.get(url).content.decode()
    assert "data-clock" in page and "Final" in page
    final.clock.started_at = timezone.now() - datetime.timedelta(minutes=31)
    final.clock.save()
    page = client.get(url).content.decode()
    assert "Time: finish this hand. It is the last hand of this game" in page


def test_a_table_link_follows_its_table_from_match_to_match(client):
    tournament = knockout_event(teams=4, tables_available=1)
    first = match(tournament, "W1-1")
    url = reverse("table:page", args=[first.table.token])
    win_game(first)
    page = client.get(url).content.decode()
    assert "Semi-final, match 2" in page  # the waiting match took the free table
    game = current_game(match(tournament, "W1-2"))
    response = client.post(reverse("table:hand", args=[first.table.token, 1]), {"number": 1, "version": "", **hand()})
    assert response.status_code in (200, 302)
    assert game.hands.count() == 1


def test_the_public_bracket_shows_tables_and_the_champion(client):
    tournament = knockout_event(teams=2)
    page = client.get(reverse("public:bracket", args=[tournament.pk])).content.decode()
    assert "Now playing" in page and "Table" in page
    game = current_game(match(tournament, "F1"))
    while game.status != "finished":
        game = enter(game, hand())
    for name in ("public:bracket", "public:bracket_projector"):
        page = client.get(reverse(name, args=[tournament.pk])).content.decode()
        assert "Champion: <strong>Ada &amp; Ben</strong>" in page
    assert tournament.rounds.get().status == Round.Status.CLOSED
    page = client.get(reverse("public:bracket", args=[tournament.pk])).content.decode()
    assert "<h2>Places</h2>" in page and "<strong>2</strong> · Cleo" in page


@pytest.mark.parametrize(
    ("name", "target"), [("public:standings", "public:bracket"), ("public:projector", "public:bracket_projector")]
)
def test_the_everyone_pages_of_a_knockout_are_its_bracket(client, name, target):
    tournament = knockout_event(teams=4)
    response = client.get(reverse(name, args=[tournament.pk]))
    assert response.status_code == 302 and response.url == reverse(target, args=[tournament.pk])


def test_the_projector_shows_the_tables_playing_with_their_clocks_beside_the_bracket(client):
    tournament = knockout_event(teams=5)
    start_match_clocks(tournament=tournament)
    url = reverse("public:bracket_projector", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert 'class="projector theme-dark"' in page and "Table 1" in page and "data-clock" in page
    assert "Quarter-finals" in page and "Semi-finals" in page and "Final" in page and "bye" in page  # one screen
    fragment = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert fragment.startswith('<div id="projector"') and f"{url}?page=1" in fragment  # one page: it stays


def test_a_big_bracket_pages_on_the_projector_one_screen_at_a_time(client):
    tournament = knockout_event(teams=32, format="double_elimination")  # 16 matches playing
    url = reverse("public:bracket_projector", args=[tournament.pk])
    pages = [client.get(url, {"page": n}, headers={"HX-Request": "true"}).content.decode() for n in (1, 2, 3)]
    assert f"{url}?page=2" in pages[0] and f"{url}?page=3" in pages[1]
    tables = {int(n) for page in pages for n in re.findall(r'class="table-no">Table (\d+)<', page)}
    assert tables == set(range(1, 17))  # every table playing is shown on some page
    assert all(len(re.findall(r'class="table-no"', page)) <= PROJECTOR_PLAYING_ROWS for page in pages)
    assert all(page.count('class="bracket-col"') <= PROJECTOR_COLUMNS for page in pages)
    assert "Winners&#x27; round 1 (1/4)" in pages[0] and "Winners&#x27; round 1 (4/4)" in pages[0]


def test_the_bracket_prints_on_one_landscape_page_for_32_teams(director_client, tmp_path):
    from pypdf import PdfReader

    tournament = knockout_event(teams=32, format="double_elimination")
    response = director_client.get(reverse("director:print_document", args=[tournament.pk, "bracket"]))
    pdf = tmp_path / "bracket.pdf"
    pdf.write_bytes(response.content)
    reader = PdfReader(pdf)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert page.mediabox.width > page.mediabox.height  # landscape
    text = page.extract_text()
    assert "Losers' bracket" in text and "(1) Ada & Ben" in text
    assert f"{tournament.name}: double-elimination bracket" in " ".join(text.split())


def test_match_score_sheets_print_the_time_rule_for_each_match_playing(director_client, tmp_path):
    from pypdf import PdfReader

    tournament = knockout_event(teams=4, best_of=3)
    response = director_client.get(reverse("director:print_document", args=[tournament.pk, "match-sheets"]))
    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(response.content)
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2
    text = " ".join(reader.pages[0].extract_text().split())
    assert "The match has 30 minutes" in text and "Games not yet started when time is called are not played" in text


def finish_knockout(tournament: Tournament) -> None:
    """Play every match out, the home team winning the odd-numbered ones."""
    while (playing := tournament.matches.filter(status=Match.Status.PLAYING).order_by("position").first()) is not None:
        win_game(playing, home=playing.number % 2 == 1)


def test_a_finished_knockouts_print_tab_offers_the_played_matches_sheets_filled_in(director_client, tmp_path):
    from pypdf import PdfReader

    tournament = knockout_event(teams=6)
    finish_knockout(tournament)
    page = director_client.get(reverse("director:print", args=[tournament.pk])).content.decode()
    played = reverse("director:print_document", args=[tournament.pk, "played-match-sheets"])
    assert f'href="{played}"' in page and "5 matches, a page per game" in page
    assert reverse("director:print_document", args=[tournament.pk, "match-sheets"]) not in page  # none to play
    (tmp_path / "played.pdf").write_bytes(director_client.get(played).content)
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "played.pdf").pages]
    finished = tournament.matches.filter(status=Match.Status.FINISHED).order_by("finished_order")
    assert len(pages) == len(finished) == 5
    first = finished[0]
    game = first.games.get()
    home, away = (" & ".join(t.players.values_list("name", flat=True)) for t in (first.home, first.away))
    winner = home if first.winner_id == first.home_id else away
    side = "North–South" if first.winner_id == first.home_id else "East–West"
    assert f"Table {first.table.number} {first.label}" in pages[0]
    assert f"Won by {side} ({winner}), {game.ns_score} to {game.ew_score}".replace("-", "−") in pages[0]
    hands = list(game.hands.order_by("number"))
    assert f"{len(hands)} 5 5 5 5 120" in pages[0]  # the last hand's bids and tricks, as entered
    assert "Scan to enter scores" not in pages[0]  # the table's link now reaches another match


def test_the_played_matches_sheets_need_a_finished_match_to_fill_in(director_client):
    tournament = knockout_event(teams=4)
    page = director_client.get(reverse("director:print", args=[tournament.pk])).content.decode()
    assert "Played matches" not in page
    # Named though not offered yet, so the line says what it is.
    assert '<li class="muted">Played match score sheets: 0 matches, a page per game' in page
    assert reverse("director:print_document", args=[tournament.pk, "match-sheets"]) in page


@pytest.mark.parametrize("teams", [2, 4, 6, 8])
def test_a_small_bracket_is_drawn_large_across_the_landscape_page(teams):
    from tournament.formats.knockout.documents import (
        BRACKET_MARGINS,
        BRACKET_MAX_SCALE,
        BRACKET_PAGE,
        BRACKET_SIZES,
        bracket_sheet,
    )

    tournament = knockout_event(teams=teams)
    context = bracket_sheet(tournament).contexts[0]
    columns = max(len(part["columns"]) for part in context["parts"])
    page_width = BRACKET_PAGE["LETTER"][0] - BRACKET_MARGINS[0]
    scale = float(context["size"]["font"]) / BRACKET_SIZES["font"]
    assert scale > 1.5  # larger type than the 32 teams' bracket has
    drawn = columns * (context["box_mm"] + 2 * float(context["size"]["gap"]))
    assert drawn > 0.75 * page_width or scale == BRACKET_MAX_SCALE
    first = context["parts"][0]["columns"][0]
    spread = len(first["column"].cards) * (float(context["card_mm"]) + 2 * float(first["margin"]))
    assert spread > 0.6 * (BRACKET_PAGE["LETTER"][1] - BRACKET_MARGINS[1])  # down the page too


def test_director_set_seeds_decide_the_draw(director_client):
    tournament = knockout_event(teams=4)
    tournament.rounds.all().delete()
    tournament.matches.all().delete()
    Tournament.objects.filter(pk=tournament.pk).update(seating_order=Tournament.SeatingOrder.DIRECTOR)
    teams = list(tournament.teams.order_by("number"))
    url = reverse("director:seeds", args=[tournament.pk])
    clash = {f"seed-{t.pk}": 1 for t in teams}
    response = director_client.post(url, clash)
    assert response.status_code == 422 and b"is given to" in response.content
    chosen = {f"seed-{t.pk}": seed for t, seed in zip(teams, (4, 3, 2, 1), strict=True)}
    assert director_client.post(url, chosen).status_code == 302
    director_client.post(reverse("director:seat_first", args=[tournament.pk]))
    top = match(tournament, "W1-1")
    assert (top.home, top.away) == (teams[3], teams[0])  # seed 1 v seed 4
    assert director_client.post(url, chosen).status_code == 422  # drawn: seeds are fixed


def test_the_knockout_board_shows_when_each_phone_was_last_heard_and_its_hands_waiting(director_client, client):
    tournament = knockout_event(teams=4)
    first = match(tournament, "W1-1").table
    record_phone_report(table=first, waiting=2)
    page = director_client.get(reverse("director:bracket", args=[tournament.pk])).content.decode()
    rows = {row.split("Open table ")[1].split('"')[0]: row for row in page.split("<tr")[2:] if "Open table " in row}
    assert '<td class="phone" data-label="Phone">heard just now · 2 hands waiting on the phone</td>' in rows["1"]
    assert '<td class="phone bad" data-label="Phone">not heard from yet</td>' in rows["2"]
    public = client.get(reverse("public:bracket", args=[tournament.pk])).content.decode()
    assert "heard just now" not in public and "not heard from yet" not in public  # the director's alone


def test_starting_every_clock_starts_only_the_matches_at_tables(director_client):
    tournament = knockout_event(teams=6)
    response = director_client.post(reverse("director:start_clocks", args=[tournament.pk]), follow=True)
    assert b"Started 2 clocks." in response.content
    assert Clock.objects.filter(tournament=tournament, started_at__isnull=False).count() == 2
    assert director_client.get(reverse("director:start_clocks", args=[tournament.pk])).status_code == 405


def test_the_dashboard_counts_a_knockouts_matches_played_not_rounds(director_client):
    tournament = knockout_event(teams=5, format="double_elimination")  # 8 matches, a second final maybe
    win_game(match(tournament, "W1-2"))
    page = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    assert '<span class="big">1/9</span> matches played' in page and "rounds</a>" not in page
    assert "Live bracket" in page


def test_a_match_has_one_name_on_every_board_page_and_sheet(director_client, client, tmp_path):
    from pypdf import PdfReader

    tournament = knockout_event(teams=8)
    for key in ("W1-1", "W1-2"):
        win_game(match(tournament, key))
    semi = match(tournament, "W2-1")
    assert semi.is_playing and str(semi) == "Semi-final, match 5" and semi.label == "semi-final, match 5"
    pages = {
        "board": director_client.get(reverse("director:bracket", args=[tournament.pk])),
        "match": director_client.get(reverse("director:match", args=[tournament.pk, semi.pk])),
        "game": director_client.get(reverse("director:game", args=[tournament.pk, current_game(semi).pk])),
        "public": client.get(reverse("public:bracket", args=[tournament.pk])),
        "projector": client.get(reverse("public:bracket_projector", args=[tournament.pk])),
    }
    for page in pages.values():
        html = page.content.decode()
        assert "emi-final, match 5" in html and not re.search(r"Match \d|[Rr]ound 2", html)
    assert "Semi-finals" in pages["board"].content.decode()
    sheets = director_client.get(reverse("director:print_document", args=[tournament.pk, "match-sheets"]))
    (tmp_path / "sheets.pdf").write_bytes(sheets.content)
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "sheets.pdf").pages)
    assert "Semi-final, match 5" in text and "Quarter-final, match 3" in text
    url = reverse("director:print_document", args=[tournament.pk, "score-sheets"])  # the games' own sheets
    (tmp_path / "games.pdf").write_bytes(director_client.get(url, {"round": 1}).content)
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "games.pdf").pages)
    assert "semi-final, match 5 · first deal" in text and f"Table {semi.table.number} semi-final" in text
    assert "Table 1 quarter-final, match 1 ·" in text and "Table 1 round" not in text


def test_the_table_pages_header_names_the_game_by_its_match_or_its_round(client, running_round):
    from tournament.formats.league.services import build_schedule, open_night

    knockout = knockout_event(teams=4, best_of=3)
    night = make_league(4)
    build_schedule(tournament=night)
    start_round(round_=open_night(tournament=night, night=1))
    games = {
        "semi-final, match 1, game 1": current_game(match(knockout, "W1-1")),
        "night 1, match 1": current_game(night.matches.get(round=1, number=1)),
        "round 1": running_round.games.first(),
    }
    for label, game in games.items():
        page = client.get(reverse("table:page", args=[game.table.token])).content.decode()
        assert f'<span class="who">{game.round.tournament.name} · {label}</span>' in page


def standings_rows(director_client, tournament) -> list[list[str]]:
    page = director_client.get(reverse("director:standings", args=[tournament.pk])).content.decode()
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def points_scored(tournament, team) -> int:
    """Every point the team scored in its matches' games, from the games themselves."""
    return sum(
        game.ns_score if m.home_id == team.pk else game.ew_score
        for m in tournament.matches.filter(home=team) | tournament.matches.filter(away=team)
        for game in m.games.all()
    )


def test_a_knockouts_standings_show_the_teams_still_in_then_those_out_by_round(director_client):
    tournament = knockout_event(teams=6)  # seeds 1 and 2 have byes; the quarter-finals are W1-2, W1-4
    for key in ("W1-2", "W1-4"):
        win_game(match(tournament, key))
    losers = [match(tournament, key).away for key in ("W1-2", "W1-4")]
    rows = standings_rows(director_client, tournament)
    assert [row[0] for row in rows] == ["–"] * 4 + ["5", "5"]
    assert {row[2] for row in rows[:4]} == {"Still in"}
    assert [row[1] for row in rows[4:]] == [escape_names(team) for team in losers]
    assert all(row[2] == "Quarter-finals" and row[3] == "0" for row in rows[4:])
    # points lost are written with a true minus sign, as every score is
    assert [row[4] for row in rows[4:]] == [str(points_scored(tournament, team)).replace("-", "−") for team in losers]


def test_after_the_final_the_knockouts_standings_give_every_place_with_matches_won_and_points(director_client):
    tournament = knockout_event(teams=6)
    for key in ("W1-2", "W1-4", "W2-1", "W2-2", "F1"):
        win_game(match(tournament, key))
    final = match(tournament, "F1")
    rows = standings_rows(director_client, tournament)
    assert [row[0] for row in rows] == ["1", "2", "3", "3", "5", "5"]
    assert rows[0][1:3] == [escape_names(final.winner), "Champion"] and rows[1][2] == "Final"
    assert {row[2] for row in rows[2:4]} == {"Semi-finals"}
    for row, team in zip(rows, [final.winner, final.away], strict=False):
        won = tournament.matches.filter(winner=team, status=Match.Status.FINISHED).count()
        assert row[3:] == [str(won), str(points_scored(tournament, team))]
    assert rows[0][3] != rows[0][4]  # points scored, not a copy of the matches won


def test_a_knockouts_standings_refresh_themselves_as_the_other_standings_do(director_client):
    tournament = knockout_event(teams=4)
    url = reverse("director:standings", args=[tournament.pk])
    page = director_client.get(url).content.decode()
    assert f'<div id="standings" hx-get="{url}" hx-trigger="every 10s" hx-swap="outerHTML">' in page
    assert "<td>Semi-finals</td>" not in page
    win_game(match(tournament, "W1-1"))
    fragment = director_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert fragment.strip().startswith('<div id="standings"') and "<nav" not in fragment
    assert "<td>Semi-finals</td>" in fragment  # the semi-final's loser is out now


def escape_names(team) -> str:
    return team.names.replace("&", "&amp;")


# --- the final's own rule set changed during the final ---------------------------------------------


def _final_rules(client, tournament: Tournament, preset: str, **extra):
    """The director's settings form posted with ``preset`` as the final's rule set."""
    from tests.test_rule_change import FORM

    data = FORM | {"name": tournament.name, "preset": tournament.preset, "rule_overrides": "",
                   "format": tournament.format, "knockout-best_of": 1, "knockout-final_best_of": 1,
                   "knockout-final_preset": preset}  # fmt: skip
    return client.post(reverse("director:tournament_edit", args=[tournament.pk]), data | extra)


def test_a_new_rule_set_for_the_final_is_confirmed_first_and_then_every_view_shows_the_new_totals(
    director_client, client, settings
):
    settings.SPADES_SNAPSHOT_SECONDS = 5  # the public page is served from its snapshot
    cache.clear()
    tournament = knockout_event(teams=2)
    game = enter(current_game(match(tournament, "F1")), hand())
    public = reverse("public:bracket", args=[tournament.pk])
    assert "120 to −40" in client.get(public, headers={"HX-Request": "true"}).content.decode()

    page = _final_rules(director_client, tournament, "championship-500").content.decode()
    assert "Change the rules during play?" in page and "1 game would change" in page
    assert "<td>Final</td>" in page and '200 <small class="muted">(+80)</small>' in page  # 10 for 200 in the final
    assert match(tournament, "F1").preset == "" and Game.objects.get(pk=game.pk).ns_score == 120  # not yet

    confirmed = _final_rules(director_client, tournament, "championship-500", confirm_rules="yes")
    assert confirmed.status_code == 302
    assert match(tournament, "F1").preset == "championship-500"
    bracket = director_client.get(reverse("director:bracket", args=[tournament.pk])).content.decode()
    assert "200 to −40" in bracket
    with pytest.MonkeyPatch.context() as later:  # the snapshot is rebuilt: the change stamped the event
        later.setattr(snapshot, "timezone", _Later(6))
        assert "200 to −40" in client.get(public, headers={"HX-Request": "true"}).content.decode()
    phone = client.get(reverse("table:page", args=[game.table.token])).content.decode()
    assert "200" in phone and "120" not in phone
    header = director_client.get(reverse("director:game", args=[tournament.pk, game.pk])).content.decode()
    assert "(200)" in header and "(120)" not in header  # the director's game header
    preview = reverse("table:preview", args=[game.table.token, game.round.number])
    assert "NS +200" in client.get(preview, {"number": 2, **hand()}).content.decode()


def test_new_rules_that_decide_the_final_crown_the_champion_at_once(director_client):
    tournament = knockout_event(teams=2, final_preset="tennessee")
    game = current_game(match(tournament, "F1"))
    for _ in range(3):
        game = enter(game, hand())
    assert (game.ns_score, game.status) == (300, Game.Status.PLAYING)  # tennessee: 10 for 100, to 500

    _final_rules(director_client, tournament, "")
    assert _final_rules(director_client, tournament, "", confirm_rules="yes").status_code == 302
    final = match(tournament, "F1")
    assert final.status == Match.Status.FINISHED and final.winner == final.home
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    assert "Champion" in director_client.get(reverse("director:bracket", args=[tournament.pk])).content.decode()


def test_new_rules_that_would_undo_a_finished_brackets_final_cannot_be_confirmed(director_client):
    tournament = knockout_event(teams=2)
    win_game(match(tournament, "F1"))  # 360 to −120 under league-300
    page = _final_rules(director_client, tournament, "tennessee").content.decode()
    refusal = "The final, its result would be undone, but the bracket is finished and its places given"
    assert "cannot be applied as they stand" in page and refusal in page
    assert "Apply the new rules" not in page
    forced = _final_rules(director_client, tournament, "tennessee", confirm_rules="yes")
    assert forced.status_code == 422 and refusal in forced.content.decode()
    final = match(tournament, "F1")
    assert (final.preset, final.status, final.games.get().ns_score) == ("", Match.Status.FINISHED, 360)


@pytest.mark.django_db
def test_a_knockouts_dashboard_says_its_final_plays_to_another_score(director_client):
    tournament = knockout_event(teams=4, final_preset="championship-500")
    url = reverse("director:dashboard", args=[tournament.pk])
    page = director_client.get(url).content.decode()
    assert "<strong>Games to 300 in 30 minutes; the final to 500.</strong>" in page
    assert "The final: League championship game to 500 (jokers deck) · Game to 500 · " in page
    # The final's own match keeps changes to its rule set: the dashboard says what it plays to.
    Match.objects.filter(tournament=tournament, stage=Match.Stage.FINAL).update(rule_overrides={"target_score": 400})
    assert "the final to 400.</strong>" in director_client.get(url).content.decode()


@pytest.mark.django_db
def test_a_knockout_whose_final_plays_by_the_events_rules_says_nothing_of_a_final(director_client):
    tournament = knockout_event(teams=4)
    page = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    assert "the final" not in page and "own-rules" not in page
