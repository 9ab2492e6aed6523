"""In a real browser: the pages work under the Content-Security-Policy (no violation reported,
confirmations and focus handled by the app's script), and a locked-out login says when to retry."""

import pytest

from tests.conftest import make_tournament
from tournament.models import Team
from tournament.play.rounds import start_play, start_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _log_in(page, username: str, password: str = "correct-horse-battery") -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


def test_pages_run_under_the_csp_without_a_violation(desktop_page, director, screenshot):
    page = desktop_page
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security Policy" in message.text
            or "Content-Security-Policy" in message.text else None)  # fmt: skip
    tournament = make_tournament(couples=4)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    _log_in(page, director.username)
    page.wait_for_url(lambda url: "/login/" not in url)

    page.goto(f"/t/{tournament.pk}/teams/")
    page.fill("#id_first", "Quinn")
    page.fill("#id_second", "Rosa")
    page.press("#id_second", "Enter")
    page.wait_for_selector("#team-list >> text=Quinn")
    assert page.evaluate("document.activeElement.id") == "id_first"  # the app's script, not an inline handler

    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    with page.expect_event("dialog"):  # the app's script asks; the withdrawal waits on the answer
        page.locator("button:has-text('Withdraw')").first.click()
    assert asked == ["Withdraw team 1?"]
    assert Team.objects.get(tournament=tournament, number=1).status == Team.Status.ACTIVE

    game = round_.games.first()
    for path in (f"/t/{tournament.pk}/", f"/t/{tournament.pk}/rounds/1/", f"/t/{tournament.pk}/games/{game.pk}/",
                 f"/t/{tournament.pk}/print/", f"/s/{tournament.pk}/", f"/s/{tournament.pk}/projector/",
                 f"/table/{game.table.token}/"):  # fmt: skip
        page.goto(path)
        page.wait_for_load_state("networkidle")
    screenshot(page, "csp-table-page")
    assert violations == []


def test_a_locked_out_director_is_told_when_to_retry(phone_page, director, screenshot):
    page = phone_page
    for _ in range(5):
        _log_in(page, director.username, "wrong-password")
    page.wait_for_selector("text=Login paused")
    assert "(15 minutes at most)" in page.inner_text("main")
    screenshot(page, "login-locked-out")
