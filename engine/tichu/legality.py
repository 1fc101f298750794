"""Which actions the rules allow: the one predicate per action family, and the enumeration.

`State.apply` asks these predicates about the action it was given; `legal_actions` asks them
about every candidate it generates (plays: see `legal_plays`), so what is offered and what is
accepted cannot disagree.
A predicate returns None for a legal action, else the stable IllegalAction code. Plays are
checked in two steps for speed: `play_context` evaluates everything that depends only on the
state and the seat once, `play_error` then judges one card set. `legal_plays` lists the card
sets `play_error` accepts without asking it per card set (see there why that is the same).
"""

from functools import lru_cache
from itertools import permutations
from typing import TYPE_CHECKING, Final

import msgspec

from engine.bits import bit_index, iter_bits, popcount
from engine.errors import IllegalAction
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrandTichu,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
)
from engine.tichu.bombs import bombs, has_bomb
from engine.tichu.cards import (
    ACE,
    LOWEST_RANK,
    MAHJONG,
    RANK_MASK,
    CardMask,
    format_card,
)
from engine.tichu.combos import DOG_COMBO, NO_COMBO, Combo, beats, is_bomb
from engine.tichu.deal import HAND_SIZE, LEFT, RIGHT, SEATS, seat_at
from engine.tichu.play_actions import lead_actions, play_actions
from engine.tichu.plays import Play as CardPlay
from engine.tichu.plays import plays
from engine.tichu.scoring import NO_CALL, team_of

if TYPE_CHECKING:
    from engine.tichu.state import State

__all__ = [
    "BAD_CARDS",
    "CALL",
    "CODES",
    "NO_SUCH_SEAT",
    "PASS",
    "THIRD_OUT",
    "Gift",
    "PlayContext",
    "call_error",
    "exchange_error",
    "give_error",
    "grand_error",
    "illegal",
    "legal_actions",
    "legal_plays",
    "must_fulfil_wish",
    "pass_error",
    "play_context",
    "play_error",
    "raise_for",
    "wish_error",
]

# Cards a seat passes in the exchange, by receiver offset: to seat+1 (right), +2, +3 (left).
Gift = tuple[CardMask, CardMask, CardMask]

THIRD_OUT: Final = 3
PASS: Final = Pass()
CALL: Final = CallTichu()
_GRAND_CHOICES: Final = (GrandTichu(), DeclineGrandTichu())
_WISH_RANKS: Final = tuple(range(LOWEST_RANK, ACE + 1))
_WISH_CACHE: Final = 1 << 16
_EXCHANGED: Final = 3

_MESSAGES: Final = {
    "game_over": "the match is over",
    "unknown_action": "not a Tichu action",
    "wrong_phase": "this action does not belong to the current phase",
    "not_your_turn": "it is not your turn (out of turn only a bomb on the table is allowed)",
    "already_out": "you have no cards left",
    "not_in_hand": "you do not hold these cards",
    "not_a_combination": "these cards form no Tichu combination",
    "does_not_beat": "this does not beat the combination on the table",
    "wish_must_be_fulfilled": "you can play the wished rank, so you must",
    "wish_without_mahjong": "only the player of the Mah Jong may wish",
    "wish_required": "these rules require a wish with the Mah Jong",
    "nothing_to_bomb": "a bomb out of turn needs a combination on the table",
    "dog_not_bombable": "the Dog cannot be bombed",
    "round_is_over": "the third player is out: no more bombs in this round",
    "must_give_dragon": "give the Dragon trick to an opponent first",
    "must_lead": "the leader cannot pass",
    "already_called": "you have already called",
    "already_played": "Tichu can only be called before playing a card",
    "already_decided": "you have already decided on Grand Tichu",
    "already_exchanged": "you have already fixed your exchange",
    "same_card_twice": "pass three different cards",
    "not_an_opponent": "the Dragon trick goes to an opponent",
}


