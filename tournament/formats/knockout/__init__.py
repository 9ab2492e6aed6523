"""Knockouts, single and double elimination: seeded teams meet in matches drawn on a bracket, each
match at a free table; a match's result moves its winner on at once. A league's championship is
played with this package's bracket too. See :mod:`tournament.formats` for what a format package
holds and how it is found."""
