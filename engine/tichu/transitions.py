"""How each action changes a Tichu match: the transitions `State.apply` dispatches to, once
the action is read and found legal (`legality`).

Each takes the state before and returns the state after; a round that ends starts the next
one through `State.new_round`, or ends the match.
"""

from functools import lru_cache
from typing import TYPE_CHECKING, Final

import msgspec

from engine.errors import IllegalAction, InvalidInput
from engine.tichu.actions import (
    DeclineGrandTichu,
    Event,
    Exchange,
    GiveDragon,
    GrandTichu,
    Play,
)
from engine.tichu.cards import (
    MAHJONG,
    PHOENIX,
    RANK_MASK,
    CardMask,
    parse_card,
    parse_cards,
    parse_rank,
)
from engine.tichu.combos import DOG_COMBO, DRAGON_HEIGHT, NO_COMBO, SINGLE, Combo, classify, combo
from engine.tichu.deal import PARTNER, RIGHT, SEATS, Hands, seat_at
from engine.tichu.legality import (
    BAD_CARDS,
    CALL,
    PASS,
    THIRD_OUT,
    Gift,
    play_context,
    play_error,
    raise_for,
    wish_error,
)
from engine.tichu.scoring import GRAND, TICHU, score_round, team_of

if TYPE_CHECKING:
    from engine.tichu.state import State

__all__ = [
    "NO_CARDS",
    "NO_SEAT",
    "Gifts",
    "Seat",
    "after_call",
    "after_exchange",
    "after_give",
    "after_grand",
    "after_pass",
    "apply_play",
    "parse_gift",
]

Seat = int
Gifts = tuple[Gift | None, Gift | None, Gift | None, Gift | None]

NO_SEAT: Final = -1
NO_CARDS: Final[Hands] = (0, 0, 0, 0)
_ALL_SEATS: Final = (1 << SEATS) - 1
_PAIR_OUT: Final = 2
_DRAGON_SINGLE: Final = combo(SINGLE, 1, DRAGON_HEIGHT)
_PARSE_CACHE: Final = 1 << 16
_PASS_EVENTS: Final = tuple(Event(seat=seat, action=PASS) for seat in range(SEATS))


@lru_cache(maxsize=_PARSE_CACHE)
def read_play(cards: tuple[str, ...], phoenix_as_one: bool) -> tuple[CardMask, Combo]:
    """The mask of a Play's cards and the combination they form when led (cached: the same
    card sets come back all the time)."""
    mask = parse_cards(cards)
    return mask, classify(mask, NO_COMBO, phoenix_as_one=phoenix_as_one)


def _holding(hands: Hands) -> int:
    """Bit set of the seats that still hold cards."""
    return (hands[0] != 0) | (hands[1] != 0) << 1 | (hands[2] != 0) << 2 | (hands[3] != 0) << 3


def _next_in(holding: int, seat: Seat) -> Seat:
    """The next seat after `seat` in turn order among the bit set `holding` (`seat` itself if
    none)."""
    for step in range(1, SEATS + 1):
        other = seat_at(seat, step)
        if holding >> other & 1:
            return other
    return seat


# _NEXT_ACTIVE[holding][seat]: `_next_in(holding, seat)` for every bit set of seats.
_NEXT_ACTIVE: Final = tuple(
    tuple(_next_in(holding, seat) for seat in range(SEATS)) for holding in range(1 << SEATS)
)


def _next_active(hands: Hands, seat: Seat) -> Seat:
    """The next seat after `seat` in turn order that still holds cards (`seat` itself if none)."""
    return _NEXT_ACTIVE[_holding(hands)][seat]


def parse_gift(action: Exchange) -> Gift:
    try:
        return (
            1 << parse_card(action.right),
            1 << parse_card(action.partner),
            1 << parse_card(action.left),
        )
    except InvalidInput as error:
        raise IllegalAction(BAD_CARDS, str(error)) from error


