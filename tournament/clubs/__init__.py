"""Clubs: who owns events, a roster and people (owner, directors, assistants); their settings."""
