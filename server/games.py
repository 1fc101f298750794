"""The server's view of a game kind: one small adapter per game, the same protocol for all.

The table core never imports a rules engine; it talks to a `GameKind`, which owns the game's
types (rules, actions, the deal event, observations, results) and their encodings. `app.py`
builds the adapters and hands them to the lobby. Skat plays a list of deals; a Tichu "deal"
in the server's terms is a whole match to 1000 (its rounds live inside one engine state).
"""

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import msgspec

from engine.errors import IllegalAction
from engine.skat.actions import Action as SkatAction
from engine.skat.actions import Discard
from engine.skat.iss import format_record
from engine.skat.rules import Rules as SkatRules
from engine.skat.scoring import Result as SkatResult
from engine.skat.scoring import standings as skat_standings
from engine.skat.state import GameStart as SkatStart
from engine.skat.state import State as SkatState
from engine.skat.state import new_game as skat_new_game
from engine.skat.state import replay as skat_replay
from engine.tichu.actions import Action as TichuAction
from engine.tichu.actions import Exchange
from engine.tichu.rules import Rules as TichuRules
from engine.tichu.state import GameStart as TichuStart
from engine.tichu.state import State as TichuState
from engine.tichu.state import new_game as tichu_new_game
from engine.tichu.state import replay as tichu_replay

__all__ = ["GameKind", "GameState", "SkatGame", "TichuGame", "games_by_name"]


