"""Matches: two teams playing one game or the best of N at a table, for the formats that play them."""
