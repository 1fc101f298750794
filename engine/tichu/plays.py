"""The fast legal-move generator: every combination a hand can lead or play on a trick.

`plays(hand, table)` lists each playable card set once, with the combination `classify` gives
it, so the state machine can filter the list through its legality predicate without
classifying again. Whose turn it is, the wish and the bomb timing are the state's business.

Generation is table-driven over rank nibbles (see `cards`): the singles of a byte of the hand
and the pairs and triples of a nibble (with and without the Phoenix) are precomputed
(card set, combination) tuples, so most of a lead is concatenating them. Straights and
stairs come from `runs`, bombs from `bombs`.

The lists keep one order that survives taking cards away: the leads of a smaller hand are the
leads of a larger one that it still holds, in the same order (`play_actions` relies on it).
"""

from collections.abc import Callable
from functools import lru_cache
from itertools import product, repeat
from typing import Final

from engine.bits import nibble_popcounts
from engine.tichu.bombs import add_bombs
from engine.tichu.card_sets import (
    NIBBLE,
    NIBBLE_BASES,
    PAIR_SIZE,
    SETS,
    SPAN_CACHE,
    VALUE_SLOTS,
    WITH_PHOENIX,
    Play,
)
from engine.tichu.cards import (
    ACE,
    DOG,
    DRAGON,
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
    BOMBSF,
    DOG_COMBO,
    DRAGON_HEIGHT,
    FULLHOUSE,
    KIND_SHIFT,
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
from engine.tichu.runs import stairs, straights

__all__ = ["Play", "plays"]

# (value, nibble): the cards of one standard value in a hand, as a nibble of suits.
Rank = tuple[int, int]

_TRIPLE_SIZE: Final = 3
_FULLHOUSE_LENGTH: Final = _TRIPLE_SIZE + PAIR_SIZE
_NIBBLES: Final = NIBBLE + 1
_VALUES_PER_BYTE: Final = 8 // RANK_STRIDE
_BYTE: Final = 8
_BYTES: Final = 8  # a hand mask fits in 64 bits


def _labelled(sets: tuple[CardMask, ...], label: Combo) -> tuple[Play, ...]:
    return tuple((cards, label) for cards in sets)


def _by_value(
    sets: Callable[[int, int], tuple[CardMask, ...]], kind: int, size: int
) -> tuple[tuple[tuple[Play, ...], ...], ...]:
    """[v][nibble]: the card sets `sets(v, nibble)` labelled as the `kind` of value v."""
    return tuple(
        tuple(_labelled(sets(v, n), combo(kind, size, height(v))) for n in range(_NIBBLES))
        for v in range(VALUE_SLOTS)
    )


# _PAIRS[v][nibble] / _TRIPLES[v][nibble]: the plays of value v, natural and with the Phoenix.
_PAIRS: Final = _by_value(lambda v, n: SETS[v][n][PAIR_SIZE], PAIR, PAIR_SIZE)
_PHOENIX_PAIRS: Final = _by_value(lambda v, n: WITH_PHOENIX[v][n], PAIR, PAIR_SIZE)
_TRIPLES: Final = _by_value(lambda v, n: SETS[v][n][_TRIPLE_SIZE], TRIPLE, _TRIPLE_SIZE)
_PHOENIX_TRIPLES: Final = _by_value(
    lambda v, n: tuple(s | PHOENIX for s in SETS[v][n][PAIR_SIZE]), TRIPLE, _TRIPLE_SIZE
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
    nibbles = (byte & NIBBLE, byte >> RANK_STRIDE)
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
    *(sum(RANK_MASK[u] for u in range(v, ACE + 1)) | DRAGON for v in range(VALUE_SLOTS)),
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
    combo(FULLHOUSE, _FULLHOUSE_LENGTH, height(v)) for v in range(VALUE_SLOTS)
)


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
    some = (counts | counts >> 1 | counts >> 2) & NIBBLE_BASES
    two = (counts >> 1 | counts >> 2) & NIBBLE_BASES
    three = (counts & counts >> 1 | counts >> 2) & NIBBLE_BASES
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
        straights(hand, some, 0, 0, phoenix_as_one, out)
        stairs(hand, some, two, 0, 0, out)
        add_bombs(hand, NO_COMBO, out)
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
        straights(hand, _shape(hand)[0], length_of(table), floor, phoenix_as_one, out)
    elif kind == STAIRS:
        some, two, _ = _shape(hand)
        stairs(hand, some, two, length_of(table) // PAIR_SIZE, floor, out)
    add_bombs(hand, table, out)
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


@lru_cache(maxsize=SPAN_CACHE)
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
        triples = SETS[v][nibble][_TRIPLE_SIZE]
        doubles = SETS[v][nibble][PAIR_SIZE] if wild else ()
        if v < lowest or not (triples or doubles):
            continue
        label = _FULLHOUSE_OF[v]
        if triples:
            pairs = [p for u, n in ranks if u != v for p in SETS[u][n][PAIR_SIZE]]
            if wild:
                pairs += [p for u, n in ranks if u != v for p in WITH_PHOENIX[u][n]]
            out += zip(map(sum, product(triples, pairs)), repeat(label))
        if doubles:
            lower = [p for u, n in ranks if u < v for p in SETS[u][n][PAIR_SIZE]]
            out += zip(map(sum, product(doubles, lower, (wild,))), repeat(label))
