"""Small jitted leaf functions: the jit helper, bit tricks, legal moves, tricks, equivalence.

Every function works on internal card indices (see `position`): within an effective suit the
higher bit is the stronger card and the trumps are the top block. Cards are int64 indices,
card sets int64 masks below 2**32. Masks are explicit (`& FULL32`), so the code gives the same
answers with `NUMBA_DISABLE_JIT=1`, where ints are unbounded.
"""

from collections.abc import Callable
from typing import Any, Final, TypeVar

import numba
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic, overload, register_jitable

from engine import bits
from engine.skat.solver.position import (
    FULL32,
    NO_CARD,
    PLAYERS,
    R_BONUS,
    R_CLASS,
    R_CREDIT_DEFENDERS,
    R_MASK,
    R_PTS,
    R_SUIT,
    S_DECLARER,
    S_LEADER,
    S_TRICK,
    S_TRICK_N,
    TRUMP_ID,
    VALUE_CLASSES,
    Int64Array,
)

__all__ = [
    "BOOL",
    "GAIN_MASK",
    "I64",
    "MAT",
    "RVEC",
    "VEC",
    "beats",
    "chain_top",
    "distinct_moves",
    "fill_below",
    "jit",
    "legal_moves",
    "lowest_bit",
    "lowest_index",
    "mask_value",
    "play_card",
    "popcount",
    "prefetch",
    "trick_gain",
    "trick_result",
    "winner_of",
    "winner_offset",
]

F = TypeVar("F", bound=Callable[..., Any])

I64: Final = numba.types.int64
VEC: Final = numba.types.Array(I64, 1, "C")
MAT: Final = numba.types.Array(I64, 2, "C")
RVEC: Final = numba.types.Array(I64, 1, "C", readonly=True)
BOOL: Final = numba.types.boolean


def jit(signature: Any, allocates: bool = False, inline: bool = False) -> Callable[[F], F]:
    """`numba.njit(signature, cache=True)` that keeps the function's type for mypy.

    An explicit signature compiles (or loads from the cache) when the module is imported, so only
    bot workers and CLI handlers import the solver (docs/conventions.md section 1). Kernels that do
    not `allocate` are compiled without numba's reference counting: otherwise every call of a helper
    that takes arrays updates their reference counts, about a third of the search time. `inline`
    asks LLVM to inline a helper into its callers: it does not inline larger ones on its own, and a
    call passes every array as seven words (about 10 % of the search time).
    """

    def wrap(fn: F) -> F:
        options: dict[str, Any] = {"cache": True, "_nrt": allocates}  # _nrt is not in the stubs
        if inline:
            options["forceinline"] = True
        compiled: F = numba.njit(signature, **options)(fn)
        return compiled

    return wrap


register_jitable(bits.popcount_swar)  # lets numba compile bits.lowest_index, which calls it
popcount = jit(I64(I64))(bits.popcount_swar)
lowest_index = jit(I64(I64))(bits.lowest_index)
lowest_bit = jit(I64(I64))(bits.lowest_bit)
fill_below = jit(I64(I64))(bits.fill_below)


def prefetch(table: Int64Array, index: int) -> int:
    """Start loading `table[index]` into the cache without waiting for it (a no-op without
    the JIT). A transposition table probe misses the cache; several loads in flight cost
    about as much as one, so the search announces the entries it will probe soon."""
    return 0


def _prefetch_typing(typingctx: Any, table: Any, index: Any) -> tuple[Any, Any]:
    """The jitted `prefetch`: LLVM's `llvm.prefetch` (read, keep in all cache levels)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        get_pointer: Any = cgutils.get_item_pointer
        pointer = get_pointer(context, builder, array_type, array, [args[1]])
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn_type = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        declare: Any = cgutils.get_or_insert_function
        fn = declare(builder.module, fn_type, "llvm.prefetch.p0")
        read, keep, data = i32(0), i32(3), i32(1)
        builder.call(fn, [builder.bitcast(pointer, byte_pointer), read, keep, data])
        return context.get_constant(I64, 0)

    return I64(table, index), codegen


_prefetch: Any = intrinsic(_prefetch_typing)


@overload(prefetch)
def _prefetch_overload(table: Any, index: Any) -> Any:
    def jitted(table: Any, index: Any) -> Any:
        return _prefetch(table, index)

    return jitted


_WINNER_SHIFT: Final = 8  # trick_result packs the winner above the gain (at most 121)
GAIN_MASK: Final = (1 << _WINNER_SHIFT) - 1


@jit(I64(I64, I64, RVEC))
def legal_moves(hand: int, lead: int, rules: Int64Array) -> int:
    """Cards of `hand` that may be played to a trick led by `lead` (NO_CARD: any card)."""
    if lead < 0:
        return hand
    follow = hand & rules[R_MASK + rules[R_SUIT + lead]]
    return follow if follow else hand


@jit(BOOL(I64, I64, RVEC))
def beats(card: int, best: int, rules: Int64Array) -> bool:
    """Does `card`, played later, beat `best` (trumps sit above every other suit)?"""
    suit = rules[R_SUIT + card]
    return card > best and (suit == rules[R_SUIT + best] or suit == TRUMP_ID)


@jit(I64(I64, RVEC))
def mask_value(mask: int, rules: Int64Array) -> int:
    """Sum of the card values of `mask` (a popcount per value class, no loop over cards)."""
    total = 0
    for i in range(len(VALUE_CLASSES)):
        total += VALUE_CLASSES[i] * popcount(mask & rules[R_CLASS + i])
    return total


@jit(I64(I64, I64, RVEC))
def _next_higher(card: int, in_play: int, rules: Int64Array) -> int:
    """The next stronger card of `card`'s effective suit still in play, or NO_CARD."""
    above = in_play & rules[R_MASK + rules[R_SUIT + card]] & ~((2 << card) - 1) & FULL32
    return lowest_index(above) if above else NO_CARD


