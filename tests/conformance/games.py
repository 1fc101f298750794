"""Per-game adapters for the conformance suite: what the shared tests need to know of a game.

Every game engine offers the same interface (docs/conventions.md section 3); the adapter adds only
what differs: how to start a game from a seed, which actions to try beyond the legal ones, how to
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
from engine.tichu import actions as tichu_actions
from engine.tichu.cards import ALL_CARDS as TICHU_CARDS
from engine.tichu.cards import format_cards as format_tichu_cards
from engine.tichu.rules import Rules as TichuRules
from engine.tichu.state import State as TichuState
from engine.tichu.state import new_game as new_tichu
from engine.tichu.state import replay as replay_tichu


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


def _tichu_new(seed: int) -> TichuState:
    # One or two rounds: uniform random play calls Tichu often and may never reach 1000.
    rules = TichuRules(max_rounds=1 + seed % 2, phoenix_as_one=seed % 3 == 0)
    return new_tichu(rules, seed=seed)


def _tichu_probes(state: TichuState) -> list[tichu_actions.Action]:
    names = format_tichu_cards(TICHU_CARDS)
    return [
        tichu_actions.Pass(), tichu_actions.CallTichu(), tichu_actions.GrandTichu(),
        tichu_actions.DeclineGrandTichu(), *[tichu_actions.GiveDragon(to=s) for s in range(4)],
        *[tichu_actions.Play(cards=(c,)) for c in names],
        tichu_actions.Play(cards=("MahJong",), wish="7"), tichu_actions.Play(cards=("5j", "5s")),
        tichu_actions.Exchange(left=names[0], partner=names[1], right=names[2]),
    ]  # fmt: skip


def _tichu_cards(state: TichuState) -> int:
    return sum(popcount(m) for m in (*state.hands, *state.stock, *state.won, state.trick))


def _tichu_result(state: TichuState) -> None:
    result = state.result
    assert result.is_over
    assert result.totals == (
        sum(r.points[0] for r in result.rounds),
        sum(r.points[1] for r in result.rounds),
    )
    for score in result.rounds:
        assert sum(score.card_points) in (100, 200)
        assert all(abs(points) <= 400 for points in score.call_points)


TICHU = GameAdapter(
    name="tichu",
    new=_tichu_new,
    seats=lambda state: range(4),
    probes=_tichu_probes,
    cards=_tichu_cards,
    replay=lambda state: replay_tichu(state.start, state.moves),
    action_type=tichu_actions.Action,
    log=lambda state: state.moves,
    check_result=_tichu_result,
)

GAMES = [SKAT, TICHU]
