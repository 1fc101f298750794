"""Rank-normalised table keys: positions that differ only in which of some equal cards
were played share one table entry.

A *group* is a run of cards that are adjacent in rank within one effective suit and worth
the same (in suit and grand: the 7, 8 and 9 of each suit, and the jacks; when tricks count,
whole suits, in pieces of at most eight cards). Within a world every card has a fixed
owner. Two sets of remaining cards whose cards of each group have the same owners in rank
order give the same game, card for card (same suit, same order against every other card,
same value), so they have the same future value. The key therefore replaces the remaining
cards of each group by the lowest cards of the group that have those owners in that order
(a greedy match, which always exists since the real cards are one). Only cards held at the
root of the solve are used, so every key is a real position of the world; entries of other
solves of the same world stay valid. The stored best lead may then be a card the player does
not hold, which the ordering ignores.
"""

from engine.skat.solver.kernels import I64, RVEC, VEC, jit
from engine.skat.solver.position import (
    GROUP_FIELDS,
    HANDS,
    MAX_GROUP_WIDTH,
    MAX_GROUPS,
    R_MASK,
    R_PTS,
    S_CARD_GROUP,
    S_GROUPS,
    S_GROUPS_N,
    S_RELABEL,
    S_SIZE,
    TRUMP_ID,
    Int64Array,
)

__all__ = ["fill_groups", "normalise", "normalise_without"]


@jit(I64(VEC, I64))
def _owner(state: Int64Array, card: int) -> int:
    """The seat holding `card` in `state`, or -1."""
    for seat in range(HANDS):
        if state[seat] >> card & 1:
            return seat
    return -1


@jit(I64(VEC, I64, I64, I64))
def _relabel_table(state: Int64Array, low: int, width: int, offset: int) -> int:
    """For every subset of the group of `width` cards from bit `low`, its lowest subset with
    the same owners in the same order, written to `state[offset:]`; returns the next offset."""
    for pattern in range(1 << width):
        out = 0
        last = -1
        for bit in range(width):
            if not pattern >> bit & 1:
                continue
            seat = _owner(state, low + bit)
            if seat < 0:  # not held at the root: never remaining in the search
                out = pattern
                break
            pick = last + 1
            while _owner(state, low + pick) != seat:
                pick += 1
            out |= 1 << pick
            last = pick
        state[offset + pattern] = out
    return offset + (1 << width)


@jit(I64(VEC, RVEC))
def fill_groups(state: Int64Array, rules: Int64Array) -> int:
    """Find the groups of `rules` and fill their relabelling tables for the owners in
    `state` (its hands at the root of a solve); returns the number of groups."""
    count = 0
    offset = S_RELABEL
    for suit in range(TRUMP_ID + 1):
        mask = rules[R_MASK + suit]
        card = 0
        while card < 32:
            if not mask >> card & 1:
                card += 1
                continue
            width = 1
            while (
                width < MAX_GROUP_WIDTH
                and mask >> (card + width) & 1
                and rules[R_PTS + card + width] == rules[R_PTS + card]
            ):
                width += 1
            fits = offset + (1 << width) <= S_SIZE and count < MAX_GROUPS
            if width > 1 and fits:
                field = S_GROUPS + GROUP_FIELDS * count
                state[field] = card
                state[field + 1] = (1 << width) - 1
                state[field + 2] = offset
                for member in range(card, card + width):
                    state[S_CARD_GROUP + member] = count
                offset = _relabel_table(state, card, width, offset)
                count += 1
            card += width
    state[S_GROUPS_N] = count
    return count


@jit(I64(VEC, I64), inline=True)
def normalise(state: Int64Array, remaining: int) -> int:
    """`remaining` with the cards of each group replaced by their relabelled ones."""
    for group in range(state[S_GROUPS_N]):
        field = S_GROUPS + GROUP_FIELDS * group
        low = state[field]
        pattern = remaining >> low & state[field + 1]
        remaining ^= (pattern ^ state[state[field + 2] + pattern]) << low
    return remaining


@jit(I64(VEC, I64, I64, I64), inline=True)
def normalise_without(state: Int64Array, normalised: int, remaining: int, card: int) -> int:
    """`normalise(state, remaining ^ 1 << card)` from `normalised = normalise(state,
    remaining)`: only the group of `card` changes (one lookup instead of one per group)."""
    group = state[S_CARD_GROUP + card]
    if group < 0:
        return normalised ^ 1 << card
    field = S_GROUPS + GROUP_FIELDS * group
    low = state[field]
    width = state[field + 1]
    pattern = (remaining ^ 1 << card) >> low & width
    relabelled: int = normalised & ~(width << low) | state[state[field + 2] + pattern] << low
    return relabelled
