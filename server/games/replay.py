"""A finished deal step by step, for the replay view: the state after the deal and after each
move, with every hand shown. The engine replays the stored moves, so the client draws what
the rules say and never re-implements them."""

from collections.abc import Sequence

import msgspec

from server.games.kind import GameKind, GameState
from server.plain import Plain

__all__ = ["replay_steps"]


def _step(
    kind: GameKind,
    state: GameState,
    seat: int | None,
    action: msgspec.Struct | None,
    before: Plain,
) -> tuple[Plain, Plain]:
    """A step, and the whole public view after it (what the next step is compared with)."""
    view: Plain = msgspec.to_builtins(kind.view(state, None, history=False))
    seats = len(view["hand_sizes"])
    step = {
        "seat": seat,
        "action": None if action is None else msgspec.to_builtins(action),
        "hands": [list(state.observation(s, history=False).hand) for s in range(seats)],
        "view": {key: value for key, value in view.items() if before.get(key, ...) != value},
    }
    return step, view


def replay_steps(kind: GameKind, start: bytes, moves: Sequence[tuple[int, bytes]]) -> list[Plain]:
    """One step for the deal (`seat` and `action` null) and one per move: who moved, what
    (every action shown: the deal is over), each seat's hand, and the fields of the public
    view that the step changed (the first step: all of them). Sending only the changes keeps
    a Tichu match's replay small: its scores of past rounds would repeat in every step."""
    state = kind.restore(start)
    step, view = _step(kind, state, None, None, {})
    steps = [step]
    for seat, raw in moves:
        action = kind.decode_action(raw)
        state = state.apply(seat, action)
        step, view = _step(kind, state, seat, action, view)
        steps.append(step)
    return steps
