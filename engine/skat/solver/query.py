"""What a solve answers: modes, targets, results, and the threshold a question needs.

Shared by the jitted solver and the pure-Python reference, so both read a question the same
way. The kernels count a *future value* from the cards still in play: card points taken by
the declarer (`KIND_POINTS`), tricks taken by the declarer (`KIND_SCHWARZ`), or tricks taken by
the defenders (`KIND_NULL`, where the declarer wants all of them). The declarer always
maximises that value, and a question becomes "is the future value at least `needed`?".
"""

from typing import Final, Literal

import msgspec

from engine.errors import InvalidInput
from engine.skat.solver.position import KIND_NULL, KIND_POINTS, KIND_SCHWARZ, Position

__all__ = [
    "MODES",
    "SCHWARZ",
    "WIN_POINTS",
    "Mode",
    "MoveValue",
    "Question",
    "SolveResult",
    "Target",
    "ask",
]

Mode = Literal["win", "value", "moves", "best"]
Target = int | Literal["schwarz"] | None

MODES: Final[tuple[Mode, ...]] = ("win", "value", "moves", "best")
SCHWARZ: Final = "schwarz"
WIN_POINTS: Final = 61  # card points the declarer needs, the skat included
_MAX_TARGET: Final = 120


class MoveValue(msgspec.Struct, frozen=True):
    """One legal card of the player to move, or several provably equivalent ones.

    `cards` are card indices (project layout), highest first; `declarer_points` is the
    declarer's final total (banked points included) with best play after any of them, None
    in null games and for bound questions; `declarer_wins` answers the question's target.
    In `best` mode only the best cards get exact points: with `exact` False,
    `declarer_points` is a bound that shows the card is no better for the player to move
    than the best one (at most the best total when the declarer moves, at least it when a
    defender moves); in `moves` mode every card is exact. The win answer is always exact.
    """

    cards: tuple[int, ...]
    declarer_points: int | None
    declarer_wins: bool
    exact: bool = True


class SolveResult(msgspec.Struct, frozen=True):
    """The answer for a position: the declarer's final card points with best play (None in
    null games and in `win` mode), whether he reaches the target, the per-card answers in
    `moves` and `best` modes (ordered by their first card's index, highest first), and
    the search nodes spent."""

    declarer_points: int | None
    declarer_wins: bool
    moves: tuple[MoveValue, ...] = ()
    nodes: int = 0


class Question(msgspec.Struct, frozen=True):
    """A target turned into kernel terms: count `kind`, the declarer wins iff the future value
    is at least `needed` (a `needed` above everything in play means he has already lost)."""

    kind: int
    needed: int


def ask(position: Position, mode: str, target: Target) -> Question:
    """Validate `mode` and `target` for `position` and return the win question.

    The target is the declarer's total in card points (default 61), or `SCHWARZ` for all
    tricks; null games take no target (the declarer must take no trick). A bound of 120 points
    is not schwarz: a trick without points still counts against schwarz.
    """
    if mode not in MODES:
        raise InvalidInput(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    lost = position.tricks_left + 1  # more than any future trick count
    if position.game == "null":
        if target is not None:
            raise InvalidInput("null games take no target: the declarer must take no trick")
        return Question(KIND_NULL, position.tricks_left if not position.declarer_tricks else lost)
    if target == SCHWARZ:
        return Question(
            KIND_SCHWARZ, position.tricks_left if not position.defender_tricks else lost
        )
    if target is None:
        target = WIN_POINTS
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= _MAX_TARGET:
        raise InvalidInput("target must be card points 0..120 or 'schwarz'")
    return Question(KIND_POINTS, target - position.declarer_points)
