"""The formats become plug-ins (tournament.formats): the tournament's format is a key the
registry knows (no fixed choices); a match carries its name and its own rule set, as its format
gives them; every write stamps when the event changed; a hand entered without an entry key has
none (NULL), so that the key's unique index is a plain one every lookup of a key can use. The format settings move to the formats'
own apps (knockout.0001, league.0001), which run before 0014 drops the old columns."""

from django.db import migrations, models
from django.utils import timezone


def no_key_is_null(apps, schema_editor):
    apps.get_model("tournament", "Hand").objects.filter(entry_key="").update(entry_key=None)


def no_key_is_blank(apps, schema_editor):
    apps.get_model("tournament", "Hand").objects.filter(entry_key=None).update(entry_key="")


def finals_play_their_preset(apps, schema_editor):
    """A final's games were scored by the tournament's final_preset: the match keeps it now."""
    Match = apps.get_model("tournament", "Match")
    for match in Match.objects.filter(stage="final").select_related("tournament"):
        match.preset = match.tournament.final_preset
        match.save(update_fields=["preset"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0012_payout_method"),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="format",
            field=models.CharField(default="progressive_split", max_length=30),
        ),
        migrations.AddField(
            model_name="tournament",
            name="changed_at",
            field=models.DateTimeField(default=timezone.now),
        ),
        migrations.AddField(
            model_name="match",
            name="name",
            field=models.CharField(blank=True, max_length=80),
        ),
        migrations.AddField(
            model_name="match",
            name="preset",
            field=models.CharField(blank=True, choices=[('tennessee', 'Tennessee house rules (game to 500)'), ('classic', 'Classic partnership Spades (game to 500)'), ('friendly', 'Friendly club tournament (game to 500)'), ('progressive', 'Progressive tables, four-hand rounds (advancing winners)'), ('progressive-500', 'Progressive tables, games to 500'), ('league-300', 'League game to 300 (30-minute matches, jokers deck)'), ('championship-500', 'League championship game to 500 (jokers deck)')], max_length=40),
        ),
        migrations.RunPython(finals_play_their_preset, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="hand", name="one_hand_per_entry_key"),
        migrations.AlterField(
            model_name="hand",
            name="entry_key",
            field=models.CharField(blank=True, default=None, editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(no_key_is_null, no_key_is_blank),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(fields=("entry_key",), name="one_hand_per_entry_key"),
        ),
    ]
