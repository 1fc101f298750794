"""The jitted search: a fail-soft null-window test on an explicit stack, and its drivers.

`test(..., t)` answers "does the declarer's side reach a future value of at least t?" for the
position in a `state` array, where the future value is what `rules` counts from the cards
still in play (see `query`). It returns a fail-soft bound: a value v >= t proves the future
value is at least v, a value v < t proves it is at most v. Points already banked never enter
the search, so the transposition table stores values that stay valid for every question about
the same world.

The search runs without recursion: each ply is one row of the `work` array (see `stack`);
cards are played from the hands in `state` and taken back with XOR, so `state` is unchanged
when the search returns (a local hands array would cost reference-count updates at every
helper call). Trick boundaries consult the transposition table (`table`), the endgame
solvers, the null safe-hand test and the bounds before any move is tried.
"""

from typing import Final

from engine.skat.solver.bounds import side_bound
from engine.skat.solver.endgame import last_trick, two_tricks
from engine.skat.solver.kernels import (
    I64,
    MAT,
    RVEC,
    VEC,
    beats,
    distinct_moves,
    jit,
    legal_moves,
    lowest_index,
    mask_value,
    popcount,
    prefetch,
    trick_gain,
)
from engine.skat.solver.null import null_safe
from engine.skat.solver.options import (
    O_BUCKETS,
    O_EQUIVALENT,
    O_ETC,
    O_FAIL_SOFT,
    O_NULL_SAFE,
    O_TT,
    O_TT_MOVE,
)
from engine.skat.solver.ordering import order_moves
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
from engine.skat.solver.ranks import normalise, normalise_without
from engine.skat.solver.stack import (
    F_ALPHA,
    F_AVAIL,
    F_BEST,
    F_BEST_MOVE,
    F_BETA,
    F_CHILD_KEYS,
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
)
from engine.skat.solver.table import (
    MISSING,
    key_of,
    lower_of,
    move_of,
    probe,
    slot_of,
    store,
    upper_of,
)

__all__ = [
    "N_STATS",
    "ST_NODES",
    "ST_PROBES",
    "init_root",
    "search",
    "test",
]

ST_NODES: Final = 0  # nodes searched
ST_PROBES: Final = 1  # null-window searches run
N_STATS: Final = 2

_ENTER: Final = 0
_NEXT: Final = 1
_FINISH: Final = 2
_UP: Final = 3
_UNSET: Final = 1 << 20  # beyond any value
_NO_TABLE_CARDS: Final = 2  # trick boundaries with this many cards or fewer are solved directly


@jit(I64(VEC, MAT, RVEC))
def init_root(state: Int64Array, work: Int64Array, rules: Int64Array) -> int:
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
    stamp = state[S_STAMP]
    bonus = rules[R_BONUS]
    null = rules[R_NULL] == 1
    use_tt = opts[O_TT] == 1
    size = tt.shape[0]
    ways = 2 if opts[O_BUCKETS] == 1 else 1
    init_root(state, work, rules)
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
                cards = popcount(state[player])
                if cards == 1:
                    result = last_trick(state, player, declarer, rules)
                    continue
                if cards == 2:
                    result = two_tricks(state, player, declarer, avail, rules)
                    continue
                if use_tt:
                    key = work[ply, F_KEY]  # set by the parent below the root
                    if ply == 0:
                        remaining = normalise(state, state[0] | state[1] | state[2])
                        key = key_of(remaining, player, stamp)
                    slot = slot_of(key, size)
                    entry = probe(tt, slot, key, ways)
                    if entry != MISSING:
                        lower = lower_of(entry)
                        upper = upper_of(entry)
                        if lower >= beta or lower == upper:
                            result = lower
                            continue
                        if upper <= alpha:
                            result = upper
                            continue
                        if opts[O_TT_MOVE] == 1:
                            first = move_of(entry)
                    work[ply, F_SLOT] = slot
                    work[ply, F_KEY] = key
                if null:
                    safe = opts[O_NULL_SAFE] == 1 and player != declarer
                    if safe and null_safe(state, declarer, rules):
                        result = avail
                        continue
                else:
                    lower = side_bound(state, player, declarer, beta, rules, opts)
                    if lower >= beta:
                        result = lower
                        continue
                    defender = (declarer + 1) % PLAYERS
                    upper = avail - side_bound(state, player, defender, avail - alpha, rules, opts)
                    if upper <= alpha:
                        result = upper
                        continue
            hand = state[player]
            moves = legal_moves(hand, work[ply, F_LEAD], rules)
            if opts[O_EQUIVALENT] == 1:
                in_play = state[0] | state[1] | state[2] | work[ply, F_TABLE]
                moves = distinct_moves(moves, hand, in_play, rules)
            last_card = use_tt and work[ply, F_POS] == PLAYERS - 1
            last_card = last_card and popcount(hand) > _NO_TABLE_CARDS + 1
            if last_card:
                # The children are trick boundaries: start loading their entries now, so
                # that they have arrived when ETC looks at them after the ordering, or
                # when the children are searched.
                remaining = state[0] | state[1] | state[2]
                normalised = normalise(state, remaining)
                rest = moves
                while rest:
                    card = lowest_index(rest)
                    rest ^= 1 << card
                    winner = work[ply, F_WINP]
                    if beats(card, work[ply, F_WIN], rules):
                        winner = player
                    child = normalise_without(state, normalised, remaining, card)
                    key = key_of(child, winner, stamp)
                    work[ply, F_CHILD_KEYS + card] = key
                    prefetch(tt, slot_of(key, size))
            work[ply, F_N] = order_moves(work, ply, moves, state, rules, declarer, first, opts)
            work[ply, F_I] = 0
            work[ply, F_BEST] = -_UNSET if player == declarer else _UNSET
            work[ply, F_BEST_MOVE] = NO_CARD
            action = _NEXT
            if last_card and opts[O_ETC] == 1:
                # A child whose entry proves a cut ends the node; one whose entry proves it
                # cannot help the player to move (or its side) only contributes that bound.
                kept = 0
                for i in range(work[ply, F_N]):
                    card = work[ply, F_MV + i]
                    key = work[ply, F_CHILD_KEYS + card]
                    entry = probe(tt, slot_of(key, size), key, ways)
                    if entry != MISSING:
                        winner = work[ply, F_WINP]
                        if beats(card, work[ply, F_WIN], rules):
                            winner = player
                        trick = work[ply, F_TPTS] + rules[R_PTS + card] + bonus
                        gain = trick_gain(trick, winner, declarer, rules)
                        lower = gain + lower_of(entry)
                        upper = gain + upper_of(entry)
                        if player == declarer:
                            if lower >= beta:
                                result = lower
                                action = _UP
                                break
                            if upper <= alpha:
                                if upper > work[ply, F_BEST]:
                                    work[ply, F_BEST] = upper
                                    work[ply, F_BEST_MOVE] = card
                                continue
                        else:
                            if upper <= alpha:
                                result = upper
                                action = _UP
                                break
                            if lower >= beta:
                                if lower < work[ply, F_BEST]:
                                    work[ply, F_BEST] = lower
                                    work[ply, F_BEST_MOVE] = card
                                continue
                    work[ply, F_MV + kept] = card
                    kept += 1
                work[ply, F_N] = kept
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
                work[ply + 1, F_KEY] = work[ply, F_CHILD_KEYS + card]
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
                store(tt, slot, key, result, alpha, beta, work[ply, F_BEST_MOVE], ways)
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
