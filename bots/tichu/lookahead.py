"""Determinized look-ahead: candidate actions judged by rolling out sampled worlds.

From its observation and a deal of the unseen cards sampled by `tracking`, the bot builds a
hypothetical engine State - its own guess, never the true state - applies each candidate
action and lets four classic bots play the round to its end (no bombs out of turn in the
rollouts). A candidate's value is its mean round-point differential for the bot's team over
the same worlds, so the candidates are compared on common worlds.

The rollout players read those hypothetical states through `world_situation`, the only place
where a bot looks at a State: it is the bot's own simulation of the rest of the round.
"""

from functools import lru_cache
from typing import Final

import msgspec
import numpy as np

from bots.tichu.classic import ClassicPolicy, with_wish
from bots.tichu.dragon import dragon_receiver
from bots.tichu.situation import LegalPlay, Situation, cards_of
from bots.tichu.tracking import Hands, knowledge, sample_hands
from engine.bits import popcount
from engine.tichu.actions import Action, GiveDragon, Pass, Play
from engine.tichu.cards import ALL_CARDS
from engine.tichu.combos import NO_COMBO
from engine.tichu.deal import SEATS
from engine.tichu.rules import Rules
from engine.tichu.scoring import team_of
from engine.tichu.state import State, new_game

__all__ = ["PASS", "rollout", "value_candidates", "world_situation", "world_state"]

_NO_SEAT: Final = -1
_WORLD_SEED: Final = 0  # the hypothetical states' unused seed
_NO_GIFTS: Final = (None, None, None, None)
PASS: Final = Pass()


@lru_cache(maxsize=1)
def _base() -> State:
    return new_game(Rules(max_rounds=1), seed=_WORLD_SEED)


def _piles(sit: Situation) -> tuple[list[int], int, int, int]:
    """(won cards per seat, cards of the open trick, its top cards, seats passed since)."""
    tricks: dict[int, list[int]] = {}
    for event in sit.events:
        trick = tricks.setdefault(event.trick, [0, _NO_SEAT, _NO_SEAT])
        if event.cards:
            trick[0] |= event.cards
            trick[1] = event.seat
        if event.dragon_to >= 0:
            trick[2] = event.dragon_to
    last = max(tricks) if tricks else _NO_SEAT
    open_trick = sit.table != NO_COMBO
    won = [0, 0, 0, 0]
    for index, (cards, player, gift) in tricks.items():
        if index != last or not open_trick:
            won[gift if gift >= 0 else player] |= cards
    top = passed = 0
    if open_trick:
        for event in sit.events:
            if event.trick != last:
                continue
            if event.cards:
                top, passed = event.cards, 0
            elif event.dragon_to < 0:
                passed |= 1 << event.seat
    return won, tricks[last][0] if open_trick else 0, top, passed


def world_state(sit: Situation, hands: Hands) -> State:
    """The hypothetical play-phase State of `sit` with the sampled `hands`."""
    won, trick, top, passed = _piles(sit)
    open_trick = sit.table != NO_COMBO
    return msgspec.structs.replace(
        _base(),
        phase="play",
        hands=hands,
        stock=(0, 0, 0, 0),
        decided=(1 << SEATS) - 1,
        calls=sit.calls,
        gifts=_NO_GIFTS,
        turn=sit.to_move,
        table=sit.table,
        table_cards=top,
        owner=sit.owner if open_trick else _NO_SEAT,
        trick=trick,
        passed=passed,
        closed=sit.closed and open_trick,
        wish=sit.wish,
        won=(won[0], won[1], won[2], won[3]),
        finish=sit.finish,
    )


def world_situation(state: State, seat: int, trick: int) -> Situation:
    """A rollout player's view of a hypothetical state (its own hand and public facts)."""
    hands = state.hands
    held = hands[0] | hands[1] | hands[2] | hands[3]
    on_turn = state.phase == "play" and state.turn == seat
    leading = on_turn and (state.table == NO_COMBO or state.closed)
    legal: list[LegalPlay] = []
    can_pass = False
    for action in state.legal_actions(seat, exchanges=False):
        if isinstance(action, Play) and action.wish is None:
            legal.append(LegalPlay(cards_of(action.cards), action))
        elif isinstance(action, Pass):
            can_pass = True
    has_table = state.table != NO_COMBO
    return Situation(
        seat=seat,
        hand=hands[seat],
        sizes=(popcount(hands[0]), popcount(hands[1]), popcount(hands[2]), popcount(hands[3])),
        played=ALL_CARDS & ~held,
        unseen=held & ~hands[seat],
        table=NO_COMBO if leading else state.table,
        owner=state.owner if has_table else _NO_SEAT,
        trick_cards=state.trick if has_table else 0,
        closed=state.closed,
        on_turn=on_turn,
        to_move=state.turn,
        trick=trick,
        calls=state.calls,
        finish=state.finish,
        wish=state.wish,
        given=(0, 0, 0),
        received=(0, 0, 0),
        events=(),
        legal=tuple(legal),
        can_pass=can_pass,
        can_call=False,
    )


def rollout(state: State, player: ClassicPolicy, trick: int) -> State:
    """Play the hypothetical round to its end with `player` in every seat."""
    while state.phase in ("play", "dragon"):
        seat = state.turn
        if state.phase == "dragon":
            sizes = tuple(popcount(h) for h in state.hands)
            action: Action | None = GiveDragon(to=dragon_receiver(seat, sizes))
        else:
            if state.table == NO_COMBO or state.closed:
                trick += 1
            sit = world_situation(state, seat, trick)
            play = player.choose(sit).play
            action = PASS if play is None else with_wish(sit, play)
            if _is_listed(sit, action):  # the usual case: spare the legality checks
                state = state.apply_listed(seat, action)
                continue
        if action is None:
            raise RuntimeError("a rollout player on turn must act")
        state = state.apply(seat, action)
    return state


def _is_listed(sit: Situation, action: Action) -> bool:
    """Is `action` one of the legal actions `sit` was built from (so `apply_listed` may take
    it)? A Mah Jong play with a chosen wish is a new action: `apply` checks it."""
    if action is PASS:
        return sit.can_pass
    return any(action is play.action for play in sit.legal)


def value_candidates(
    sit: Situation,
    candidates: list[Action | None],
    player: ClassicPolicy,
    worlds: int,
    rng: np.random.Generator,
) -> list[float]:
    """Mean round-point differential for the seat's team of each candidate (None: let the
    seat on turn act, i.e. no interrupt) over `worlds` sampled worlds."""
    known = knowledge(sit)
    totals = [0.0] * len(candidates)
    team = team_of(sit.seat)
    for _ in range(worlds):
        base = world_state(sit, sample_hands(sit, known, rng))
        for index, action in enumerate(candidates):
            start = base if action is None else base.apply(sit.seat, action)
            end = rollout(start, player, sit.trick)
            points = end.rounds[-1].points
            totals[index] += points[team] - points[1 - team]
    return [total / worlds for total in totals]
