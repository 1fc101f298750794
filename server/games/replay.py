"""A finished deal step by step, for the replay view: the state after the deal and after each
move, with every hand shown. The engine replays the stored moves, so the client draws what
the rules say and never re-implements them."""

from collections.abc import Sequence
from typing import Any

import msgspec

from server.games.kind import GameKind

__all__ = ["replay_steps"]


def _step(kind: GameKind, state: Any, seat: int | None, action: Any) -> dict[str, Any]:
    view = kind.view(state, None, history=False)
    seats = len(view.hand_sizes)
    return {
        "seat": seat,
        "action": None if action is None else msgspec.to_builtins(action),
        "hands": [list(state.observation(s, history=False).hand) for s in range(seats)],
        "view": msgspec.to_builtins(view),
    }


def replay_steps(
    kind: GameKind, start: bytes, moves: Sequence[tuple[int, bytes]]
) -> list[dict[str, Any]]:
    """One step for the deal (`seat` and `action` null) and one per move: who moved, what
    (every action shown: the deal is over), each seat's hand and the public view after it."""
    state = kind.restore(start)
    steps = [_step(kind, state, None, None)]
    for seat, raw in moves:
        action = kind.decode_action(raw)
        state = state.apply(seat, action)
        steps.append(_step(kind, state, seat, action))
    return steps
