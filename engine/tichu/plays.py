"""The fast legal-move generator: every combination a hand can lead or play on a trick.

`plays(hand, table)` lists each playable card set once, with the combination `classify` gives
it, so the state machine can filter the list through its legality predicate without
classifying again. Whose turn it is, the wish and the bomb timing are the state's business.

Generation is table-driven over rank nibbles (see `cards`): the singles of a byte of the hand
and the pairs and triples of a nibble (with and without the Phoenix) are precomputed
(card set, combination) tuples, so most of a lead is concatenating them. The windows of
values that can carry straights and stairs depend only on which values are held and are
cached; a window's card sets are the product of its values' cards, built by itertools. The
Phoenix fills at most one slot. A Phoenix card set with several readings is produced once,
for its highest reading (the one `classify` gives).

The lists keep one order that survives taking cards away: the leads of a smaller hand are the
leads of a larger one that it still holds, in the same order (`play_actions` relies on it).
"""

from collections.abc import Callable
from functools import lru_cache
from itertools import product, repeat
from typing import Final

from engine.bits import nibble_popcounts, popcount
from engine.tichu.cards import (
    ACE,
    DOG,
    DRAGON,
    DRAGON_VALUE,
    LOWEST_RANK,
    MAHJONG,
    MAHJONG_VALUE,
    PHOENIX,
    RANK_MASK,
    RANK_STRIDE,
    STANDARD,
    CardMask,
)
from engine.tichu.combos import (
    BOMB4,
    BOMBSF,
    DOG_COMBO,
    DRAGON_HEIGHT,
    FULLHOUSE,
    KIND_SHIFT,
    MIN_STRAIGHT,
    NO_COMBO,
    PAIR,
    PHOENIX_LED_HEIGHT,
    SINGLE,
    STAIRS,
    STRAIGHT,
    TRIPLE,
    Combo,
    combo,
    height,
    height_of,
    kind_of,
    length_of,
    lowest_value_above,
)

__all__ = ["Play", "bombs", "has_bomb", "plays"]

Play = tuple[CardMask, Combo]
# (value, nibble): the cards of one standard value in a hand, as a nibble of suits.
Rank = tuple[int, int]

_NIBBLE: Final = (1 << RANK_STRIDE) - 1
_SUITS: Final = RANK_STRIDE
_PAIR_SIZE: Final = 2
_TRIPLE_SIZE: Final = 3
_BOMB4_LENGTH: Final = 4
_FULLHOUSE_LENGTH: Final = _TRIPLE_SIZE + _PAIR_SIZE
_NIBBLES: Final = _NIBBLE + 1
_VALUES_PER_BYTE: Final = 8 // RANK_STRIDE
_BYTE: Final = 8
_BYTES: Final = 8  # a hand mask fits in 64 bits
_VALUE_SLOTS: Final = DRAGON_VALUE + 1
_SPAN_CACHE: Final = 1 << 16
# A hand comes back within a round (a seat passing keeps its cards): a small cache catches
# that and keeps the garbage collector's work (a tracked object per entry) small.
_HAND_CACHE: Final = 1 << 10
_LAST_STRAIGHT_BOTTOM: Final = ACE - MIN_STRAIGHT + 1
_FIFTH_VALUE: Final = (MIN_STRAIGHT - 1) * RANK_STRIDE  # shift from a value to four above


def _subsets(value: int, nibble: int, k: int) -> tuple[CardMask, ...]:
    """The card sets of k cards of the standard `value` among the suits in `nibble`."""
    if not LOWEST_RANK <= value <= ACE:
        return ()
    shift = RANK_STRIDE * value
    return tuple(
        sub << shift for sub in range(_NIBBLE + 1) if sub & nibble == sub and popcount(sub) == k
    )


# _SETS[v][nibble][k]: `_subsets(v, nibble, k)`; _WITH_PHOENIX[v][nibble]: each single of
# value v plus the Phoenix.
_SETS: Final = tuple(
    tuple(tuple(_subsets(v, n, k) for k in range(RANK_STRIDE + 1)) for n in range(_NIBBLE + 1))
    for v in range(_VALUE_SLOTS)
)
_WITH_PHOENIX: Final = tuple(
    tuple(tuple(s | PHOENIX for s in _SETS[v][n][1]) for n in range(_NIBBLE + 1))
    for v in range(_VALUE_SLOTS)
)


