"""Playing one tournament game, in a worker process, and reading its outcome.

The game is dealt by the server's own game adapter (`server.games`), exactly as a live table
deals it, and played by the named policies; what comes back is what the database stores (the
encoded deal, the encoded actions, the result payload, the record) plus the game's outcome
for the standings. `outcome` is the one place that turns a finished game into standings data:
the runner calls it on the state it played, the report on the state it replays from the
database.
"""

from typing import Any

import msgspec

from bots.registry import policy
from bots.skat.match import SeatScore, play_out, seat_scores
from bots.tichu.duplicate import RoundRecord, round_record
from bots.tichu.match import play_round
from engine.rng import make_stream_rng
from server.games import GameKind, GameState, SkatGame, TichuGame
from server.tournament.schedule import GameSpec, Params, TableSpec

__all__ = ["Outcome", "PlayedGame", "adapter", "outcome", "play_game", "replay"]

Outcome = list[SeatScore] | RoundRecord


class PlayedGame(msgspec.Struct, frozen=True):
    """A finished game as the database stores it, and its outcome."""

    table: int
    number: int
    start: bytes
    moves: list[tuple[int, bytes]]
    result: dict[str, Any]
    record: str | None
    outcome: Outcome


def adapter(game: str) -> GameKind:
    """The server's adapter for `game`."""
    return SkatGame() if game == "skat" else TichuGame()


def play_game(params: Params, table: TableSpec, spec: GameSpec) -> PlayedGame:
    """Deal and play one game (in a worker process: the policies are loaded here)."""
    kind = adapter(params.game)
    rules = kind.parse_rules(params.rules)
    start, state = kind.deal(rules, spec.seed, spec.number)
    policies = [policy(params.game, name) for name in table.players]
    moves: list[tuple[int, bytes]] = []
    if params.game == "skat":

        def on_skat(_after: Any, seat: int, action: Any) -> None:
            moves.append((seat, kind.encode_action(action)))

        rng = make_stream_rng(spec.seed)
        final: GameState = play_out(state, policies, rng, on_action=on_skat)  # type: ignore[arg-type]
    else:

        def on_tichu(_before: Any, seat: int, action: Any, _after: Any) -> None:
            moves.append((seat, kind.encode_action(action)))

        rngs = [make_stream_rng(spec.seed, seat) for seat in range(len(table.players))]
        final = play_round(state, policies, rngs, on_action=on_tichu)  # type: ignore[arg-type]
        if not final.is_over:
            raise ValueError("a Tichu tournament game is one round (rules max_rounds=1)")
    return PlayedGame(
        table=table.index,
        number=spec.number,
        start=start,
        moves=moves,
        result=kind.result_payload(final),
        record=kind.record(final, table.players),
        outcome=outcome(params, table, spec.deal, final),
    )


def replay(kind: GameKind, start: bytes, moves: list[tuple[int, bytes]]) -> GameState:
    """The final state of a stored game: its deal, then every (seat, encoded action)."""
    state = kind.restore(start)
    for seat, action in moves:
        state = state.apply(seat, kind.decode_action(action))
    return state


def outcome(params: Params, table: TableSpec, deal: int, final: Any) -> Outcome:
    """The standings data of a finished game: per seat (Skat) or per team pair (Tichu, from
    the view of the pair's first player). `deal` is numbered across groups, so the seatings
    of one deal pair up and different groups never do."""
    unique_deal = table.group * params.deals + deal
    if params.game == "skat":
        return seat_scores(final.result, table.players, unique_deal, (table.seating,))
    return round_record(unique_deal, table.seating == 1, final)