@jit(I64(I64, I64, I64, RVEC))
def distinct_moves(legal: int, hand: int, in_play: int, rules: Int64Array) -> int:
    """`legal` without every card whose next stronger card in play is in the same hand and
    worth the same: such runs of cards have the same value, so one (the top) is searched."""
    kept = legal
    rest = legal
    while rest:
        card = lowest_index(rest)
        rest ^= 1 << card
        higher = _next_higher(card, in_play, rules)
        if higher >= 0 and hand >> higher & 1 and rules[R_PTS + higher] == rules[R_PTS + card]:
            kept ^= 1 << card
    return kept


@jit(I64(I64, I64, I64, RVEC))
def chain_top(card: int, hand: int, in_play: int, rules: Int64Array) -> int:
    """The top card of the run of equivalent cards that `card` belongs to."""
    higher = _next_higher(card, in_play, rules)
    while higher >= 0 and hand >> higher & 1 and rules[R_PTS + higher] == rules[R_PTS + card]:
        card = higher
        higher = _next_higher(card, in_play, rules)
    return card


@jit(I64(I64, I64, I64, RVEC))
def trick_gain(value: int, winner: int, declarer: int, rules: Int64Array) -> int:
    """What a completed trick of `value` banks for the counted side (0 for the other)."""
    credited = (winner == declarer) != (rules[R_CREDIT_DEFENDERS] == 1)
    return value if credited else 0


@jit(I64(I64, I64, I64, RVEC))
def winner_offset(first: int, second: int, third: int, rules: Int64Array) -> int:
    """Which card of a complete trick wins it: 0, 1 or 2 in play order."""
    offset = 0
    best = first
    if beats(second, best, rules):
        offset = 1
        best = second
    if beats(third, best, rules):
        offset = 2
    return offset


@jit(I64(I64, I64, I64, I64, I64, RVEC))
def trick_result(
    first: int, second: int, third: int, leader: int, declarer: int, rules: Int64Array
) -> int:
    """A complete trick led by `leader`: what it banks for the counted side, packed with its
    winner (`winner_of`, `result & GAIN_MASK`), so callers get both from one call."""
    winner = (leader + winner_offset(first, second, third, rules)) % PLAYERS
    value = rules[R_BONUS] + rules[R_PTS + first] + rules[R_PTS + second] + rules[R_PTS + third]
    return trick_gain(value, winner, declarer, rules) | winner << _WINNER_SHIFT


@jit(I64(I64))
def winner_of(result: int) -> int:
    """The winner's seat in a `trick_result`."""
    return result >> _WINNER_SHIFT


@jit(I64(VEC, RVEC, I64))
def play_card(state: Int64Array, rules: Int64Array, card: int) -> int:
    """Play `card` for the seat to move in a `state` array, in place; returns the value the
    move banks for the counted side (non-zero only when it completes a trick)."""
    count = state[S_TRICK_N]
    leader = state[S_LEADER]
    state[(leader + count) % PLAYERS] ^= 1 << card
    state[S_TRICK + count] = card
    count += 1
    if count < PLAYERS:
        state[S_TRICK_N] = count
        return 0
    trick = state[S_TRICK : S_TRICK + PLAYERS]
    result = trick_result(trick[0], trick[1], trick[2], leader, state[S_DECLARER], rules)
    for i in range(PLAYERS):
        state[S_TRICK + i] = NO_CARD
    state[S_TRICK_N] = 0
    state[S_LEADER] = winner_of(result)
    gain: int = result & GAIN_MASK
    return gain
