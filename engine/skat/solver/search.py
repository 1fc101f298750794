"""The jitted search: a fail-soft null-window test on an explicit stack, and its drivers.

`test(..., t)` answers "does the declarer's side reach a future value of at least t?" for the
position in a `state` array, where the future value is what `rules` counts from the cards
still in play (see `query`). It returns a fail-soft bound: a value v >= t proves the future
value is at least v, a value v < t proves it is at most v. Points already banked never enter
the search, so the transposition table stores values that stay valid for every question about
the same world.

The search runs without recursion: each ply is one row of the `work` array (the node's window,
move list and trick state); cards are played from the hands in `state` and taken back with
XOR, so `state` is unchanged when the search returns (a local hands array would cost
reference-count updates at every helper call). The transposition table holds one packed int64
per entry, keyed at trick boundaries by the remaining cards, the seat on lead and the `stamp`
that names the world (who holds which card, game and declarer); the entry also holds lower
and upper bounds and the best lead.
"""

from typing import Final

import numpy as np

from engine.skat.solver.kernels import (
    F_ALPHA,
    F_AVAIL,
    F_BEST,
    F_BEST_MOVE,
    F_BETA,
    F_GAIN,
    F_I,
    F_KEY,
    F_LEAD,
    F_MOVE,
    F_MV,
    F_N,
    F_PLAYER,
    F_POS,
    F_SLOT,
    F_TABLE,
    F_TPTS,
    F_WIN,
    F_WINP,
    I64,
    MAT,
    RVEC,
    VEC,
    W_SIZE,
    beats,
    distinct_moves,
    jit,
    last_trick,
    legal_moves,
    mask_value,
    order_moves,
    play_card,
    popcount,
    quick_value,
    sure_value,
    trick_gain,
)
from engine.skat.solver.null import null_safe
from engine.skat.solver.options import (
    DRIVER_BISECTION,
    DRIVER_WINDOW,
    O_DRIVER,
    O_EQUIVALENT,
    O_FAIL_SOFT,
    O_NULL_SAFE,
    O_ORDERING,
    O_QUICK_TRICKS,
    O_SURE_CARDS,
    O_TT,
    O_TT_MOVE,
)
from engine.skat.solver.position import (
    NO_CARD,
    PLAYERS,
    R_BONUS,
    R_NULL,
    R_PTS,
    S_DECLARER,
    S_LEADER,
    S_STAMP,
    S_TRICK,
    S_TRICK_N,
    Int64Array,
)

__all__ = [
    "MAX_PLY",
    "MAX_STAMP",
    "N_STATS",
    "ST_NODES",
    "ST_PROBES",
    "W_SIZE",
    "move_bounds",
    "move_values",
    "search",
    "test",
    "value",
]

MAX_PLY: Final = 32  # 30 cards, one row per card plus the final node
ST_NODES: Final = 0  # nodes searched
ST_PROBES: Final = 1  # null-window searches run
N_STATS: Final = 2

# Packed transposition table entry (bit 63 stays clear, so shifts need no sign care).
_KEY_LEADER: Final = 32  # remaining cards in bits 0..31, seat on lead in 32..33
_KEY_STAMP: Final = 34  # world stamp in bits 34..43
_STAMP_BITS: Final = 10
MAX_STAMP: Final = (1 << _STAMP_BITS) - 1
_KEY_MASK: Final = (1 << (_KEY_STAMP + _STAMP_BITS)) - 1
_LOWER: Final = _KEY_STAMP + _STAMP_BITS  # lower bound, 7 bits
_VALUE_BITS: Final = 7
_VALUE_MASK: Final = (1 << _VALUE_BITS) - 1  # also "no upper bound yet"
_UPPER: Final = _LOWER + _VALUE_BITS
_MOVE: Final = _UPPER + _VALUE_BITS  # best lead, 5 bits
_MOVE_MASK: Final = 31
_HASH_MULT: Final = 0x1E3779B97F4A7C15  # odd, below 2**63: int64 multiply wraps like uint64
_HASH_SHIFT: Final = 40  # slot = bits 40.. of the product (the same with and without JIT)

_ENTER: Final = 0
_NEXT: Final = 1
_FINISH: Final = 2
_UP: Final = 3
_UNSET: Final = 1 << 20  # beyond any value


@jit(I64(I64, I64))
def _slot(key: int, size: int) -> int:
    return (key * _HASH_MULT) >> _HASH_SHIFT & (size - 1)


@jit(I64(VEC, MAT, RVEC))
def _init_root(state: Int64Array, work: Int64Array, rules: Int64Array) -> int:
    """Fill row 0 of `work` from `state`; returns the value still in play."""
    leader = state[S_LEADER]
    count = state[S_TRICK_N]
    table = 0
    points = 0
    win = NO_CARD
    winner = NO_CARD
    for i in range(count):
        card = state[S_TRICK + i]
        table |= 1 << card
        points += rules[R_PTS + card]
        if i == 0 or beats(card, win, rules):
            win = card
            winner = (leader + i) % PLAYERS
    player = (leader + count) % PLAYERS
    row = work[0]
    row[F_PLAYER] = player
    row[F_POS] = count
    row[F_LEAD] = state[S_TRICK] if count else NO_CARD
    row[F_WIN] = win
    row[F_WINP] = winner
    row[F_TPTS] = points
    row[F_TABLE] = table
    in_hands = state[0] | state[1] | state[2]
    avail: int = mask_value(in_hands, rules) + points + rules[R_BONUS] * popcount(state[player])
    row[F_AVAIL] = avail
    return avail


