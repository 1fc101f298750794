"""Ratings with openskill (Plackett-Luce): a finished list ranks its table.

Pure functions over (mu, sigma) pairs, so the store can apply them inside the transaction that
records the list. Bots have user rows and ratings like everybody else.
"""

from collections.abc import Sequence

from openskill.models import PlackettLuce

__all__ = ["ORDINAL_SIGMAS", "Rating", "initial", "ordinal", "rate_list"]

Rating = tuple[float, float]  # (mu, sigma)

_MODEL = PlackettLuce()
ORDINAL_SIGMAS = 3


def initial() -> Rating:
    """A new player's rating."""
    rating = _MODEL.rating()
    return (rating.mu, rating.sigma)


def rate_list(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """New ratings after a list in which seat i finished at `ranks[i]` (1 best; ties share a
    rank). One player per team, in seat order."""
    teams = [[_MODEL.create_rating([mu, sigma])] for mu, sigma in ratings]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


def ordinal(rating: Rating) -> float:
    """A conservative skill estimate (mu - 3 sigma) that orders the leaderboard."""
    mu, sigma = rating
    return mu - ORDINAL_SIGMAS * sigma
