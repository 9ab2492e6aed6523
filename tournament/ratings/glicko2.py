"""Glicko-2 ratings as pure code: plain values in, frozen dataclasses out, no Django.

Mark Glickman's "Example of the Glicko-2 system" (2013), followed step by step: a player rated
1500, RD 200, volatility 0.06, with tau 0.5, who in one rating period beats a player rated 1400
(RD 30) and loses to players rated 1550 (RD 100) and 1700 (RD 300), ends the period rated
1464.06, RD 151.52, volatility 0.05999 (:func:`rate`; tests/test_ratings.py checks the figures).
The new volatility is found by the Illinois algorithm, as the paper's step 5 does it.

Spades is played by partnerships, so :func:`run` reads the paper for team games. Our readings:

- **One event is one rating period.** Everyone's games in an event count together, against the
  ratings everyone had before the event (the paper's rating period); a rated player who misses
  an event has their RD grow as the paper's step 6 says for a player who did not compete (up to
  350, a newcomer's, which the paper's scale starts from).
- **A game is one result for each partner against the opposing partnership.** The opponent is the
  partnership taken as one player: the mean of the two partners' ratings, and the root mean square
  of their RDs (how unsure we are of the pair). Counting a game as two results, one against each
  opponent, would count every game twice and shrink everyone's RD twice as fast as the games
  warrant. The partner's own rating does not enter: each partner is credited the side's result.
- **A seat nobody rated** (a name not on the club's roster) is not rated; as an opponent it counts
  as a newcomer (1500, RD 350).
- **A draw** (a game whose score is 0.5) is the paper's draw.

A player is provisional until they have played :data:`PROVISIONAL_GAMES` games.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

SCALE = 173.7178  # the paper's step 2: the Glicko scale to the Glicko-2 scale
TAU = 0.5  # the paper's example; it advises 0.3 to 1.2
EPSILON = 0.000001  # the convergence tolerance of step 5
START_RD = 350.0
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale (a newcomer's by default)."""

    rating: float = 1500.0
    rd: float = START_RD
    volatility: float = 0.06


NEWCOMER = Rating()


@dataclass(frozen=True)
class Result:
    """One game against ``opponent``: ``score`` 1 for a win, 0.5 a draw, 0 a loss."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1 / (1 + math.exp(-g_j * (mu - mu_j)))


def idle(player: Rating) -> Rating:
    """``player`` after a rating period without a game: the paper's step 6, RD grows (up to 350)."""
    phi = math.sqrt((player.rd / SCALE) ** 2 + player.volatility**2)
    return Rating(player.rating, min(phi * SCALE, START_RD), player.volatility)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """``player`` after one rating period of ``results``: the paper's steps 2 to 8."""
    if not results:
        return idle(player)
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    terms = []  # (g(phi_j), E, s) for each game
    for result in results:
        g_j = _g(result.opponent.rd / SCALE)
        terms.append((g_j, _expected(mu, (result.opponent.rating - 1500) / SCALE, g_j), result.score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    improvement = sum(g * (s - e) for g, e, s in terms)
    delta = v * improvement
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu += phi * phi * improvement
    return Rating(mu * SCALE + 1500, min(phi * SCALE, START_RD), sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """The paper's step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def partnership(ratings: Sequence[Rating]) -> Rating:
    """A partnership as one opponent: the partners' mean rating, the root mean square of their RDs."""
    count = len(ratings)
    rating = sum(r.rating for r in ratings) / count
    rd = math.sqrt(sum(r.rd * r.rd for r in ratings) / count)
    return Rating(rating, rd, sum(r.volatility for r in ratings) / count)


@dataclass(frozen=True)
class TeamGame:
    """One game between two partnerships: each side's players (None for a seat nobody rates) and
    the first side's score (1 won, 0.5 drawn, 0 lost)."""

    first: tuple[Hashable | None, ...]
    second: tuple[Hashable | None, ...]
    first_score: float


@dataclass(frozen=True)
class Period:
    """A rating period (one event): its key, and its games."""

    key: Hashable
    games: tuple[TeamGame, ...]


@dataclass(frozen=True)
class Point:
    """A player's rating after a period they played in, and their games up to then."""

    period: Hashable
    rating: Rating
    games: int


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating now (after the last period, idle ones included), their games and the
    history of the periods they played in, oldest first."""

    now: Rating
    games: int
    history: tuple[Point, ...]

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class RatingRun:
    """Every rated player's :class:`PlayerRating`, by the key the games named them by."""

    players: dict[Hashable, PlayerRating] = field(default_factory=dict)


def run(periods: Sequence[Period], *, start: RatingRun | None = None, tau: float = TAU) -> RatingRun:
    """Rate ``periods`` in order (see the module's readings): each period's games against the
    ratings from before it; a rated player who misses a period has their RD grow. ``start``, the
    run of the periods before these, is carried on from: ``run(a + b)`` equals
    ``run(b, start=run(a))``."""
    before = start.players if start is not None else {}
    now = {player: rated.now for player, rated in before.items()}
    games = {player: rated.games for player, rated in before.items()}
    history = {player: list(rated.history) for player, rated in before.items()}
    for period in periods:
        results: dict[Hashable, list[Result]] = {}
        for game in period.games:
            first = partnership([now.get(p, NEWCOMER) for p in game.first])
            second = partnership([now.get(p, NEWCOMER) for p in game.second])
            for side, opponent, score in (
                (game.first, second, game.first_score),
                (game.second, first, 1 - game.first_score),
            ):
                for player in side:
                    if player is not None:
                        results.setdefault(player, []).append(Result(opponent, score))
        for player in now.keys() - results.keys():
            now[player] = idle(now[player])
        for player, played in results.items():
            now[player] = rate(now.get(player, NEWCOMER), played, tau=tau)
            games[player] = games.get(player, 0) + len(played)
            history.setdefault(player, []).append(Point(period.key, now[player], games[player]))
    return RatingRun({p: PlayerRating(now[p], games[p], tuple(history[p])) for p in now})
