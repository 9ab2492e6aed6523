"""Progressive tables: the format of the rule texts' club nights. A movement seats each round;
when a round closes, the winners move and (with split partners) partners change. Entrants are
players (split partners, individual scores) or teams (fixed partners). See
:mod:`tournament.formats` for what a format package holds and how it is found."""
