"""A misdeal keeps its hand's number: the hand dealt again after it shares the number, counted by
``deal``. Existing games are numbered again so: a misdeal that was "hand 4" before hand 5 becomes
hand 4, deal 1, and that hand 5 becomes hand 4, deal 2; a time call on a hand follows it."""

import django.core.validators
from django.db import migrations, models


def renumber(apps, schema_editor):
    Hand = apps.get_model("tournament", "Hand")
    Game = apps.get_model("tournament", "Game")
    games = Hand.objects.filter(misdeal__gt="").values_list("game_id", flat=True).distinct()
    for game in Game.objects.filter(pk__in=list(games)):
        number, deal, new_numbers = 1, 1, {}
        for hand in Hand.objects.filter(game=game).order_by("number"):
            new_numbers[hand.number] = number
            hand.number, hand.deal = number, deal
            hand.save(update_fields=["number", "deal"])
            number, deal = (number, deal + 1) if hand.misdeal else (number + 1, 1)
        if game.time_up_hand is not None:
            game.time_up_hand = new_numbers.get(game.time_up_hand, game.time_up_hand)
            game.save(update_fields=["time_up_hand"])


def number_each_deal(apps, schema_editor):
    """Back: every deal numbered as a hand of its own again, in order, and a time call with it.
    From the last deal down, each to a number no lower than its own, so no two ever clash."""
    Hand = apps.get_model("tournament", "Hand")
    Game = apps.get_model("tournament", "Game")
    games = Hand.objects.filter(deal__gt=1).values_list("game_id", flat=True).distinct()
    for game in Game.objects.filter(pk__in=list(games)):
        hands = list(Hand.objects.filter(game=game).order_by("number", "deal"))
        called = [place for place, hand in enumerate(hands, start=1) if hand.number == game.time_up_hand]
        for place, hand in reversed(list(enumerate(hands, start=1))):
            hand.number, hand.deal = place, 1
            hand.save(update_fields=["number", "deal"])
        if called:
            game.time_up_hand = called[0]
            game.save(update_fields=["time_up_hand"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0015_rules_third_pass")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="deal",
            field=models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1)]),
        ),
        migrations.AlterModelOptions(name="hand", options={"ordering": ["game", "number", "deal"]}),
        migrations.RemoveConstraint(model_name="hand", name="one_hand_number_per_game"),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(fields=("game", "number", "deal"), name="one_deal_per_hand_number"),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(condition=models.Q(deal__gte=1), name="hand_deal_from_1"),
        ),
        # Last, after every schema change (PostgreSQL alters no table with pending trigger events).
        # Hands are moved in order, each to a number no higher than its own, so no two ever clash.
        migrations.RunPython(renumber, number_each_deal),
    ]
