"""A position to solve and its packing into the int64 arrays the kernels read.

This module is the only boundary into numba: `Position` is validated plain Python, `pack`
turns it into a `state` array and picks the `rules` table of its game, both in the solver's
internal card layout. The internal layout re-indexes the cards per game type so that every
effective suit is a contiguous block of bits, the stronger card on the higher bit, and the
trumps take the top block. A trick is then won by the highest card that is a trump or of the
led suit, and "card c beats card b" is `c > b and (same suit or c is a trump)`.
"""

from typing import Final

import msgspec
import numpy as np
import numpy.typing as npt

from engine.bits import iter_bits, popcount
from engine.errors import InvalidInput
from engine.skat.cards import (
    ALL_CARDS,
    CARD_POINTS,
    GAME_TYPES,
    SUITS,
    TRUMP_SUIT,
    CardMask,
    GameType,
    card_points,
    follow_mask,
    format_card,
    jack,
    suit_card,
)

__all__ = [
    "CARDS",
    "FULL32",
    "GROUP_FIELDS",
    "HANDS",
    "KIND_NULL",
    "KIND_POINTS",
    "KIND_SCHWARZ",
    "MAX_GROUPS",
    "MAX_GROUP_WIDTH",
    "NO_CARD",
    "PLAYERS",
    "R_BONUS",
    "R_CLASS",
    "R_CREDIT_DEFENDERS",
    "R_MASK",
    "R_NULL",
    "R_PTS",
    "R_SIZE",
    "R_SUIT",
    "S_CARD_GROUP",
    "S_DECLARER",
    "S_GROUPS",
    "S_GROUPS_N",
    "S_LEADER",
    "S_RELABEL",
    "S_SIZE",
    "S_STAMP",
    "S_TRICK",
    "S_TRICK_N",
    "TOTAL_POINTS",
    "TRICKS_PER_DEAL",
    "TRUMP_ID",
    "VALUE_CLASSES",
    "Int64Array",
    "Position",
    "Seat",
    "from_internal",
    "owners",
    "pack",
    "rules_table",
    "to_internal",
]

Seat = int
Int64Array = npt.NDArray[np.int64]

PLAYERS: Final = 3
HANDS: Final = 3
CARDS: Final = 32
TRICKS_PER_DEAL: Final = 10
TOTAL_POINTS: Final = 120
MAX_TRICK_CARDS: Final = PLAYERS - 1  # a complete trick is no longer "in progress"
FULL32: Final = ALL_CARDS
NO_CARD: Final = -1
TRUMP_ID: Final = 4  # effective suit id of the trumps in the internal layout

# Scoring kinds: what the kernels count and for which side.
KIND_POINTS: Final = 0  # card points taken by the declarer (suit and grand)
KIND_SCHWARZ: Final = 1  # tricks taken by the declarer (schwarz)
KIND_NULL: Final = 2  # tricks taken by the defenders (null: the declarer wants all of them)

# `state` array: the position in internal card indices.
S_TRICK: Final = HANDS  # S_TRICK .. S_TRICK + 2: cards of the current trick in play order
S_TRICK_N: Final = S_TRICK + PLAYERS
S_LEADER: Final = S_TRICK_N + 1
S_DECLARER: Final = S_LEADER + 1
S_STAMP: Final = S_DECLARER + 1  # transposition table generation of this world
# Rank-normalised table keys (see `ranks`): the number of card groups (0: keys as they are),
# per group its lowest bit, width mask and the offset of its relabelling table in `state`.
S_GROUPS_N: Final = S_STAMP + 1
S_GROUPS: Final = S_GROUPS_N + 1
GROUP_FIELDS: Final = 3
MAX_GROUPS: Final = 6  # null: four suits; suit and grand: five runs of equal cards
S_CARD_GROUP: Final = S_GROUPS + GROUP_FIELDS * MAX_GROUPS  # S_CARD_GROUP + c: c's group or -1
S_RELABEL: Final = S_CARD_GROUP + CARDS
MAX_GROUP_WIDTH: Final = 8
S_SIZE: Final = S_RELABEL + 4 * (1 << MAX_GROUP_WIDTH)  # null's four suits of eight cards

