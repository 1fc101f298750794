"""The Tichu rules engine: cards, combinations, the legal-move generator and the match state.

Entry points: `new_game(Rules(), seed=...)`, `State.legal_actions/apply/observation`, `replay`.
"""

from engine.tichu.actions import (
    Action,
    CallTichu,
    DeclineGrandTichu,
    Event,
    Exchange,
    GiveDragon,
    GrandTichu,
    Pass,
    Play,
)
from engine.tichu.deal import Deal, deal_from_seed, parse_deal
from engine.tichu.observation import Observation
from engine.tichu.rules import Rules
from engine.tichu.scoring import Result, RoundScore
from engine.tichu.state import GameStart, State, new_game, replay

__all__ = [
    "Action",
    "CallTichu",
    "Deal",
    "DeclineGrandTichu",
    "Event",
    "Exchange",
    "GameStart",
    "GiveDragon",
    "GrandTichu",
    "Observation",
    "Pass",
    "Play",
    "Result",
    "RoundScore",
    "Rules",
    "State",
    "deal_from_seed",
    "new_game",
    "parse_deal",
    "replay",
]
