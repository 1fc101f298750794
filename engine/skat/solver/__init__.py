"""Skat double-dummy solver: exact open-card values for any position of the card play.

    from engine.skat.solver import Position, Solver, solve

    result = solve(Position.from_deal(deal.hands, deal.skat, "grand", declarer=0), "value")

`solve(position, mode, target)` answers, with best play by both sides:
- `"win"`: does the declarer reach the target (default 61 card points, skat included;
  `SCHWARZ`: all tricks; null: no trick)?
- `"value"`: the declarer's exact final card points (None in null) and the win answer;
- `"moves"`: both for every legal card of the player to move, equivalent cards grouped, with
  exact points for every card (one exact search per card). With a target (or in null) only
  the win answer per card is computed.
- `"best"`: as `moves`, but exact points only for the best cards; each other card carries a
  bound showing it is no better (`MoveValue.exact` False): about one exact value in all.

A `Solver` keeps one preallocated transposition table (16 MiB by default) across solves: keep
one per process (or per Monte Carlo decision) rather than calling `solve`, which allocates a
fresh table each time. Importing this package compiles the kernels or loads them from the
numba cache, so the game server never imports it (docs/conventions.md section 1).
"""

from typing import Final

import numpy as np

from engine.errors import InvalidInput
from engine.skat.solver.drivers import EXACT, WINS, move_bounds, move_values, value
from engine.skat.solver.kernels import chain_top, legal_moves
from engine.skat.solver.options import Options
from engine.skat.solver.position import (
    CARDS,
    KIND_POINTS,
    NO_CARD,
    PLAYERS,
    S_LEADER,
    S_TRICK,
    S_TRICK_N,
    Int64Array,
    Position,
    from_internal,
    owners,
    pack,
    rules_table,
)
from engine.skat.solver.query import (
    SCHWARZ,
    WIN_POINTS,
    Mode,
    MoveValue,
    Question,
    SolveResult,
    Target,
    ask,
)
from engine.skat.solver.ranks import fill_groups
from engine.skat.solver.search import N_STATS, ST_NODES, test
from engine.skat.solver.stack import MAX_PLY, W_SIZE
from engine.skat.solver.table import MAX_STAMP

__all__ = [
    "SCHWARZ",
    "WIN_POINTS",
    "Mode",
    "MoveValue",
    "Options",
    "Position",
    "SolveResult",
    "Solver",
    "Target",
    "solve",
]

# 2**21 entries of 8 bytes: with rank-normalised keys 8 % fewer value nodes than 2**20 at the
# same speed; 2**22 was slower per node (TLB misses) despite 11 % fewer nodes.
DEFAULT_TABLE_BITS: Final = 21
_MAX_TABLE_BITS: Final = 24  # 128 MiB, the most one instance may take with room to spare
_MIN_TABLE_BITS: Final = 10