# `rules` array: per game type and scoring kind, read-only.
R_PTS: Final = 0  # value of each internal card (card points, or 0 when tricks count)
R_SUIT: Final = R_PTS + CARDS  # effective suit id 0..4 of each internal card
R_MASK: Final = R_SUIT + CARDS  # R_MASK + s: the cards of effective suit s (s = 4: trumps)
R_NULL: Final = R_MASK + TRUMP_ID + 1  # 1 in null games
R_BONUS: Final = R_NULL + 1  # value of a trick on top of its cards (1 when tricks count)
R_CREDIT_DEFENDERS: Final = R_BONUS + 1  # 1 when the value counts the defenders' tricks
VALUE_CLASSES: Final = (11, 10, 4, 3, 2)  # the card values besides 0 (A, 10, K, Q, J)
R_CLASS: Final = R_CREDIT_DEFENDERS + 1  # R_CLASS + i: the cards worth VALUE_CLASSES[i]
R_SIZE: Final = R_CLASS + len(VALUE_CLASSES)

_BLOCK: Final = 7  # cards of a plain suit in suit and grand games
_NULL_BLOCK: Final = 8  # cards of a suit in null, jack included
_LOWEST_JACK: Final = jack(len(SUITS) - 1)  # the jacks keep bits 28..31 outside null
_TOP_BLOCK: Final = _LOWEST_JACK - _BLOCK  # lowest bit of the block under the jacks
_NULL_RANKS: Final = "789TJQKA"
_SUIT_RANKS: Final = "789QKTA"


def _layout(game: GameType) -> tuple[int, ...]:
    """Internal index of every card (by its index in the project layout)."""
    internal = [0] * CARDS
    if game == "null":
        for s in range(len(SUITS)):
            base = _NULL_BLOCK * (len(SUITS) - 1 - s)
            for offset, rank in enumerate(_NULL_RANKS):
                card = jack(s) if rank == "J" else suit_card(s, rank)
                internal[card] = base + offset
        return tuple(internal)
    for s in range(len(SUITS)):
        internal[jack(s)] = jack(s)
    trump = TRUMP_SUIT.get(game)
    plain = [s for s in range(len(SUITS)) if s != trump]
    blocks = ([trump] if trump is not None else []) + plain
    for b, s in enumerate(blocks):
        for offset, rank in enumerate(_SUIT_RANKS):
            internal[suit_card(s, rank)] = _TOP_BLOCK - _BLOCK * b + offset
    return tuple(internal)


_TO_INTERNAL: Final = {g: _layout(g) for g in GAME_TYPES}
_FROM_INTERNAL: Final = {
    g: tuple(sorted(range(CARDS), key=_TO_INTERNAL[g].__getitem__)) for g in GAME_TYPES
}


def to_internal(game: GameType, mask: CardMask) -> int:
    """A card mask in the internal layout of `game`."""
    layout = _TO_INTERNAL[game]
    return sum(1 << layout[c] for c in iter_bits(mask))


def from_internal(game: GameType, card: int) -> int:
    """The project's index of internal card `card` of `game`."""
    return _FROM_INTERNAL[game][card]


def _rules(game: GameType, kind: int) -> Int64Array:
    table = np.zeros(R_SIZE, dtype=np.int64)
    null = game == "null"
    for c in range(CARDS):
        i = _TO_INTERNAL[game][c]
        table[R_PTS + i] = CARD_POINTS[c] if kind == KIND_POINTS else 0
        if null:
            suit = i // _NULL_BLOCK
        elif i >= _LOWEST_JACK or (game != "grand" and i >= _TOP_BLOCK):
            suit = TRUMP_ID
        else:
            suit = i // _BLOCK
        table[R_SUIT + i] = suit
        table[R_MASK + suit] |= 1 << i
        if table[R_PTS + i]:
            table[R_CLASS + VALUE_CLASSES.index(CARD_POINTS[c])] |= 1 << i
    table[R_NULL] = int(null)
    table[R_BONUS] = int(kind != KIND_POINTS)
    table[R_CREDIT_DEFENDERS] = int(kind == KIND_NULL)
    table.setflags(write=False)
    return table


_RULES: Final = {
    (g, k): _rules(g, k)
    for g in GAME_TYPES
    for k in (KIND_POINTS, KIND_SCHWARZ, KIND_NULL)
    if (g == "null") == (k == KIND_NULL)
}


def rules_table(game: GameType, kind: int) -> Int64Array:
    """The read-only rules array of `game` scored as `kind` (null games only as KIND_NULL)."""
    return _RULES[(game, kind)]


