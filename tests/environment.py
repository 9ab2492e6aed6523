"""Loaded before Django (``-p tests.environment`` in pyproject): the suite runs the app in its
development mode, as ``make run`` does. The app's default is production, which refuses to
start without a secret key; tests of production mode set their own environment."""

import os

os.environ.setdefault("DJANGO_DEBUG", "true")
