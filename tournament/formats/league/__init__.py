"""A league season: a round robin over several nights (each pair meets once, or home and away),
then the top teams play a championship as a small knockout. See :mod:`tournament.formats` for
what a format package holds and how it is found."""