# Codes raised with a message naming the offending input.
BAD_CARDS: Final = "bad_cards"
NO_SUCH_SEAT: Final = "no_such_seat"
CODES: Final = frozenset(_MESSAGES) | {BAD_CARDS, NO_SUCH_SEAT}


def illegal(code: str) -> IllegalAction:
    """The IllegalAction for a predicate's `code`, with its standard message."""
    return IllegalAction(code, _MESSAGES[code])


def raise_for(code: str | None) -> None:
    """Raise the IllegalAction for `code`; do nothing for None (legal)."""
    if code is not None:
        raise illegal(code)


class PlayContext(msgspec.Struct, frozen=True, gc=False):
    """What a play by a seat must satisfy now, computed once per (state, seat).

    Attributes:
        refusal: code refusing every play (wrong phase, no cards), None if plays may be legal.
        hand: the seat's cards.
        on_turn: an ordinary play (lead or answer) rather than an interrupt.
        table: what the play must beat; NO_COMBO when leading. Also the table a Phoenix single
            is classified against.
        bomb_refusal: for an interrupt, the code refusing every bomb (empty table, Dog, round
            over, Dragon to give away), else None.
        wish_cards: the wished rank's cards when a wish is pending on turn, else 0.
        bombs_exempt: a bomb on turn need not contain the wished rank.
        phoenix_as_one: the rule option (it changes which straights exist).
    """

    refusal: str | None
    hand: CardMask
    on_turn: bool
    table: Combo
    bomb_refusal: str | None
    wish_cards: CardMask
    bombs_exempt: bool
    phoenix_as_one: bool


def play_context(state: "State", seat: int) -> PlayContext:
    """The per-(state, seat) part of the play predicate; see `PlayContext`."""
    phase = state.phase
    hand = state.hands[seat]
    rules = state.start.rules
    refusal = None
    if phase != "play" and phase != "dragon":
        refusal = "wrong_phase"
    elif phase == "dragon" and seat == state.owner:
        refusal = "must_give_dragon"
    elif not hand:
        refusal = "already_out"
    table = state.table
    if phase == "play" and seat == state.turn:
        leading = table == NO_COMBO or state.closed
        return PlayContext(
            refusal,
            hand,
            True,
            NO_COMBO if leading else table,
            None,
            RANK_MASK[state.wish] if state.wish else 0,
            not leading and rules.on_turn_bombs_ignore_wish,
            rules.phoenix_as_one,
        )
    bomb_refusal = None
    if table == NO_COMBO:
        bomb_refusal = "nothing_to_bomb"
    elif len(state.finish) >= THIRD_OUT:
        bomb_refusal = "round_is_over"
    elif table == DOG_COMBO and not rules.dog_bombable:
        bomb_refusal = "dog_not_bombable"
    return PlayContext(refusal, hand, False, table, bomb_refusal, 0, False, rules.phoenix_as_one)


def play_error(ctx: PlayContext, cards: CardMask, played: Combo) -> str | None:
    """The legality of playing `cards`, which form `played`, in the situation `ctx`.

    On turn: lead anything, or answer with a higher combination of the same kind and length or a
    bomb; with the wish binding, the cards must contain the wished rank unless the seat cannot
    legally play one (docs/tichu-rules.md section 7.4). Out of turn: only a bomb that beats the
    combination on the table (6).
    """
    if ctx.refusal is not None:
        return ctx.refusal
    if cards & ~ctx.hand:
        return "not_in_hand"
    if played == NO_COMBO:
        return "not_a_combination"
    if ctx.on_turn:
        if ctx.table != NO_COMBO and not beats(ctx.table, played):
            return "does_not_beat"
        if _wish_blocks(ctx, cards, played):
            return "wish_must_be_fulfilled"
        return None
    if not is_bomb(played):
        return "not_your_turn"
    if ctx.bomb_refusal is not None:
        return ctx.bomb_refusal
    if not beats(ctx.table, played):
        return "does_not_beat"
    return None


