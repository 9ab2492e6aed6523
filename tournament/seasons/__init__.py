"""A club's seasons: its events grouped (e.g. "Fall 2026 Fridays"), with standings across them for
players and for teams, printed, exported and on the projector; and a player's page, public."""
