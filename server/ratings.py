"""Ratings with openskill (Plackett-Luce): a finished list ranks its table, by player (Skat) or
by team (Tichu: two partners a side, so a win counts for both and a strong partner is priced in).

Pure functions, so the rules are tested without a database and the store only reads and writes
rows inside the transaction that records the list: `rank_list` turns the list's standings
into each seat's result and the teams to rate, `rate_list` the teams' ratings before into the
ratings after. Bots have user rows and ratings like everybody else.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from server.standings import ListStanding

__all__ = [
    "ORDINAL_SIGMAS",
    "RankedList",
    "Rating",
    "SeatResult",
    "initial",
    "ordinal",
    "rank_list",
    "rate_list",
    "rate_teams",
]

Rating = tuple[float, float]  # (mu, sigma)

_MODEL = PlackettLuce()
ORDINAL_SIGMAS = 3
MIN_RATED_TEAMS: Final = 2


@dataclass(frozen=True)
class SeatResult:
    """One seat's result of a list: its user, rank (1 best; ties share), points and standing
    (None: a seat the standings do not name)."""

    seat: int
    user: int
    rank: int
    points: float
    standing: ListStanding | None


@dataclass(frozen=True)
class RankedList:
    """A finished list: every seat's result, and the teams it rates with their ranks (no teams:
    the list changes no rating). `fixed`: users who played on more than one side (the bots of
    one level share a user): their rating prices each side they are on, and is not changed by
    a list they both won and lost."""

    results: list[SeatResult]
    teams: list[tuple[int, tuple[int, ...]]]
    fixed: frozenset[int] = frozenset()


def rank_list(standings: Sequence[ListStanding], users: Mapping[int, int]) -> RankedList:
    """Rank a list by its standings' points, per team where the standings name teams (Tichu:
    partners) and per seat otherwise (Skat).

    `users` maps each occupied seat to its user. Every seat is an opponent, so a player who
    beats one bot of a level and loses to another is rated on both. Bots of one level share a
    user: on more than one side it is `fixed`. A list that could change nobody's rating (one
    side, or every user fixed) has no teams.
    """
    standing_of = {entry.seat: entry for entry in standings}
    points = {seat: entry.points for seat, entry in standing_of.items()}
    rank = {s: 1 + sum(1 for q in points.values() if q > points.get(s, 0)) for s in users}
    results = [
        SeatResult(seat, user, rank[seat], points.get(seat, 0), standing_of.get(seat))
        for seat, user in users.items()
    ]
    sides: dict[tuple[str, int], list[int]] = {}  # ("team", number) or ("seat", seat): seats
    for seat in sorted(users):
        standing = standing_of.get(seat)
        team = standing.team if standing is not None else None
        sides.setdefault(("seat", seat) if team is None else ("team", team), []).append(seat)
    sides_of: dict[int, set[tuple[str, int]]] = {}
    for side, seats in sides.items():
        for seat in seats:
            sides_of.setdefault(users[seat], set()).add(side)
    fixed = frozenset(user for user, on in sides_of.items() if len(on) > 1)
    if len(sides) < MIN_RATED_TEAMS or len(fixed) == len(sides_of):
        return RankedList(results, [])
    teams = [
        (rank[seats[0]], tuple(users[seat] for seat in seats)) for _, seats in sorted(sides.items())
    ]
    return RankedList(results, teams, fixed)


def rate_list(
    teams: Sequence[tuple[int, tuple[int, ...]]],
    current: Mapping[int, Rating],
    fixed: frozenset[int] = frozenset(),
) -> list[tuple[int, Rating]]:
    """Each rated user's new rating (`current`: the ratings before; a user without one starts
    at `initial`), once per user and none for the `fixed`; none without teams."""
    if not teams:
        return []
    rated = rate_teams(
        [[current.get(user, initial()) for user in team] for _, team in teams],
        [rank for rank, _ in teams],
    )
    new: dict[int, Rating] = {}
    for (_, team), ratings in zip(teams, rated, strict=True):
        for user, rating in zip(team, ratings, strict=True):
            if user not in fixed:
                new.setdefault(user, rating)
    return list(new.items())


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
