"""The strong Tichu bot: the classic bot plus card tracking and determinized look-ahead.

* Tracking (`tracking`): cards passed to the partner are known to be with him, so they are
  not "out against us" when judging who wins a trick, and a partner's combination that only
  such cards could beat is sure to win.
* Tichu calls: a hand near the classic threshold is rolled out on sampled worlds with and
  without the call; the call is made when it scores higher (the rollouts play the round out,
  so the partner's support and the risk both count).
* Look-ahead (`lookahead`): once few cards remain in play, or someone is about to go out, the
  classic search proposes its best few options (always including a pass or no interrupt when
  legal) and each is rolled out on sampled worlds with four classic bots; the best mean
  differential is played. Out-of-turn bombs are judged the same way in the endgame.

Everything else (Grand Tichu, exchange, wish, Dragon) is the classic bot's.
"""

from typing import Any, Final

import msgspec
import numpy as np

from bots.policy import Decision
from bots.tichu.calls import partner_called
from bots.tichu.classic import ClassicPolicy, TichuDecision, to_decision
from bots.tichu.evaluation import Evaluator
from bots.tichu.lookahead import value_candidates
from bots.tichu.partition import partitions
from bots.tichu.play import Choice, choose_play, finishing_play, rank_plays
from bots.tichu.situation import LegalPlay, Situation, situation
from bots.tichu.tracking import knowledge
from engine.tichu.actions import Action, CallTichu
from engine.tichu.combos import classify, is_bomb
from engine.tichu.deal import PARTNER, seat_at
from engine.tichu.observation import Observation
from engine.tichu.scoring import NO_CALL

__all__ = [
    "CALL_MARGIN",
    "CALL_WORLDS",
    "ENDGAME_CARDS",
    "HIGH_CARD_WIN",
    "LOOKAHEAD_CANDIDATES",
    "LOOKAHEAD_WORLDS",
    "MIDGAME_WORLDS",
    "StrongPolicy",
]

ENDGAME_CARDS: Final = 32  # look ahead once at most this many cards are left in all hands
NEAR_OUT: Final = 3  # ... or as soon as some player holds this many cards or fewer
LOOKAHEAD_CANDIDATES: Final = 4
LOOKAHEAD_WORLDS: Final = 20
CALL_WORLDS: Final = 8
MIDGAME_WORLDS: Final = 8  # worlds for spending a high card before the endgame (0: never)
HIGH_CARD_WIN: Final = 0.85  # a play this likely to win its trick spends initiative
CALL_MARGIN: Final = 0.05


