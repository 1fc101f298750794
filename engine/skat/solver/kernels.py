"""Small jitted leaf functions of the search: legal moves, trick order, equivalence, ordering.

Every function works on internal card indices (see `position`): within an effective suit the
higher bit is the stronger card and the trumps are the top block. Cards are int64 indices,
card sets int64 masks below 2**32. Masks are explicit (`& FULL32`), so the code gives the same
answers with `NUMBA_DISABLE_JIT=1`, where ints are unbounded.
"""

from collections.abc import Callable
from typing import Any, Final, TypeVar

import numba
from numba.extending import register_jitable

from engine import bits
from engine.skat.solver.position import (
    FULL32,
    NO_CARD,
    PLAYERS,
    R_BONUS,
    R_CREDIT_DEFENDERS,
    R_MASK,
    R_NULL,
    R_PTS,
    R_SUIT,
    S_DECLARER,
    S_LEADER,
    S_TRICK,
    S_TRICK_N,
    TRUMP_ID,
    Int64Array,
)

__all__ = [
    "BOOL",
    "F_ALPHA",
    "F_AVAIL",
    "F_BEST",
    "F_BEST_MOVE",
    "F_BETA",
    "F_GAIN",
    "F_I",
    "F_KEY",
    "F_LEAD",
    "F_MOVE",
    "F_MV",
    "F_N",
    "F_PLAYER",
    "F_POS",
    "F_SC",
    "F_SLOT",
    "F_TABLE",
    "F_TPTS",
    "F_WIN",
    "F_WINP",
    "I64",
    "MAT",
    "MAX_MOVES",
    "RVEC",
    "VEC",
    "W_SIZE",
    "beats",
    "chain_top",
    "distinct_moves",
    "fill_below",
    "jit",
    "last_trick",
    "legal_moves",
    "lowest_bit",
    "lowest_index",
    "mask_value",
    "order_moves",
    "play_card",
    "popcount",
    "quick_value",
    "sure_value",
    "trick_gain",
]

F = TypeVar("F", bound=Callable[..., Any])

I64: Final = numba.types.int64
VEC: Final = numba.types.Array(I64, 1, "C")
MAT: Final = numba.types.Array(I64, 2, "C")
RVEC: Final = numba.types.Array(I64, 1, "C", readonly=True)
BOOL: Final = numba.types.boolean


def jit(signature: Any, allocates: bool = False) -> Callable[[F], F]:
    """`numba.njit(signature, cache=True)` that keeps the function's type for mypy.

    An explicit signature compiles (or loads from the cache) when the module is imported, so
    only bot workers and CLI handlers import the solver (HOUSE_STYLE A). Kernels that do not
    `allocate` are compiled without numba's reference counting: otherwise every call of a
    helper that takes arrays updates their reference counts, about a third of the search time.
    """

    def wrap(fn: F) -> F:
        options: dict[str, Any] = {"cache": True, "_nrt": allocates}  # _nrt is not in the stubs
        compiled: F = numba.njit(signature, **options)(fn)
        return compiled

    return wrap


register_jitable(bits.popcount_swar)  # lets numba compile bits.lowest_index, which calls it
popcount = jit(I64(I64))(bits.popcount_swar)
lowest_index = jit(I64(I64))(bits.lowest_index)
lowest_bit = jit(I64(I64))(bits.lowest_bit)
fill_below = jit(I64(I64))(bits.fill_below)

# Row of the per-ply work array (the explicit search stack): one node each.
F_ALPHA: Final = 0  # the node's window on its future value
F_BETA: Final = 1
F_AVAIL: Final = 17  # value still in play (cards in hands and on the table, trick bonuses)
F_BEST: Final = 2  # best child value so far
F_BEST_MOVE: Final = 3
F_N: Final = 4  # number of moves
F_I: Final = 5  # index of the move being searched
F_PLAYER: Final = 6  # seat to move
F_POS: Final = 7  # cards already in the trick (0, 1, 2)
F_LEAD: Final = 8  # led card of the trick, NO_CARD at a trick boundary
F_WIN: Final = 9  # card winning the trick so far
F_WINP: Final = 10  # seat of that card
F_TPTS: Final = 11  # value of the cards in the trick so far
F_TABLE: Final = 12  # mask of the cards in the trick
F_GAIN: Final = 13  # value the move being searched banks for the declarer's count
F_MOVE: Final = 14  # the move being searched
F_SLOT: Final = 15  # transposition table slot of this node, -1 if none
F_KEY: Final = 16  # its key
MAX_MOVES: Final = 12  # a hand holds at most ten cards
F_MV: Final = 18  # moves in search order
F_SC: Final = F_MV + MAX_MOVES  # their ordering scores
W_SIZE: Final = F_SC + MAX_MOVES

