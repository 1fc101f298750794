"""The only bit tricks in the code base, shared by both games.

Card sets are plain ints used as bit masks (Skat: 32 bits, Tichu: 56 bits). The Python helpers
use `int.bit_count`; `popcount_swar` is written so that numba can compile it (numba does not
support `int.bit_count`, numba#10832), and the solver kernels jit that one.
"""

from collections.abc import Iterator

__all__ = [
    "FULL64",
    "bit_index",
    "fill_below",
    "iter_bits",
    "lowest_bit",
    "lowest_index",
    "nibble_popcounts",
    "popcount",
    "popcount_swar",
]

FULL64 = (1 << 64) - 1

_M1 = 0x5555555555555555
_M2 = 0x3333333333333333
_M4 = 0x0F0F0F0F0F0F0F0F
_H01 = 0x0101010101010101


def popcount(mask: int) -> int:
    """Number of set bits of a non-negative mask."""
    return mask.bit_count()


def popcount_swar(x: int) -> int:
    """Number of set bits of a non-negative mask below 2**63, without `int.bit_count`.

    Safe under numba's int64 arithmetic (the multiply wraps, the final shift keeps the top
    byte) and in plain Python (the explicit masks keep the value bounded); `int()` turns a
    numpy int64 (an array element when numba's JIT is disabled) into a Python int first.
    """
    x = int(x)
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    return ((x * _H01) & FULL64) >> 56


def lowest_index(mask: int) -> int:
    """Index of the lowest set bit of a mask with 0 < mask < 2**63 (trailing zeros).

    Jittable like `popcount_swar`, which LLVM turns into one `popcnt`: counting the bits
    below the lowest set bit is a trailing-zero count without a numba-only intrinsic, so the
    same code runs with `NUMBA_DISABLE_JIT=1`.
    """
    return popcount_swar((mask & -mask) - 1)


def fill_below(mask: int) -> int:
    """`mask` with every bit below its highest set bit set as well (0 for 0), for 0 <= mask
    < 2**63: `~fill_below(m)` is everything above the highest card of `m`. Jittable."""
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    return mask


def nibble_popcounts(mask: int) -> int:
    """Each 4-bit nibble of a non-negative mask replaced by its number of set bits (0..4).

    Tichu's rank-major layout keeps a value's cards in one nibble, so this turns a card set
    into its count per value in two steps of the SWAR popcount.
    """
    pairs = mask - ((mask >> 1) & _M1)
    return (pairs & _M2) + ((pairs >> 2) & _M2)


def lowest_bit(mask: int) -> int:
    """The lowest set bit of `mask` as a mask (0 for an empty mask)."""
    return mask & -mask


def bit_index(single: int) -> int:
    """Index of the only set bit of `single`."""
    return single.bit_length() - 1


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
