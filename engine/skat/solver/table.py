"""The transposition table: one packed int64 per entry, looked up at trick boundaries.

Within one world (who holds which card, game, declarer and count) the cards still in hands and the
seat on lead fix a trick-boundary position, and the future value does not depend on the points
banked so far. So the key is the remaining cards, the leader and a `stamp` that names the world; the
entry also holds a lower and an upper bound on the future value and the best lead. Key and data
share one int64 (bit 63 stays clear so shifts need no sign care; the prototype in docs/solver.md:
separate arrays and larger tables were slower). With `ways` 2 a key may sit in its slot or the
neighbour `slot ^ 1` (the same cache line): a new key replaces the entry with fewer cards left,
which saved less work, so the deep entries that the longest searches overflow the table with survive
(-4 % value nodes, -12 % on the largest search); with `ways` 1 the slot is always replaced.
"""

from typing import Final

from engine.skat.solver.kernels import I64, VEC, jit, popcount
from engine.skat.solver.position import FULL32, Int64Array

__all__ = [
    "KEY_LEADER",
    "KEY_STAMP",
    "MAX_STAMP",
    "MISSING",
    "key_of",
    "lower_of",
    "move_of",
    "probe",
    "slot_of",
    "store",
    "upper_of",
]

KEY_LEADER: Final = 32  # remaining cards in bits 0..31, seat on lead in 32..33
KEY_STAMP: Final = 34  # world stamp in bits 34..43
_STAMP_BITS: Final = 10
MAX_STAMP: Final = (1 << _STAMP_BITS) - 1
_KEY_MASK: Final = (1 << (KEY_STAMP + _STAMP_BITS)) - 1
_LOWER: Final = KEY_STAMP + _STAMP_BITS  # lower bound, 7 bits
_VALUE_BITS: Final = 7
_VALUE_MASK: Final = (1 << _VALUE_BITS) - 1  # also "no upper bound yet"
_UPPER: Final = _LOWER + _VALUE_BITS
_MOVE: Final = _UPPER + _VALUE_BITS  # best lead, 5 bits
_MOVE_MASK: Final = 31
_HASH_MULT: Final = 0x1E3779B97F4A7C15  # odd, below 2**63: int64 multiply wraps like uint64
_HASH_SHIFT: Final = 40  # slot = bits 40.. of the product (the same with and without JIT)
MISSING: Final = -1  # no entry for the key


@jit(I64(I64, I64, I64))
def key_of(remaining: int, leader: int, stamp: int) -> int:
    """The key of a trick-boundary position of world `stamp`."""
    key: int = remaining & FULL32 | leader << KEY_LEADER | stamp << KEY_STAMP
    return key


@jit(I64(I64, I64))
def slot_of(key: int, size: int) -> int:
    """The slot of `key` in a table of `size` (a power of two) entries."""
    return (int(key) * _HASH_MULT) >> _HASH_SHIFT & (size - 1)  # int(): see bits.popcount_swar


@jit(I64(VEC, I64, I64, I64))
def probe(tt: Int64Array, slot: int, key: int, ways: int) -> int:
    """The entry stored for `key` in the bucket of `slot` (`ways` entries), or MISSING."""
    entry: int = tt[slot]
    if entry & _KEY_MASK == key:
        return entry
    if ways == 2:
        entry = tt[slot ^ 1]
        if entry & _KEY_MASK == key:
            return entry
    return MISSING


@jit(I64(I64, I64))
def _depth(entry: int, key: int) -> int:
    """Cards left in the position of `entry`, or -1 when it belongs to another world than
    `key` (or is empty): what a store keeps rather than replaces."""
    if (entry ^ key) >> KEY_STAMP & MAX_STAMP:
        return -1
    return popcount(entry & FULL32)


@jit(I64(VEC, I64, I64, I64))
def _home(tt: Int64Array, slot: int, key: int, ways: int) -> int:
    """The slot a store of `key` goes to: the one holding it, else the one whose entry has
    fewer cards left (it saved less work) or belongs to another world."""
    if ways == 1 or tt[slot] & _KEY_MASK == key:
        return slot
    other = slot ^ 1
    if tt[other] & _KEY_MASK == key or _depth(tt[other], key) < _depth(tt[slot], key):
        return other
    return slot


@jit(I64(I64))
def lower_of(entry: int) -> int:
    """Lower bound on the future value in an entry."""
    return entry >> _LOWER & _VALUE_MASK


@jit(I64(I64))
def upper_of(entry: int) -> int:
    """Upper bound on the future value in an entry."""
    return entry >> _UPPER & _VALUE_MASK


@jit(I64(I64))
def move_of(entry: int) -> int:
    """Best lead stored in an entry."""
    return entry >> _MOVE & _MOVE_MASK


@jit(I64(VEC, I64, I64, I64, I64, I64, I64, I64))
def store(
    tt: Int64Array, slot: int, key: int, result: int, alpha: int, beta: int, move: int, ways: int
) -> int:
    """Record a fail-soft `result` of window (alpha, beta) and the best `move` (or a negative
    number: keep the stored one), merged with what the slot already knows of `key`."""
    entry = probe(tt, slot, key, ways)
    slot = _home(tt, slot, key, ways)
    lower = 0
    upper = _VALUE_MASK
    if entry != MISSING:
        lower = lower_of(entry)
        upper = upper_of(entry)
        if move < 0:
            move = move_of(entry)
    if result > alpha:
        lower = max(lower, result)
    if result < beta:
        upper = min(upper, result)
    tt[slot] = key | lower << _LOWER | upper << _UPPER | max(move, 0) << _MOVE
    return slot
