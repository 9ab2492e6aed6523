"""Keying paper sheets at the desk: a whole game's hands typed from a table's paper sheet with the
keyboard alone, and, when the club asks for it, keyed twice by two people before a hand counts."""
