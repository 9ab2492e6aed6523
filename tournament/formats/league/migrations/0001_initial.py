"""A league's settings move here from the tournament's own columns (which tournament.0014 then
drops), and every league match is given its name ("Night 3, match 2"), which it keeps now."""

import django.db.models.deletion
from django.db import migrations, models

SETTINGS = ("legs", "tiebreakers", "championship_teams", "fee_per")


def settings_and_names(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    Match = apps.get_model("tournament", "Match")
    LeagueSettings = apps.get_model("league", "LeagueSettings")
    for tournament in Tournament.objects.filter(format="round_robin"):
        LeagueSettings.objects.create(tournament=tournament, **{name: getattr(tournament, name) for name in SETTINGS})
    matches = list(Match.objects.filter(stage="league"))
    for match in matches:
        match.name = f"Night {match.round}, match {match.number}"
    Match.objects.bulk_update(matches, ["name"])


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournament', '0013_format_plugins'),
        ('knockout', '0001_initial'),
    ]
    run_before = [
        ('tournament', '0014_format_settings_moved'),
    ]

    operations = [
        migrations.CreateModel(
            name='LeagueSettings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('legs', models.PositiveSmallIntegerField(choices=[(1, 'Once'), (2, 'Twice: home and away')], default=1, help_text='How often each pair meets.')),
                ('tiebreakers', models.CharField(blank=True, default='head-to-head,point-difference,points-scored,fewest-bags', help_text='The tiebreakers after matches won and lost, in order.', max_length=80)),
                ('championship_teams', models.PositiveSmallIntegerField(choices=[(0, 'No championship'), (2, 'Top two: a final'), (4, 'Top four: semi-finals, then a final')], default=2, help_text='Who plays the championship after the season.')),
                ('fee_per', models.CharField(choices=[('season', 'For the season'), ('night', 'For each night a team plays')], default='season', max_length=10, verbose_name='Entry fee is')),
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='league_settings', to='tournament.tournament')),
            ],
            options={
                'constraints': [models.CheckConstraint(condition=models.Q(('legs__in', [1, 2])), name='league_legs_1_or_2'), models.CheckConstraint(condition=models.Q(('championship_teams__in', [0, 2, 4])), name='league_championship_0_2_4')],
            },
        ),
        migrations.RunPython(settings_and_names, migrations.RunPython.noop),
    ]
