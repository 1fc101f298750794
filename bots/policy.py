"""The bot interface: a policy turns an observation into a decision (docs/conventions.md section 6).

Policies are pure functions of (observation, rng): module-level callables or frozen parameter
structs, so they pickle into the process pool, and the same seed and observation give the same
decision. A bot never sees the true state.
"""

from typing import Any, Generic, TypeVar

import msgspec

__all__ = ["Decision"]

ActionT_co = TypeVar("ActionT_co", covariant=True)


class Decision(msgspec.Struct, Generic[ActionT_co], frozen=True):
    """An action plus what the bot wants to say about it (values per move, samples used);
    diagnostics feed logs and the web client's "why did the bot play that" hint."""

    action: ActionT_co
    diagnostics: dict[str, Any] = msgspec.field(default_factory=dict)