_TIER: Final = 4096  # ordering score tiers; card value and rank refine inside a tier
_VALUE_STEP: Final = 64  # a card value step outranks any rank difference
_TOP_CARD: Final = 31
_MAX_CARD_POINTS: Final = 11
_AFTER_PARTNER: Final = 1  # ordering context: the partner led this trick
_SIDE_WINNING: Final = 2  # ordering context: my side (in null: the declarer) is winning
_LEAD_SHIFT: Final = 2  # null ordering context: led suit above the flags


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
    """Sum of the card values of `mask`."""
    total = 0
    while mask:
        card = lowest_index(mask)
        total += rules[R_PTS + card]
        mask ^= 1 << card
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


@jit(I64(I64, I64, I64))
def _sure_cards(mine: int, others: int, suit_mask: int) -> int:
    """Cards of `mine` in the suit above every other card of that suit still in play."""
    return mine & suit_mask & ~fill_below(others & suit_mask) & FULL32


@jit(I64(VEC, I64, RVEC))
def quick_value(hands: Int64Array, leader: int, rules: Int64Array) -> int:
    """Value the leader's side surely takes by leading its top cards, at a trick boundary.

    The leader first cashes the trumps above all others in play (everybody must follow them),
    then in each plain suit the cards above all others in play, as long as nobody who may
    still hold a trump can be void; the partner counts as such a player too, since a forced
    ruff by the partner would take the lead away. A lower bound, so the search may cut on it.
    """
    me = hands[leader]
    in_play = hands[0] | hands[1] | hands[2]
    others = in_play & ~me
    trumps = rules[R_MASK + TRUMP_ID]
    bonus: int = rules[R_BONUS]
    sure = _sure_cards(me, others, trumps)
    run = popcount(sure)
    total = mask_value(sure, rules) + bonus * run
    for suit in range(TRUMP_ID):
        suit_mask = rules[R_MASK + suit]
        sure = _sure_cards(me, others, suit_mask)
        if not sure:
            continue
        leads = popcount(sure)
        for seat in range(PLAYERS):
            if seat != leader and popcount(hands[seat] & trumps) > run:
                leads = min(leads, popcount(hands[seat] & suit_mask))
        while popcount(sure) > leads:
            sure ^= lowest_bit(sure)  # keep the top cards: in plain suits also the most points
        total += mask_value(sure, rules) + bonus * popcount(sure)
    return total


@jit(I64(I64, I64, RVEC))
def sure_value(mine: int, theirs: int, rules: Int64Array) -> int:
    """Value that the side holding `mine` surely takes against the side holding `theirs`.

    A trump above every trump of the other side wins whatever trick it falls in (played to a
    plain lead it still beats everything), so it ends in the side's tricks, at least one.
    Plain top cards are not sure: a void player may be forced to discard them.
    """
    sure = _sure_cards(mine, theirs, rules[R_MASK + TRUMP_ID])
    bonus: int = rules[R_BONUS]
    return mask_value(sure, rules) + (bonus if sure else 0)


@jit(I64(I64, I64, I64, RVEC))
def trick_gain(value: int, winner: int, declarer: int, rules: Int64Array) -> int:
    """What a completed trick of `value` banks for the counted side (0 for the other)."""
    credited = (winner == declarer) != (rules[R_CREDIT_DEFENDERS] == 1)
    return value if credited else 0


@jit(I64(VEC, I64, I64, RVEC))
def last_trick(hands: Int64Array, leader: int, declarer: int, rules: Int64Array) -> int:
    """What the last trick (one card in each hand, `leader` to lead) banks: it is forced."""
    best = lowest_index(hands[leader])
    winner = leader
    value = rules[R_BONUS] + rules[R_PTS + best]
    for offset in range(1, PLAYERS):
        seat = (leader + offset) % PLAYERS
        card = lowest_index(hands[seat])
        value += rules[R_PTS + card]
        if beats(card, best, rules):
            best = card
            winner = seat
    return trick_gain(value, winner, declarer, rules)


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
    best = state[S_TRICK]
    offset = 0
    value = rules[R_BONUS]
    for i in range(PLAYERS):
        value += rules[R_PTS + state[S_TRICK + i]]
        if i and beats(state[S_TRICK + i], best, rules):
            best = state[S_TRICK + i]
            offset = i
    winner = (leader + offset) % PLAYERS
    for i in range(PLAYERS):
        state[S_TRICK + i] = NO_CARD
    state[S_TRICK_N] = 0
    state[S_LEADER] = winner
    return trick_gain(value, winner, state[S_DECLARER], rules)


@jit(I64(I64, I64, RVEC))
def _beating(moves: int, win: int, rules: Int64Array) -> int:
    """The cards of `moves` that beat `win`, the card winning the trick so far."""
    suit = rules[R_SUIT + win]
    higher: int = moves & rules[R_MASK + suit] & ~((2 << win) - 1) & FULL32
    if suit == TRUMP_ID:
        return higher
    trumps: int = rules[R_MASK + TRUMP_ID]
    return higher | moves & trumps


