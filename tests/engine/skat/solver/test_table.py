"""The transposition table's buckets: a store keeps the entry that saved more work."""

import numpy as np

from engine.skat.solver.position import Int64Array
from engine.skat.solver.table import MISSING, key_of, lower_of, probe, slot_of, store

SIZE = 1 << 10
ANY = -1


def _key(stamp: int, cards: int, near: int = ANY, exact: bool = False) -> int:
    """A key of world `stamp` with `cards` cards left, in the bucket of slot `near` (or
    in that very slot with `exact`)."""
    remaining = (1 << cards) - 1
    while True:
        key = key_of(remaining, 0, stamp)
        slot = slot_of(key, SIZE)
        if near == ANY or slot == near or (not exact and slot == near ^ 1):
            return key
        low = remaining & -remaining  # the next mask with as many bits
        ripple = remaining + low
        remaining = ripple | ((remaining ^ ripple) >> 2) // low


def _put(tt: Int64Array, key: int, value: int, ways: int, slot: int = ANY) -> None:
    """Store the exact `value` for `key` (in `slot` instead of the key's own)."""
    store(
        tt, slot_of(key, SIZE) if slot == ANY else slot, key, value, value - 1, value + 1, 0, ways
    )


def _get(tt: Int64Array, key: int, ways: int) -> int:
    entry = probe(tt, slot_of(key, SIZE), key, ways)
    return MISSING if entry == MISSING else lower_of(entry)


def test_a_new_key_replaces_the_entry_with_fewer_cards_left() -> None:
    tt = np.zeros(SIZE, dtype=np.int64)
    deep = _key(1, 9)
    shallow = _key(1, 4, slot_of(deep, SIZE))
    new = _key(1, 6, slot_of(deep, SIZE))
    _put(tt, deep, 30, 2)
    _put(tt, shallow, 20, 2)
    assert (_get(tt, deep, 2), _get(tt, shallow, 2)) == (30, 20)
    _put(tt, new, 10, 2)
    assert (_get(tt, deep, 2), _get(tt, shallow, 2), _get(tt, new, 2)) == (30, MISSING, 10)


def test_entries_of_another_world_go_first_and_a_known_key_is_updated_in_place() -> None:
    tt = np.zeros(SIZE, dtype=np.int64)
    old = _key(1, 9)
    slot = slot_of(old, SIZE)
    deep = _key(2, 8, slot)
    shallow = _key(2, 2, slot)
    _put(tt, old, 30, 1, slot)
    _put(tt, deep, 20, 1, slot ^ 1)
    _put(tt, shallow, 10, 2)  # fewer cards than `deep`, but `old` is of another world
    assert (_get(tt, old, 2), _get(tt, deep, 2), _get(tt, shallow, 2)) == (MISSING, 20, 10)
    _put(tt, deep, 21, 2)
    _put(tt, shallow, 11, 2)  # known keys: merged where they are
    assert (_get(tt, deep, 2), _get(tt, shallow, 2)) == (21, 11)


def test_one_way_always_replaces() -> None:
    tt = np.zeros(SIZE, dtype=np.int64)
    deep = _key(1, 9)
    shallow = _key(1, 4, slot_of(deep, SIZE), exact=True)
    _put(tt, deep, 30, 1)
    _put(tt, shallow, 20, 1)
    assert (_get(tt, deep, 1), _get(tt, shallow, 1)) == (MISSING, 20)
