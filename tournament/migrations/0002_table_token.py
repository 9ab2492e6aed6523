"""Move the scorekeeper link from each round's game to the physical table.

A table takes the token of its latest game, so a phone holding the current round's link keeps
working; earlier rounds' links (already refused, their rounds closed) stop resolving.
"""

from django.db import migrations, models

import tournament.models


def tokens_to_tables(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    Game = apps.get_model("tournament", "Game")
    for table in Table.objects.all():
        latest = Game.objects.filter(table=table).order_by("-round__number").first()
        table.token = latest.token if latest is not None else tournament.models.new_token()
        table.save(update_fields=["token"])


def tokens_to_games(apps, schema_editor):
    Game = apps.get_model("tournament", "Game")
    latest: dict[int, int] = {}
    for game in Game.objects.select_related("table", "round").order_by("round__number"):
        latest[game.table_id] = game.pk
    for game in Game.objects.select_related("table"):
        game.token = game.table.token if latest[game.table_id] == game.pk else tournament.models.new_token()
        game.save(update_fields=["token"])


class Migration(migrations.Migration):
    dependencies = [("tournament", "0001_initial")]

    operations = [
        migrations.AddField(model_name="table", name="token", field=models.CharField(max_length=64, null=True)),
        migrations.AlterField(model_name="game", name="token", field=models.CharField(max_length=64, null=True)),
        migrations.RunPython(tokens_to_tables, tokens_to_games),
        migrations.RemoveField(model_name="game", name="token"),
        migrations.AlterField(
            model_name="table",
            name="token",
            field=models.CharField(default=tournament.models.new_token, max_length=64, unique=True),
        ),
    ]
