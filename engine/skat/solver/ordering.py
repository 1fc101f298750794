"""Move ordering: the heuristic order in which a node tries its moves.

Scores are integers in tiers (`_TIER`); inside a tier the card value and then the rank decide.
The search sorts a node's moves by score with an insertion sort into its stack row, after
putting the table's best move first. What each game type prefers is in the score functions.
"""

from typing import Final

from engine.skat.solver.kernels import I64, MAT, RVEC, VEC, fill_below, jit, lowest_index
from engine.skat.solver.options import O_ORDERING, O_PARTNER_LEADS, O_RUFFS
from engine.skat.solver.position import (
    FULL32,
    PLAYERS,
    R_MASK,
    R_NULL,
    R_PTS,
    R_SUIT,
    TRUMP_ID,
    Int64Array,
)
from engine.skat.solver.stack import F_MV, F_PLAYER, F_POS, F_SC, F_WIN, F_WINP

__all__ = ["order_moves"]

_TIER: Final = 4096  # ordering score tiers; card value and rank refine inside a tier
_VALUE_STEP: Final = 64  # a card value step outranks any rank difference
_TOP_CARD: Final = 31
_MAX_CARD_POINTS: Final = 11
_AFTER_PARTNER: Final = 1  # ordering context: the partner led this trick
_SIDE_WINNING: Final = 2  # ordering context: my side (in null: the declarer) is winning
_LEAD_SHIFT: Final = 2  # null ordering context: led suit above the flags


@jit(I64(I64, I64, RVEC))
def _beating(moves: int, win: int, rules: Int64Array) -> int:
    """The cards of `moves` that beat `win`, the card winning the trick so far."""
    suit = rules[R_SUIT + win]
    higher: int = moves & rules[R_MASK + suit] & ~((2 << win) - 1) & FULL32
    if suit == TRUMP_ID:
        return higher
    trumps: int = rules[R_MASK + TRUMP_ID]
    return higher | moves & trumps


@jit(I64(I64, I64, I64, I64, I64, I64, I64, I64, RVEC))
def _suit_score(
    card: int,
    pos: int,
    mine: int,
    beating: int,
    context: int,
    in_play: int,
    ruffed: int,
    partner: int,
    rules: Int64Array,
) -> int:
    """Ordering score in suit and grand games (higher is searched first).

    Leads: both sides first cash the top card of a plain suit (most points first); then the
    declarer leads trumps high to low and plain cards high to low, the defenders plain cards
    high to low and trumps last (measured on the benchmark deals). A plain suit in `ruffed`
    (bit per suit: an opponent is void in it and holds trumps) comes later: the declarer
    cashes its top card after his trumps, the defenders lead it last (-23 % value nodes);
    the declarer leads trumps last once the defenders hold none (bit TRUMP_ID of
    `ruffed`). A defender first leads the suits whose top card in play is in `partner`,
    his partner's hand (win -30 %, value -7 % nodes).
    Later in the trick a card that takes it for my side (or lets the partner keep it) comes
    first with the most points; otherwise the cheapest card. `context` is 1 after the
    partner's lead, 2 when my side is winning.
    """
    value: int = rules[R_PTS + card]
    suit = rules[R_SUIT + card]
    if pos == 0:
        if suit == TRUMP_ID:
            if not mine:
                return _TIER + card
            return _TIER // 2 + card if ruffed >> TRUMP_ID & 1 else 2 * _TIER + card
        ruff = ruffed >> suit & 1
        above = in_play & rules[R_MASK + suit] & ~((2 << card) - 1) & FULL32
        if ruff and not mine:
            return _TIER // 2 + (0 if above else value * _VALUE_STEP) + card
        if not above:
            return (_TIER + _TIER // 2 if ruff else 3 * _TIER) + value * _VALUE_STEP + card
        if mine:
            return _TIER + card
        partners = above & partner > fill_below(above & ~partner)  # the top card is his
        return (2 * _TIER + _TIER // 2 if partners else 2 * _TIER) + card
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


@jit(I64(VEC, I64, I64, RVEC))
def _ruffed_suits(hands: Int64Array, leader: int, declarer: int, rules: Int64Array) -> int:
    """Bit per plain suit in which an opponent of `leader` is void and holds trumps, and bit
    TRUMP_ID when no opponent holds a trump."""
    trumps = rules[R_MASK + TRUMP_ID]
    ruffed = 1 << TRUMP_ID
    for seat in range(PLAYERS):
        opponent = seat != declarer if leader == declarer else seat == declarer
        if opponent and hands[seat] & trumps:
            ruffed &= ~(1 << TRUMP_ID)
            for suit in range(TRUMP_ID):
                if not hands[seat] & rules[R_MASK + suit]:
                    ruffed |= 1 << suit
    return ruffed


@jit(I64(MAT, I64, I64, VEC, RVEC, I64, I64, VEC), inline=True)
def order_moves(
    work: Int64Array,
    ply: int,
    moves: int,
    hands: Int64Array,
    rules: Int64Array,
    declarer: int,
    first: int,
    opts: Int64Array,
) -> int:
    """Write `moves` into the row's move list in search order and return their number.

    With the `move_ordering` option the moves are sorted by the game type's score, otherwise
    highest card first; `first` (a stored best move, or NO_CARD) goes to the front either way.
    """
    heuristic = opts[O_ORDERING] == 1
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
    ruffed = 0
    partner = 0
    if pos == 0 and not null:
        leader = work[ply, F_PLAYER]
        if opts[O_RUFFS] == 1:
            ruffed = _ruffed_suits(hands, leader, declarer, rules)
        if opts[O_PARTNER_LEADS] == 1 and leader != declarer:
            partner = hands[PLAYERS - declarer - leader]
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
            score = _suit_score(card, pos, mine, beating, context, in_play, ruffed, partner, rules)
        j = count
        while j > 0 and work[ply, F_SC + j - 1] < score:
            work[ply, F_SC + j] = work[ply, F_SC + j - 1]
            work[ply, F_MV + j] = work[ply, F_MV + j - 1]
            j -= 1
        work[ply, F_SC + j] = score
        work[ply, F_MV + j] = card
        count += 1
    return count
