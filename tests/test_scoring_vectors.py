"""The shared vectors (scoring/vectors.py) through the Python engine: every rule text's stated
number, every worked example of the handout, and the seeded random hands and games. The same
vectors run through the phone's copy of the engine in tests/test_browser_scorer.py."""

import json

import pytest

from scoring.presets import PRESETS
from scoring.vectors import VARIANTS, matches, run, vectors

VECTORS = vectors()


@pytest.mark.parametrize("vector", VECTORS, ids=[vector.name for vector in VECTORS])
def test_every_vector_scores_as_stated_by_the_engine(vector):
    assert matches(run(vector), vector.expected), vector.name


def test_the_vectors_cover_every_preset_and_variant_with_hands_and_games():
    names = [vector.name for vector in VECTORS]
    for rules in [*PRESETS, *VARIANTS]:
        assert any(name.endswith(f"hand 1 under {rules}") for name in names), rules
        assert any(name.endswith(f"game 1 under {rules}") for name in names), rules
    games = [vector for vector in VECTORS if vector.kind == "game" and vector.name.startswith("random")]
    assert all(vector.expected["end"]["over"] for vector in games if vector.rules["target_score"] is not None
               or vector.rules["hands_per_round"] is not None)  # fmt: skip
    assert any(hand.get("misdeal") for vector in games for hand in vector.input["hands"])


def test_a_stated_vector_fails_when_the_engine_scores_otherwise():
    stated = next(vector for vector in VECTORS if vector.name.startswith("003 sandbag example"))
    result = run(stated)
    result["teams"][0]["score"] += 1
    assert not matches(result, stated.expected)


def test_every_vector_is_json_with_a_unique_name():
    assert len({vector.name for vector in VECTORS}) == len(VECTORS)
    assert json.loads(json.dumps([vector.to_json() for vector in VECTORS]))[0]["name"] == VECTORS[0].name
