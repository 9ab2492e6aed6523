"""Standings: ranking entrants, the rows every format's standings are made of, and the pages
everyone watches (the public standings, the projector, finding one's seat)."""
