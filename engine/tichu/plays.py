"""The fast legal-move generator: every combination a hand can lead or play on a trick.

`plays(hand, table)` lists each playable card set once, with the combination `classify` gives
it, so the state machine can filter the list through its legality predicate without
classifying again. Whose turn it is, the wish and the bomb timing are the state's business.

Generation works per rank nibble (see `cards`): the subsets of a nibble with k cards are
precomputed, straights and stairs are windows over a bit set of present values, and the
Phoenix fills at most one slot. A Phoenix card set with several readings is produced once,
for its highest reading (the one `classify` gives).
"""

from functools import lru_cache
from typing import Final

from engine.bits import iter_bits, popcount
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

_NIBBLE: Final = (1 << RANK_STRIDE) - 1
_SUITS: Final = RANK_STRIDE
_PAIR_SIZE: Final = 2
_TRIPLE_SIZE: Final = 3
_BOMB4_LENGTH: Final = 4
_MIN_PAIRS: Final = 2
_BYTE: Final = 8
_WINDOW_CACHE: Final = 1 << 16

# _SUBSETS[nibble][k]: the submasks of `nibble` with exactly k bits.
_SUBSETS: Final = tuple(
    tuple(
        tuple(sub for sub in range(_NIBBLE + 1) if sub & nibble == sub and popcount(sub) == k)
        for k in range(RANK_STRIDE + 1)
    )
    for nibble in range(_NIBBLE + 1)
)
# _SPLIT[byte]: the two nibbles (two values) packed in one byte of a hand, low value first.
_SPLIT: Final = tuple((byte & _NIBBLE, byte >> RANK_STRIDE) for byte in range(1 << _BYTE))
# _SINGLE_OF[c]: the single that the card with bit index c forms (Mah Jong, 2..A, Dragon).
_SINGLE_OF: Final = tuple(combo(SINGLE, 1, height(c // RANK_STRIDE)) for c in range(64))
# _FROM_VALUE[v]: the standard cards of value v and above, and the Dragon (none above it).
_FROM_VALUE: Final = (
    *(sum(RANK_MASK[u] for u in range(v, ACE + 1)) | DRAGON for v in range(DRAGON_VALUE + 1)),
    0,
)
_MAHJONG_PLAY: Final = (MAHJONG, combo(SINGLE, 1, height(MAHJONG_VALUE)))
# Lowest bit of every standard nibble: where a full nibble (four of a kind) shows after ANDing
# the hand with its shifts by 1, 2 and 3.
_NIBBLE_BASES: Final = sum(1 << (RANK_STRIDE * v) for v in range(LOWEST_RANK, ACE + 1))


def _nibbles(hand: CardMask) -> list[int]:
    """The nibble (cards by suit) of every value 0..15."""
    return [n for byte in hand.to_bytes(_BYTE, "little") for n in _SPLIT[byte]]


def _product(choices: list[list[int]], values: range, slot: int, filler: list[int]) -> list[int]:
    """Every card set that takes one entry of `choices[v]` for each value, `filler` at `slot`."""
    sets = [0]
    for v in values:
        options = filler if v == slot else choices[v]
        sets = [s | c for s in sets for c in options]
    return sets


def plays(hand: CardMask, table: Combo = NO_COMBO, *, phoenix_as_one: bool = False) -> list[Play]:
    """Every (card set, combination) of `hand` that may be led, or played on `table` in turn.

    With `table == NO_COMBO` that is every combination including the Dog; otherwise the
    combinations that `combos.beats(table, c)` accepts: same kind and length and higher, or a
    higher bomb. Each card set appears once.
    """
    out: list[Play] = []
    wild = hand & PHOENIX
    if table == NO_COMBO:
        nibbles = _nibbles(hand)
        if hand & DOG:
            out.append((DOG, DOG_COMBO))
        _singles(hand, 0, out)
        pairs = _pairs(nibbles, wild, 0)
        out += [(cards, combo(PAIR, _PAIR_SIZE, height(v))) for cards, v, _ in pairs]
        _triples(nibbles, wild, 0, out)
        _fullhouses(nibbles, wild, pairs, 0, out)
        _straights(hand, nibbles, 0, 0, phoenix_as_one, out)
        _stairs(nibbles, wild, 0, 0, out)
        _bombs(hand, NO_COMBO, out)
        return out
    kind, floor = kind_of(table), height_of(table)
    if kind == SINGLE:
        _singles(hand, floor, out)
        _bombs(hand, table, out)
        return out
    nibbles = _nibbles(hand)
    if kind == PAIR:
        pairs = _pairs(nibbles, wild, floor)
        out += [(cards, combo(PAIR, _PAIR_SIZE, height(v))) for cards, v, _ in pairs]
    elif kind == TRIPLE:
        _triples(nibbles, wild, floor, out)
    elif kind == FULLHOUSE:
        _fullhouses(nibbles, wild, _pairs(nibbles, wild, 0), floor, out)
    elif kind == STRAIGHT:
        _straights(hand, nibbles, length_of(table), floor, phoenix_as_one, out)
    elif kind == STAIRS:
        _stairs(nibbles, wild, length_of(table) // _PAIR_SIZE, floor, out)
    _bombs(hand, table, out)
    return out


def bombs(hand: CardMask, table: Combo = NO_COMBO) -> list[Play]:
    """Every bomb of `hand` that beats `table` (every bomb when NO_COMBO)."""
    out: list[Play] = []
    if has_bomb(hand):
        _bombs(hand, table, out)
    return out


def _singles(hand: CardMask, floor: int, out: list[Play]) -> None:
    """Singles above `floor` (0: led), the Phoenix half a rank above the table."""
    if not floor and hand & MAHJONG:
        out.append(_MAHJONG_PLAY)
    above = hand & _FROM_VALUE[max(LOWEST_RANK, lowest_value_above(floor))]
    out += [(1 << card, _SINGLE_OF[card]) for card in iter_bits(above)]
    if hand & PHOENIX:
        if not floor:
            out.append((PHOENIX, combo(SINGLE, 1, PHOENIX_LED_HEIGHT)))
        elif floor < DRAGON_HEIGHT:
            out.append((PHOENIX, combo(SINGLE, 1, floor + 1)))


def _pairs(nibbles: list[int], wild: int, floor: int) -> list[tuple[CardMask, int, bool]]:
    """(cards, value, uses the Phoenix) of every pair above `floor`."""
    found: list[tuple[CardMask, int, bool]] = []
    for v in range(max(LOWEST_RANK, lowest_value_above(floor)), ACE + 1):
        nibble = nibbles[v]
        if nibble:
            shift = RANK_STRIDE * v
            found += [(sub << shift, v, False) for sub in _SUBSETS[nibble][_PAIR_SIZE]]
            if wild:
                found += [((sub << shift) | wild, v, True) for sub in _SUBSETS[nibble][1]]
    return found


def _triples(nibbles: list[int], wild: int, floor: int, out: list[Play]) -> None:
    for v in range(max(LOWEST_RANK, lowest_value_above(floor)), ACE + 1):
        nibble = nibbles[v]
        if _SUBSETS[nibble][_PAIR_SIZE]:
            shift, value = RANK_STRIDE * v, combo(TRIPLE, _TRIPLE_SIZE, height(v))
            out += [(sub << shift, value) for sub in _SUBSETS[nibble][_TRIPLE_SIZE]]
            if wild:
                out += [((sub << shift) | wild, value) for sub in _SUBSETS[nibble][_PAIR_SIZE]]


def _fullhouses(
    nibbles: list[int],
    wild: int,
    pairs: list[tuple[CardMask, int, bool]],
    floor: int,
    out: list[Play],
) -> None:
    """Triple above `floor` plus a pair of another value. With two pairs and the Phoenix only
    the reading with the higher triple is produced; four of a kind plus Phoenix never forms."""
    for v in range(max(LOWEST_RANK, lowest_value_above(floor)), ACE + 1):
        nibble = nibbles[v]
        if not _SUBSETS[nibble][_PAIR_SIZE]:
            continue
        shift = RANK_STRIDE * v
        value = combo(FULLHOUSE, _TRIPLE_SIZE + _PAIR_SIZE, height(v))
        for triple in _SUBSETS[nibble][_TRIPLE_SIZE]:
            cards = triple << shift
            out += [(cards | pair, value) for pair, other, _ in pairs if other != v]
        if wild:
            for triple in _SUBSETS[nibble][_PAIR_SIZE]:
                cards = (triple << shift) | wild
                out += [(cards | pair, value) for pair, other, w in pairs if other < v and not w]


def _straights(
    hand: CardMask,
    nibbles: list[int],
    length: int,
    floor: int,
    phoenix_as_one: bool,
    out: list[Play],
) -> None:
    """Straights of `length` (0: every length) topping above `floor`; straight flushes are
    left to `_bombs`."""
    present = (1 << MAHJONG_VALUE) if hand & MAHJONG else 0
    for v in range(LOWEST_RANK, ACE + 1):
        if nibbles[v]:
            present |= 1 << v
    wild = hand & PHOENIX
    windows = _straight_windows(present, bool(wild), phoenix_as_one)
    if not windows:
        return
    choices: list[list[int]] = [
        [sub << (RANK_STRIDE * v) for sub in _SUBSETS[nibbles[v]][1]] for v in range(ACE + 1)
    ]
    choices[MAHJONG_VALUE] = [MAHJONG] if hand & MAHJONG else []
    flush_seeds = _bomb_seeds(hand)[1]
    filler = [wild]
    for bottom, top, slots, pure in windows:
        if height(top) <= floor or (length and top - bottom + 1 != length):
            continue
        values = range(bottom, top + 1)
        value = combo(STRAIGHT, top - bottom + 1, height(top))
        if pure:
            flushes = _flushes(hand, bottom, top) if flush_seeds else ()
            out += [(s, value) for s in _product(choices, values, -1, []) if s not in flushes]
        for slot in slots:
            out += [(s, value) for s in _product(choices, values, slot, filler)]


@lru_cache(maxsize=_WINDOW_CACHE)
def _straight_windows(
    present: int, wild: bool, phoenix_as_one: bool
) -> tuple[tuple[int, int, tuple[int, ...], bool], ...]:
    """(bottom, top, Phoenix slots, pure) of every straight window over the present values.

    A window is `pure` when every value is present (straights without the Phoenix); the slots
    are where the Phoenix may stand so that the window bottom..top is the highest reading of
    the card set: a missing value, or with a pure window any value except the bottom one
    (that set reads higher as the run extended at the top) unless the top is the Ace. The
    Phoenix never stands for the Mah Jong unless `phoenix_as_one`.
    """
    windows: list[tuple[int, int, tuple[int, ...], bool]] = []
    for bottom in range(MAHJONG_VALUE, ACE - MIN_STRAIGHT + 2):
        gap = 0
        for top in range(bottom, ACE + 1):
            if not present >> top & 1:
                if not wild or gap:
                    break
                gap = top
            if top - bottom + 1 < MIN_STRAIGHT:
                continue
            slots = [gap] if gap else (list(range(bottom, top + 1)) if wild else [])
            allowed = tuple(
                slot
                for slot in slots
                if not (slot == bottom and top < ACE) and (slot != MAHJONG_VALUE or phoenix_as_one)
            )
            if allowed or not gap:
                windows.append((bottom, top, allowed, not gap))
    return tuple(windows)


def _flushes(hand: CardMask, bottom: int, top: int) -> tuple[int, ...]:
    """Straight flushes of `hand` exactly covering bottom..top (none through the Mah Jong)."""
    if bottom < LOWEST_RANK:
        return ()
    base = sum(1 << (RANK_STRIDE * v) for v in range(bottom, top + 1))
    return tuple(base << suit for suit in range(_SUITS) if hand & (base << suit) == base << suit)


def _stairs(nibbles: list[int], wild: int, pairs: int, floor: int, out: list[Play]) -> None:
    """Stairs of `pairs` consecutive pairs (0: any number) topping above `floor`; the Phoenix
    may complete one pair."""
    full = some = 0
    for v in range(LOWEST_RANK, ACE + 1):
        nibble = nibbles[v]
        if nibble:
            some |= 1 << v
            if _SUBSETS[nibble][_PAIR_SIZE]:
                full |= 1 << v
    windows = _stairs_windows(full, some, bool(wild))
    if not windows:
        return
    pair_choices = [
        [sub << (RANK_STRIDE * v) for sub in _SUBSETS[nibbles[v]][_PAIR_SIZE]]
        for v in range(ACE + 1)
    ]
    for bottom, top, slots, pure in windows:
        if height(top) <= floor or (pairs and top - bottom + 1 != pairs):
            continue
        values = range(bottom, top + 1)
        value = combo(STAIRS, _PAIR_SIZE * (top - bottom + 1), height(top))
        if pure:
            out += [(s, value) for s in _product(pair_choices, values, -1, [])]
        for slot in slots:
            shift = RANK_STRIDE * slot
            filler = [(sub << shift) | wild for sub in _SUBSETS[nibbles[slot]][1]]
            out += [(s, value) for s in _product(pair_choices, values, slot, filler)]


@lru_cache(maxsize=_WINDOW_CACHE)
def _stairs_windows(
    full: int, some: int, wild: bool
) -> tuple[tuple[int, int, tuple[int, ...], bool], ...]:
    """(bottom, top, Phoenix slots, pure) of every stairs window: `full` values hold a pair,
    `some` values at least one card; with the Phoenix one value of a window may be short."""
    windows: list[tuple[int, int, tuple[int, ...], bool]] = []
    for bottom in range(LOWEST_RANK, ACE):
        short = 0
        for top in range(bottom, ACE + 1):
            if not full >> top & 1:
                if short or not wild or not some >> top & 1:
                    break
                short = top
            if top - bottom + 1 < _MIN_PAIRS:
                continue
            slots = (short,) if short else tuple(range(bottom, top + 1)) if wild else ()
            windows.append((bottom, top, slots, not short))
    return tuple(windows)


def _bomb_seeds(hand: CardMask) -> tuple[int, int]:
    """(fours, starts): the lowest bit of every full nibble, and every card that has the four
    cards above it in its suit (the bottom of a five-card straight flush)."""
    standard = hand & STANDARD
    fours = standard & (standard >> 1) & (standard >> 2) & (standard >> 3) & _NIBBLE_BASES
    starts = standard
    for step in range(1, MIN_STRAIGHT):
        starts &= standard >> (RANK_STRIDE * step)
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
    for bottom in range(LOWEST_RANK, ACE - MIN_STRAIGHT + 2):
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
