"""Baseline Tichu policies: `random` (uniform legal) and `greedy` (lowest play that beats).

Both never call Tichu or Grand Tichu (a random caller would lose 100-200 points in most
rounds and measure nothing) and never interrupt out of turn; `random` passes three random
cards, `greedy` its two lowest to the opponents and its highest to the partner.
"""

import numpy as np

from bots.policy import Decision
from bots.tichu.situation import cards_of
from engine.bits import iter_bits
from engine.tichu.actions import (
    Action,
    DeclineGrandTichu,
    Exchange,
    GiveDragon,
    Pass,
    Play,
)
from engine.tichu.cards import format_card
from engine.tichu.combos import NO_COMBO, classify, height_of, is_bomb, length_of
from engine.tichu.deal import RIGHT, seat_at
from engine.tichu.observation import Observation

__all__ = ["greedy_policy", "random_policy"]

_EXCHANGED = 3


def _exchange(cards: list[int]) -> Exchange:
    """Exchange of bit indices in the order right, partner, left."""
    right, partner, left = (format_card(c) for c in cards)
    return Exchange(right=right, partner=partner, left=left)


def _simultaneous(obs: Observation, rng: np.random.Generator) -> Decision[Action | None] | None:
    """The decisions both baselines share: no Grand Tichu, the Dragon to the next player."""
    if obs.phase == "grand_tichu":
        declined = any(isinstance(a, DeclineGrandTichu) for a in obs.legal)
        return Decision(DeclineGrandTichu() if declined else None)
    if obs.phase == "exchange":
        return None if obs.must_exchange else Decision(None)
    if obs.phase == "dragon" and obs.to_move == obs.seat and obs.seat is not None:
        return Decision(GiveDragon(to=seat_at(obs.seat, RIGHT)))
    if obs.phase != "play" or obs.to_move != obs.seat:
        return Decision(None)
    return None


def random_policy(obs: Observation, rng: np.random.Generator) -> Decision[Action | None]:
    """Uniform over the legal plays and passes; three random cards in the exchange."""
    shared = _simultaneous(obs, rng)
    if shared is not None:
        return shared
    if obs.phase == "exchange":
        cards = list(iter_bits(cards_of(obs.hand)))
        picked = rng.choice(len(cards), size=_EXCHANGED, replace=False)
        return Decision(_exchange([cards[int(i)] for i in picked]))
    moves = [a for a in obs.legal if isinstance(a, Play | Pass)]
    return Decision(moves[int(rng.integers(len(moves)))], {"choices": len(moves)})


def greedy_policy(obs: Observation, rng: np.random.Generator) -> Decision[Action | None]:
    """The lowest combination that may be played (longer first at equal height), never a bomb
    by choice; it passes when nothing else beats and never passes on the lead."""
    shared = _simultaneous(obs, rng)
    if shared is not None:
        return shared
    if obs.phase == "exchange":
        cards = list(iter_bits(cards_of(obs.hand)))
        return Decision(_exchange([cards[0], cards[-1], cards[1]]))
    table = NO_COMBO
    if obs.table and not obs.trick_closed:
        table = classify(cards_of(obs.table))
    best: tuple[tuple[bool, int, int], Play] | None = None
    for action in obs.legal:
        if isinstance(action, Play) and action.wish is None:
            combo = classify(cards_of(action.cards), table)
            key = (is_bomb(combo), height_of(combo), -length_of(combo))
            if best is None or key < best[0]:
                best = (key, action)
    can_pass = any(isinstance(a, Pass) for a in obs.legal)
    if best is None or (best[0][0] and can_pass):
        return Decision(Pass())
    return Decision(best[1])
