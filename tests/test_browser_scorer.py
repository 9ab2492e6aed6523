"""The phone's copy of the scoring engine (static/js/scorer.js) against the shared vectors
(scoring/vectors.py) in headless Chromium: every vector the Python engine passes, scorer.js must
pass too, so the two cannot drift."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.templatetags.static import static

from scoring.vectors import matches, vectors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCORER = Path(settings.BASE_DIR) / "static" / "js" / "scorer.js"

# Each vector through scorer.js; the answers come back as JSON text (JSON has no -0).
RUN = """(vectors) => JSON.stringify(vectors.map((vector) => {
  try {
    if (vector.kind === "hand") return SpadesScorer.scoreHand(vector.rules, vector.input.teams);
    const game = SpadesScorer.playGame(vector.rules, vector.input.start, vector.input.hands);
    return { end: game.end, after: game.after };
  } catch (error) {
    return { error: String(error) };
  }
}))"""


def failures(page, found) -> list[str]:
    """The names of the vectors scorer.js (as loaded in ``page``) answers otherwise than stated."""
    answers = json.loads(page.evaluate(RUN, [vector.to_json() for vector in found]))
    return [vector.name for vector, answer in zip(found, answers, strict=True) if not matches(answer, vector.expected)]


def test_scorer_js_as_served_answers_every_vector_as_the_engine_does(desktop_page, live_server):
    page = desktop_page
    page.set_content("<!doctype html><title>scorer</title>")
    page.add_script_tag(url=live_server.url + static("js/scorer.js"))
    assert failures(page, vectors()) == []


@pytest.mark.parametrize(
    ("original", "mutant"),
    [
        ("bags = bags % limit;", "bags = bags % limit + 1;"),  # the carried bags off by one
        ("-Math.floor(bags / limit) * rules.bag_penalty", "-Math.floor(bags / limit + 1) * rules.bag_penalty"),
        ("var points = scored[0] + award;", "var points = scored[0];"),  # the flat 30 a reneg forgotten
        ("played >= perRound", "played > perRound"),  # a round one hand too long
        ("if (first === second ||", "if ("),  # a tie at the target ends the game
        ('typeof first.bid === "string"', "false"),  # a nil first player scored as a bid
    ],
)
def test_a_changed_scorer_js_fails_the_vectors(desktop_page, original, mutant):
    source = SCORER.read_text()
    assert original in source
    page = desktop_page
    page.set_content("<!doctype html><title>scorer</title>")
    page.add_script_tag(content=source.replace(original, mutant, 1))
    assert failures(page, vectors())