def legal_plays(ctx: PlayContext) -> list[CardPlay]:
    """Every (cards, combination) that `play_error` accepts in `ctx`.

    The generator lists exactly the card sets of the hand that form a combination beating the
    table (tests/engine/tichu/test_plays.py holds it to a brute force over `classify` and
    `beats`), which are the card-level checks of `play_error`; so only its seat-level refusals
    and the wish are left to ask here, instead of asking the whole predicate per card set.
    """
    if ctx.refusal is not None:
        return []
    if ctx.on_turn:
        found = plays(ctx.hand, ctx.table, phoenix_as_one=ctx.phoenix_as_one)
        if ctx.wish_cards and must_fulfil_wish(ctx):
            return [play for play in found if not _wish_blocks(ctx, *play)]
        return found
    if ctx.bomb_refusal is not None:
        return []
    return bombs(ctx.hand, ctx.table)


def _wish_blocks(ctx: PlayContext, cards: CardMask, played: Combo) -> bool:
    """A play on turn that leaves out the wished rank although the seat must play it."""
    return (
        bool(ctx.wish_cards)
        and not cards & ctx.wish_cards
        and not (ctx.bombs_exempt and is_bomb(played))
        and must_fulfil_wish(ctx)
    )


def must_fulfil_wish(ctx: PlayContext) -> bool:
    """Whether the seat, on turn with a wish pending, holds the wished rank and can legally play
    a combination with it (with the Phoenix inside or as a bomb if need be; docs/tichu-rules.md
    section 7.4)."""
    if not ctx.hand & ctx.wish_cards or ctx.refusal is not None:
        return False
    return _can_play_cards(ctx.hand, ctx.table, ctx.wish_cards, ctx.phoenix_as_one)


@lru_cache(maxsize=_WISH_CACHE)
def _can_play_cards(hand: CardMask, table: Combo, wanted: CardMask, phoenix_as_one: bool) -> bool:
    """Whether some combination of `hand` that may go on `table` holds one of `wanted`: the
    legal plays of an on-turn context with no wish pending (cached: `apply` and
    `legal_actions` both ask it for the same position)."""
    ctx = PlayContext(None, hand, True, table, None, 0, False, phoenix_as_one)
    return any(cards & wanted for cards, _ in legal_plays(ctx))


def wish_error(cards: CardMask, wish: int, wish_required: bool) -> str | None:
    """The legality of the wish (0: none) that comes with playing `cards`."""
    if wish:
        return None if cards & MAHJONG else "wish_without_mahjong"
    if cards & MAHJONG and wish_required:
        return "wish_required"
    return None


# _WISHES[wish_required]: the wishes (0: none) `wish_error` allows with the Mah Jong.
_WISHES: Final = {
    required: tuple(w for w in (0, *_WISH_RANKS) if wish_error(MAHJONG, w, required) is None)
    for required in (False, True)
}


def pass_error(state: "State", seat: int, duty: bool | None = None) -> str | None:
    """Passing: only on turn, never when leading, never while the wish binds."""
    if state.phase != "play":
        return "wrong_phase"
    if seat != state.turn:
        return "not_your_turn"
    if state.table == NO_COMBO or state.closed:
        return "must_lead"
    if state.wish and (must_fulfil_wish(play_context(state, seat)) if duty is None else duty):
        return "wish_must_be_fulfilled"
    return None


def call_error(state: "State", seat: int) -> str | None:
    """Tichu: from the exchange on, by a seat without a call that has not played a card."""
    if state.phase == "grand_tichu" or state.phase == "over":
        return "wrong_phase"
    if state.calls[seat] != NO_CALL:
        return "already_called"
    if popcount(state.hands[seat]) != HAND_SIZE:
        return "already_played"
    return None


def grand_error(state: "State", seat: int) -> str | None:
    """Grand Tichu decision: once per seat, before the last six cards."""
    if state.phase != "grand_tichu":
        return "wrong_phase"
    if state.decided >> seat & 1:
        return "already_decided"
    return None


