"""Playing Tichu with bots: one round, or a whole match.

Each policy sees only its own seat's observation. The driver asks the seats in the
simultaneous phases in seat order (a decision returning a Tichu call is asked again), the seat
on turn in the play phase, and, after every action while a combination lies on the table,
each other seat holding a bomb whether it wants to throw it (in turn order from the seat on
turn; a policy answers None for "no"). Tichu calls are offered to every seat once when play
starts, and again whenever the seat is on turn.
"""

import time
from collections.abc import Callable, Sequence
from typing import Final

import msgspec
import numpy as np

from bots.policy import Decision
from engine.rng import make_stream_rng
from engine.tichu.actions import Action, CallTichu, Play
from engine.tichu.bombs import has_bomb
from engine.tichu.combos import NO_COMBO
from engine.tichu.deal import SEATS, seat_at
from engine.tichu.observation import Observation
from engine.tichu.rules import Rules
from engine.tichu.state import State, new_game

__all__ = ["DecisionTime", "TichuPolicy", "play_match", "play_out", "play_round"]

TichuPolicy = Callable[[Observation, np.random.Generator], Decision[Action | None]]
OnAction = Callable[[State, int, Action, State], None]

_CALL: Final = CallTichu()


class DecisionTime(msgspec.Struct, frozen=True):
    """How long one decision took: `kind` is grand_tichu, exchange, call, play, interrupt or
    dragon."""

    seat: int
    kind: str
    seconds: float


class _Driver:
    """One round's loop: asks policies, applies their actions, records timings."""

    def __init__(
        self,
        policies: Sequence[TichuPolicy],
        rngs: Sequence[np.random.Generator],
        on_action: OnAction | None,
        timings: list[DecisionTime] | None,
    ) -> None:
        self.policies = policies
        self.rngs = rngs
        self.on_action = on_action
        self.timings = timings

    def ask(self, state: State, seat: int, kind: str) -> Action | None:
        start = time.perf_counter()
        decision = self.policies[seat](state.observation(seat), self.rngs[seat])
        if self.timings is not None:
            self.timings.append(DecisionTime(seat, kind, time.perf_counter() - start))
        return decision.action

    def apply(self, state: State, seat: int, action: Action) -> State:
        after = state.apply(seat, action)
        if self.on_action is not None:
            self.on_action(state, seat, action, after)
        return after

    def simultaneous(self, state: State) -> State:
        """Every seat that still has to decide in the Grand Tichu or exchange phase does."""
        phase, round_index = state.phase, state.round_index
        for seat in range(SEATS):
            while state.phase == phase and state.round_index == round_index:
                pending = (
                    not state.decided >> seat & 1
                    if phase == "grand_tichu"
                    else state.gifts[seat] is None
                )
                if not pending:
                    break
                action = self.ask(state, seat, phase)
                if action is None:
                    raise RuntimeError(f"seat {seat} must act in the {phase} phase")
                state = self.apply(state, seat, action)
        return state

    def call_window(self, state: State) -> State:
        """Offer every seat its Tichu call once, at the start of play."""
        for seat in range(SEATS):
            if state.phase == "play" and any(
                isinstance(a, CallTichu) for a in state.legal_actions(seat, exchanges=False)
            ):
                action = self.ask(state, seat, "call")
                if isinstance(action, CallTichu):
                    state = self.apply(state, seat, action)
        return state

    def interrupts(self, state: State) -> State:
        """Ask each other seat holding a bomb, in turn order, until one throws."""
        if state.table == NO_COMBO or state.phase not in ("play", "dragon"):
            return state
        for step in range(1, SEATS):
            seat = seat_at(state.turn, step)
            if not has_bomb(state.hands[seat]):
                continue
            if not any(isinstance(a, Play) for a in state.legal_actions(seat, exchanges=False)):
                continue
            action = self.ask(state, seat, "interrupt")
            if isinstance(action, Play):
                return self.apply(state, seat, action)
        return state

    def round(self, state: State) -> State:
        round_index = state.round_index
        started = False
        while not state.is_over and state.round_index == round_index:
            if state.phase in ("grand_tichu", "exchange"):
                state = self.simultaneous(state)
                continue
            if not started:
                started = True
                state = self.call_window(state)
            seat = state.turn
            kind = "dragon" if state.phase == "dragon" else "play"
            action = self.ask(state, seat, kind)
            if action is None:
                raise RuntimeError(f"seat {seat} is on turn and must act")
            state = self.apply(state, seat, action)
            if isinstance(action, CallTichu):
                continue
            while not state.is_over and state.round_index == round_index:
                bombed = self.interrupts(state)
                if bombed is state:
                    break
                state = bombed
        return state


def play_round(
    state: State,
    policies: Sequence[TichuPolicy],
    rngs: Sequence[np.random.Generator],
    *,
    on_action: OnAction | None = None,
    timings: list[DecisionTime] | None = None,
) -> State:
    """Play the current round of `state` to its end: the state of the next round's start, or
    the finished match. `on_action(before, seat, action, after)` sees every applied action."""
    return _Driver(policies, rngs, on_action, timings).round(state)


def play_match(
    policies: Sequence[TichuPolicy],
    seed: int,
    *,
    rules: Rules | None = None,
    on_action: OnAction | None = None,
    timings: list[DecisionTime] | None = None,
) -> State:
    """Play a whole match from `seed` (deals and bot randomness both derive from it)."""
    state = new_game(rules or Rules(), seed=seed)
    return play_out(state, policies, seed, on_action=on_action, timings=timings)


def play_out(
    state: State,
    policies: Sequence[TichuPolicy],
    seed: int,
    *,
    on_action: OnAction | None = None,
    timings: list[DecisionTime] | None = None,
) -> State:
    """Play the match `state` (e.g. one a server dealt) to its end; the bots' randomness
    derives from `seed` and the round."""
    while not state.is_over:
        rngs = [make_stream_rng(seed, state.round_index, seat) for seat in range(SEATS)]
        state = play_round(state, policies, rngs, on_action=on_action, timings=timings)
    return state
