"""The knockout's and the league's settings now live in their formats' apps (knockout.0001 and
league.0001 copied them there first: each names this migration in its run_before)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0013_format_plugins"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="tournament", name="tournament_legs_1_or_2"),
        migrations.RemoveConstraint(model_name="tournament", name="tournament_championship_0_2_4"),
        *[
            migrations.RemoveField(model_name="tournament", name=name)
            for name in (
                "third_place_match", "best_of", "final_best_of", "final_preset", "tables_available", "legs",
                "tiebreakers", "championship_teams", "fee_per",
            )
        ],
    ]
