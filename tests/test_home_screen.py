"""A table's link on a phone's home screen: its web app manifest (served per link, naming that
table alone, opening straight to it), the icons it names and the table page's head."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse
from PIL import Image

from tournament.play.games import reissue_token
from tournament.play.rounds import start_play

pytestmark = pytest.mark.django_db


def manifest_url(token: str) -> str:
    return reverse("table:manifest", args=[token])


@pytest.fixture
def table(running_round):
    return running_round.tournament.tables.get(number=2)


def _static_file(url: str) -> str:
    """The file a static URL serves (what a phone downloads for it)."""
    return finders.find(url.removeprefix(static("")))


def test_the_manifest_names_the_event_and_table_and_opens_the_tables_link(client, table):
    response = client.get(manifest_url(table.token))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    link = f"/table/{table.token}/"
    assert manifest["name"] == "Table 2 · Club night"
    assert manifest["short_name"] == "Table 2"
    assert manifest["start_url"] == manifest["id"] == manifest["scope"] == link
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#111827" and manifest["background_color"] == "#f6f7f9"


def test_the_start_url_lies_within_the_scope(client, table):
    manifest = json.loads(client.get(manifest_url(table.token)).content)
    assert manifest["start_url"].startswith(manifest["scope"])


def test_every_icon_is_served_and_is_the_size_and_type_it_says(client, table):
    icons = json.loads(client.get(manifest_url(table.token)).content)["icons"]
    assert {(icon["sizes"], icon["purpose"]) for icon in icons} == {
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")
    }  # fmt: skip
    for icon in icons:
        with Image.open(_static_file(icon["src"])) as image:
            assert (image.format, f"{image.width}x{image.height}") == ("PNG", icon["sizes"]), icon
        assert icon["type"] == "image/png"


def test_the_manifest_reveals_nothing_beyond_its_table(client, table):
    body = client.get(manifest_url(table.token)).content.decode()
    others = table.tournament.tables.exclude(pk=table.pk)
    assert others.exists() and not any(other.token in body for other in others)
    assert not any(name in body for name in ("Ada", "Ben", "Cleo", "Dan", "Eve", "Finn"))  # no player's name
    assert set(json.loads(body)) == {"id", "start_url", "scope", "name", "short_name", "display", "lang",
                                     "theme_color", "background_color", "icons"}  # fmt: skip


def test_the_manifest_is_kept_privately_for_an_hour_at_most(client, table):
    assert client.get(manifest_url(table.token))["Cache-Control"] == "private, max-age=3600"


@pytest.mark.parametrize("token", ["not-a-table", "x" * 40])
def test_an_unknown_links_manifest_is_not_found(client, running_round, token):
    assert client.get(manifest_url(token)).status_code == 404


def test_a_revoked_links_manifest_is_not_found_and_the_new_one_is_served(client, table):
    old = table.token
    new = reissue_token(table=table)
    assert client.get(manifest_url(old)).status_code == 404
    assert json.loads(client.get(manifest_url(new)).content)["start_url"] == f"/table/{new}/"


def test_the_manifest_answers_only_get(client, table):
    assert client.post(manifest_url(table.token)).status_code == 405


def _head(html: str) -> str:
    return html.split("</head>", 1)[0]


def test_the_table_page_links_its_own_manifest_theme_colour_and_touch_icon(client, table):
    head = _head(client.get(f"/table/{table.token}/").content.decode())
    assert f'<link rel="manifest" href="{manifest_url(table.token)}">' in head
    assert '<meta name="theme-color" content="#111827">' in head
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', head).group(1)
    with Image.open(_static_file(touch)) as image:
        assert (image.format, image.size) == ("PNG", (180, 180))


def test_the_start_url_opens_the_waiting_page_between_rounds(client, tournament):
    start_play(tournament=tournament)  # seated, not started
    table = tournament.tables.get(number=1)
    start_url = json.loads(client.get(manifest_url(table.token)).content)["start_url"]
    response = client.get(start_url)
    assert response.status_code == 200
    assert "Round 1 is next" in response.content.decode()
    assert f'<link rel="manifest" href="{manifest_url(table.token)}">' in _head(response.content.decode())


def test_the_table_pages_head_stays_free_of_inline_script_and_style(client, table):
    response = client.get(f"/table/{table.token}/")
    head = _head(response.content.decode())
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", head)  # every script is a file
    assert "<style" not in head and " style=" not in head