@jit(I64(I64, I64, I64, I64, I64, I64, RVEC))
def _suit_score(
    card: int, pos: int, mine: int, beating: int, context: int, in_play: int, rules: Int64Array
) -> int:
    """Ordering score in suit and grand games (higher is searched first).

    Leads: the declarer cashes the top card of a plain suit, then trumps high to low, then
    plain cards; defenders lead plain cards, trumps last. Later in the trick a card that takes
    it for my side (or lets the partner keep it) comes first with the most points; otherwise
    the cheapest card. `context` is 1 after the partner's lead, 2 when my side is winning.
    """
    value: int = rules[R_PTS + card]
    suit = rules[R_SUIT + card]
    if pos == 0:
        if not mine:
            return (1 if suit == TRUMP_ID else 2) * _TIER + card
        if suit == TRUMP_ID:
            return 2 * _TIER + card
        if not (in_play & rules[R_MASK + suit]) >> (card + 1):
            return 3 * _TIER + value * _VALUE_STEP + card
        return _TIER + card
    wins = beating >> card & 1
    low = _TOP_CARD - card
    if context == _AFTER_PARTNER:
        return 3 * _TIER + card if wins else 2 * _TIER + value * _VALUE_STEP + low
    if wins or context == _SIDE_WINNING:
        return 3 * _TIER + value * _VALUE_STEP + low
    return _TIER + (_MAX_CARD_POINTS - value) * _VALUE_STEP + low


@jit(I64(I64, I64, I64, I64, I64, I64, RVEC))
def _null_score(
    card: int, pos: int, mine: int, beating: int, context: int, in_play: int, rules: Int64Array
) -> int:
    """Ordering score in null: the declarer ducks with his highest card that stays under and
    discards high cards; defenders lead low into the declarer's suits (`in_play` holds the
    declarer's hand at a lead) and stay under him once he is winning. `context` holds
    _SIDE_WINNING when the declarer is winning the trick, and the led suit above it."""
    low = _TOP_CARD - card
    suit = rules[R_SUIT + card]
    if pos == 0:
        if mine:
            return _TIER + low
        return (3 if in_play & rules[R_MASK + suit] else 1) * _TIER + low
    wins = beating >> card & 1
    if mine:
        if suit != context >> _LEAD_SHIFT:
            return 2 * _TIER + card
        return _TIER + low if wins else 3 * _TIER + card
    if context & _SIDE_WINNING:
        return _TIER + low if wins else 3 * _TIER + card
    if suit != context >> _LEAD_SHIFT:
        return 2 * _TIER + card
    return 2 * _TIER + low


@jit(I64(MAT, I64, I64, VEC, RVEC, I64, I64, I64))
def order_moves(
    work: Int64Array,
    ply: int,
    moves: int,
    hands: Int64Array,
    rules: Int64Array,
    declarer: int,
    first: int,
    heuristic: int,
) -> int:
    """Write `moves` into the row's move list in search order and return their number.

    With `heuristic` the moves are sorted by the game type's score, otherwise highest card
    first; `first` (a stored best move, or NO_CARD) goes to the front either way.
    """
    null = rules[R_NULL] == 1
    pos = work[ply, F_POS]
    mine = work[ply, F_PLAYER] == declarer
    beating = 0
    context = 0
    in_play = hands[0] | hands[1] | hands[2]
    if pos:
        win = work[ply, F_WIN]
        beating = _beating(moves, win, rules)
        if null:  # is the declarer winning, and which suit was led
            declarer_winning = work[ply, F_WINP] == declarer
            context = (_SIDE_WINNING if declarer_winning else 0) | rules[
                R_SUIT + win
            ] << _LEAD_SHIFT
        elif (work[ply, F_WINP] == declarer) == mine:
            context = _AFTER_PARTNER if pos == 1 else _SIDE_WINNING
    elif null:
        in_play = hands[declarer]
    count = 0
    rest = moves
    while rest:
        card = lowest_index(rest)
        rest ^= 1 << card
        if card == first:
            score = 4 * _TIER
        elif not heuristic:
            score = card
        elif null:
            score = _null_score(card, pos, mine, beating, context, in_play, rules)
        else:
            score = _suit_score(card, pos, mine, beating, context, in_play, rules)
        j = count
        while j > 0 and work[ply, F_SC + j - 1] < score:
            work[ply, F_SC + j] = work[ply, F_SC + j - 1]
            work[ply, F_MV + j] = work[ply, F_MV + j - 1]
            j -= 1
        work[ply, F_SC + j] = score
        work[ply, F_MV + j] = card
        count += 1
    return count
