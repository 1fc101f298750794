"""Local search for the classic bot's weights and call thresholds (`tischrunde tichu calibrate`).

Coordinate search over self-play: each parameter in turn is nudged up (then, if that fails,
down; weights by a factor, thresholds by a step), the nudged bot plays the incumbent on the
same duplicate deals, and the nudge is kept when it wins by more than half its 95% confidence
interval; a kept nudge is repeated in the same direction up to MAX_MOVES times. Steps halve
after each sweep. The deals are fixed for the whole search (common random numbers make the
comparisons far less noisy than fresh deals would), so the result depends only on the
arguments.
"""

from collections.abc import Callable
from typing import Final

import msgspec

from bots.tichu.classic import ClassicPolicy
from bots.tichu.duplicate import run_duplicate, summarize
from bots.tichu.evaluation import Weights

__all__ = ["MAX_MOVES", "THRESHOLD_STEP", "WEIGHT_STEP", "Step", "calibrate"]

WEIGHT_STEP: Final = 0.4  # first sweep multiplies a weight by 1 +- this
THRESHOLD_STEP: Final = 0.02  # first sweep moves a threshold by +- this
MAX_MOVES: Final = 4  # nudges kept in a row along one parameter and direction
_ACCEPT_CI_SHARE: Final = 0.5  # keep a nudge whose mean exceeds this share of its CI
_WEIGHT_NAMES: Final = tuple(Weights.__struct_fields__)
_THRESHOLDS: Final = ("tichu_threshold", "grand_tichu_threshold")


class Step(msgspec.Struct, frozen=True):
    """One tried nudge: the parameter, its new value, the result against the incumbent."""

    sweep: int
    parameter: str
    value: float
    mean: float
    ci95: float
    accepted: bool


def _nudge(policy: ClassicPolicy, name: str, up: bool, scale: float) -> ClassicPolicy:
    """The policy with one parameter moved up or down by the sweep's step."""
    if name in _THRESHOLDS:
        delta = THRESHOLD_STEP * scale
        value = getattr(policy, name) + (delta if up else -delta)
        return msgspec.structs.replace(policy, **{name: value})
    factor = 1 + WEIGHT_STEP * scale
    value = getattr(policy.weights, name) * (factor if up else 1 / factor)
    weights = msgspec.structs.replace(policy.weights, **{name: value})
    return msgspec.structs.replace(policy, weights=weights)


def _value(policy: ClassicPolicy, name: str) -> float:
    owner = policy if name in _THRESHOLDS else policy.weights
    value: float = getattr(owner, name)
    return value


def calibrate(
    start: ClassicPolicy,
    deals: int,
    seed: int,
    sweeps: int,
    *,
    workers: int = 1,
    on_step: Callable[[Step], None] | None = None,
) -> tuple[ClassicPolicy, list[Step]]:
    """Coordinate search from `start`; returns the best policy and every step tried."""
    best = start
    steps: list[Step] = []
    for sweep in range(sweeps):
        scale = 1.0 / (1 << sweep)
        for name in (*_WEIGHT_NAMES, *_THRESHOLDS):
            for up in (True, False):
                moves = 0
                while moves < MAX_MOVES:
                    candidate = _nudge(best, name, up, scale)
                    records = run_duplicate(candidate, best, deals, seed, workers=workers)
                    summary = summarize(records)
                    accepted = summary.mean > _ACCEPT_CI_SHARE * summary.ci95
                    value = _value(candidate, name)
                    step = Step(sweep, name, value, summary.mean, summary.ci95, accepted)
                    steps.append(step)
                    if on_step is not None:
                        on_step(step)
                    if not accepted:
                        break
                    best = candidate
                    moves += 1
                if moves:
                    break
    return best, steps