# _RUN_CARDS[v][nibble]: the cards that can stand for value v in a straight (the Mah Jong for 1).
_RUN_CARDS: Final = tuple(
    tuple(
        ((MAHJONG,) if n & 1 else ()) if v == MAHJONG_VALUE else _SETS[v][n][1]
        for n in range(_NIBBLE + 1)
    )
    for v in range(_VALUE_SLOTS)
)


def _labelled(sets: tuple[CardMask, ...], label: Combo) -> tuple[Play, ...]:
    return tuple((cards, label) for cards in sets)


def _by_value(
    sets: Callable[[int, int], tuple[CardMask, ...]], kind: int, size: int
) -> tuple[tuple[tuple[Play, ...], ...], ...]:
    """[v][nibble]: the card sets `sets(v, nibble)` labelled as the `kind` of value v."""
    return tuple(
        tuple(_labelled(sets(v, n), combo(kind, size, height(v))) for n in range(_NIBBLES))
        for v in range(_VALUE_SLOTS)
    )


# _PAIRS[v][nibble] / _TRIPLES[v][nibble]: the plays of value v, natural and with the Phoenix.
_PAIRS: Final = _by_value(lambda v, n: _SETS[v][n][_PAIR_SIZE], PAIR, _PAIR_SIZE)
_PHOENIX_PAIRS: Final = _by_value(lambda v, n: _WITH_PHOENIX[v][n], PAIR, _PAIR_SIZE)
_TRIPLES: Final = _by_value(lambda v, n: _SETS[v][n][_TRIPLE_SIZE], TRIPLE, _TRIPLE_SIZE)
_PHOENIX_TRIPLES: Final = _by_value(
    lambda v, n: tuple(s | PHOENIX for s in _SETS[v][n][_PAIR_SIZE]), TRIPLE, _TRIPLE_SIZE
)
_SINGLE_CARDS: Final = STANDARD | DRAGON


