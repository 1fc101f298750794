"""Skat cards as bits of a 32-bit mask, their text form, points and order per game type.

Bit layout (the classic solver's, docs/conventions.md section 4): the four jacks take the top bits
(JC 31, JS 30, JH 29, JD 28); below them clubs, spades, hearts, diamonds in blocks of seven,
A 10 K Q 9 8 7 from the high bit to the low bit (AC 27 ... 7C 21, AS 20 ... 7D 0). A card is
its bit index; a set of cards is a `CardMask`.

Text form is rank then suit: ranks `7 8 9 T J Q K A`, suits `C S H D` (`JC`, `TH`, `7D`).
"""

from typing import Final, Literal

from engine.errors import InvalidInput

__all__ = [
    "ALL_CARDS",
    "BASE_VALUE",
    "CARD_POINTS",
    "GAME_TYPES",
    "JACKS",
    "NULL_VALUES",
    "RANKS",
    "SUITS",
    "SUIT_CARDS",
    "SUIT_GAMES",
    "TRUMP",
    "TRUMP_ORDER",
    "TRUMP_SUIT",
    "CardMask",
    "GameType",
    "beats",
    "card_points",
    "effective_suit",
    "follow_mask",
    "format_card",
    "format_cards",
    "jack",
    "parse_card",
    "parse_cards",
    "power",
    "suit_card",
    "trump_mask",
    "winning_index",
]

CardMask = int
GameType = Literal["diamonds", "hearts", "spades", "clubs", "grand", "null"]

SUITS: Final = "CSHD"
RANKS: Final = "789TJQKA"
SUIT_GAMES: Final[tuple[GameType, ...]] = ("clubs", "spades", "hearts", "diamonds")
GAME_TYPES: Final[tuple[GameType, ...]] = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
BASE_VALUE: Final[dict[GameType, int]] = {
    "diamonds": 9,
    "hearts": 10,
    "spades": 11,
    "clubs": 12,
    "grand": 24,
}
# Null values by (ouvert, hand).
NULL_VALUES: Final[dict[tuple[bool, bool], int]] = {
    (False, False): 23,
    (False, True): 35,
    (True, False): 46,
    (True, True): 59,
}

ALL_CARDS: Final = 0xFFFFFFFF
JACKS: Final = 0xF0000000
# Ranks inside a suit block, from the low bit: 7 8 9 Q K T A.
_BLOCK_RANKS: Final = "789QKTA"
_RANK_POINTS: Final = {"7": 0, "8": 0, "9": 0, "Q": 3, "K": 4, "T": 10, "A": 11, "J": 2}
_NULL_RANK: Final = {r: i for i, r in enumerate("789TJQKA")}


def jack(suit: int) -> int:
    """Card index of the jack of `suit` (0 clubs .. 3 diamonds)."""
    return 31 - suit


def suit_card(suit: int, rank: str) -> int:
    """Card index of a non-jack card of `suit` (0 clubs .. 3 diamonds)."""
    return 21 - 7 * suit + _BLOCK_RANKS.index(rank)


def _build_names() -> tuple[str, ...]:
    names = [""] * 32
    for s, suit in enumerate(SUITS):
        names[jack(s)] = "J" + suit
        for rank in _BLOCK_RANKS:
            names[suit_card(s, rank)] = rank + suit
    return tuple(names)


_NAMES: Final = _build_names()
_INDEX: Final = {name: i for i, name in enumerate(_NAMES)}
_SUIT_OF: Final = tuple(SUITS.index(name[1]) for name in _NAMES)
_RANK_OF: Final = tuple(name[0] for name in _NAMES)

CARD_POINTS: Final = tuple(_RANK_POINTS[r] for r in _RANK_OF)
_BYTE: Final = 8
_BYTE_VALUES: Final = 1 << _BYTE
# Per byte i of a mask and its value b: the names of its cards, highest bit first, and their
# points. Observations format hands and count tricks for every seat after every move.
_BYTE_NAMES: Final = tuple(
    tuple(
        tuple(_NAMES[_BYTE * i + bit] for bit in reversed(range(_BYTE)) if b >> bit & 1)
        for b in range(_BYTE_VALUES)
    )
    for i in range(4)
)
_BYTE_POINTS: Final = tuple(
    tuple(
        sum(CARD_POINTS[_BYTE * i + bit] for bit in range(_BYTE) if b >> bit & 1)
        for b in range(_BYTE_VALUES)
    )
    for i in range(4)
)
SUIT_CARDS: Final = tuple(sum(1 << suit_card(s, r) for r in _BLOCK_RANKS) for s in range(4))
_PRINTED_SUIT: Final = tuple(SUIT_CARDS[s] | (1 << jack(s)) for s in range(4))

