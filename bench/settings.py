"""The app's settings plus one bare view for the load benchmark's baseline."""

from tournament.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