class GameState(Protocol):
    """What the server uses of an engine state (both engines share this interface)."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def result(self) -> Any: ...

    def legal_actions(self, seat: int) -> list[Any]: ...

    def apply(self, seat: int, action: Any) -> Any: ...

    def observation(self, seat: int | None, *, history: bool = True) -> Any: ...


class GameKind(Protocol):
    """A game as the server sees it.

    Encoded values (`start`, actions) are JSON bytes that go into the event log; decoding an
    old event must keep working after rules changes (the log has a schema version).
    """

    name: str

    def parse_rules(self, raw: dict[str, Any]) -> Any:
        """Rules from the client's options; raises msgspec.ValidationError if invalid."""
        ...

    def rules_options(self, rules: Any) -> dict[str, Any]:
        """The rules as plain JSON-able options (what `parse_rules` accepts)."""
        ...

    def seat_count(self, rules: Any) -> int: ...

    def series_length(self, rules: Any, default: int) -> int:
        """Deals in a series when the client does not say (`default`: the server setting)."""
        ...

    def acting_seats(self, state: GameState) -> tuple[int, ...]:
        """Seats the table waits for: the seat to move, or every seat that still has to
        decide in a phase where all act at once (Tichu's Grand Tichu and exchange)."""
        ...

    def deal(self, rules: Any, seed: int, number: int) -> tuple[bytes, GameState]:
        """Deal number `number` of a list (the dealer rotates): the encoded first event and
        the state after it."""
        ...

    def restore(self, start: bytes) -> GameState:
        """The state right after the encoded first event `start`."""
        ...

    def decode_action(self, raw: bytes) -> Any:
        """An action from JSON; raises msgspec.ValidationError or DecodeError."""
        ...

    def encode_action(self, action: Any) -> bytes: ...

    def is_hidden(
        self, state_before: GameState, seat: int, action: Any, viewer: int | None
    ) -> bool:
        """Whether `viewer` (None: public) must not see `action` of `seat` itself."""
        ...

    def view(self, state: GameState, viewer: int | None, *, history: bool) -> Any:
        """What `viewer` (None: public) sees of the deal; without the history for per-event
        updates (the events are the history), with it for snapshots."""
        ...

    def result_payload(self, state: GameState) -> dict[str, Any]:
        """The finished deal's result as JSON-able data (for storage and events)."""
        ...

    def standings(self, seats: int, results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """List totals per seat, best first, from the stored result payloads. Each entry has
        at least `seat` and `points` (what the ratings rank by)."""
        ...

    def record(self, state: GameState, names: Sequence[str]) -> str | None:
        """The finished deal as a game record text (Skat: ISS), or None."""
        ...


class SkatGame:
    """Skat via `engine.skat`: Seeger-Fabian lists, ISS records."""

    name = "skat"

    def __init__(self) -> None:
        self._action_decoder = msgspec.json.Decoder(SkatAction)
        self._start_decoder = msgspec.json.Decoder(SkatStart)
        self._encoder = msgspec.json.Encoder()

    def parse_rules(self, raw: dict[str, Any]) -> SkatRules:
        return msgspec.convert(raw, SkatRules)

    def rules_options(self, rules: SkatRules) -> dict[str, Any]:
        options: dict[str, Any] = msgspec.to_builtins(rules)
        return options

    def seat_count(self, rules: SkatRules) -> int:
        return rules.players

    def series_length(self, rules: SkatRules, default: int) -> int:
        return default

    def acting_seats(self, state: SkatState) -> tuple[int, ...]:
        return () if state.to_move is None else (state.to_move,)

    def deal(self, rules: SkatRules, seed: int, number: int) -> tuple[bytes, SkatState]:
        # The first deal of a list is dealt by the last seat, so seat 0 is forehand.
        dealer = (rules.players - 1 + number) % rules.players
        state = skat_new_game(rules, seed=seed, dealer=dealer)
        return self._encoder.encode(state.start), state

    def restore(self, start: bytes) -> SkatState:
        return skat_replay(self._start_decoder.decode(start), ())

    def decode_action(self, raw: bytes) -> SkatAction:
        return self._action_decoder.decode(raw)

    def encode_action(self, action: SkatAction) -> bytes:
        return self._encoder.encode(action)

    def is_hidden(
        self, state_before: SkatState, seat: int, action: SkatAction, viewer: int | None
    ) -> bool:
        # A discard is the only action whose content others may not see (cards laid away).
        return isinstance(action, Discard) and viewer != seat

    def view(self, state: SkatState, viewer: int | None, *, history: bool) -> Any:
        return state.observation(viewer, history=history)

    def result_payload(self, state: SkatState) -> dict[str, Any]:
        payload: dict[str, Any] = msgspec.to_builtins(state.result)
        return payload

    def standings(self, seats: int, results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        typed = [msgspec.convert(r, SkatResult) for r in results]
        table: list[dict[str, Any]] = msgspec.to_builtins(skat_standings(seats, typed))
        # Seeger-Fabian: the list is ranked by performance (SkWO 6.3.1).
        return [{**entry, "points": entry["performance"]} for entry in table]

    def record(self, state: SkatState, names: Sequence[str]) -> str | None:
        players = tuple(names[s] for s in state.active_seats)
        try:
            return format_record(state, players=players)  # type: ignore[arg-type]
        except IllegalAction:
            return None


class TichuGame:
    """Tichu via `engine.tichu`: one match to the target score per series; JSON records."""

    name = "tichu"
    seats = 4

    def __init__(self) -> None:
        self._action_decoder = msgspec.json.Decoder(TichuAction)
        self._start_decoder = msgspec.json.Decoder(TichuStart)
        self._encoder = msgspec.json.Encoder()

    def parse_rules(self, raw: dict[str, Any]) -> TichuRules:
        return msgspec.convert(raw, TichuRules)

    def rules_options(self, rules: TichuRules) -> dict[str, Any]:
        options: dict[str, Any] = msgspec.to_builtins(rules)
        return options

    def seat_count(self, rules: TichuRules) -> int:
        return self.seats

    def series_length(self, rules: TichuRules, default: int) -> int:
        return 1  # the match is the unit: its rounds are inside one engine state

    def acting_seats(self, state: TichuState) -> tuple[int, ...]:
        if state.is_over:
            return ()
        if state.to_move is not None:
            return (state.to_move,)
        if state.phase == "grand_tichu":
            return tuple(s for s in range(self.seats) if not state.decided >> s & 1)
        return tuple(s for s in range(self.seats) if state.gifts[s] is None)

    def deal(self, rules: TichuRules, seed: int, number: int) -> tuple[bytes, TichuState]:
        state = tichu_new_game(rules, seed=seed)
        return self._encoder.encode(state.start), state

    def restore(self, start: bytes) -> TichuState:
        return tichu_replay(self._start_decoder.decode(start), ())

    def decode_action(self, raw: bytes) -> TichuAction:
        return self._action_decoder.decode(raw)

    def encode_action(self, action: TichuAction) -> bytes:
        return self._encoder.encode(action)

    def is_hidden(
        self, state_before: TichuState, seat: int, action: TichuAction, viewer: int | None
    ) -> bool:
        # The exchange is passed face down; receivers see their cards in their view.
        return isinstance(action, Exchange) and viewer != seat

    def view(self, state: TichuState, viewer: int | None, *, history: bool) -> Any:
        return state.observation(viewer, history=history)

    def result_payload(self, state: TichuState) -> dict[str, Any]:
        payload: dict[str, Any] = msgspec.to_builtins(state.result)
        return payload

    def standings(self, seats: int, results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        totals = [0, 0]
        for result in results:
            for team in (0, 1):
                totals[team] += result["totals"][team]
        entries = [
            {"seat": seat, "team": seat % 2, "points": totals[seat % 2]} for seat in range(seats)
        ]
        return sorted(entries, key=lambda e: (-e["points"], e["seat"]))

    def record(self, state: TichuState, names: Sequence[str]) -> str | None:
        """A JSON record of a finished match: rules, every round's deal, every action, the
        result. The seed stays secret; the deals say everything it would."""
        if not state.is_over:
            return None
        rounds = len(state.result.rounds)
        record = {
            "game": "tichu",
            "players": list(names),
            "rules": msgspec.to_builtins(state.start.rules),
            "deals": [state.start.deal(k).to_text() for k in range(rounds)],
            "moves": [[seat, msgspec.to_builtins(action)] for seat, action in state.moves],
            "result": msgspec.to_builtins(state.result),
        }
        return self._encoder.encode(record).decode()


def games_by_name(kinds: Iterable[GameKind]) -> dict[str, GameKind]:
    """Adapters keyed by name, for the lobby (built in `app.py`, never at import time)."""
    return {kind.name: kind for kind in kinds}
