"""A bracket's settings move here from the tournament's own columns (which tournament.0014 then
drops), and every bracket match is given the name its bracket gives it (the match keeps it now)."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models

from tournament.formats.knockout import bracket

SETTINGS = ("third_place_match", "best_of", "final_best_of", "final_preset", "tables_available")
PLAYING_BRACKETS = ("single_elimination", "double_elimination", "round_robin")  # a league's championship too
BRACKET_STAGES = ("winners", "losers", "final", "third-place")


def settings_and_names(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    Match = apps.get_model("tournament", "Match")
    KnockoutSettings = apps.get_model("knockout", "KnockoutSettings")
    for tournament in Tournament.objects.filter(format__in=PLAYING_BRACKETS):
        KnockoutSettings.objects.create(tournament=tournament, **{name: getattr(tournament, name) for name in SETTINGS})
        matches = list(Match.objects.filter(tournament=tournament, stage__in=BRACKET_STAGES))
        if not matches:
            continue
        teams = tournament.teams.filter(seed__isnull=False).count()
        if tournament.format == "double_elimination":
            shape = bracket.double_elimination(teams)
        else:
            shape = bracket.single_elimination(teams, third_place=tournament.third_place_match)
        for match in matches:
            match.name = shape.match_name(match.stage, match.round, match.number)
        Match.objects.bulk_update(matches, ["name"])


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournament', '0013_format_plugins'),
    ]
    run_before = [
        ('tournament', '0014_format_settings_moved'),
    ]

    operations = [
        migrations.CreateModel(
            name='KnockoutSettings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('third_place_match', models.BooleanField(default=False, help_text='Single elimination: the semi-final losers play for third place.')),
                ('best_of', models.PositiveSmallIntegerField(choices=[(1, 'One game'), (3, 'Best of 3'), (5, 'Best of 5')], default=1, help_text='Matches before the final: games a match is the best of.')),
                ('final_best_of', models.PositiveSmallIntegerField(choices=[(1, 'One game'), (3, 'Best of 3'), (5, 'Best of 5')], default=1, verbose_name='Final: best of')),
                ('final_preset', models.CharField(blank=True, choices=[('tennessee', 'Tennessee house rules (game to 500)'), ('classic', 'Classic partnership Spades (game to 500)'), ('friendly', 'Friendly club tournament (game to 500)'), ('progressive', 'Progressive tables, four-hand rounds (advancing winners)'), ('progressive-500', 'Progressive tables, games to 500'), ('league-300', 'League game to 300 (30-minute matches, jokers deck)'), ('championship-500', 'League championship game to 500 (jokers deck)')], help_text='The final can be played under another rule set (blank: the same as the rest).', max_length=40, verbose_name="Final's rule set")),
                ('tables_available', models.PositiveSmallIntegerField(blank=True, help_text='Tables the venue has; matches wait for a free one (blank: as many as needed).', null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(500)])),
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='knockout_settings', to='tournament.tournament')),
            ],
            options={
                'constraints': [models.CheckConstraint(condition=models.Q(('best_of__in', [1, 3, 5])), name='knockout_best_of_1_3_5'), models.CheckConstraint(condition=models.Q(('final_best_of__in', [1, 3, 5])), name='knockout_final_best_of_1_3_5')],
            },
        ),
        migrations.RunPython(settings_and_names, migrations.RunPython.noop),
    ]