class Solver:
    """A solver with its own transposition table, reused (never cleared) across solves.

    Entries carry the stamp of the world they belong to: a position whose cards all sit with
    the same owners as in the previous solve (same game, declarer and count) keeps the stamp
    and reuses the entries, as when one world is solved move after move; any other world gets
    a new stamp, which invalidates the old entries without touching memory. Not thread-safe.
    """

    def __init__(self, options: Options | None = None, table_bits: int = DEFAULT_TABLE_BITS):
        if not _MIN_TABLE_BITS <= table_bits <= _MAX_TABLE_BITS:
            raise InvalidInput(f"table_bits must be {_MIN_TABLE_BITS}..{_MAX_TABLE_BITS}")
        self.options = options or Options()
        self._opts = self.options.to_array()
        self._table = np.zeros(1 << table_bits, dtype=np.int64)
        self._work = np.zeros((MAX_PLY, W_SIZE), dtype=np.int64)
        self._stats = np.zeros(N_STATS, dtype=np.int64)
        self._stamp = 0
        self._context: tuple[str, int, int] | None = None
        self._owners = (0, 0, 0)

    @property
    def table_bytes(self) -> int:
        """Memory of the transposition table."""
        return int(self._table.nbytes)

    def solve(self, position: Position, mode: Mode = "value", target: Target = None) -> SolveResult:
        """Answer `mode` for `position` (see the package doc); raises InvalidInput."""
        question = ask(position, mode, target)
        self._stats[:] = 0
        if mode in ("moves", "best"):
            exact = position.game != "null" and target is None
            return self._moves(position, question, exact, mode == "moves")
        if mode == "value" and position.game != "null":
            banked = position.declarer_points
            guess = question.needed if question.kind == KIND_POINTS else WIN_POINTS - banked
            future = self._value(position, guess)
            points: int | None = banked + future
            if question.kind == KIND_POINTS:
                wins = future >= question.needed
            else:  # schwarz counts tricks: its own search
                wins = self._test(position, question.kind, question.needed) >= question.needed
        else:
            points = None
            wins = self._test(position, question.kind, question.needed) >= question.needed
        return SolveResult(points, wins, (), int(self._stats[ST_NODES]))

    def _state(self, position: Position, kind: int) -> tuple[Int64Array, Int64Array]:
        """The packed position and rules, with the stamp of its world."""
        context = (position.game, position.declarer, kind)
        held = owners(position)
        same_world = context == self._context and all(
            not held[i] & (self._owners[(i + 1) % PLAYERS] | self._owners[(i + 2) % PLAYERS])
            for i in range(PLAYERS)
        )
        if same_world:
            self._owners = (
                self._owners[0] | held[0],
                self._owners[1] | held[1],
                self._owners[2] | held[2],
            )
        else:
            self._stamp += 1
            if self._stamp > MAX_STAMP:
                self._table[:] = 0
                self._stamp = 1
            self._context = context
            self._owners = held
        state, rules = pack(position, self._stamp), rules_table(position.game, kind)
        if self.options.rank_keys:
            fill_groups(state, rules)
        return state, rules

    def _test(self, position: Position, kind: int, needed: int) -> int:
        state, rules = self._state(position, kind)
        args = (state, rules, self._opts, self._table, self._work, self._stats)
        return int(test(*args, needed))

    def _value(self, position: Position, guess: int) -> int:
        state, rules = self._state(position, KIND_POINTS)
        args = (state, rules, self._opts, self._table, self._work, self._stats)
        return int(value(*args, guess))

    def _moves(
        self, position: Position, question: Question, exact: bool, every: bool
    ) -> SolveResult:
        kind = KIND_POINTS if exact else question.kind
        state, rules = self._state(position, kind)
        groups = _groups(state, rules)
        tops = np.array([g[0] for g in groups], dtype=np.int64)
        out = np.zeros(len(groups), dtype=np.int64)
        flags = np.zeros(len(groups), dtype=np.int64)
        args = (state, rules, self._opts, self._table, self._work, self._stats, tops)
        banked = position.declarer_points
        if exact:
            move_values(*args, question.needed, question.needed, every, out, flags)
        else:
            move_bounds(*args, question.needed, out)
            flags[:] = np.where(out >= question.needed, WINS, 0)
        moves = tuple(
            MoveValue(
                tuple(from_internal(position.game, c) for c in group),
                banked + int(v) if exact else None,
                bool(f & WINS),
                bool(f & EXACT) or not exact,
            )
            for group, v, f in zip(groups, out, flags, strict=True)
        )
        moves = tuple(sorted(moves, key=lambda m: -m.cards[0]))
        nodes = int(self._stats[ST_NODES])
        if not moves:  # the play is over
            return SolveResult(banked if exact else None, question.needed <= 0, (), nodes)
        pick = max if position.to_move == position.declarer else min
        total = pick(m.declarer_points or 0 for m in moves) if exact else None
        return SolveResult(total, pick(m.declarer_wins for m in moves), moves, nodes)


def _groups(state: Int64Array, rules: Int64Array) -> list[list[int]]:
    """Legal cards of the player to move (internal) in runs of equivalent cards, top first."""
    count = int(state[S_TRICK_N])
    player = (int(state[S_LEADER]) + count) % PLAYERS
    hand = int(state[player])
    lead = int(state[S_TRICK]) if count else NO_CARD
    in_play = int(state[0] | state[1] | state[2])
    for i in range(count):
        in_play |= 1 << int(state[S_TRICK + i])
    legal = int(legal_moves(hand, lead, rules))
    runs: dict[int, list[int]] = {}
    for card in sorted((c for c in range(CARDS) if legal >> c & 1), reverse=True):
        runs.setdefault(int(chain_top(card, hand, in_play, rules)), []).append(card)
    return list(runs.values())


def solve(position: Position, mode: Mode = "value", target: Target = None) -> SolveResult:
    """`Solver().solve(position, mode, target)` with a fresh table; see the package doc."""
    return Solver().solve(position, mode, target)