def _byte_singles(index: int, byte: int) -> tuple[Play, ...]:
    cards = [_BYTE * index + bit for bit in range(_BYTE) if byte >> bit & 1]
    return tuple(
        (1 << c, combo(SINGLE, 1, height(c // RANK_STRIDE)))
        for c in cards
        if _SINGLE_CARDS >> c & 1
    )


def _byte_ranks(index: int, byte: int) -> tuple[Rank, ...]:
    values = (_VALUES_PER_BYTE * index, _VALUES_PER_BYTE * index + 1)
    nibbles = (byte & _NIBBLE, byte >> RANK_STRIDE)
    return tuple(
        (v, n) for v, n in zip(values, nibbles, strict=True) if n and LOWEST_RANK <= v <= ACE
    )


# _BYTE_SINGLES[i][b]: the singles (standard cards and the Dragon) in byte i of a hand that
# is b; _BYTE_RANKS[i][b]: the (value, nibble) of its two values that are present.
_BYTE_SINGLES: Final = tuple(
    tuple(_byte_singles(i, b) for b in range(1 << _BYTE)) for i in range(_BYTES)
)
_BYTE_RANKS: Final = tuple(
    tuple(_byte_ranks(i, b) for b in range(1 << _BYTE)) for i in range(_BYTES)
)
# _FROM_VALUE[v]: the standard cards of value v and above, and the Dragon (none above it).
_FROM_VALUE: Final = (
    *(sum(RANK_MASK[u] for u in range(v, ACE + 1)) | DRAGON for v in range(_VALUE_SLOTS)),
    0,
)
# _SINGLES_ABOVE[h]: the standard cards and the Dragon that beat a single of height h.
_SINGLES_ABOVE: Final = tuple(
    _FROM_VALUE[max(LOWEST_RANK, lowest_value_above(floor))] for floor in range(DRAGON_HEIGHT + 2)
)
# _KIND_AND_FLOOR[c]: the kind and the height of combination c, unpacked once.
_KIND_AND_FLOOR: Final = tuple(
    (kind_of(c), height_of(c)) for c in range((BOMBSF + 1) << KIND_SHIFT)
)
_DOG_PLAY: Final = (DOG, DOG_COMBO)
_MAHJONG_PLAY: Final = (MAHJONG, combo(SINGLE, 1, height(MAHJONG_VALUE)))
_PHOENIX_LED: Final = (PHOENIX, combo(SINGLE, 1, PHOENIX_LED_HEIGHT))
_FULLHOUSE_OF: Final = tuple(
    combo(FULLHOUSE, _FULLHOUSE_LENGTH, height(v)) for v in range(_VALUE_SLOTS)
)
# Lowest bit of every standard nibble: where a full nibble (four of a kind) shows after ANDing
# the hand with its shifts by 1, 2 and 3.
_NIBBLE_BASES: Final = sum(1 << (RANK_STRIDE * v) for v in range(LOWEST_RANK, ACE + 1))


def _ranks(hand: CardMask) -> list[Rank]:
    """(value, nibble) of every standard value in `hand`, lowest first."""
    ranks: list[Rank] = []
    for index, byte in enumerate(hand.to_bytes(_BYTES, "little")):
        if byte:
            ranks += _BYTE_RANKS[index][byte]
    return ranks


def _shape(hand: CardMask) -> tuple[int, int, int]:
    """(some, two, three): bit 4v is set where standard value v holds at least one, two,
    three cards. A few shifts tell which families can exist before any is generated."""
    counts = nibble_popcounts(hand & STANDARD)  # 0..4 per nibble: three bits
    some = (counts | counts >> 1 | counts >> 2) & _NIBBLE_BASES
    two = (counts >> 1 | counts >> 2) & _NIBBLE_BASES
    three = (counts & counts >> 1 | counts >> 2) & _NIBBLE_BASES
    return some, two, three


def plays(hand: CardMask, table: Combo = NO_COMBO, *, phoenix_as_one: bool = False) -> list[Play]:
    """Every (card set, combination) of `hand` that may be led, or played on `table` in turn.

    With `table == NO_COMBO` that is every combination including the Dog; otherwise the
    combinations that `combos.beats(table, c)` accepts: same kind and length and higher, or a
    higher bomb. Each card set appears once.
    """
    out: list[Play] = []
    wild = hand & PHOENIX
    if table == NO_COMBO:
        if hand & DOG:
            out.append(_DOG_PLAY)
        _singles(hand, 0, out)
        some, two, three = _shape(hand)
        if two or (wild and some):
            ranks = _ranks(hand)
            _tuples(ranks, wild, 0, _PAIRS, _PHOENIX_PAIRS, out)
            if three or (wild and two):
                _tuples(ranks, wild, 0, _TRIPLES, _PHOENIX_TRIPLES, out)
                _fullhouses(ranks, wild, 0, out)
        _straights(hand, some, 0, 0, phoenix_as_one, out)
        _stairs(hand, some, two, 0, 0, out)
        _bombs(hand, NO_COMBO, out)
        return out
    kind, floor = _KIND_AND_FLOOR[table]
    if kind == SINGLE:
        _singles(hand, floor, out)
    elif kind == PAIR:
        _tuples(_ranks(hand), wild, floor, _PAIRS, _PHOENIX_PAIRS, out)
    elif kind == TRIPLE:
        _tuples(_ranks(hand), wild, floor, _TRIPLES, _PHOENIX_TRIPLES, out)
    elif kind == FULLHOUSE:
        _fullhouses(_ranks(hand), wild, floor, out)
    elif kind == STRAIGHT:
        _straights(hand, _shape(hand)[0], length_of(table), floor, phoenix_as_one, out)
    elif kind == STAIRS:
        some, two, _ = _shape(hand)
        _stairs(hand, some, two, length_of(table) // _PAIR_SIZE, floor, out)
    _bombs(hand, table, out)
    return out


def bombs(hand: CardMask, table: Combo = NO_COMBO) -> list[Play]:
    """Every bomb of `hand` that beats `table` (every bomb when NO_COMBO)."""
    out: list[Play] = []
    _bombs(hand, table, out)
    return out


def _singles(hand: CardMask, floor: int, out: list[Play]) -> None:
    """Singles above `floor` (0: led), the Phoenix half a rank above the table."""
    if not floor and hand & MAHJONG:
        out.append(_MAHJONG_PLAY)
    above = hand & _SINGLES_ABOVE[floor]
    if above:
        out += _standard_singles(above)
    if hand & PHOENIX:
        if not floor:
            out.append(_PHOENIX_LED)
        elif floor < DRAGON_HEIGHT:
            out.append((PHOENIX, combo(SINGLE, 1, floor + 1)))


@lru_cache(maxsize=_SPAN_CACHE)
def _standard_singles(cards: CardMask) -> tuple[Play, ...]:
    """The singles of `cards` (standard cards and the Dragon), lowest first. Cached: a seat
    answering singles asks for the same few cards above the table again and again."""
    found: list[Play] = []
    for index, byte in enumerate(cards.to_bytes(_BYTES, "little")):
        if byte:
            found += _BYTE_SINGLES[index][byte]
    return tuple(found)


def _tuples(
    ranks: list[Rank],
    wild: int,
    floor: int,
    natural: tuple[tuple[tuple[Play, ...], ...], ...],
    with_phoenix: tuple[tuple[tuple[Play, ...], ...], ...],
    out: list[Play],
) -> None:
    """Pairs or triples (per the tables given) above `floor`, natural then with the Phoenix."""
    lowest = lowest_value_above(floor)
    for v, nibble in ranks:
        if v >= lowest:
            out += natural[v][nibble]
            if wild:
                out += with_phoenix[v][nibble]


def _fullhouses(ranks: list[Rank], wild: int, floor: int, out: list[Play]) -> None:
    """Triple above `floor` plus a pair of another value. With two pairs and the Phoenix only
    the reading with the higher triple is produced; four of a kind plus Phoenix never forms."""
    lowest = lowest_value_above(floor)
    for v, nibble in ranks:
        triples = _SETS[v][nibble][_TRIPLE_SIZE]
        doubles = _SETS[v][nibble][_PAIR_SIZE] if wild else ()
        if v < lowest or not (triples or doubles):
            continue
        label = _FULLHOUSE_OF[v]
        if triples:
            pairs = [p for u, n in ranks if u != v for p in _SETS[u][n][_PAIR_SIZE]]
            if wild:
                pairs += [p for u, n in ranks if u != v for p in _WITH_PHOENIX[u][n]]
            out += zip(map(sum, product(triples, pairs)), repeat(label))
        if doubles:
            lower = [p for u, n in ranks if u < v for p in _SETS[u][n][_PAIR_SIZE]]
            out += zip(map(sum, product(doubles, lower, (wild,))), repeat(label))


# A window of values bottom..top: (bottom, top, pure, slots). `pure`: every value is held, so
# there are straights without the Phoenix; `slots`: the values the Phoenix may stand for.
Window = tuple[int, int, bool, tuple[int, ...]]


def _phoenix_may_be(slot: int, bottom: int, top: int, phoenix_as_one: bool) -> bool:
    """Whether the Phoenix may stand for value `slot` in the straight bottom..top: not for the
    bottom unless the top is the Ace (the set reads one higher, extended at the top), and not
    for the Mah Jong unless `phoenix_as_one`."""
    return (slot != bottom or top == ACE) and (slot != MAHJONG_VALUE or phoenix_as_one)


# _PURE_SLOTS[phoenix_as_one][bottom][top]: the values the Phoenix may stand for in a straight
# whose values bottom..top are all held.
_PURE_SLOTS: Final = tuple(
    tuple(
        tuple(
            tuple(s for s in range(bottom, top + 1) if _phoenix_may_be(s, bottom, top, one))
            for top in range(ACE + 1)
        )
        for bottom in range(ACE + 1)
    )
    for one in (False, True)
)
# Lowest bit of every value's nibble, the Mah Jong's included; in a nibble holding a count of
# at most 5, the bit `_FOURS_BIT` is set for 4 and 5 only.
_RUN_BASES: Final = sum(1 << (RANK_STRIDE * v) for v in range(ACE + 1))
_FOURS_BIT: Final = 2


def _may_hold_straight(present: int, wild: bool) -> bool:
    """Whether five consecutive values (four of five with the Phoenix) are held: the sum of
    five shifted copies counts per nibble (at most 5, no carry)."""
    counts = present
    for step in range(1, MIN_STRAIGHT):
        counts += present >> (RANK_STRIDE * step)
    if wild:
        return bool(counts & _RUN_BASES << _FOURS_BIT)  # a count of 4 or 5
    return bool(counts & counts >> _FOURS_BIT & _RUN_BASES)  # a count of 5 (0b101)


@lru_cache(maxsize=_SPAN_CACHE)
def _straight_windows(present: int, wild: bool, phoenix_as_one: bool) -> tuple[Window, ...]:
    """Every straight window over the held values (`present`: bit 4v set when value v is held,
    the Mah Jong as 1).

    The Phoenix stands for a missing value, or in a pure window for any value but the bottom
    one: that card set reads one higher as the run extended at the top, unless the top is the
    Ace. It never stands for the Mah Jong unless `phoenix_as_one`. So each card set comes
    once, in the window of its highest reading.
    """
    windows: list[Window] = []
    pure_slots = _PURE_SLOTS[phoenix_as_one]
    for bottom in range(MAHJONG_VALUE, _LAST_STRAIGHT_BOTTOM + 1):
        gap = 0
        for top in range(bottom, ACE + 1):
            if not present >> (RANK_STRIDE * top) & 1:
                if not wild or gap:
                    break
                gap = top
            if top - bottom + 1 < MIN_STRAIGHT:
                continue
            if not gap:
                windows.append((bottom, top, True, pure_slots[bottom][top] if wild else ()))
            elif _phoenix_may_be(gap, bottom, top, phoenix_as_one):
                windows.append((bottom, top, False, (gap,)))
    return tuple(windows)


def _straights(
    hand: CardMask,
    some: int,
    length: int,
    floor: int,
    phoenix_as_one: bool,
    out: list[Play],
) -> None:
    """Straights of `length` (0: every length) topping above `floor`; straight flushes are
    left to `_bombs`. `some` is the first of `_shape(hand)`. The card sets of a window are
    the product of its values' cards (itertools, so the loops run in C)."""
    wild = hand & PHOENIX
    present = some | hand & MAHJONG
    if not _may_hold_straight(present, bool(wild)):
        return
    windows = _straight_windows(present, bool(wild), phoenix_as_one)
    if not windows:
        return
    cards = [_RUN_CARDS[v][hand >> (RANK_STRIDE * v) & _NIBBLE] for v in range(ACE + 1)]
    flush_starts = _bomb_seeds(hand)[1]
    lowest_top = lowest_value_above(floor)
    for bottom, top, pure, slots in windows:
        size = top - bottom + 1
        if top < lowest_top or (length and size != length):
            continue
        label = combo(STRAIGHT, size, height(top))
        run = cards[bottom : top + 1]
        if pure:
            sets = map(sum, product(*run))
            if flush_starts >> (RANK_STRIDE * bottom) & _NIBBLE:
                flushes = _flushes(hand, bottom, top)
                out += [(s, label) for s in sets if s not in flushes]
            else:
                out += zip(sets, repeat(label))
        for slot in slots:
            held = run[slot - bottom]
            run[slot - bottom] = (wild,)
            out += zip(map(sum, product(*run)), repeat(label))
            run[slot - bottom] = held


def _flushes(hand: CardMask, bottom: int, top: int) -> tuple[int, ...]:
    """Straight flushes of `hand` exactly covering bottom..top (none through the Mah Jong)."""
    if bottom < LOWEST_RANK:
        return ()
    base = sum(1 << (RANK_STRIDE * v) for v in range(bottom, top + 1))
    return tuple(base << suit for suit in range(_SUITS) if hand & (base << suit) == base << suit)


# _VALUE_RANGE[bottom][top]: the values bottom..top.
_VALUE_RANGE: Final = tuple(
    tuple(tuple(range(bottom, top + 1)) for top in range(ACE + 1)) for bottom in range(ACE + 1)
)


@lru_cache(maxsize=_SPAN_CACHE)
def _stairs_windows(two: int, some: int, wild: bool) -> tuple[Window, ...]:
    """Every stairs window (`two`, `some` as `_shape` gives them; `some` matters only with the
    Phoenix): each value holds a pair, or with the Phoenix one value holds a single card that
    the Phoenix completes; in a pure window the Phoenix may complete any value."""
    windows: list[Window] = []
    for bottom in range(LOWEST_RANK, ACE):
        short = 0
        for top in range(bottom, ACE + 1):
            if not two >> (RANK_STRIDE * top) & 1:
                if short or not wild or not some >> (RANK_STRIDE * top) & 1:
                    break
                short = top
            if top == bottom:
                continue
            slots = (short,) if short else _VALUE_RANGE[bottom][top] if wild else ()
            windows.append((bottom, top, not short, slots))
    return tuple(windows)


def _stairs(hand: CardMask, some: int, two: int, pairs: int, floor: int, out: list[Play]) -> None:
    """Stairs of `pairs` consecutive pairs (0: any number) topping above `floor`; the Phoenix
    may complete one pair. As for straights, a window's card sets are a product."""
    wild = hand & PHOENIX
    # two neighbouring values with a pair each, or with the Phoenix a pair next to a single
    if not (
        two & two >> RANK_STRIDE
        if not wild
        else two & some >> RANK_STRIDE | some & two >> RANK_STRIDE
    ):
        return
    windows = _stairs_windows(two, some if wild else 0, bool(wild))
    if not windows:
        return
    nibbles = [hand >> (RANK_STRIDE * v) & _NIBBLE for v in range(ACE + 1)]
    lowest_top = lowest_value_above(floor)
    for bottom, top, pure, slots in windows:
        size = top - bottom + 1
        if top < lowest_top or (pairs and size != pairs):
            continue
        label = combo(STAIRS, _PAIR_SIZE * size, height(top))
        run = [_SETS[v][nibbles[v]][_PAIR_SIZE] for v in range(bottom, top + 1)]
        if pure:
            out += zip(map(sum, product(*run)), repeat(label))
        for slot in slots:
            held = run[slot - bottom]
            run[slot - bottom] = _WITH_PHOENIX[slot][nibbles[slot]]
            out += zip(map(sum, product(*run)), repeat(label))
            run[slot - bottom] = held


@lru_cache(maxsize=_HAND_CACHE)
def _bomb_seeds(hand: CardMask) -> tuple[int, int]:
    """(fours, starts): the lowest bit of every full nibble, and every card that has the four
    cards above it in its suit (the bottom of a five-card straight flush). Cached: a hand is
    asked for its bombs at every answer and every interrupt."""
    standard = hand & STANDARD
    halves = standard & standard >> 1  # (these shift-and-fold steps save big-int operations)
    fours = halves & halves >> 2 & _NIBBLE_BASES
    runs = standard & standard >> RANK_STRIDE
    starts = runs & runs >> 2 * RANK_STRIDE & standard >> _FIFTH_VALUE
    return fours, starts


def has_bomb(hand: CardMask) -> bool:
    """Whether `hand` holds any bomb: a few shifts, no enumeration."""
    fours, starts = _bomb_seeds(hand)
    return bool(fours or starts)


def _bombs(hand: CardMask, table: Combo, out: list[Play]) -> None:
    """Four of a kinds and straight flushes above `table`."""
    fours, starts = _bomb_seeds(hand)
    if not fours and not starts:
        return
    for v in range(LOWEST_RANK, ACE + 1):
        if fours >> (RANK_STRIDE * v) & 1:
            bomb = combo(BOMB4, _BOMB4_LENGTH, height(v))
            if bomb > table:
                out.append((_NIBBLE << (RANK_STRIDE * v), bomb))
    if not starts:
        return
    for bottom in range(LOWEST_RANK, _LAST_STRAIGHT_BOTTOM + 1):
        for suit in range(_SUITS):
            if not starts >> (RANK_STRIDE * bottom + suit) & 1:
                continue
            run = 0
            for top in range(bottom, ACE + 1):
                card = 1 << (RANK_STRIDE * top + suit)
                if not hand & card:
                    break
                run |= card
                if top - bottom + 1 >= MIN_STRAIGHT:
                    bomb = combo(BOMBSF, top - bottom + 1, height(top))
                    if bomb > table:
                        out.append((run, bomb))