@jit(I64(VEC, I64, I64, RVEC, VEC))
def _side_bound(
    state: Int64Array, leader: int, side: int, rules: Int64Array, opts: Int64Array
) -> int:
    """Value the side of seat `side` surely takes at a trick boundary with `leader` to lead:
    its sure cards, or its quick tricks when it is on lead, whichever is more."""
    in_play = state[0] | state[1] | state[2]
    declarer_side = state[S_DECLARER] == side
    mine = state[side] if declarer_side else in_play & ~state[state[S_DECLARER]]
    sure = 0
    if opts[O_SURE_CARDS] == 1:
        sure = sure_value(mine, in_play & ~mine, rules)
    if opts[O_QUICK_TRICKS] == 1 and (leader == state[S_DECLARER]) == declarer_side:
        sure = max(sure, quick_value(state, leader, rules))
    return sure


@jit(I64(VEC, RVEC, VEC, VEC, MAT, VEC, I64, I64))
def search(
    state: Int64Array,
    rules: Int64Array,
    opts: Int64Array,
    tt: Int64Array,
    work: Int64Array,
    stats: Int64Array,
    alpha: int,
    beta: int,
) -> int:
    """Fail-soft alpha-beta value of the future value for the position in `state`.

    A result v <= alpha is an upper bound, v >= beta a lower bound, anything between exact;
    `(t - 1, t)` is the null-window test "future value >= t" (see module doc).
    """
    declarer = state[S_DECLARER]
    stamp = state[S_STAMP] << _KEY_STAMP
    bonus = rules[R_BONUS]
    null = rules[R_NULL] == 1
    use_tt = opts[O_TT] == 1
    size = tt.shape[0]
    _init_root(state, work, rules)
    work[0, F_ALPHA] = alpha
    work[0, F_BETA] = beta
    stats[ST_PROBES] += 1
    ply = 0
    result = 0
    action = _ENTER
    while True:
        if action == _ENTER:
            stats[ST_NODES] += 1
            alpha = work[ply, F_ALPHA]
            beta = work[ply, F_BETA]
            avail = work[ply, F_AVAIL]
            action = _UP
            if beta <= 0 or avail == 0:
                result = 0
                continue
            if avail <= alpha:
                result = avail
                continue
            player = work[ply, F_PLAYER]
            first = NO_CARD
            work[ply, F_SLOT] = -1
            if work[ply, F_POS] == 0:
                if popcount(state[player]) == 1:
                    result = last_trick(state, player, declarer, rules)
                    continue
                if use_tt:
                    key = state[0] | state[1] | state[2] | player << _KEY_LEADER | stamp
                    slot = _slot(key, size)
                    entry = tt[slot]
                    if entry & _KEY_MASK == key:
                        lower = entry >> _LOWER & _VALUE_MASK
                        upper = entry >> _UPPER & _VALUE_MASK
                        if lower >= beta or lower == upper:
                            result = lower
                            continue
                        if upper <= alpha:
                            result = upper
                            continue
                        if opts[O_TT_MOVE] == 1:
                            first = entry >> _MOVE & _MOVE_MASK
                    work[ply, F_SLOT] = slot
                    work[ply, F_KEY] = key
                if null:
                    safe = opts[O_NULL_SAFE] == 1 and player != declarer
                    if safe and null_safe(state, declarer, rules):
                        result = avail
                        continue
                else:
                    lower = _side_bound(state, player, declarer, rules, opts)
                    if lower >= beta:
                        result = lower
                        continue
                    upper = avail - _side_bound(
                        state, player, (declarer + 1) % PLAYERS, rules, opts
                    )
                    if upper <= alpha:
                        result = upper
                        continue
            hand = state[player]
            moves = legal_moves(hand, work[ply, F_LEAD], rules)
            if opts[O_EQUIVALENT] == 1:
                in_play = state[0] | state[1] | state[2] | work[ply, F_TABLE]
                moves = distinct_moves(moves, hand, in_play, rules)
            work[ply, F_N] = order_moves(
                work, ply, moves, state, rules, declarer, first, opts[O_ORDERING]
            )
            work[ply, F_I] = 0
            work[ply, F_BEST] = -_UNSET if player == declarer else _UNSET
            work[ply, F_BEST_MOVE] = NO_CARD
            action = _NEXT
        elif action == _NEXT:
            i = work[ply, F_I]
            if i == work[ply, F_N]:
                action = _FINISH
                continue
            card = work[ply, F_MV + i]
            player = work[ply, F_PLAYER]
            pos = work[ply, F_POS]
            state[player] ^= 1 << card
            if pos == 0:
                win = card
                winner = player
                points = rules[R_PTS + card]
                table = 1 << card
                lead = card
            else:
                win = work[ply, F_WIN]
                winner = work[ply, F_WINP]
                if beats(card, win, rules):
                    win = card
                    winner = player
                points = work[ply, F_TPTS] + rules[R_PTS + card]
                table = work[ply, F_TABLE] | 1 << card
                lead = work[ply, F_LEAD]
            alpha = work[ply, F_ALPHA]
            beta = work[ply, F_BETA]
            if player == declarer:
                alpha = max(alpha, work[ply, F_BEST])
            else:
                beta = min(beta, work[ply, F_BEST])
            if pos == PLAYERS - 1:
                trick = points + bonus
                gain = trick_gain(trick, winner, declarer, rules)
                work[ply + 1, F_PLAYER] = winner
                work[ply + 1, F_POS] = 0
                work[ply + 1, F_LEAD] = NO_CARD
                work[ply + 1, F_TPTS] = 0
                work[ply + 1, F_TABLE] = 0
                work[ply + 1, F_AVAIL] = work[ply, F_AVAIL] - trick
            else:
                gain = 0
                work[ply + 1, F_PLAYER] = (player + 1) % PLAYERS
                work[ply + 1, F_POS] = pos + 1
                work[ply + 1, F_LEAD] = lead
                work[ply + 1, F_WIN] = win
                work[ply + 1, F_WINP] = winner
                work[ply + 1, F_TPTS] = points
                work[ply + 1, F_TABLE] = table
                work[ply + 1, F_AVAIL] = work[ply, F_AVAIL]
            work[ply + 1, F_ALPHA] = alpha - gain
            work[ply + 1, F_BETA] = beta - gain
            work[ply, F_GAIN] = gain
            work[ply, F_MOVE] = card
            ply += 1
            action = _ENTER
        elif action == _FINISH:
            result = work[ply, F_BEST]
            alpha = work[ply, F_ALPHA]
            beta = work[ply, F_BETA]
            if opts[O_FAIL_SOFT] == 0:
                result = max(alpha, min(beta, result))
            slot = work[ply, F_SLOT]
            if slot >= 0:
                key = work[ply, F_KEY]
                entry = tt[slot]
                lower = 0
                upper = _VALUE_MASK
                move = 0
                if entry & _KEY_MASK == key:
                    lower = entry >> _LOWER & _VALUE_MASK
                    upper = entry >> _UPPER & _VALUE_MASK
                    move = entry >> _MOVE & _MOVE_MASK
                if result > alpha:
                    lower = max(lower, result)
                if result < beta:
                    upper = min(upper, result)
                if work[ply, F_BEST_MOVE] >= 0:
                    move = work[ply, F_BEST_MOVE]
                tt[slot] = key | lower << _LOWER | upper << _UPPER | move << _MOVE
            action = _UP
        else:  # _UP: hand `result` of this ply to its parent
            if opts[O_FAIL_SOFT] == 0:
                result = max(work[ply, F_ALPHA], min(work[ply, F_BETA], result))
            if ply == 0:
                return result
            ply -= 1
            card = work[ply, F_MOVE]
            player = work[ply, F_PLAYER]
            state[player] ^= 1 << card
            child_value = result + work[ply, F_GAIN]
            action = _NEXT
            if player == declarer:
                if child_value > work[ply, F_BEST]:
                    work[ply, F_BEST] = child_value
                    work[ply, F_BEST_MOVE] = card
                if work[ply, F_BEST] >= work[ply, F_BETA]:
                    action = _FINISH
            else:
                if child_value < work[ply, F_BEST]:
                    work[ply, F_BEST] = child_value
                    work[ply, F_BEST_MOVE] = card
                if work[ply, F_BEST] <= work[ply, F_ALPHA]:
                    action = _FINISH
            work[ply, F_I] += 1