class Position(msgspec.Struct, frozen=True):
    """A point in the card play of one open-card world, from the declarer's view of the score.

    `hands` are the cards each seat still holds; `trick` the cards of the trick in progress in
    play order, led by `leader` (with an empty trick, `leader` leads next). `declarer_points` are
    the card points the declarer has banked, the skat included; `declarer_tricks` and
    `defender_tricks` the tricks each side has taken (they decide null and schwarz).
    Construction validates everything and raises `InvalidInput`, so a caller can build one
    from any mid-game state.
    """

    hands: tuple[CardMask, CardMask, CardMask]
    game: GameType
    declarer: Seat
    leader: Seat
    trick: tuple[int, ...] = ()
    declarer_points: int = 0
    declarer_tricks: int = 0
    defender_tricks: int = 0

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def from_deal(
        cls,
        hands: tuple[CardMask, CardMask, CardMask],
        skat: CardMask,
        game: GameType,
        declarer: Seat,
        leader: Seat = 0,
    ) -> "Position":
        """The start of the card play: ten cards each, the skat's points banked by the declarer."""
        if popcount(skat) != 2 or any(h & skat for h in hands) or skat & ~ALL_CARDS:
            raise InvalidInput("the skat must be two cards that no hand holds")
        return cls(hands, game, declarer, leader, declarer_points=card_points(skat))

    @property
    def to_move(self) -> Seat:
        """The seat whose card is next."""
        return (self.leader + len(self.trick)) % PLAYERS

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the one in progress included."""
        return popcount(self.hands[self.to_move])

    @property
    def points_in_play(self) -> int:
        """Card points in the hands and on the table."""
        return card_points(sum(self.hands) + sum(1 << c for c in self.trick))


def _validate(p: Position) -> None:
    if p.game not in GAME_TYPES:
        raise InvalidInput(f"unknown game {p.game!r}; expected one of {', '.join(GAME_TYPES)}")
    if len(p.hands) != HANDS:
        raise InvalidInput("a position needs exactly three hands")
    for name, seat in (("declarer", p.declarer), ("leader", p.leader)):
        if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise InvalidInput(f"{name} must be a seat 0, 1 or 2")
    seen = 0
    for hand in p.hands:
        if not isinstance(hand, int) or hand < 0 or hand & ~ALL_CARDS:
            raise InvalidInput("a hand must be a 32-bit card mask")
        if hand & seen:
            raise InvalidInput("a card is in two hands")
        seen |= hand
    if len(p.trick) > MAX_TRICK_CARDS:
        raise InvalidInput("a trick in progress holds at most two cards")
    for card in p.trick:
        if not isinstance(card, int) or not 0 <= card < CARDS or seen >> card & 1:
            raise InvalidInput("trick cards must be distinct cards that no hand holds")
        seen |= 1 << card
    _validate_counts(p)
    _validate_follow(p)


def _validate_counts(p: Position) -> None:
    size = popcount(p.hands[p.to_move])
    played = {(p.leader + i) % PLAYERS for i in range(len(p.trick))}
    for seat, hand in enumerate(p.hands):
        if popcount(hand) != size - (seat in played):
            raise InvalidInput("hand sizes do not fit the trick in progress")
    if size > TRICKS_PER_DEAL or (p.trick and size == 0):
        raise InvalidInput("a hand holds at most ten cards")
    if min(p.declarer_points, p.declarer_tricks, p.defender_tricks) < 0:
        raise InvalidInput("points and tricks taken cannot be negative")
    if p.declarer_points + p.points_in_play > TOTAL_POINTS:
        raise InvalidInput("the declarer's points and the points in play exceed 120")
    if p.declarer_tricks + p.defender_tricks + size > TRICKS_PER_DEAL:
        raise InvalidInput("tricks taken and tricks left exceed ten")


def _validate_follow(p: Position) -> None:
    if not p.trick:
        return
    follow = follow_mask(p.game, p.trick[0])
    for i, card in enumerate(p.trick[1:], start=1):
        hand = p.hands[(p.leader + i) % PLAYERS]
        if hand & follow and not follow >> card & 1:
            raise InvalidInput(f"{format_card(card)} does not follow suit")


def owners(p: Position) -> tuple[int, int, int]:
    """Every card still in play by the seat that holds or played it (project layout)."""
    owned = list(p.hands)
    for i, card in enumerate(p.trick):
        owned[(p.leader + i) % PLAYERS] |= 1 << card
    return owned[0], owned[1], owned[2]


def pack(p: Position, stamp: int) -> Int64Array:
    """The `state` array of `p` in the internal layout, tagged with table generation `stamp`."""
    layout = _TO_INTERNAL[p.game]
    state = np.full(S_SIZE, NO_CARD, dtype=np.int64)
    for seat, hand in enumerate(p.hands):
        state[seat] = to_internal(p.game, hand)
    for i, card in enumerate(p.trick):
        state[S_TRICK + i] = layout[card]
    state[S_TRICK_N] = len(p.trick)
    state[S_LEADER] = p.leader
    state[S_DECLARER] = p.declarer
    state[S_STAMP] = stamp
    state[S_GROUPS_N] = 0
    return state
