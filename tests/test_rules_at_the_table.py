"""Issue 9 at the table and in the director's forms: the app plays what the handout says."""

from django.urls import reverse

from tests.conftest import make_tournament
from tournament.models import Tournament

NEW = {"name": "Spring Open", "date": "2026-04-01", "venue": "Hall", "preset": "progressive",
       "format": "progressive_fixed", "rounds_planned": 3, "entry_fee": "20.00", "seating_order": "random",
       "seating_seed": 4, "prize_ties": "share", "paper_size": "letter"}  # fmt: skip


def _format_errors(response) -> list:
    return response.context["form"].errors.as_data().get("format", [])


def test_rule_changes_that_set_partners_are_accepted_with_the_matching_format(director_client):
    data = NEW | {"rule_overrides": '{"partners": "fixed"}'}
    response = director_client.post(reverse("director:tournament_new"), data)
    assert response.status_code == 302
    assert Tournament.objects.get(name="Spring Open").rules.partners == "fixed"


def test_rule_changes_that_set_partners_refuse_the_other_format_naming_them(director_client):
    data = NEW | {"format": "progressive_split", "rule_overrides": '{"partners": "fixed"}'}
    response = director_client.post(reverse("director:tournament_new"), data)
    assert response.status_code == 422
    [error] = _format_errors(response)
    assert error.code == "partners_mismatch"
    assert error.message == "These rules are played with fixed partners: choose the matching format."


def test_the_preset_alone_still_decides_when_no_rule_change_sets_partners(director_client):
    response = director_client.post(reverse("director:tournament_new"), NEW | {"rule_overrides": ""})
    [error] = _format_errors(response)
    assert error.message.startswith("Progressive tables, four-hand rounds (advancing winners) is played with partners")


def test_the_edit_form_saves_any_tournament_it_can_show(director_client, db):
    # As an import can create it: a split-partner preset in a fixed-partner format.
    tournament = make_tournament(couples=4, preset="progressive", split=False)
    url = reverse("director:tournament_edit", args=[tournament.pk])
    shown = director_client.get(url).context["form"]
    data = {name: field.value() for name, field in ((n, shown[n]) for n in shown.fields)}
    data = {name: "" if value is None else value for name, value in data.items()} | {"name": "Renamed"}
    response = director_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.name == "Renamed"


def test_the_edit_form_checks_partners_when_the_rules_change(director_client, db):
    tournament = make_tournament(couples=4, preset="progressive", split=False)
    url = reverse("director:tournament_edit", args=[tournament.pk])
    data = NEW | {"name": tournament.name, "rule_overrides": '{"bag_limit": 6, "bag_penalty": 60}'}
    response = director_client.post(url, data)
    assert [e.code for e in _format_errors(response)] == ["partners_mismatch"]
