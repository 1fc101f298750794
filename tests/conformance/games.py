"""Per-game adapters for the conformance suite: what the shared tests need to know of a game.

Every game engine offers the same interface (DESIGN.md section 2); the adapter adds only what
differs: how to start a game from a seed, which actions to try beyond the legal ones, how to
count the cards, and the action type for msgspec round trips.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.bits import popcount
from engine.skat.actions import Action as SkatAction
from engine.skat.actions import Bid, Declare, Discard, Hold, Kontra, Pass, PickUpSkat, Play, Resign
from engine.skat.actions import Re as SkatRe
from engine.skat.cards import GAME_TYPES, format_card
from engine.skat.rules import Rules as SkatRules
from engine.skat.state import State as SkatState
from engine.skat.state import new_game as new_skat
from engine.skat.state import replay as replay_skat


@dataclass(frozen=True)
class GameAdapter:
    name: str
    new: Callable[[int], Any]
    seats: Callable[[Any], range]
    probes: Callable[[Any], list[Any]]
    cards: Callable[[Any], int]
    replay: Callable[[Any], Any]
    action_type: Any
    log: Callable[[Any], Any]
    check_result: Callable[[Any], None]


def _skat_new(seed: int) -> SkatState:
    players = 3 + seed % 2
    rules = SkatRules(
        players=players, kontra=seed % 3 == 0, all_pass="ramsch" if seed % 5 == 0 else "throw_in"
    )  # type: ignore[arg-type]
    return new_skat(rules, seed=seed, dealer=seed % players)


def _skat_probes(state: SkatState) -> list[SkatAction]:
    cards = [format_card(c) for c in range(32)]
    return [
        Pass(), Hold(), Bid(18), Bid(21), Bid(264), PickUpSkat(), Discard((cards[0], cards[1])),
        *[Declare(g) for g in GAME_TYPES], Declare("grand", ouvert=True), *[Play(c) for c in cards],
        Kontra(), SkatRe(), Resign(),
    ]  # fmt: skip


def _skat_cards(state: SkatState) -> int:
    return sum(popcount(m) for m in (*state.hands, state.skat, *state.taken)) + len(state.trick)


def _skat_result(state: SkatState) -> None:
    result = state.result
    assert len(result.seeger_fabian) == state.players
    assert 0 <= result.declarer_points <= 120
    assert 0 <= result.declarer_tricks <= 10
    assert abs(result.list_value) <= 2 * 264 * 4


SKAT = GameAdapter(
    name="skat",
    new=_skat_new,
    seats=lambda state: range(state.players),
    probes=_skat_probes,
    cards=_skat_cards,
    replay=lambda state: replay_skat(state.start, state.log),
    action_type=SkatAction,
    log=lambda state: state.log,
    check_result=_skat_result,
)

GAMES = [SKAT]
