"""The classic Tichu bot: the 2013 thesis's one-ply search with a weighted evaluation.

`ClassicPolicy` is a frozen parameter struct (weights, call thresholds, partition slack, the
initiative file), so it pickles into a process pool; calling it with an observation and an
RNG gives the decision. It answers every phase: Grand Tichu on eight cards, the exchange,
Tichu calls, plays and passes on turn, bombs out of turn (None: no interrupt) and the Dragon's
gift. The RNG is used only to complete eight-card hands for the Grand Tichu estimate.
"""

from typing import Any, Final

import msgspec
import numpy as np

from bots.policy import Decision
from bots.tichu.calls import grand_utility, hand_utility, partner_called
from bots.tichu.dragon import dragon_receiver
from bots.tichu.evaluation import THESIS_WEIGHTS, Evaluator, Weights
from bots.tichu.exchange import choose_exchange
from bots.tichu.initiative import load_model
from bots.tichu.partition import DEFAULT_SLACK, partitions
from bots.tichu.play import Choice, choose_play
from bots.tichu.situation import LegalPlay, Situation, situation
from bots.tichu.wish import choose_wish
from engine.bits import bit_index
from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrandTichu,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.cards import MAHJONG, format_card, format_rank
from engine.tichu.observation import Observation
from engine.tichu.scoring import NO_CALL

__all__ = [
    "THESIS_POLICY",
    "THESIS_THRESHOLD",
    "TICHU_THRESHOLD",
    "ClassicPolicy",
    "TichuDecision",
]

THESIS_THRESHOLD: Final = 0.425  # the thesis's published call threshold
TICHU_THRESHOLD: Final = 0.405  # calibrated (docs/bots.md)
TichuDecision = Decision[Action | None]
_NO_ACTION: Final[TichuDecision] = Decision(None)
_DIGITS: Final = 4  # decimals of values in diagnostics


class ClassicPolicy(msgspec.Struct, frozen=True):
    """The classic bot's parameters; `policy(obs, rng)` decides.

    Attributes:
        weights: the evaluation weights.
        tichu_threshold: hand utility from which Tichu is called (defaults: the calibrated
            values; `THESIS_POLICY` holds the published ones).
        grand_tichu_threshold: mean completed-hand utility from which Grand Tichu is called.
        slack: partitions longer than the shortest by more are not searched.
        initiative_file: initiative counts to use (None: the package data).
    """

    weights: Weights = Weights()
    tichu_threshold: float = TICHU_THRESHOLD
    grand_tichu_threshold: float = TICHU_THRESHOLD
    slack: int = DEFAULT_SLACK
    initiative_file: str | None = None

    def evaluator(self, sit: Situation) -> Evaluator:
        """The evaluation function for one decision of `sit`."""
        return Evaluator(sit, load_model(self.initiative_file), self.weights)

    def __call__(self, obs: Observation, rng: np.random.Generator) -> TichuDecision:
        sit = situation(obs)
        if obs.phase == "grand_tichu":
            return self.grand_tichu(obs, sit, rng)
        if obs.phase == "exchange":
            return self.exchange(obs, sit)
        if obs.phase not in ("play", "dragon"):
            return _NO_ACTION
        if sit.can_call and self.calls_tichu(sit):
            return Decision(CallTichu(), {"call": "tichu"})
        if obs.phase == "dragon" and obs.to_move == sit.seat:
            return Decision(GiveDragon(to=dragon_receiver(sit.seat, sit.sizes)))
        if not sit.on_turn and not sit.legal:
            return _NO_ACTION
        return self.play(sit)

    def grand_tichu(
        self, obs: Observation, sit: Situation, rng: np.random.Generator
    ) -> TichuDecision:
        """Grand Tichu when the completed hand's mean utility reaches the threshold."""
        if not any(isinstance(a, GrandTichu) for a in obs.legal):
            return _NO_ACTION
        if partner_called(sit):
            return Decision(DeclineGrandTichu())
        utility = grand_utility(sit, self.evaluator, self.slack, rng)
        action: Action = (
            GrandTichu() if utility >= self.grand_tichu_threshold else DeclineGrandTichu()
        )
        return Decision(action, {"utility": utility})

    def utility(self, sit: Situation) -> float:
        """The utility of the seat's hand (its best partition, nothing played)."""
        return hand_utility(self.evaluator(sit), partitions(sit.hand, self.slack))

    def calls_tichu(self, sit: Situation) -> bool:
        """Tichu when the hand's utility reaches the threshold and the partner has not
        called (nor we: a Grand Tichu caller cannot call again)."""
        if partner_called(sit) or sit.calls[sit.seat] != NO_CALL:
            return False
        return self.utility(sit) >= self.tichu_threshold

    def exchange(self, obs: Observation, sit: Situation) -> TichuDecision:
        """The three cards to pass (None once fixed)."""
        if not obs.must_exchange:
            return _NO_ACTION
        we_call = sit.calls[sit.seat] != NO_CALL or (
            not partner_called(sit) and self.utility(sit) >= self.tichu_threshold
        )
        right, partner, left = choose_exchange(sit, self.evaluator, self.slack, we_call)
        return Decision(
            Exchange(
                right=format_card(bit_index(right)),
                partner=format_card(bit_index(partner)),
                left=format_card(bit_index(left)),
            ),
            {"plans_call": we_call},
        )

    def choose(self, sit: Situation) -> Choice:
        """The best play, pass or interrupt of the classic search."""
        return choose_play(sit, self.evaluator(sit), partitions(sit.hand, self.slack))

    def play(self, sit: Situation) -> TichuDecision:
        """A play or pass on turn; a bomb or nothing out of turn."""
        choice = self.choose(sit)
        return to_decision(sit, choice)


# The published starting point: the thesis's weights and call threshold.
THESIS_POLICY: Final = ClassicPolicy(
    weights=THESIS_WEIGHTS, tichu_threshold=THESIS_THRESHOLD, grand_tichu_threshold=THESIS_THRESHOLD
)


def to_decision(sit: Situation, choice: Choice) -> TichuDecision:
    """The Decision for a search result: the play (with the Mah Jong's wish), a pass on turn,
    or no interrupt."""
    diagnostics: dict[str, Any] = {"value": round(choice.value, _DIGITS)}
    if choice.play is None:
        return Decision(Pass() if sit.on_turn else None, diagnostics)
    return Decision(with_wish(sit, choice.play), diagnostics)


def with_wish(sit: Situation, play: LegalPlay) -> Play:
    """The play's action, with the chosen wish when it holds the Mah Jong."""
    if not play.cards & MAHJONG:
        return play.action
    wish = choose_wish(sit.hand, sit.played, play.cards, sit.given[0])
    return Play(cards=play.action.cards, wish=format_rank(wish) if wish else None)
