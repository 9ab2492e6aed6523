"""Where the director's links lead: addresses phones cannot open, and the nav's standings link."""

import re
import textwrap
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests.conftest import make_tournament
from tests.test_league import make_league
from tournament.play.links import unreachable_by_phones


@pytest.mark.parametrize(
    ("base", "unreachable"),
    [("http://127.0.0.1:8000", True), ("http://localhost:8000", True), ("http://[::1]:8000", True),
     ("http://127.0.1.1", True), ("http://192.168.1.20:8000", False), ("https://club.example", False)],
)  # fmt: skip
def test_links_at_a_loopback_address_are_unreachable_by_phones(base, unreachable, monkeypatch):
    monkeypatch.setattr("tournament.play.links.network_address", lambda: "192.168.1.20")
    found = unreachable_by_phones(base)
    assert (found is not None) is unreachable
    if found:
        assert (found.address, found.network_url) == (base, "http://192.168.1.20:8000")


@pytest.mark.parametrize("page", ["links", "print"])
@pytest.mark.parametrize(("base", "warned"), [("http://127.0.0.1:8000", True), ("http://192.168.1.20:8000", False)])
def test_the_links_and_print_pages_warn_when_phones_cannot_reach_the_address(
    director_client, running_round, tournament, settings, monkeypatch, page, base, warned
):
    settings.SPADES_BASE_URL = base
    monkeypatch.setattr("tournament.play.links.network_address", lambda: "192.168.1.20")
    url = (
        reverse("director:round_links", args=[tournament.pk, 1])
        if page == "links"
        else reverse("director:print", args=[tournament.pk])
    )
    html = director_client.get(url).content.decode()
    assert ("Phones cannot open these links" in html) is warned
    if warned:
        assert 'href="http://192.168.1.20:8000/' in html
        assert "this computer's address (192.168.1.20) in <code>DJANGO_ALLOWED_HOSTS</code>" in html


def readme_serve_commands() -> str:
    """The commands under the README's "Set up and serve", as a reader copies them."""
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    block = re.search(r"\*\*Set up and serve:\*\*\s*```sh\n(.*?)\n\s*```", readme, re.S)
    assert block is not None
    return textwrap.dedent(block[1])


@pytest.mark.parametrize("page", ["links", "print"])
def test_the_links_and_print_pages_give_the_readmes_serve_commands_not_the_debug_server(
    director_client, running_round, tournament, settings, monkeypatch, page
):
    settings.SPADES_BASE_URL = "http://127.0.0.1:8123"  # `make run PORT=8123`: the recipe serves on 8000
    monkeypatch.setattr("tournament.play.links.network_address", lambda: "192.168.1.20")
    url = (
        reverse("director:round_links", args=[tournament.pk, 1])
        if page == "links"
        else reverse("director:print", args=[tournament.pk])
    )
    html = director_client.get(url).content.decode()
    commands = readme_serve_commands()
    assert ".venv/bin/gunicorn tournament.wsgi --bind 0.0.0.0:8000" in commands
    assert f"<pre>{escape(commands)}</pre>" in html
    assert "runserver" not in html and "DJANGO_DEBUG" not in html
    assert 'href="http://192.168.1.20:8000/' in html  # where the recipe serves it


def test_the_readmes_serve_commands_make_the_first_owners_link_not_a_superuser():
    commands = readme_serve_commands()
    assert 'manage.py first_owner --club "My club" --base-url http://192.168.1.20:8000' in commands
    assert "createsuperuser" not in commands


def test_the_warnings_commands_name_the_address_its_words_name(
    director_client, running_round, tournament, settings, monkeypatch
):
    settings.SPADES_BASE_URL = "http://127.0.0.1:8000"
    monkeypatch.setattr("tournament.play.links.network_address", lambda: "192.0.2.2")
    html = director_client.get(reverse("director:print", args=[tournament.pk])).content.decode()
    banner = html.split('role="alert"')[1].split("</div>")[0]
    assert "this computer's address (192.0.2.2)" in banner
    commands = readme_serve_commands().replace("192.168.1.20", "192.0.2.2")
    assert f"<pre>{escape(commands)}</pre>" in banner
    assert "192.168.1.20" not in banner


@pytest.mark.parametrize(
    ("make_event", "lands_on"), [(make_tournament, "director:standings"), (make_league, "director:league_table")]
)
def test_the_navs_standings_link_goes_where_the_format_keeps_its_standings(director_client, make_event, lands_on):
    tournament = make_event()
    dashboard = director_client.get(reverse("director:dashboard", args=[tournament.pk])).content.decode()
    link = re.search(r'<a href="([^"]+)" >Standings</a>', dashboard)
    assert link is not None and link[1] == reverse("director:standings", args=[tournament.pk])
    page = director_client.get(link[1], follow=True)
    assert page.request["PATH_INFO"] == reverse(lands_on, args=[tournament.pk])
    assert 'aria-current="page">Standings</a>' in page.content.decode()
