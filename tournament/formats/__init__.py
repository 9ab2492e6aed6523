"""Event formats are plug-ins: one package a format, found through this registry.

The core (events, teams, tables, rounds, games and hands, matches and clocks, money, the public
pages, printing, transfer, simulation) never imports a format. It looks a tournament's format up
here (:func:`format_of`) and asks it, through :class:`EventFormat`, what it needs to know: what
starting play seats, what a changed game decides, the places, which page runs play, the words a
page uses. A format hears of every changed game through one explicit call,
:meth:`EventFormat.game_changed`, made by the core's hand and tie services under the tournament's
lock (:mod:`tournament.locking`); no Django signal is involved.

Adding a format (a Swiss movement, say) is one new package and one registry line:

1. A package ``tournament/formats/<name>/``, a Django app: ``apps.py`` whose ``ready()`` calls
   :func:`register` with the format's :class:`EventFormat` objects (one for each variant the
   tournament form offers: "single elimination", "double elimination"); ``format.py`` with those
   classes; its own services, views and ``urls.py`` (:attr:`EventFormat.urls`), forms, templates
   (``templates/<name>/``), documents (:meth:`EventFormat.documents`), import checks
   (:meth:`EventFormat.check_import`) and settings (a model of its own, with migrations, edited
   through :meth:`EventFormat.settings_form`).
2. Its app in ``INSTALLED_APPS`` (``tournament/settings.py``): the registry line.

The format must write under the tournament's lock like every write (:func:`~tournament.locking.
lock_tournament` first). Nothing in the core changes: a test registers a dummy format of its own
(tests/test_formats.py) and plays an event through the core's pages to keep this true.
"""
