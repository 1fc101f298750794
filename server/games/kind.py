"""What the server needs of a game: the `GameKind` protocol every adapter implements, and the
codec both engines' adapters share.

The table core never imports a rules engine; it talks to a `GameKind`, which owns the game's
types (rules, actions, the deal event, observations, results) and their encodings, and, in
`tournament`, how bots play it in a tournament. Skat plays a list of deals; a Tichu "deal" in
the server's terms is a whole match to 1000 (its rounds live inside one engine state).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import msgspec

from bots.registry import GameBots
from server.plain import JSON, Plain
from server.protocol import PeopleForm, RuleOption, StandingsColumn
from server.standings import ListStanding, TournamentRow

if TYPE_CHECKING:
    from rich.table import Table

Policy = Callable[..., object]  # a bot policy (bots.registry): observation, rng -> decision
Outcome = Sequence[msgspec.Struct]  # what one tournament game adds to the standings
Games = Sequence[tuple[tuple[str, ...], Outcome]]  # (players by seat, outcome) per game

__all__ = [
    "EngineGame",
    "GameKind",
    "GameState",
    "Games",
    "Outcome",
    "Policy",
    "Schedule",
    "ScheduleFlags",
    "TournamentPlay",
]


class GameState(Protocol):
    """What the server uses of an engine state (both engines share this interface)."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def result(self) -> msgspec.Struct | None: ...

    def legal_actions(self, seat: int) -> Sequence[msgspec.Struct]: ...

    # `action` is the engine's own action type, which only its states take.
    def apply(self, seat: int, action: Any) -> "GameState": ...

    def apply_listed(self, seat: int, action: Any) -> "GameState": ...

    def observation(self, seat: int | None, *, history: bool = True) -> msgspec.Struct: ...


class GameKind(Protocol):
    """A game as the server sees it.

    Encoded values (`start`, actions) are JSON bytes that go into the event log; decoding an
    old event must keep working after rules changes (the log has a schema version). Rules
    are the game's own struct, which only its adapter reads (typed `Any` where it is taken).
    """

    name: str
    observation_type: type[msgspec.Struct]  # what a seat's bot sees (it crosses the broker)
    tournament: "TournamentPlay"
    bots: GameBots  # every bot level, and those a player picks from
    rules_label: str  # the catalogue key of the create form's rules heading
    rule_options: tuple[RuleOption, ...]  # the create form's rules (`list_games`)
    series_choices: tuple[int, ...]  # list lengths a table may choose; empty: one match
    series_default: int
    people: PeopleForm  # how its tournaments for people are set up

    def people_table(self, deals: int, size: int) -> tuple[Plain, int]:
        """A people's tournament table of `size` seats playing `deals` (the organiser's
        number): its rules as options and its list length."""
        ...

    def parse_rules(self, raw: Plain) -> msgspec.Struct:
        """Rules from the client's options; raises msgspec.ValidationError if invalid."""
        ...

    def rules_options(self, rules: Any) -> Plain:
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

    def deal(
        self, rules: Any, seed: int, number: int, results: Sequence[Plain] = ()
    ) -> tuple[bytes, GameState]:
        """Deal number `number` of a list (the dealer rotates): the encoded first event and
        the state after it. `results`: the list's finished deals so far, as stored (Skat's
        Bock rounds depend on them)."""
        ...

    def restore(self, start: bytes) -> GameState:
        """The state right after the encoded first event `start`."""
        ...

    def decode_action(self, raw: bytes) -> msgspec.Struct:
        """An action from JSON; raises msgspec.ValidationError or DecodeError."""
        ...

    def encode_action(self, action: msgspec.Struct) -> bytes: ...

    def is_hidden(
        self, state_before: GameState, seat: int, action: msgspec.Struct, viewer: int | None
    ) -> bool:
        """Whether `viewer` (None: public) must not see `action` of `seat` itself."""
        ...

    def view(self, state: GameState, viewer: int | None, *, history: bool) -> msgspec.Struct:
        """What `viewer` (None: public) sees of the deal; without the history for per-event
        updates (the events are the history), with it for snapshots."""
        ...

    def result_payload(self, state: GameState) -> Plain:
        """The finished deal's result as JSON-able data (for storage and events)."""
        ...

    def standings(self, seats: int, results: Sequence[Plain]) -> list[ListStanding]:
        """List totals per seat, best first, from the stored result payloads (`points`: what
        the ratings rank by; the game's own columns in its subclass of `ListStanding`)."""
        ...

    def decode_standings(self, data: Sequence[Mapping[str, int]]) -> list[ListStanding]:
        """Standings as `standings` made them, from their plain data (a `series_end` event)."""
        ...

    def record(self, state: GameState, names: Sequence[str]) -> str | None:
        """The finished deal as a game record text (Skat: ISS), or None."""
        ...


