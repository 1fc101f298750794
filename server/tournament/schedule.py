"""A tournament's schedule: which tables exist, who sits where, which deal each game plays.

Everything here is a pure function of the stored `Params`, so an interrupted run recomputes
the same schedule and only plays the games the database does not hold yet.

Skat: every group of three players (four at 4-tables, `rules.players`; all groups round-robin
when there are more players) plays `deals` deals; with `duplicate` each deal is replayed once
per seating (all permutations of the group over the seats, dealer fixed), so every player holds
every hand.
Tichu: every pair of players plays `deals` one-round deals as two teams; with `duplicate`
each deal is replayed with the teams swapped. The deals of a seating are cut into lists of
`list_length` games; one list is one table (rated when it ends, as at a live table).
"""

import itertools
from collections.abc import Sequence
from typing import Any, Final

import msgspec

from engine.rng import make_stream_rng
from server.games import game_kind

__all__ = [
    "GameSpec",
    "Params",
    "TableSpec",
    "deal_seed",
    "game_specs",
    "group_size",
    "table_id",
    "table_specs",
]

_SEED_BOUND: Final = 2**63


class Params(msgspec.Struct, frozen=True, kw_only=True):
    """What a tournament is; stored with it, so `--resume` needs nothing else.

    Attributes:
        game: "skat" or "tichu".
        players: bot names as `bots.registry.policy` knows them (at least one group).
        deals: new deals per group (Skat: games per seating; Tichu: rounds per seating).
        duplicate: replay every deal in every seating (Skat) / with teams swapped (Tichu).
        list_length: games per table (a Seeger-Fabian list for Skat).
        seed: the deals and the bots' randomness derive from it.
        rules: the game's rules options, as a table stores them.
    """

    game: str
    players: tuple[str, ...]
    deals: int
    duplicate: bool
    list_length: int
    seed: int
    rules: dict[str, Any]


class TableSpec(msgspec.Struct, frozen=True):
    """One table: `players` by seat; it plays deals `first_deal ..` of its group."""

    index: int
    group: int
    seating: int
    players: tuple[str, ...]
    first_deal: int
    games: int


class GameSpec(msgspec.Struct, frozen=True):
    """Game `number` of table `table`: deal `deal` of its group, dealt from `seed`."""

    table: int
    number: int
    deal: int
    seed: int


def table_id(tournament: str, index: int) -> str:
    """The id of a tournament's table (tables of one tournament sort together)."""
    return f"{tournament}-{index}"


def group_size(params: Params) -> int:
    """Players per group: a Skat table's seats, or Tichu's two teams."""
    return game_kind(params.game).tournament.group_size(params.rules)


def _groups(params: Params) -> list[tuple[str, ...]]:
    size = group_size(params)
    if len(set(params.players)) != len(params.players):
        raise ValueError("every player may be named once")
    if len(params.players) < size:
        raise ValueError(f"{params.game} needs at least {size} players")
    return list(itertools.combinations(params.players, size))


def table_specs(params: Params) -> list[TableSpec]:
    """Every table in play order: by group, then by list, then by seating, so the replays of
    a deal are played close together."""
    if params.deals < 1 or params.list_length < 1:
        raise ValueError("deals and list length must be positive")
    play = game_kind(params.game).tournament
    specs: list[TableSpec] = []
    for group_index, group in enumerate(_groups(params)):
        seatings = play.seatings(group, params.duplicate)
        for first in range(0, params.deals, params.list_length):
            games = min(params.list_length, params.deals - first)
            for seating_index, seating in enumerate(seatings):
                specs.append(
                    TableSpec(len(specs), group_index, seating_index, seating, first, games)
                )
    return specs


def deal_seed(seed: int, group: int, deal: int) -> int:
    """The seed a deal is dealt from: the same in every seating of the group."""
    return int(make_stream_rng(seed, group, deal).integers(_SEED_BOUND))


def game_specs(params: Params, tables: Sequence[TableSpec] | None = None) -> list[GameSpec]:
    """Every game in play order."""
    return [
        GameSpec(t.index, n, t.first_deal + n, deal_seed(params.seed, t.group, t.first_deal + n))
        for t in tables or table_specs(params)
        for n in range(t.games)
    ]