@jit(I64(VEC, RVEC, VEC, VEC, MAT, VEC, I64))
def test(
    state: Int64Array,
    rules: Int64Array,
    opts: Int64Array,
    tt: Int64Array,
    work: Int64Array,
    stats: Int64Array,
    t: int,
) -> int:
    """Fail-soft null-window test "future value >= t": v >= t proves at least v, v < t at
    most v."""
    return search(state, rules, opts, tt, work, stats, t - 1, t)


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

    The first probe tests `guess` (the win threshold: its answer is needed anyway). Then the
    window driver searches the remaining side with a real window; MTD(f) keeps probing at the
    last fail-soft bound; bisection probes the middle of the interval left.
    """
    lower = 0
    upper = _init_root(state, work, rules)
    probe = guess
    driver = opts[O_DRIVER]
    first = True
    while lower < upper:
        if driver == DRIVER_WINDOW and not first:
            found = search(state, rules, opts, tt, work, stats, lower - 1, upper + 1)
            return max(lower, min(upper, found))
        if driver == DRIVER_BISECTION and not first:
            beta = (lower + upper + 1) // 2
        else:
            beta = min(max(probe, lower + 1), upper)
        first = False
        probe = test(state, rules, opts, tt, work, stats, beta)
        if probe >= beta:
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
