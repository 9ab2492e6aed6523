"""Shared fixtures. Browser tests drive Debian's Chromium through Playwright (never a
downloaded browser); without Chromium they are skipped and the run says so at the end, unless
SPADES_REQUIRE_BROWSER is set (CI), where a missing Chromium fails them."""

import os
import shutil
from collections.abc import Iterator

import pytest
from hypothesis import settings as hypothesis_settings

# Playwright's sync API runs an event loop in this thread; Django's database calls from the
# live server's test code are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Property tests that name no count of their own (the 400-example import fuzz among them): all
# 400 examples in CI (.ci/run sets HYPOTHESIS_PROFILE=ci; Hypothesis's own CI profile underneath,
# derandomized), 50 on an engineer's machine.
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or "dev"
hypothesis_settings.register_profile("ci", hypothesis_settings.get_profile("ci"), max_examples=400)
hypothesis_settings.register_profile("dev", max_examples=50)
hypothesis_settings.load_profile(HYPOTHESIS_PROFILE)


def examples(count: int) -> int:
    """A property test's own count of examples: all ``count`` in CI, a fifth (10 at least) on an
    engineer's machine, where make check is the quick loop."""
    return count if HYPOTHESIS_PROFILE == "ci" else max(10, count // 5)


def repeats(count: int) -> int:
    """How many times a race test runs its race: all ``count`` in CI (on both databases), a third
    (3 at least) on an engineer's machine. The repeats spread the requests' timing over a window;
    fewer repeats cover the same window in larger steps."""
    return count if HYPOTHESIS_PROFILE == "ci" else max(3, count // 3)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
ARTIFACTS = os.path.join(os.path.dirname(__file__), "..", "test-artifacts")
_skipped_browser: list[str] = []


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if CHROMIUM is None:
        reason = "Chromium is not installed (apt-get install chromium)"
        if os.environ.get("SPADES_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests are required here but {reason}")
        _skipped_browser.append(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone_page(browser, live_server):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, has_touch=True, is_mobile=True)
    yield context.new_page()
    context.close()


@pytest.fixture
def desktop_page(browser, live_server):
    context = browser.new_context(viewport=DESKTOP, base_url=live_server.url)
    yield context.new_page()
    context.close()


@pytest.fixture
def screenshot():
    """Save a full-page screenshot under test-artifacts/ for a person to look at."""

    def take(page, name: str) -> str:
        os.makedirs(ARTIFACTS, exist_ok=True)
        path = os.path.join(ARTIFACTS, f"{name}.png")
        page.screenshot(path=path, full_page=True)
        return path

    return take


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request, tmp_path_factory):
    """Each run its own SQLite test database, in a folder of the run's own temporary folder
    (pytest's numbered ``pytest-<n>``; a worker's own under xdist, whose per-worker suffix
    pytest-django still adds): two runs in one checkout, `make check` while `make test` runs say,
    never delete each other's file. The folder goes when the run ends, with the database's WAL
    files that Django's own clean-up leaves."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    folder = None
    if database["ENGINE"] == "django.db.backends.sqlite3":
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "test-db.sqlite3")
    request.getfixturevalue("django_db_modify_db_settings_parallel_suffix")
    yield
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Real hashing costs ~0.3 s a user; tests check who may log in, not the hash's strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _pages_built_for_each_viewer(settings):
    """Tests look at a page right after changing the event: no snapshot to wait for (test_snapshot
    turns them on)."""
    settings.SPADES_SNAPSHOT_SECONDS = 0


@pytest.fixture(autouse=True)
def _tasks_run_at_once(settings):
    """Background tasks (a print's rendering) run as they are queued, so a test needs no worker
    process and a print comes back as a PDF; tests/test_print_worker.py runs the real database
    queue with real `db_worker` processes."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture
def director(django_user_model):
    """A superuser, who reaches every tournament, and owns the tests' club (tests of who may reach
    what make their own users)."""
    user = django_user_model.objects.create_user(
        "dee", password="correct-horse-battery", is_staff=True, is_superuser=True
    )
    a_club().members.create(user=user, role="owner")
    return user


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def pytest_terminal_summary(terminalreporter) -> None:
    if _skipped_browser:
        terminalreporter.write_line(
            f"NOTE: browser tests were SKIPPED: {_skipped_browser[0]}. They run in CI.", yellow=True, bold=True
        )


# --- tournament fixtures -------------------------------------------------------------------------

COUPLES = [
    ("Ada", "Ben"), ("Cleo", "Dan"), ("Eve", "Finn"), ("Gina", "Hugo"),
    ("Iris", "Jack"), ("Kara", "Leo"), ("Mia", "Noah"), ("Olga", "Paul"),
]  # fmt: skip


def a_club(name: str = "Test club"):
    """The club the tests' events belong to (tests of clubs make their own)."""
    from tournament.models import Club

    return Club.objects.get_or_create(name=name)[0]


def make_tournament(*, couples: int = 8, preset: str = "progressive", split: bool = True, **fields):
    import datetime
    from decimal import Decimal

    from tournament.models import Tournament
    from tournament.teams.services import register_team

    fields.setdefault("club", a_club())
    tournament = Tournament.objects.create(
        date=datetime.date(2026, 11, 20),
        preset=preset,
        format="progressive_split" if split else "progressive_fixed",
        entry_fee=Decimal("20.00"),
        **{"name": "Club night", "seating_order": Tournament.SeatingOrder.REGISTRATION, **fields},
    )
    for index in range(couples):
        first, second = COUPLES[index % len(COUPLES)]
        suffix = "" if index < len(COUPLES) else f" {index // len(COUPLES) + 1}"
        register_team(tournament=tournament, names=[first + suffix, second + suffix])
    return tournament


BRACKET_SETTINGS = {"third_place_match", "best_of", "final_best_of", "final_preset", "tables_available"}
LEAGUE_SETTINGS = {"legs", "tiebreakers", "championship_teams", "fee_per"}


def format_settings(tournament, **fields) -> dict:
    """Store those of ``fields`` that are a format's settings (the bracket's, the league's) in their
    format's tables; returns the rest, the tournament's own fields."""
    from tournament.formats.knockout.models import KnockoutSettings
    from tournament.formats.league.models import LeagueSettings

    for model, names in ((KnockoutSettings, BRACKET_SETTINGS), (LeagueSettings, LEAGUE_SETTINGS)):
        chosen = {name: value for name, value in fields.items() if name in names}
        if chosen:
            model.objects.update_or_create(tournament=tournament, defaults=chosen)
    tournament.refresh_from_db()  # forgets the settings it had read
    return {name: value for name, value in fields.items() if name not in BRACKET_SETTINGS | LEAGUE_SETTINGS}


def even_hand(ns_tricks: int = 7) -> dict:
    """A legal four-hand-round hand: NS bid 3+3 and take ``ns_tricks``; EW bid 3+3."""
    return {
        "north_bid": "3", "east_bid": "3", "south_bid": "3", "west_bid": "3",
        "north_tricks": ns_tricks - 3, "south_tricks": 3, "east_tricks": 13 - ns_tricks - 3, "west_tricks": 3,
    }  # fmt: skip


def finish_game(game, *, ns_tricks: int = 7, hands: int = 4) -> None:
    """Enter ``hands`` hands at ``game`` (NS taking ``ns_tricks`` each)."""
    from scoring import HandEntry
    from tournament.models import HandRevision
    from tournament.play.hands import enter_hand

    start = game.hands.count()
    for number in range(start + 1, start + hands + 1):
        enter_hand(
            game=game,
            number=number,
            entry=HandEntry.from_fields(even_hand(ns_tricks)),
            source=HandRevision.Source.TABLE,
        )


def tie_then_break(game, *, ns_wins: bool = True) -> None:
    """Four hands at ``game`` leaving it tied at 242 all, then a fifth won by North–South (303 to
    302) or East–West (302 to 303)."""
    finish_game(game, ns_tricks=7, hands=2)
    finish_game(game, ns_tricks=6, hands=2)
    finish_game(game, ns_tricks=7 if ns_wins else 6, hands=1)


@pytest.fixture
def tournament(db):
    return make_tournament()


@pytest.fixture
def running_round(tournament):
    from tournament.play.rounds import start_play, start_round

    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    return round_


@pytest.fixture
def finished_round(running_round):
    for game in running_round.games.all():
        finish_game(game)
    return running_round