class StrongPolicy(msgspec.Struct, frozen=True):
    """The strong bot's parameters; `policy(obs, rng)` decides.

    Attributes:
        classic: the classic bot it builds on (and that plays the rollouts).
        worlds: sampled worlds per look-ahead decision.
        candidates: options of the classic search that are rolled out.
        endgame_cards: look ahead when at most this many cards remain in all hands.
        near_out: ... or when some player holds at most this many cards.
        call_worlds: sampled worlds rolled out for a Tichu call.
        midgame_worlds: worlds rolled out before the endgame when the classic choice spends a
            high card on a trick that could be passed (0: never).
        call_margin: hands this far below the classic call threshold are still rolled out.
    """

    classic: ClassicPolicy = ClassicPolicy()
    worlds: int = LOOKAHEAD_WORLDS
    candidates: int = LOOKAHEAD_CANDIDATES
    endgame_cards: int = ENDGAME_CARDS
    near_out: int = NEAR_OUT
    call_worlds: int = CALL_WORLDS
    midgame_worlds: int = MIDGAME_WORLDS
    call_margin: float = CALL_MARGIN

    def __call__(self, obs: Observation, rng: np.random.Generator) -> TichuDecision:
        if obs.phase != "play" or obs.seat is None:
            return self.classic(obs, rng)
        sit = situation(obs)
        if sit.can_call and self.calls_tichu(sit, rng):
            return Decision(CallTichu(), {"call": "tichu"})
        if not sit.on_turn and not sit.legal:
            return Decision(None)
        return self.play(sit, rng)

    def calls_tichu(self, sit: Situation, rng: np.random.Generator) -> bool:
        """Tichu when rollouts of sampled worlds score the call higher than silence; only
        hands whose utility comes near the classic threshold are rolled out at all."""
        classic = self.classic
        if partner_called(sit) or sit.calls[sit.seat] != NO_CALL:
            return False
        if classic.utility(sit) < classic.tichu_threshold - self.call_margin:
            return False
        call, silence = value_candidates(sit, [CallTichu(), None], classic, self.call_worlds, rng)
        return call > silence

    def tracked(self, sit: Situation) -> Situation:
        """The situation with the cards known to be in the partner's hand no longer counted
        as out against us."""
        partner = seat_at(sit.seat, PARTNER)
        return sit._replace(unseen=sit.unseen & ~knowledge(sit).held[partner])

    def play(self, sit: Situation, rng: np.random.Generator) -> TichuDecision:
        """A play, pass or interrupt: the classic ranking, refined by look-ahead late."""
        view = self.tracked(sit)
        evaluator = self.classic.evaluator(view)
        hand_partitions = partitions(view.hand, self.classic.slack)
        if not self.looks_ahead(sit):
            choice = choose_play(view, evaluator, hand_partitions)
            if not self.midgame_worlds or not _spends_initiative(view, evaluator, choice):
                return to_decision(sit, choice)
            options = [choice, Choice(None, 0.0, None)]
            worlds = self.midgame_worlds
        else:
            ranked = rank_plays(view, evaluator, hand_partitions, may_bomb=_any_bomb)
            if len(ranked) < 2:
                return to_decision(sit, ranked[0])
            options = _options(sit, ranked, self.candidates)
            worlds = self.worlds
        actions: list[Action | None] = [to_decision(sit, o).action for o in options]
        values = value_candidates(sit, actions, self.classic, worlds, rng)
        best = max(range(len(options)), key=lambda i: values[i])
        diagnostics: dict[str, Any] = {"lookahead": [round(v, 1) for v in values]}
        return Decision(actions[best], diagnostics)

    def looks_ahead(self, sit: Situation) -> bool:
        """Whether the endgame look-ahead applies."""
        held = [size for size in sit.sizes if size]
        return sum(held) <= self.endgame_cards or min(held) <= self.near_out


def _spends_initiative(sit: Situation, evaluator: Evaluator, choice: Choice) -> bool:
    """Whether the choice answers a trick with a combination that would almost surely win a
    lead later (a Dragon, a top single, a bomb) while passing is allowed: early on, whether
    to spend it now is worth a look-ahead."""
    play = choice.play
    if play is None or not sit.on_turn or not sit.can_pass or play.cards == sit.hand:
        return False
    return evaluator.win_now(classify(play.cards, sit.table)) >= HIGH_CARD_WIN


def _any_bomb(sit: Situation, bomb: LegalPlay) -> bool:
    """In the look-ahead every bomb is a candidate (the guards already keep it off the
    partner's combination); the rollouts judge its timing."""
    return True


def _options(sit: Situation, ranked: list[Choice], count: int) -> list[Choice]:
    """The best `count` options, plus the pass (or no interrupt) when legal and the best bomb.
    Going out is not among them when the classic rules hold it back for the partner's Tichu."""
    if finishing_play(sit) is None:
        ranked = [c for c in ranked if c.play is None or c.play.cards != sit.hand] or ranked
    chosen = ranked[:count]
    if (sit.can_pass or not sit.on_turn) and all(c.play is not None for c in chosen):
        chosen += [c for c in ranked if c.play is None][:1]
    if not any(_is_bomb(sit, c) for c in chosen):
        chosen += [c for c in ranked if _is_bomb(sit, c)][:1]
    return chosen


def _is_bomb(sit: Situation, choice: Choice) -> bool:
    return choice.play is not None and is_bomb(classify(choice.play.cards, sit.table))
