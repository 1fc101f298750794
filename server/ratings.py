"""Ratings with openskill (Plackett-Luce): a finished list ranks its table, by player (Skat) or
by team (Tichu: two partners a side, so a win counts for both and a strong partner is priced in).

Pure functions over (mu, sigma) pairs, so the store can apply them inside the transaction that
records the list. Bots have user rows and ratings like everybody else.
"""

from collections.abc import Sequence

from openskill.models import PlackettLuce

__all__ = ["ORDINAL_SIGMAS", "Rating", "initial", "ordinal", "rate_teams"]

Rating = tuple[float, float]  # (mu, sigma)

_MODEL = PlackettLuce()
ORDINAL_SIGMAS = 3


def initial() -> Rating:
    """A new player's rating."""
    rating = _MODEL.rating()
    return (rating.mu, rating.sigma)


def rate_teams(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """New ratings after a list in which team i finished at `ranks[i]` (1 best; ties share a
    rank). A Skat player is a team of one."""
    rated = _MODEL.rate(
        [[_MODEL.create_rating([mu, sigma]) for mu, sigma in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    return [[(player.mu, player.sigma) for player in team] for team in rated]


def ordinal(rating: Rating) -> float:
    """A conservative skill estimate (mu - 3 sigma) that orders the leaderboard."""
    mu, sigma = rating
    return mu - ORDINAL_SIGMAS * sigma
