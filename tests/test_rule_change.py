"""Changing the rules during play: what it would change is shown, and the director confirms."""

import pytest
from django.urls import reverse

from scoring import Side
from tournament.events.rule_change import preview
from tournament.models import Tournament
from tournament.play.rounds import close_round

pytestmark = pytest.mark.django_db

FORM = {"date": "2026-11-20", "venue": "", "format": "progressive_split", "rounds_planned": 5,
        "entry_fee": "20.00", "seating_order": "registration", "seating_seed": 0, "prize_ties": "share",
        "paper_size": "letter"}  # fmt: skip


def _post(client, tournament, overrides: str, **extra):
    data = FORM | {"name": tournament.name, "preset": tournament.preset, "rule_overrides": overrides} | extra
    return client.post(reverse("director:tournament_edit", args=[tournament.pk]), data)


def _proposed(tournament, **overrides):
    """``tournament`` with new rule overrides set, not saved."""
    tournament.rule_overrides = overrides
    return tournament


def test_the_preview_names_each_game_that_moves_by_how_much_and_whose_result_flips(finished_round, tournament):
    close_round(round_=finished_round)
    change = preview(_proposed(tournament, overtrick_points=0))
    assert [(c.round, c.table) for c in change.changes] == [(1, 1), (1, 2), (1, 3), (1, 4)]
    first = change.changes[0]
    assert (first.before, first.after, first.moves) == ((244, 240), (240, 240), (-4, 0))
    assert (first.winner_before, first.winner_after) == (Side.NS, "")
    assert first.north_south.startswith("Ada") and first.winner_names(first.winner_after) == "nobody yet"
    assert change.closed_rounds == [1] and len(change.flips) == 4


def test_rules_that_change_no_score_preview_nothing(finished_round, tournament):
    assert preview(_proposed(tournament, bag_limit=20, bag_penalty=100)).changes == []


def test_the_director_sees_the_changes_and_must_confirm(director_client, finished_round, tournament):
    close_round(round_=finished_round)
    response = _post(director_client, tournament, '{"overtrick_points": 0}')
    html = response.content.decode()
    assert response.status_code == 200 and "Change the rules during play?" in html
    assert "Closed round 1 is among them" in html and "4 games would change, and the result changes at 4" in html
    assert '<td>1 <small class="muted">closed</small></td><td class="num">1</td>' in html
    assert '240 <small class="muted">(−4)</small>' in html and "(±0)" in html
    assert "no longer decided (level or unfinished)</strong>, was won by Ada &amp; Ben" in html
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {}  # nothing changed yet
    assert 'name="rule_overrides" value="{&quot;overtrick_points&quot;: 0}"' in html

    confirmed = _post(director_client, tournament, '{"overtrick_points": 0}', confirm_rules="yes")
    assert confirmed.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {"overtrick_points": 0}
    assert finished_round.games.get(table__number=1).ns_score == 240


def test_rules_that_refuse_played_hands_cannot_be_confirmed(director_client, finished_round, tournament):
    response = _post(director_client, tournament, '{"min_team_bid": 7}')
    html = response.content.decode()
    assert "The new rules refuse hands already played" in html and "Apply the new rules" not in html
    assert Tournament.objects.get(pk=tournament.pk).rule_overrides == {}


def test_before_any_hand_the_rules_change_at_once(director_client, tournament):
    assert _post(director_client, tournament, '{"overtrick_points": 0}').status_code == 302


def test_a_lower_bag_limit_never_leaves_a_playing_table_stuck_past_it(director_client, db):
    from scoring import HandEntry
    from tests.conftest import even_hand, make_tournament
    from tournament.models import HandRevision
    from tournament.play.hands import enter_hand
    from tournament.play.rounds import start_play, start_round

    tournament = make_tournament(couples=2, preset="progressive-500", split=False)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    game = round_.games.get()
    for number in (1, 2):  # North–South bid 6 and take 9 twice: 6 bags
        enter_hand(game=game, number=number, entry=HandEntry.from_fields(even_hand(9)),
                   source=HandRevision.Source.TABLE)  # fmt: skip
    game.refresh_from_db()
    assert game.ns_bags == 6

    response = _post(director_client, tournament, '{"bag_limit": 5}', format="progressive_fixed")
    assert "The new rules refuse hands already played" not in response.content.decode()
    assert _post(director_client, tournament, '{"bag_limit": 5}', format="progressive_fixed",
                 confirm_rules="yes").status_code == 302  # fmt: skip
    game.refresh_from_db()
    assert game.ns_bags < 5  # the new limit's penalty was charged when the replay reached it
    enter_hand(game=game, number=3, entry=HandEntry.from_fields(even_hand(7)), source=HandRevision.Source.TABLE)
    assert game.hands.count() == 3


# --- the progressive format's own rules, set beside it ------------------------------------------------


def test_the_sit_out_credit_and_the_tie_hand_are_chosen_on_the_tournament_form(director_client, tournament):
    page = director_client.get(reverse("director:tournament_edit", args=[tournament.pk])).content.decode()
    assert 'name="progressive-sit_out_credit"' in page and "The average of the round&#x27;s winning sides" in page
    chosen = {"progressive-sit_out_credit": "winners_average", "progressive-tie_hand_counts": "True"}
    assert _post(director_client, tournament, "", **chosen).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {"sit_out_credit": "winners_average", "tie_hand_counts": True}
    assert (tournament.rules.sit_out_credit, tournament.rules.tie_hand_counts) == ("winners_average", True)
    # Back to the preset's own choices: nothing is overridden, and the handout marks them as our reading again.
    _post(director_client, tournament, "", **{"progressive-sit_out_credit": "round_average",
                                              "progressive-tie_hand_counts": "False"})  # fmt: skip
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {}


def test_a_form_without_the_progressive_fields_leaves_those_rules_as_they_are(director_client, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(rule_overrides={"tie_hand_counts": True})
    assert _post(director_client, tournament, '{"overtrick_points": 1}').status_code == 302
    tournament.refresh_from_db()
    assert tournament.rule_overrides == {"overtrick_points": 1, "tie_hand_counts": True}


def test_the_rule_changes_json_leaves_the_formats_own_rules_to_their_fields(director_client, tournament):
    response = _post(director_client, tournament, '{"sit_out_credit": "none"}')
    assert response.status_code == 422
    errors = response.context["form"].errors.as_data()["rule_overrides"]
    assert [e.code for e in errors] == ["format_rule_field"]
    assert "sit_out_credit (&quot;Sitting out a round earns&quot;): set with its own field" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).rule_overrides == {}


@pytest.mark.parametrize("value", ["everything", "maybe"])
def test_a_progressive_rule_outside_its_choices_is_refused_naming_it(director_client, tournament, value):
    response = _post(director_client, tournament, "", **{"progressive-sit_out_credit": value})
    assert response.status_code == 422 and "Select a valid choice" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).rule_overrides == {}
