"""The public bracket on a phone: its tables scroll sideways rather than break words letter by letter."""

import pytest

from tests.test_knockout import knockout_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Line boxes per header cell: a word broken inside ("Clo" / "ck") makes more lines than words.
LINES_NOT_MORE_THAN_WORDS = """() => [...document.querySelectorAll('table.board th')].filter(th => {
  const range = document.createRange(); range.selectNodeContents(th);
  return range.getClientRects().length > th.textContent.trim().split(/[\\s–-]+/).length;
}).map(th => th.textContent.trim())"""


def test_the_matches_playing_keep_their_words_whole_on_a_phone(phone_page):
    tournament = knockout_event(teams=5)
    phone_page.goto(f"/s/{tournament.pk}/bracket/")
    assert phone_page.locator("table.board").count() == 1
    assert phone_page.evaluate(LINES_NOT_MORE_THAN_WORDS) == []