TRUMP_SUIT: Final[dict[GameType, int]] = {"clubs": 0, "spades": 1, "hearts": 2, "diamonds": 3}
TRUMP = 4  # the effective suit of trumps


def trump_mask(game: GameType) -> CardMask:
    """All trumps of `game` (empty for null)."""
    if game == "null":
        return 0
    if game == "grand":
        return JACKS
    return JACKS | SUIT_CARDS[TRUMP_SUIT[game]]


def _order(game: GameType) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(effective suit, power) per card: a card beats another iff it is a trump and the other is
    not, or both share the effective suit and it has more power."""
    eff = [0] * 32
    pwr = [0] * 32
    for c in range(32):
        suit, rank = _SUIT_OF[c], _RANK_OF[c]
        if game == "null":
            eff[c], pwr[c] = suit, _NULL_RANK[rank]
        elif rank == "J":
            eff[c], pwr[c] = TRUMP, 20 + c - 28
        else:
            trump = game != "grand" and TRUMP_SUIT[game] == suit
            eff[c], pwr[c] = (TRUMP if trump else suit), _BLOCK_RANKS.index(rank)
    return tuple(eff), tuple(pwr)


_ORDERS: Final = {g: _order(g) for g in GAME_TYPES}
_FOLLOW: Final = {
    g: tuple(
        trump_mask(g)
        if _ORDERS[g][0][c] == TRUMP
        else (
            _PRINTED_SUIT[_SUIT_OF[c]] if g == "null" else SUIT_CARDS[_SUIT_OF[c]] & ~trump_mask(g)
        )
        for c in range(32)
    )
    for g in GAME_TYPES
}

# Trump order from the top, for matadors: jacks then A T K Q 9 8 7 of the trump suit.
TRUMP_ORDER: Final[dict[GameType, tuple[int, ...]]] = {
    g: tuple(jack(s) for s in range(4))
    + (
        tuple(suit_card(TRUMP_SUIT[g], r) for r in reversed(_BLOCK_RANKS))
        if g in TRUMP_SUIT
        else ()
    )
    for g in GAME_TYPES
    if g != "null"
}


def effective_suit(game: GameType, card: int) -> int:
    """0..3 for clubs..diamonds as played in `game`, 4 for trumps."""
    return _ORDERS[game][0][card]


def power(game: GameType, card: int) -> int:
    """Strength of `card` within its effective suit in `game`."""
    return _ORDERS[game][1][card]


def follow_mask(game: GameType, lead: int) -> CardMask:
    """Cards that follow the effective suit of the led card (jacks are trumps outside null)."""
    return _FOLLOW[game][lead]


def beats(game: GameType, card: int, best: int) -> bool:
    """Whether `card` played later in a trick beats `best`, the card winning it so far."""
    order = _ORDERS[game]
    suit, best_suit = order[0][card], order[0][best]
    return (suit == TRUMP and best_suit != TRUMP) or (
        suit == best_suit and order[1][card] > order[1][best]
    )


def winning_index(game: GameType, cards: tuple[int, ...] | list[int]) -> int:
    """Index (in playing order) of the card that wins a trick, complete or not."""
    best = 0
    for i in range(1, len(cards)):
        if beats(game, cards[i], cards[best]):
            best = i
    return best


def card_points(mask: CardMask) -> int:
    """Card points of a set of cards (A 11, 10 10, K 4, Q 3, J 2)."""
    points = _BYTE_POINTS
    return (
        points[0][mask & 0xFF]
        + points[1][mask >> 8 & 0xFF]
        + points[2][mask >> 16 & 0xFF]
        + points[3][mask >> 24 & 0xFF]
    )


def parse_card(text: str) -> int:
    """Card index of `"JC"`-style text; raises InvalidInput for anything else."""
    card = _INDEX.get(text)
    if card is None:
        raise InvalidInput(f"not a Skat card: {text!r} (rank 7 8 9 T J Q K A, then suit C S H D)")
    return card


def parse_cards(cards: str | list[str] | tuple[str, ...]) -> CardMask:
    """Mask of a space-separated string or list of card texts; duplicates are an error."""
    items = cards.split() if isinstance(cards, str) else list(cards)
    mask = 0
    for item in items:
        bit = 1 << parse_card(item)
        if mask & bit:
            raise InvalidInput(f"card {item} appears twice")
        mask |= bit
    return mask


def format_card(card: int) -> str:
    """Text of a card index."""
    return _NAMES[card]


def format_cards(mask: CardMask) -> list[str]:
    """Texts of a set of cards, highest bit (JC) first."""
    names = _BYTE_NAMES
    return [
        *names[3][mask >> 24 & 0xFF],
        *names[2][mask >> 16 & 0xFF],
        *names[1][mask >> 8 & 0xFF],
        *names[0][mask & 0xFF],
    ]
