"""The seat draw of a people's tournament: how many tables of which size, who sits where, which
places bots take, and the standings summed over its tables' lists.

Pure functions of their arguments (and the `random.Random` given), tested alone.
"""

import math
import random
from collections.abc import Sequence

import msgspec

from server.games import game_kind
from server.plain import Plain

__all__ = [
    "BOT_PREFIX",
    "EntrantRow",
    "draw",
    "draw_teams",
    "pairs_again",
    "standings",
    "table_sizes",
]

BOT_PREFIX = "bot:"  # a bot's place in a tournament: "bot:LEVEL#N" (no person has that name)


def table_sizes(players: int, size: int, *, fill: bool) -> list[int]:
    """Seats per table for `players` people at tables of `size` (Skat 3 or 4, Tichu 4).

    With `fill`, every table has `size` seats and bots take the places left over. Without,
    a Skat tournament splits the players into tables of 3 and 4 (as many of `size` as can
    be); where no split exists (1, 2 or 5 players, a Tichu field not divisible by four) bots
    fill the last table all the same.
    """
    if players < 1:
        return []
    tables = math.ceil(players / size)
    if fill or size not in (3, 4):
        return [size] * tables
    other = 7 - size
    for count in range(players // size, -1, -1):
        rest = players - count * size
        if rest % other == 0:
            return [size] * count + [other] * (rest // other)
    return [size] * tables


def draw(
    names: Sequence[str], sizes: Sequence[int], level: str, rng: random.Random
) -> list[list[str]]:
    """The names at each seat of each table: the players shuffled, the bots (`bot:LEVEL#N`)
    spread over the tables one by one, each table's seats shuffled."""
    people = list(names)
    rng.shuffle(people)
    bots = [0] * len(sizes)
    for n in range(sum(sizes) - len(people)):
        bots[n % len(sizes)] += 1
    tables: list[list[str]] = []
    taken = 0
    number = 0
    for size, bot_count in zip(sizes, bots, strict=True):
        seats = people[taken : taken + size - bot_count]
        taken += len(seats)
        for _ in range(bot_count):
            number += 1
            seats.append(f"{BOT_PREFIX}{level}#{number}")
        rng.shuffle(seats)
        tables.append(seats)
    return tables


def draw_teams(
    pairs: Sequence[tuple[str, str]], singles: Sequence[str], level: str, rng: random.Random
) -> list[list[str]]:
    """Tichu with fixed partners, the first round: the registered `pairs` stay together, the
    `singles` are paired by lot (one left over gets a bot partner), and a team of bots makes
    the number of teams even. Two teams a table (seats 0 and 2, 1 and 3): the teams with bots
    meet full teams of people where there are any, so the bots are spread."""
    people = list(singles)
    rng.shuffle(people)
    teams = [list(pair) for pair in pairs] + [people[i : i + 2] for i in range(0, len(people), 2)]
    rng.shuffle(teams)
    teams.sort(key=len, reverse=True)  # the one with a bot partner last
    if len(teams) % 2:
        teams.append([])
    number = 0
    for team in teams:
        while len(team) < 2:
            number += 1
            team.append(f"{BOT_PREFIX}{level}#{number}")
        rng.shuffle(team)
    half = len(teams) // 2
    tables = [[teams[i], teams[-1 - i]] for i in range(half)]
    for table in tables:
        rng.shuffle(table)
    rng.shuffle(tables)
    return [[a[0], b[0], a[1], b[1]] for a, b in tables]


def pairs_again(first: Sequence[Sequence[str]], rng: random.Random) -> list[list[str]]:
    """Tichu with fixed partners: the teams of the first round's tables (seats 0 and 2, 1 and
    3) drawn against each other anew, two teams a table."""
    teams = [(seats[i], seats[i + 2]) for seats in first for i in (0, 1)]
    rng.shuffle(teams)
    return [[a[0], b[0], a[1], b[1]] for a, b in zip(teams[::2], teams[1::2], strict=True)]


class EntrantRow(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A player's line in a people's tournament: `games` (deals seated), `total` (Skat: the
    Seeger-Fabian points of his lists, Tichu: his team's points), `tables`, and (Skat) the
    declarer games `won` and `lost`."""

    player: str
    games: int
    total: int
    tables: int
    won: int | None = None
    lost: int | None = None


def standings(
    game: str, tables: Sequence[tuple[Sequence[str], Sequence[Plain]]]
) -> list[EntrantRow]:
    """One row per place, best first. `tables` are (names by seat, the stored results of the
    table's games so far)."""
    kind = game_kind(game)
    rows: dict[str, EntrantRow] = {}
    for seats, results in tables:
        for name in seats:
            rows.setdefault(name, EntrantRow(player=name, games=0, total=0, tables=0)).tables += 1
        if not results:
            continue
        for entry in kind.standings(len(seats), list(results)):
            row = rows[seats[entry.seat]]
            row.total += entry.points
            row.games += len(results)
            for key in ("won", "lost"):  # Skat: declarer games won and lost
                count = getattr(entry, key, None)
                if isinstance(count, int):
                    setattr(row, key, (getattr(row, key) or 0) + count)
    return sorted(rows.values(), key=lambda r: (-r.total, r.player))
