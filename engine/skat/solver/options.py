"""Switches for the search techniques, packed into the small int64 array the kernels read.

Every technique can be turned off (or, for the value driver, swapped) so that
the ablation benchmark measures what each one pays. Changing them never changes an answer,
only the work to find it.
"""

from typing import Final, Literal

import msgspec
import numpy as np

from engine.skat.solver.position import Int64Array

__all__ = [
    "DRIVERS",
    "DRIVER_BISECTION",
    "DRIVER_HYBRID",
    "DRIVER_MTD",
    "DRIVER_WINDOW",
    "O_BUCKETS",
    "O_DRIVER",
    "O_EQUIVALENT",
    "O_ETC",
    "O_FAIL_SOFT",
    "O_FOLLOWER_CARDS",
    "O_NULL_SAFE",
    "O_ORDERING",
    "O_PARTNER_LEADS",
    "O_QUICK_TRICKS",
    "O_RANK_KEYS",
    "O_RUFFS",
    "O_SIZE",
    "O_SURE_CARDS",
    "O_TT",
    "O_TT_MOVE",
    "Options",
]

O_TT: Final = 0
O_TT_MOVE: Final = 1
O_EQUIVALENT: Final = 2
O_ORDERING: Final = 3
O_QUICK_TRICKS: Final = 4
O_NULL_SAFE: Final = 5
O_FAIL_SOFT: Final = 6
O_DRIVER: Final = 7
O_SURE_CARDS: Final = 8
O_ETC: Final = 9
O_RANK_KEYS: Final = 10
O_BUCKETS: Final = 11
O_FOLLOWER_CARDS: Final = 12
O_RUFFS: Final = 13
O_PARTNER_LEADS: Final = 14
O_SIZE: Final = 15

DRIVER_BISECTION: Final = 0
DRIVER_MTD: Final = 1
DRIVER_WINDOW: Final = 2
DRIVER_HYBRID: Final = 3
DRIVERS: Final = {
    "hybrid": DRIVER_HYBRID,
    "mtd": DRIVER_MTD,
    "bisection": DRIVER_BISECTION,
    "window": DRIVER_WINDOW,
}


class Options(msgspec.Struct, frozen=True):
    """Search techniques (all on by default).

    Attributes:
        transposition_table: bounds on the future value stored at trick boundaries.
        tt_move: try the best lead stored in the table first.
        equivalent_cards: search only one card of a run of equivalent cards.
        move_ordering: heuristic move order (otherwise highest card first).
        ruff_leads: the ordering leads a plain suit that an opponent can ruff (void in it,
            with trumps) later, and the declarer's trumps last once the defenders hold none
            (needs move_ordering).
        partner_leads: a defender first leads the suits whose top card in play his partner
            holds (needs move_ordering).
        quick_tricks: sure tricks of the side on lead as bounds at trick boundaries.
        sure_cards: cards either side surely wins (top trumps; top plain cards against a side
            without trumps) as bounds at trick boundaries.
        follower_cards: the bounds also count the cheapest cards the other players must add
            to a side's sure tricks (each such trick holds one card of each player).
        null_safe: the safe-hand test that ends a null search early.
        fail_soft: return bounds beyond the window (otherwise fail-hard).
        value_driver: how exact values are found after the win probe: "hybrid" (MTD(f) steps
            down after a probe fails low, bisection up after one succeeds), "mtd" (MTD(f):
            null-window probes at the last fail-soft bound), "bisection" (null-window probes
            halving the interval left) or "window" (one alpha-beta search over it).
        rank_keys: table keys normalised by rank: positions that differ only in which of
            some equal cards (adjacent in rank, same value) were played share an entry.
        tt_buckets: two table entries per bucket (one cache line), the one with fewer cards
            left replaced; otherwise one entry per slot, always replaced.
        etc: enhanced transposition cutoffs: before the third card of a trick, look up every
            child in the table; cut at once when one proves the cut, and skip the children
            whose entries prove they cannot help (their bound counts instead): 32 % fewer
            value nodes. The children's entries are loaded before the moves are ordered, so the
            lookups rarely wait for memory (looked up after the ordering, ETC cost as much
            time as it saved).
    """

    transposition_table: bool = True
    tt_move: bool = True
    equivalent_cards: bool = True
    move_ordering: bool = True
    ruff_leads: bool = True
    partner_leads: bool = True
    quick_tricks: bool = True
    sure_cards: bool = True
    follower_cards: bool = True
    null_safe: bool = True
    fail_soft: bool = True
    value_driver: Literal["hybrid", "mtd", "bisection", "window"] = "hybrid"
    etc: bool = True
    rank_keys: bool = True
    tt_buckets: bool = True

    def to_array(self) -> Int64Array:
        """The `opts` array of the kernels."""
        flags = np.zeros(O_SIZE, dtype=np.int64)
        flags[O_TT] = self.transposition_table
        flags[O_TT_MOVE] = self.tt_move
        flags[O_EQUIVALENT] = self.equivalent_cards
        flags[O_ORDERING] = self.move_ordering
        flags[O_RUFFS] = self.ruff_leads
        flags[O_PARTNER_LEADS] = self.partner_leads
        flags[O_QUICK_TRICKS] = self.quick_tricks
        flags[O_SURE_CARDS] = self.sure_cards
        flags[O_FOLLOWER_CARDS] = self.follower_cards
        flags[O_NULL_SAFE] = self.null_safe
        flags[O_FAIL_SOFT] = self.fail_soft
        flags[O_DRIVER] = DRIVERS[self.value_driver]
        flags[O_ETC] = self.etc
        flags[O_RANK_KEYS] = self.rank_keys
        flags[O_BUCKETS] = self.tt_buckets
        return flags