def exchange_error(state: "State", seat: int, gift: Gift) -> str | None:
    """Exchange: once per seat, three different cards of its hand."""
    if state.phase != "exchange":
        return "wrong_phase"
    if state.gifts[seat] is not None:
        return "already_exchanged"
    cards = gift[0] | gift[1] | gift[2]
    if popcount(cards) != _EXCHANGED:
        return "same_card_twice"
    if cards & ~state.hands[seat]:
        return "not_in_hand"
    return None


def give_error(state: "State", seat: int, to: int) -> str | None:
    """GiveDragon: by the Dragon trick's winner, to an opponent."""
    if state.phase != "dragon":
        return "wrong_phase"
    if seat != state.owner:
        return "not_your_turn"
    if not isinstance(to, int) or not 0 <= to < SEATS or team_of(to) == team_of(seat):
        return "not_an_opponent"
    return None


def legal_actions(state: "State", seat: int, exchanges: bool) -> list[Action]:
    """Every action the predicates allow `seat` now (Exchange actions only if `exchanges`)."""
    phase = state.phase
    if phase == "play" and seat == state.turn and not state.wish and state.hands[seat]:
        return _turn_actions(state, seat)
    if phase == "over":
        return []
    if phase == "grand_tichu":
        return list(_GRAND_CHOICES) if grand_error(state, seat) is None else []
    actions: list[Action] = []
    if call_error(state, seat) is None:
        actions.append(CALL)
    if phase == "exchange":
        if exchanges:
            actions += _exchanges(state, seat)
        return actions
    if phase == "dragon":
        for to in (seat_at(seat, RIGHT), seat_at(seat, LEFT)):
            if give_error(state, seat, to) is None:
                actions.append(GiveDragon(to=to))
    if not state.hands[seat] or (seat != state.turn and not has_bomb(state.hands[seat])):
        return actions  # no play possible: spare the context
    ctx = play_context(state, seat)
    wishes = _WISHES[state.start.rules.wish_required]
    duty = bool(ctx.wish_cards) and must_fulfil_wish(ctx)
    if ctx.on_turn and ctx.table == NO_COMBO and not duty and ctx.refusal is None:
        # the same actions as the line below, from the cached lead list (`play_actions`)
        actions += lead_actions(ctx.hand, ctx.phoenix_as_one, wishes)
    else:
        actions += play_actions(legal_plays(ctx), wishes, ctx.hand)
    if ctx.on_turn and pass_error(state, seat, duty) is None:
        actions.append(PASS)
    return actions


def _turn_actions(state: "State", seat: int) -> list[Action]:
    """`legal_actions` of the seat on turn in the play with cards and no wish pending, the
    commonest question, without building its `PlayContext`: no refusal then, the wish binds
    nothing, so the plays are the generator's and passing is allowed unless leading."""
    rules = state.start.rules
    hand = state.hands[seat]
    wishes = _WISHES[rules.wish_required]
    # a seat that has played a card cannot call: spare the predicate then
    callable_ = popcount(hand) == HAND_SIZE and call_error(state, seat) is None
    actions: list[Action] = [CALL] if callable_ else []
    if state.table == NO_COMBO or state.closed:
        actions += lead_actions(hand, rules.phoenix_as_one, wishes)
        return actions
    actions += play_actions(
        plays(hand, state.table, phoenix_as_one=rules.phoenix_as_one), wishes, hand
    )
    actions.append(PASS)
    return actions


def _exchanges(state: "State", seat: int) -> list[Action]:
    """Every way to pass three different cards (ordered by receiver)."""
    cards = [1 << c for c in iter_bits(state.hands[seat])]
    return [
        Exchange(
            right=format_card(bit_index(right)),
            partner=format_card(bit_index(partner)),
            left=format_card(bit_index(left)),
        )
        for right, partner, left in permutations(cards, _EXCHANGED)
        if exchange_error(state, seat, (right, partner, left)) is None
    ]
