"""What one hand entry costs the server: one replay of the game and a fixed handful of queries."""

import pytest
from django.urls import reverse

from tests.conftest import even_hand
from tournament import models

pytestmark = pytest.mark.django_db
TRANSACTION = ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT")  # the transaction around the work, not work


@pytest.fixture
def replays(monkeypatch) -> list[int]:
    """Counts every replay of a game (each call appends the number of hands replayed)."""
    calls: list[int] = []
    real = models.replay

    def counting(rules, entries, **kwargs):
        entries = list(entries)
        calls.append(len(entries))
        return real(rules, entries, **kwargs)

    monkeypatch.setattr(models, "replay", counting)
    return calls


@pytest.mark.parametrize("earlier", [0, 3])
def test_a_table_entry_replays_the_game_once_in_at_most_six_queries(
    client, running_round, replays, django_assert_max_num_queries, earlier
):
    game = running_round.games.get(table__number=1)
    url = reverse("table:hand", args=[game.table.token, game.round.number])
    for number in range(1, earlier + 1):
        client.post(url, {"number": number, **even_hand(7)}, HTTP_HX_REQUEST="true")
    replays.clear()
    with django_assert_max_num_queries(6 + 2) as queries:
        response = client.post(url, {"number": earlier + 1, **even_hand(7)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and f"Hand {earlier + 1} saved." in response.content.decode()
    assert replays == [earlier + 1], "one replay, of every hand including the new one"
    html = response.content.decode()
    assert 'id="panel"' not in html and f'id="hand-{earlier + 1}"' in html  # what changed, not the whole panel
    assert ('id="hand-1"' in html) == (earlier == 0)  # the rows before the last stay as they are
    statements = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION)]
    assert len(statements) <= 6, "\n".join(statements)


def test_a_director_correction_replays_the_game_once(director_client, running_round, replays):
    game = running_round.games.get(table__number=1)
    table = reverse("table:hand", args=[game.table.token, game.round.number])
    for number in (1, 2):
        client_response = director_client.post(table, {"number": number, **even_hand(7)}, HTTP_HX_REQUEST="true")
        assert client_response.status_code == 200
    replays.clear()
    url = reverse("director:game_hand", args=[game.round.tournament_id, game.pk])
    response = director_client.post(url, {"number": 1, "version": 1, **even_hand(8)})
    assert response.status_code == 302
    assert replays == [2, 2], "one replay to show the form, one to store the correction"
