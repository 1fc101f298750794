"""Drivers over the null-window search: exact values and the values of every root move."""

from typing import Final

import numpy as np

from engine.skat.solver.kernels import BOOL, I64, MAT, RVEC, VEC, jit, play_card
from engine.skat.solver.options import (
    DRIVER_BISECTION,
    DRIVER_HYBRID,
    DRIVER_WINDOW,
    O_DRIVER,
)
from engine.skat.solver.ordering import order_moves
from engine.skat.solver.position import (
    NO_CARD,
    PLAYERS,
    S_DECLARER,
    S_LEADER,
    S_TRICK_N,
    Int64Array,
)
from engine.skat.solver.search import init_root, search, test
from engine.skat.solver.stack import F_MV

__all__ = ["EXACT", "WINS", "move_bounds", "move_values", "value"]

EXACT: Final = 1  # move_values flag: the value is exact, not a bound
WINS: Final = 2  # move_values flag: the card reaches `needed`


@jit(I64(VEC, RVEC, VEC, VEC, MAT, VEC, I64))
def value(
    state: Int64Array,
    rules: Int64Array,
    opts: Int64Array,
    tt: Int64Array,
    work: Int64Array,
    stats: Int64Array,
    guess: int,
) -> int:
    """Exact future value by the driver the options select (see `options.DRIVERS`).

    The first probe tests `guess` (the win threshold: its answer is needed anyway). The search
    stops as soon as a side reaches its target, so a probe's fail-soft bound rarely moves more
    than a point past the probe; probes below the value (which must prove what the declarer
    gets) cost far more than probes above it. The hybrid driver therefore steps down to the
    fail-soft bound after a probe fails low (MTD(f)) and bisects upwards after one succeeds.
    """
    lower = 0
    upper = init_root(state, work, rules)
    probe = guess
    driver = opts[O_DRIVER]
    first = True
    high = False
    while lower < upper:
        if driver == DRIVER_WINDOW and not first:
            found = search(state, rules, opts, tt, work, stats, lower - 1, upper + 1)
            return max(lower, min(upper, found))
        bisect = driver == DRIVER_BISECTION or (driver == DRIVER_HYBRID and high)
        if bisect and not first:
            beta = (lower + upper + 1) // 2
        else:
            beta = min(max(probe, lower + 1), upper)
        first = False
        probe = test(state, rules, opts, tt, work, stats, beta)
        high = probe >= beta
        if high:
            lower = probe
        else:
            upper = probe
    return lower


@jit(I64(VEC, RVEC, VEC, VEC, MAT, VEC, VEC, I64, I64, BOOL, VEC, VEC), allocates=True)
def move_values(
    state: Int64Array,
    rules: Int64Array,
    opts: Int64Array,
    tt: Int64Array,
    work: Int64Array,
    stats: Int64Array,
    cards: Int64Array,
    guess: int,
    needed: int,
    every: bool,
    out: Int64Array,
    flags: Int64Array,
) -> int:
    """Values of playing each of `cards` (future value from `state`) into `out`, with
    `EXACT` and `WINS` (future value >= `needed`) in `flags`. Returns the number of cards.

    Only the best cards need exact values: the first card gets one (its search starts at
    `guess`), and every later card is first tested with a null window against the best
    value so far. A card that is better gets its exact value from there; any other keeps
    the fail-soft bound that shows it is not (at most the best for the declarer, at least
    the best for a defender), and one more test at `needed` when that bound leaves its
    win answer open. With `every`, each card gets its exact value, each search starting at
    `guess` (the win threshold: 5 % fewer nodes than starting at the previous card's value,
    whose probes below a card's value are the expensive ones). All searches share the warm
    table.
    """
    count: int = cards.shape[0]
    declarer = state[S_DECLARER]
    maximise = (state[S_LEADER] + state[S_TRICK_N]) % PLAYERS == declarer
    init_root(state, work, rules)
    tops = 0
    for i in range(count):
        tops |= 1 << cards[i]
    order_moves(work, 0, tops, state, rules, declarer, NO_CARD, opts)
    order = work[0, F_MV : F_MV + count].copy()  # the best card first saves most
    child = np.empty_like(state)
    best = 0
    for k in range(count):
        i = 0
        while cards[i] != order[k]:
            i += 1
        child[:] = state
        gain = play_card(child, rules, cards[i])
        exact = k == 0 or every
        if exact:
            found = gain + value(child, rules, opts, tt, work, stats, guess - gain)
        else:
            probe = best + 1 if maximise else best
            found = gain + test(child, rules, opts, tt, work, stats, probe - gain)
            exact = found >= probe if maximise else found < probe
            if exact:
                start = found + 1 if maximise else found
                found = gain + value(child, rules, opts, tt, work, stats, start - gain)
        if exact and (k == 0 or (found > best if maximise else found < best)):
            best = found
        wins = found >= needed
        open_win = not exact and (found >= needed if maximise else found < needed)
        if open_win:
            wins = gain + test(child, rules, opts, tt, work, stats, needed - gain) >= needed
        out[i] = found
        flags[i] = (EXACT if exact else 0) | (WINS if wins else 0)
    return count


@jit(I64(VEC, RVEC, VEC, VEC, MAT, VEC, VEC, I64, VEC), allocates=True)
def move_bounds(
    state: Int64Array,
    rules: Int64Array,
    opts: Int64Array,
    tt: Int64Array,
    work: Int64Array,
    stats: Int64Array,
    cards: Int64Array,
    needed: int,
    out: Int64Array,
) -> int:
    """For each of `cards`, a fail-soft bound of the future value after it against `needed`
    into `out` (`out[i] >= needed` iff that card reaches it). Returns the number of cards."""
    child = np.empty_like(state)
    for i in range(cards.shape[0]):
        child[:] = state
        gain = play_card(child, rules, cards[i])
        out[i] = gain + test(child, rules, opts, tt, work, stats, needed - gain)
    count: int = cards.shape[0]
    return count