def apply_play(state: "State", seat: Seat, action: Play, listed: bool) -> "State":
    """`action` read and checked (`listed`: taken from `legal_actions`, so only read) and
    applied."""
    rules = state.start.rules
    try:
        cards, played = read_play(action.cards, rules.phoenix_as_one)
        wish = parse_rank(action.wish) if action.wish is not None else 0
    except (InvalidInput, TypeError) as error:
        raise IllegalAction(BAD_CARDS, str(error)) from error
    if listed and cards != PHOENIX:
        return _after_play(state, seat, cards, played, wish, action)
    ctx = play_context(state, seat)
    if cards == PHOENIX:  # the only card set whose combination depends on the table
        played = classify(cards, ctx.table)
    if not listed:
        raise_for(wish_error(cards, wish, rules.wish_required) or play_error(ctx, cards, played))
    return _after_play(state, seat, cards, played, wish, action)


def _after_play(
    state: "State", seat: Seat, cards: CardMask, played: Combo, wish: int, action: Play
) -> "State":
    won = state.won
    trick, trick_start = state.trick, state.trick_start
    if state.phase == "play" and seat == state.turn and (state.table == NO_COMBO or state.closed):
        if state.table != NO_COMBO:
            won = _with(won, state.owner, won[state.owner] | trick)
        trick, trick_start = 0, len(state.log)
    hand = state.hands[seat] ^ cards
    hands = _with(state.hands, seat, hand)
    trick |= cards
    pending = state.wish
    if pending and cards & RANK_MASK[pending]:
        pending = 0
    if wish:
        pending = wish
    log = (*state.log, Event(seat, action))
    finish = state.finish
    if not hand:  # only a player going out can end the round
        finish = (*finish, seat)
        if len(finish) == THIRD_OUT or (
            len(finish) == _PAIR_OUT and team_of(finish[0]) == team_of(finish[1])
        ):
            if played == _DRAGON_SINGLE and len(finish) == THIRD_OUT:
                return msgspec.structs.replace(
                    state,
                    phase="dragon",
                    hands=hands,
                    won=won,
                    turn=seat,
                    owner=seat,
                    table=played,
                    table_cards=cards,
                    trick=trick,
                    trick_start=trick_start,
                    passed=0,
                    closed=True,
                    wish=pending,
                    finish=finish,
                    log=log,
                )
            return _end_round(state, hands, _with(won, seat, won[seat] | trick), finish, log)
    holding = _holding(hands)
    if played == DOG_COMBO:
        partner = seat_at(seat, PARTNER)
        receiver = partner if hands[partner] else _NEXT_ACTIVE[holding][partner]
        owner, turn, closed = receiver, receiver, True
    else:
        owner, turn, closed = seat, _NEXT_ACTIVE[holding][seat], False
    return msgspec.structs.replace(
        state,
        phase="play",
        hands=hands,
        won=won,
        turn=turn,
        owner=owner,
        table=played,
        table_cards=cards,
        trick=trick,
        trick_start=trick_start,
        passed=0,
        closed=closed,
        wish=pending,
        finish=finish,
        log=log,
    )


def _with(masks: Hands, seat: Seat, mask: CardMask) -> Hands:
    """`masks` with the entry of `seat` replaced by `mask`."""
    if seat == 0:
        return mask, masks[1], masks[2], masks[3]
    if seat == 1:
        return masks[0], mask, masks[2], masks[3]
    if seat == 2:
        return masks[0], masks[1], mask, masks[3]
    return masks[0], masks[1], masks[2], mask


def _as_hands(masks: list[CardMask]) -> Hands:
    return masks[0], masks[1], masks[2], masks[3]


def after_pass(state: "State", seat: Seat) -> "State":
    passed = state.passed | (1 << seat)
    holding = _holding(state.hands)
    owner = state.owner
    others = holding & ~(1 << owner)
    log = (*state.log, _PASS_EVENTS[seat])
    if passed & others != others:
        return msgspec.structs.replace(
            state, passed=passed, turn=_NEXT_ACTIVE[holding][seat], log=log
        )
    if state.table == _DRAGON_SINGLE:
        return msgspec.structs.replace(
            state, phase="dragon", passed=passed, turn=owner, closed=True, log=log
        )
    leader = owner if holding >> owner & 1 else _NEXT_ACTIVE[holding][owner]
    return msgspec.structs.replace(state, passed=passed, turn=leader, closed=True, log=log)


