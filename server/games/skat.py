"""Skat as the server plays it, via `engine.skat`: Seeger-Fabian lists (with their Bock
rounds), ISS records."""

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.errors import IllegalAction
from engine.skat.actions import Action, Discard
from engine.skat.iss import format_record
from engine.skat.observation import Observation
from engine.skat.rules import Rules
from engine.skat.scoring import Result, bock_deals_due
from engine.skat.scoring import standings as list_standings
from engine.skat.state import GameStart, State, new_game, replay
from server.games.kind import EngineGame
from server.tournament.skat import SkatTournament

__all__ = ["SkatGame"]


class SkatGame(EngineGame[Rules]):
    """Skat via `engine.skat`."""

    name = "skat"
    observation_type = Observation

    def __init__(self) -> None:
        super().__init__(Rules, Action, GameStart, replay)
        self.tournament = SkatTournament()

    def seat_count(self, rules: Rules) -> int:
        return rules.players

    def series_length(self, rules: Rules, default: int) -> int:
        return default

    def acting_seats(self, state: State) -> tuple[int, ...]:
        return () if state.to_move is None else (state.to_move,)

    def deal(
        self, rules: Rules, seed: int, number: int, results: Sequence[dict[str, Any]] = ()
    ) -> tuple[bytes, State]:
        # The first deal of a list is dealt by the last seat, so seat 0 is forehand.
        dealer = (rules.players - 1 + number) % rules.players
        bock = rules.bock and bock_deals_due(rules.players, self._results(results)) > 0
        return self._dealt(new_game(rules, seed=seed, dealer=dealer, bock=bock))

    def is_hidden(self, state_before: State, seat: int, action: Action, viewer: int | None) -> bool:
        # A discard is the only action whose content others may not see (cards laid away).
        return isinstance(action, Discard) and viewer != seat

    def standings(self, seats: int, results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        table: list[dict[str, Any]] = msgspec.to_builtins(
            list_standings(seats, self._results(results))
        )
        # Seeger-Fabian: the list is ranked by performance (SkWO 6.3.1).
        return [{**entry, "points": entry["performance"]} for entry in table]

    @staticmethod
    def _results(results: Sequence[dict[str, Any]]) -> list[Result]:
        return [msgspec.convert(r, Result) for r in results]

    def record(self, state: State, names: Sequence[str]) -> str | None:
        players = tuple(names[s] for s in state.active_seats)
        try:
            return format_record(state, players=players)  # type: ignore[arg-type]
        except IllegalAction:
            return None