class TournamentPlay(Protocol):
    """How bots play a game in a tournament (`server/tournament/`): who sits together, how a
    game is played out, and what its outcome adds to the standings."""

    score_unit: str  # what `scores` counts, for reports
    count_unit: str  # what a standings row's `games` counts (games, rounds)
    columns: tuple[StandingsColumn, ...]  # the game's own standings columns
    row_type: type[TournamentRow]  # a standings row with those columns

    def schedule(self, flags: "ScheduleFlags", list_length: Callable[[int], int]) -> "Schedule":
        """Deals per group, rules and games per table from the command line's flags
        (`list_length`: the server's list length for a table size); raises ValueError
        naming the flags the game needs."""
        ...

    def detail_tables(self, details: Plain) -> "list[Table]":
        """The game's own tables of `details` for the terminal."""
        ...

    def group_size(self, rules: Mapping[str, JSON]) -> int:
        """Players per group (every group plays the same deals)."""
        ...

    def seatings(self, group: tuple[str, ...], duplicate: bool) -> list[tuple[str, ...]]:
        """The seatings a group plays each deal in (players by seat)."""
        ...

    def play_out(
        self,
        state: GameState,
        policies: Sequence[Policy],
        seed: int,
        on_action: Callable[[int, msgspec.Struct], None],
    ) -> GameState:
        """Play `state` to its end with one policy per seat; `on_action(seat, action)` sees
        each action applied."""
        ...

    def round_of(self, state: GameState) -> int:
        """The round a state is in (a match of several rounds; 0 for a single deal)."""
        ...

    def outcome(
        self,
        final: GameState,
        round_ends: Sequence[GameState],
        players: Sequence[str],
        deal: int,
        seating: int,
    ) -> Outcome:
        """What a finished game adds to the standings; `round_ends` are the states before
        each move that ended a round, `deal` numbers the deal across the tournament."""
        ...

    def scores(self, final: GameState, players: Sequence[str]) -> dict[str, int]:
        """Each player's score in one game (`score_unit`)."""
        ...

    def standings(self, games: Games) -> list[TournamentRow]:
        """One row per player from every game's (players by seat, outcome), with the game's
        own columns (its subclass `row_type` of `TournamentRow`)."""
        ...

    def details(self, games: Games) -> Plain:
        """The game's own tables for the report."""
        ...


@dataclass(frozen=True)
class ScheduleFlags:
    """The command line's counts for a new tournament (None: not given)."""

    games: int | None
    rounds: int | None
    matches: int | None
    table_size: int


@dataclass(frozen=True)
class Schedule:
    """What a game makes of `ScheduleFlags`: deals per group, the rules, games per table."""

    deals: int
    rules: Plain
    list_length: int


RulesT = TypeVar("RulesT", bound=msgspec.Struct)


class EngineGame(Generic[RulesT]):
    """What both engines' adapters share: rules from options and back, actions and the deal
    event to and from JSON, the view as the engine's observation, the result as plain data."""

    def __init__(
        self,
        rules_type: type[RulesT],
        action_type: object,  # a struct type or a union of them
        start_type: type[msgspec.Struct],
        replay: Callable[[Any, tuple[()]], Any],
        standing_type: type[ListStanding] = ListStanding,
    ) -> None:
        self._rules_type = rules_type
        self._standing_type = standing_type
        self._action_decoder = msgspec.json.Decoder(action_type)
        self._start_decoder = msgspec.json.Decoder(start_type)
        self._replay = replay
        self._encoder = msgspec.json.Encoder()

    def parse_rules(self, raw: Plain) -> RulesT:
        return msgspec.convert(raw, self._rules_type)

    def rules_options(self, rules: RulesT) -> Plain:
        options: Plain = msgspec.to_builtins(rules)
        return options

    def restore(self, start: bytes) -> GameState:
        state: GameState = self._replay(self._start_decoder.decode(start), ())
        return state

    def decode_action(self, raw: bytes) -> msgspec.Struct:
        action: msgspec.Struct = self._action_decoder.decode(raw)
        return action

    def encode_action(self, action: msgspec.Struct) -> bytes:
        return self._encoder.encode(action)

    def view(self, state: GameState, viewer: int | None, *, history: bool) -> msgspec.Struct:
        return state.observation(viewer, history=history)

    def result_payload(self, state: GameState) -> Plain:
        payload: Plain = msgspec.to_builtins(state.result)
        return payload

    def decode_standings(self, data: Sequence[Mapping[str, int]]) -> list[ListStanding]:
        return [msgspec.convert(entry, self._standing_type) for entry in data]

    def _dealt(self, state: GameState) -> tuple[bytes, GameState]:
        """A new deal's state and its encoded first event."""
        return self._encoder.encode(state.start), state