def after_give(state: "State", seat: Seat, to: Seat) -> "State":
    won = list(state.won)
    won[to] |= state.trick
    log = (*state.log, Event(seat=seat, action=GiveDragon(to=to)))
    if len(state.finish) >= THIRD_OUT:
        return _end_round(state, state.hands, _as_hands(won), state.finish, log)
    hands = state.hands
    return msgspec.structs.replace(
        state,
        phase="play",
        won=_as_hands(won),
        turn=seat if hands[seat] else _next_active(hands, seat),
        owner=NO_SEAT,
        table=NO_COMBO,
        table_cards=0,
        trick=0,
        trick_start=len(log),
        passed=0,
        closed=False,
        log=log,
    )


def after_call(state: "State", seat: Seat) -> "State":
    calls = list(state.calls)
    calls[seat] = TICHU
    return msgspec.structs.replace(
        state,
        calls=(calls[0], calls[1], calls[2], calls[3]),
        log=(*state.log, Event(seat=seat, action=CALL)),
    )


def after_grand(state: "State", seat: Seat, action: GrandTichu | DeclineGrandTichu) -> "State":
    calls = list(state.calls)
    if isinstance(action, GrandTichu):
        calls[seat] = GRAND
    decided = state.decided | (1 << seat)
    log = (*state.log, Event(seat=seat, action=action))
    new_calls = (calls[0], calls[1], calls[2], calls[3])
    if decided != _ALL_SEATS:
        return msgspec.structs.replace(state, calls=new_calls, decided=decided, log=log)
    hands = tuple(h | s for h, s in zip(state.hands, state.stock, strict=True))
    return msgspec.structs.replace(
        state,
        phase="exchange",
        calls=new_calls,
        decided=decided,
        hands=_as_hands(list(hands)),
        stock=NO_CARDS,
        log=log,
    )


def after_exchange(state: "State", seat: Seat, gift: Gift, action: Exchange) -> "State":
    gifts = list(state.gifts)
    gifts[seat] = gift
    fixed: Gifts = (gifts[0], gifts[1], gifts[2], gifts[3])
    log = (*state.log, Event(seat=seat, action=action))
    complete = [g for g in fixed if g is not None]
    if len(complete) < SEATS:
        return msgspec.structs.replace(state, gifts=fixed, log=log)
    hands = list(state.hands)
    for giver, given in enumerate(complete):
        for offset, card in enumerate(given, start=RIGHT):
            hands[giver] &= ~card
            hands[seat_at(giver, offset)] |= card
    leader = next(s for s in range(SEATS) if hands[s] & MAHJONG)
    return msgspec.structs.replace(
        state,
        phase="play",
        gifts=fixed,
        hands=_as_hands(hands),
        turn=leader,
        trick_start=len(log),
        log=log,
    )


def _end_round(
    state: "State", hands: Hands, won: Hands, finish: tuple[Seat, ...], log: tuple[Event, ...]
) -> "State":
    score = score_round(hands, won, finish, state.calls)
    totals = (state.totals[0] + score.points[0], state.totals[1] + score.points[1])
    rounds = (*state.rounds, score)
    rules = state.start.rules
    decided = max(totals) >= rules.target_points and (totals[0] != totals[1] or rules.tie == "draw")
    if decided or (rules.max_rounds is not None and len(rounds) >= rules.max_rounds):
        winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        return msgspec.structs.replace(
            state,
            phase="over",
            hands=hands,
            won=won,
            finish=finish,
            log=log,
            owner=NO_SEAT,
            table=NO_COMBO,
            table_cards=0,
            trick=0,
            closed=False,
            totals=totals,
            rounds=rounds,
            winner=winner,
        )
    past = (*state.past, log)
    return state.new_round(state.start, state.round_index + 1, totals, rounds, past)
