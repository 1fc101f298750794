"""Bounds the search may cut on at trick boundaries of suit and grand games.

Both are values a side surely takes whatever the others do: sure trumps (either side, any
time) and quick tricks (the side on lead), plus the cheapest cards the other players must
add to those tricks; `side_bound` combines them for the search. Tests check them against
exact values.
"""

from engine.skat.solver.kernels import (
    I64,
    RVEC,
    VEC,
    fill_below,
    jit,
    lowest_bit,
    mask_value,
    popcount,
)
from engine.skat.solver.options import O_FOLLOWER_CARDS, O_QUICK_TRICKS, O_SURE_CARDS
from engine.skat.solver.position import (
    FULL32,
    PLAYERS,
    R_BONUS,
    R_CLASS,
    R_MASK,
    S_DECLARER,
    TRUMP_ID,
    VALUE_CLASSES,
    Int64Array,
)

__all__ = ["cheapest", "quick_value", "side_bound", "sure_value"]


@jit(I64(I64, I64, I64))
def _sure_cards(mine: int, others: int, suit_mask: int) -> int:
    """Cards of `mine` in the suit above every other card of that suit still in play."""
    return mine & suit_mask & ~fill_below(others & suit_mask) & FULL32


@jit(I64(I64, I64, RVEC))
def cheapest(hand: int, count: int, rules: Int64Array) -> int:
    """The least value `count` cards of `hand` can be worth."""
    if count <= 0:
        return 0
    left = count - popcount(hand)
    for i in range(len(VALUE_CLASSES)):
        left += popcount(hand & rules[R_CLASS + i])  # `left` starts past the cards worth 0
    total = 0
    for i in range(len(VALUE_CLASSES) - 1, -1, -1):
        if left <= 0:
            break
        take = min(left, popcount(hand & rules[R_CLASS + i]))
        total += take * VALUE_CLASSES[i]
        left -= take
    return total


@jit(I64(VEC, I64, RVEC, I64), inline=True)
def quick_value(hands: Int64Array, leader: int, rules: Int64Array, follow: int) -> int:
    """Value the leader's side surely takes by leading its top cards, at a trick boundary.

    The leader first cashes the trumps above all others in play (everybody must follow them),
    then in each plain suit the cards above all others in play, as long as nobody who may
    still hold a trump can be void; the partner counts as such a player too, since a forced
    ruff by the partner would take the lead away. With `follow`, each other player adds his
    cheapest cards to those tricks, one each (the partner's count for the side too). A lower
    bound, so the search may cut on it.
    """
    me = hands[leader]
    in_play = hands[0] | hands[1] | hands[2]
    others = in_play & ~me
    trumps = rules[R_MASK + TRUMP_ID]
    bonus: int = rules[R_BONUS]
    sure = _sure_cards(me, others, trumps)
    run = popcount(sure)
    tricks = run
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
        tricks += popcount(sure)
    if follow:
        for seat in range(PLAYERS):
            if seat != leader:
                total += cheapest(hands[seat], tricks, rules)
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


@jit(I64(VEC, I64, I64, I64, RVEC, VEC), inline=True)
def side_bound(
    state: Int64Array, leader: int, side: int, need: int, rules: Int64Array, opts: Int64Array
) -> int:
    """Value the side of seat `side` surely takes at a trick boundary with `leader` to lead:
    its sure cards, or its quick tricks when it is on lead, whichever is more, each with
    the cheapest cards the others must add to those tricks (`follower_cards`). Without
    them, returns 0 without the work when all of the side's cards could not reach `need`."""
    in_play = state[0] | state[1] | state[2]
    declarer = state[S_DECLARER]
    declarer_side = declarer == side
    mine = state[side] if declarer_side else in_play & ~state[declarer]
    follow = opts[O_FOLLOWER_CARDS]
    if not follow and mask_value(mine, rules) + rules[R_BONUS] * popcount(state[leader]) < need:
        return 0
    sure = 0
    if opts[O_SURE_CARDS] == 1:
        theirs = in_play & ~mine
        sure = sure_value(mine, theirs, rules)
        if follow:
            top = _sure_cards(mine, theirs, rules[R_MASK + TRUMP_ID])
            if declarer_side:  # each of his sure tricks holds a card of each defender
                sure += cheapest(theirs, 2 * popcount(top), rules)
            else:  # one defender's sure cards fall in different tricks
                first = popcount(top & state[(declarer + 1) % PLAYERS])
                second = popcount(top & state[(declarer + 2) % PLAYERS])
                sure += cheapest(theirs, max(first, second), rules)
    if opts[O_QUICK_TRICKS] == 1 and (leader == declarer) == declarer_side:
        sure = max(sure, quick_value(state, leader, rules, follow))
    return sure
