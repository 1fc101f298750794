"""Drivers over the null-window search: exact values and the values of every root move."""

import numpy as np

from engine.skat.solver.kernels import I64, MAT, RVEC, VEC, jit, play_card
from engine.skat.solver.options import DRIVER_BISECTION, DRIVER_HYBRID, DRIVER_WINDOW, O_DRIVER
from engine.skat.solver.position import Int64Array
from engine.skat.solver.search import init_root, search, test

__all__ = ["move_bounds", "move_values", "value"]


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


@jit(I64(VEC, RVEC, VEC, VEC, MAT, VEC, VEC, I64, VEC), allocates=True)
def move_values(
    state: Int64Array,
    rules: Int64Array,
    opts: Int64Array,
    tt: Int64Array,
    work: Int64Array,
    stats: Int64Array,
    cards: Int64Array,
    guess: int,
    out: Int64Array,
) -> int:
    """Exact value of playing each of `cards` (future value from `state`) into `out`; each
    search starts from the previous card's value. Returns the number of cards."""
    child = np.empty_like(state)
    for i in range(cards.shape[0]):
        child[:] = state
        gain = play_card(child, rules, cards[i])
        out[i] = gain + value(child, rules, opts, tt, work, stats, guess - gain)
        guess = out[i]
    count: int = cards.shape[0]
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
