"""A Swiss event: a fixed number of rounds, every team plays every round, each round paired from
the standings so far (Monrad, as bridge Swiss teams pair), nobody eliminated. See
:mod:`tournament.formats` for what a format package holds and how it is found; the pairing itself
is the pure :mod:`.pairing`."""
