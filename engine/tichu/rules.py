"""Rule options of a Tichu match: every disputed point of docs/tichu-rules.md is a switch.

The defaults are the official rules (Fata Morgana leaflet and FAQ, as described in
docs/tichu-rules.md, whose sections the numbers below cite); docs/rules-notes.md
explains each option and its source.
"""

from typing import Annotated, Final, Literal

import msgspec

from engine.errors import InvalidInput

__all__ = [
    "DEFAULT_TARGET_POINTS",
    "MAX_ROUNDS",
    "MAX_TARGET_POINTS",
    "Phase",
    "Rules",
    "TiePolicy",
]

DEFAULT_TARGET_POINTS: Final = 1000
# The ranges options decoded from outside (a server's table, a tournament) must keep: a match
# to 10,000 points lasts some 50 rounds, a few hours.
MAX_TARGET_POINTS: Final = 10_000
MAX_ROUNDS: Final = 100

# The phases of a round, in order (observations carry it, so it lives here, not in `state`).
Phase = Literal["grand_tichu", "exchange", "play", "dragon", "over"]
TiePolicy = Literal["play_on", "draw"]


class Rules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Variant switches of a match; `Rules()` is the official game.

    Attributes:
        target_points: the match ends after the round in which a team reaches this score (9).
        tie: both teams level at or above the target: `play_on` another round (common
            practice, the leaflet is silent) or record a `draw` (BSW) (9, 10.15).
        wish_required: playing the Mah Jong obliges its player to name a rank (some engines);
            officially the wish is optional (7.1).
        on_turn_bombs_ignore_wish: a player on turn who must fulfil the wish may still throw
            any bomb instead (official FAQ: bombs are always an interrupt, 7.4); False allows
            non-wish bombs only out of turn.
        phoenix_as_one: the Phoenix may stand for the 1 of a straight (the leaflet only says
            "joker"; most implementations and the recommendation forbid it, 7.3).
        dog_bombable: a bomb may be thrown on the Dog before the lead is taken (one engine
            allows it; officially the Dog cannot be bombed, 7.2).
        max_rounds: end the match after this many rounds at the latest (tournament format;
            None: play to `target_points` only); the higher total wins, equal totals draw.
    """

    target_points: Annotated[int, msgspec.Meta(ge=1, le=MAX_TARGET_POINTS)] = DEFAULT_TARGET_POINTS
    tie: TiePolicy = "play_on"
    wish_required: bool = False
    on_turn_bombs_ignore_wish: bool = True
    phoenix_as_one: bool = False
    dog_bombable: bool = False
    max_rounds: Annotated[int, msgspec.Meta(ge=1, le=MAX_ROUNDS)] | None = None

    def __post_init__(self) -> None:
        if self.target_points <= 0:
            raise InvalidInput("target_points must be positive")
        if self.max_rounds is not None and self.max_rounds <= 0:
            raise InvalidInput("max_rounds must be positive")
