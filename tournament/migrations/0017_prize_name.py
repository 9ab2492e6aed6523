from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0016_misdeal_keeps_hand_number")]

    operations = [
        migrations.AddField(
            model_name="prize",
            name="name",
            field=models.CharField(
                blank=True,
                help_text="What the prize is called, e.g. \"Ladies' high\"; else its place or division.",
                max_length=60,
            ),
        ),
    ]
