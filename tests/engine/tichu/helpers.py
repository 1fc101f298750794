"""Fixtures for Tichu rules tests: readable hands, scripted plays, rejected-action codes."""

from collections.abc import Sequence

import msgspec

from engine.bits import iter_bits
from engine.errors import IllegalAction
from engine.tichu.actions import (
    Action,
    DeclineGrandTichu,
    Exchange,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import ALL_CARDS, format_cards, parse_cards, parse_rank
from engine.tichu.deal import Deal
from engine.tichu.rules import Rules
from engine.tichu.scoring import GRAND, NO_CALL, TICHU
from engine.tichu.state import State, new_game

_CALLS = {"": NO_CALL, "tichu": TICHU, "grand": GRAND}


def table_state(
    *hands: str,
    turn: int = 0,
    rules: Rules | None = None,
    wish: str | None = None,
    calls: Sequence[str] = ("", "", "", ""),
    spare_to: int = 0,
    out: Sequence[int] = (),
    totals: tuple[int, int] = (0, 0),
) -> State:
    """The play phase at an empty table: seat i holds `hands[i]`, `turn` leads.

    Cards in no hand count as tricks seat `spare_to` has already taken, so cards are conserved
    and scores stay computable (a test about points chooses `spare_to` with care). `out` lists
    seats (with empty hands) that already went out, in order; `totals` are the match points.
    """
    masks = [parse_cards(h) for h in hands]
    held = 0
    for mask in masks:
        if held & mask:
            raise ValueError("a card is in two hands")
        held |= mask
    won = [0, 0, 0, 0]
    won[spare_to] = ALL_CARDS & ~held
    start = new_game(rules or Rules(), seed=0)
    return msgspec.structs.replace(
        start,
        phase="play",
        hands=(masks[0], masks[1], masks[2], masks[3]),
        stock=(0, 0, 0, 0),
        decided=0b1111,
        calls=(_CALLS[calls[0]], _CALLS[calls[1]], _CALLS[calls[2]], _CALLS[calls[3]]),
        turn=turn,
        wish=parse_rank(wish) if wish else 0,
        won=(won[0], won[1], won[2], won[3]),
        finish=tuple(out),
        totals=totals,
    )


def ordered_deal() -> Deal:
    """Cards dealt in canonical order: seat 0 gets Dog MahJong 2j..7s first, and so on."""
    cards = [1 << c for c in iter_bits(ALL_CARDS)]

    def block(start: int, size: int) -> int:
        return sum(cards[start : start + size])

    return Deal(
        first=(block(0, 8), block(8, 8), block(16, 8), block(24, 8)),
        second=(block(32, 6), block(38, 6), block(44, 6), block(50, 6)),
    )


def hand_text(state: State, seat: int) -> str:
    """The seat's cards as canonical text."""
    return " ".join(format_cards(state.hands[seat]))


def play(state: State, seat: int, cards: str, wish: str | None = None) -> State:
    """Apply Play of the space-separated `cards`."""
    return state.apply(seat, Play(cards=tuple(cards.split()), wish=wish))


def passes(state: State, *seats: int) -> State:
    """Apply Pass for each seat in order."""
    for seat in seats:
        state = state.apply(seat, Pass())
    return state


def run(state: State, *moves: tuple[int, Action]) -> State:
    """Apply moves in order."""
    for seat, action in moves:
        state = state.apply(seat, action)
    return state


def rejection(state: State, seat: int, action: Action) -> str:
    """The IllegalAction code `apply` raises; fails the test if the action is accepted."""
    try:
        state.apply(seat, action)
    except IllegalAction as error:
        return error.code
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def decide_all(state: State, grand: Sequence[int] = ()) -> State:
    """Every seat decides on Grand Tichu (the seats in `grand` call it)."""
    for seat in range(4):
        state = state.apply(seat, GrandTichu() if seat in grand else DeclineGrandTichu())
    return state


def exchange_lowest(state: State, seats: Sequence[int] = (0, 1, 2, 3)) -> State:
    """Each of `seats` passes its three lowest cards: right, partner, left in that order."""
    for seat in seats:
        right, partner, left = format_cards(state.hands[seat])[:3]
        state = state.apply(seat, Exchange(left=left, partner=partner, right=right))
    return state


def plays_of(state: State, seat: int) -> set[str]:
    """The card sets of the seat's legal plays (wish variants merged)."""
    return {
        " ".join(format_cards(parse_cards(a.cards)))
        for a in state.legal_actions(seat)
        if isinstance(a, Play)
    }
