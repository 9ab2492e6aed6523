"""Whole events played with random legal hands through the real models and services: for
``manage.py simulate`` (on a throw-away database), the benchmarks, the tests and the demo. Each
format plays its own kind of event (:attr:`tournament.formats.registry.EventFormat.simulation`) with the
helpers here."""
