"""Clocks: the time limits the director starts, pauses and extends at matches and tables."""
