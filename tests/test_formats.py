"""Formats are plug-ins: a format of the tests' own, registered here and nowhere in the app, is
played through the core's pages from the new-tournament form to the exported backup, with no
change to the core. (A real format is one package and one line in INSTALLED_APPS: see
tournament/formats/__init__.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.conftest import even_hand
from tournament.formats.registry import EventFormat, all_formats, format_of, register, unregister
from tournament.models import Game, Round, Seating, Table, Team, Tournament
from tournament.standings.ranking import RoundScore, rank
from tournament.standings.rows import StandingRow

pytestmark = pytest.mark.django_db


class Showdown(EventFormat):
    """One round: team 1 plays team 2 at table 1, team 3 plays team 4 at table 2, and so on; the
    teams rank by the points they scored. Written with the core's records alone."""

    key = "showdown"
    label = "Showdown: one round, teams paired in registration order (fixed partners)"
    start_label = "Seat the showdown"
    standings_partial = "showdown/standings.html#standings"
    places_text = "Ranked by the points scored in the showdown."

    def start(self, *, tournament: Tournament, by=None) -> Round:
        round_ = Round.objects.create(tournament=tournament, number=1)
        teams = list(tournament.teams.filter(status=Team.Status.ACTIVE).prefetch_related("players"))
        for number, (home, away) in enumerate(zip(teams[::2], teams[1::2], strict=False), start=1):
            table = Table.objects.create(tournament=tournament, number=number)
            (north, south), (east, west) = home.players.all(), away.players.all()
            for seat, player in zip("NESW", (north, east, south, west), strict=True):
                Seating.objects.create(round=round_, table=table, seat=seat, player=player)
            Game.objects.create(round=round_, table=table)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        return round_

    def close_round(self, *, round_: Round, by=None) -> Round | None:
        round_.close(called=f"Round {round_.number}")
        round_.tournament.status = Tournament.Status.FINISHED
        round_.tournament.save(update_fields=["status"])
        return None

    def standings(self, tournament: Tournament) -> list[StandingRow]:
        scores: dict[int, list[RoundScore]] = {team.pk: [] for team in tournament.teams.all()}
        for seating in Seating.objects.filter(round__tournament=tournament, seat__in="NE").select_related("player"):
            game = Game.objects.get(round=seating.round, table=seating.table)
            points = game.ns_score if seating.seat == "N" else game.ew_score
            scores[seating.player.team_id].append(
                RoundScore(1, points, game.winner == ("NS" if seating.seat == "N" else "EW"))
            )
        names = {team.pk: team.names for team in tournament.teams.prefetch_related("players")}
        return [StandingRow(standing, names[standing.entrant], "", False) for standing in rank(scores)]


@pytest.fixture
def showdown(settings, tmp_path: Path):
    """The format registered (and its standings template found) for one test only."""
    templates = tmp_path / "showdown"
    templates.mkdir()
    (templates / "standings.html").write_text(
        '{% partialdef standings %}<ol id="standings">{% for row in rows %}<li>{{ row.name }}: '
        "{{ row.standing.total }}</li>{% endfor %}</ol>{% endpartialdef %}"
    )
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], tmp_path]}]
    register(Showdown())
    yield
    unregister(Showdown.key)


def test_a_format_of_its_own_is_played_through_the_cores_pages(director_client, showdown):
    new = {"name": "Showdown night", "date": "2026-11-27", "preset": "progressive-500", "format": "showdown",
           "rounds_planned": 1, "entry_fee": "0", "seating_order": "registration", "seating_seed": 0,
           "prize_ties": "share", "paper_size": "letter"}  # fmt: skip
    assert director_client.post(reverse("director:tournament_new"), new).status_code == 302
    tournament = Tournament.objects.get(name="Showdown night")
    assert format_of(tournament).label.startswith("Showdown")
    for first, second in (("Ada", "Ben"), ("Cleo", "Dan")):
        add = reverse("director:team_add", args=[tournament.pk])
        director_client.post(add, {"first": first, "second": second})
    assert tournament.teams.count() == 2

    assert director_client.post(reverse("director:seat_first", args=[tournament.pk])).status_code == 302
    round_ = tournament.rounds.get()
    board = director_client.get(reverse("director:round_board", args=[tournament.pk, 1]))
    assert board.status_code == 200 and b"Ada" in board.content
    director_client.post(reverse("director:round_start", args=[tournament.pk, 1]))

    game = round_.games.get()
    save = reverse("table:hand", args=[game.table.token, 1])
    for number in range(1, 30):
        game.refresh_from_db()
        if game.is_finished:
            break
        response = director_client.post(save, {"number": number, **even_hand(9)}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content
    game.refresh_from_db()
    assert game.is_finished and game.winner == "NS"

    closed = director_client.post(reverse("director:round_close", args=[tournament.pk, 1]))
    assert closed.status_code == 302
    tournament.refresh_from_db()
    assert tournament.is_finished

    public = director_client.get(reverse("public:standings", args=[tournament.pk]))
    assert public.status_code == 200
    text = public.content.decode()
    assert text.index("Ada &amp; Ben") < text.index("Cleo &amp; Dan")  # the winners first
    for page in ("dashboard", "teams", "print", "standings", "export_standings"):
        assert director_client.get(reverse(f"director:{page}", args=[tournament.pk])).status_code == 200, page

    exported = director_client.get(reverse("director:export_json", args=[tournament.pk])).content
    upload = SimpleUploadedFile("showdown.json", exported, content_type="application/json")
    assert director_client.post(reverse("director:import"), {"file": upload}).status_code == 302
    copy_ = Tournament.objects.exclude(pk=tournament.pk).get(format="showdown")
    assert json.loads(exported)["tournament"]["format"] == "showdown"
    assert copy_.rounds.get().games.get().hands.count() == game.hands.count()


def test_a_format_is_found_through_the_registry_alone(showdown):
    assert [f.key for f in all_formats()][-1] == "showdown"
    unregister("showdown")
    assert "showdown" not in [f.key for f in all_formats()]
    register(Showdown())
