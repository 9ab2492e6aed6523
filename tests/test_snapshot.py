"""The pages everyone watches are built once for all their viewers (tournament.standings.snapshot):
a poll while nothing changed is served as it was built; a change shows within
SPADES_SNAPSHOT_SECONDS; a page is never served from another event's or another page's snapshot."""

import html
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.conftest import finish_game, make_tournament
from tournament.standings import snapshot as snapshots

POLL = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def snapshots_on(settings):
    settings.SPADES_SNAPSHOT_SECONDS = 5
    cache.clear()
    yield
    cache.clear()


class _Later:
    """django.utils.timezone as the snapshot module sees it, ``seconds`` from now."""

    def __init__(self, seconds: int) -> None:
        self.seconds = seconds

    def now(self):
        return timezone.now() + timedelta(seconds=self.seconds)


def _poll(client, tournament) -> str:
    """The standings as a spectator's phone polls them, in words."""
    response = client.get(reverse("public:standings", args=[tournament.pk]), **POLL)
    assert response.status_code == 200
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def _points(running_round) -> None:
    """Table 1's game played out: Ada and Ben (NS) score 256."""
    finish_game(running_round.games.get(table__number=1), ns_tricks=10)


@pytest.mark.django_db
def test_a_poll_while_nothing_changed_is_served_without_ranking_again(client, snapshots_on, running_round):
    _points(running_round)
    first = _poll(client, running_round.tournament)
    with pytest.MonkeyPatch.context() as later:
        later.setattr(snapshots, "timezone", _Later(60))
        with CaptureQueriesContext(connection) as queries:
            again = _poll(client, running_round.tournament)
    assert "Ada 256" in first and again == first
    assert len(queries) == 1, "only the tournament's change stamp is read"


@pytest.mark.django_db
def test_a_change_shows_once_the_snapshot_is_older_than_the_setting(client, snapshots_on, running_round):
    before = _poll(client, running_round.tournament)
    _points(running_round)
    assert _poll(client, running_round.tournament) == before, "a snapshot younger than 5 s is served"
    with pytest.MonkeyPatch.context() as later:
        later.setattr(snapshots, "timezone", _Later(6))
        after = _poll(client, running_round.tournament)
    assert "Ada 0" in before and "Ada 256" in after


@pytest.mark.django_db
def test_with_the_setting_zero_every_poll_shows_the_event_as_it_is(client, settings, running_round):
    settings.SPADES_SNAPSHOT_SECONDS = 0
    _poll(client, running_round.tournament)
    _points(running_round)
    assert "Ada 256" in _poll(client, running_round.tournament)


@pytest.mark.django_db
def test_each_event_has_its_own_snapshot(client, snapshots_on, running_round):
    _points(running_round)
    assert "Ada 256" in _poll(client, running_round.tournament)
    assert "Ada 0" in _poll(client, make_tournament(name="Other Night"))


@pytest.mark.django_db
def test_a_poll_for_an_event_that_does_not_exist_is_not_found(client, snapshots_on):
    assert client.get(reverse("public:standings", args=[999]), **POLL).status_code == 404
