"""Playing one tournament game, in a worker process, and reading its outcome.

The game is dealt by the server's own game adapter (`server.games`), exactly as a live table
deals it, and played by the named policies; what comes back is what the database stores (the
encoded deal, the encoded actions, the result payload, the record) plus the game's outcome
for the standings. `outcome` is the one place that turns a stored game into standings data: it
replays the game from its deal and actions, for the runner (on what it just played) and for the
report (on what the database holds) alike, so the two cannot disagree.
"""

from typing import Any, Final

import msgspec

from bots.registry import policy
from bots.skat.match import SeatScore, seat_scores
from bots.skat.match import play_out as play_skat
from bots.tichu.duplicate import RoundRecord, round_record
from bots.tichu.match import play_out as play_tichu
from engine.rng import make_stream_rng
from server.games import GameKind, GameState, SkatGame, TichuGame
from server.tournament.schedule import GameSpec, Params, TableSpec

__all__ = ["ROUND_SLOTS", "Outcome", "PlayedGame", "adapter", "outcome", "play_game", "replay"]

Outcome = list[SeatScore] | list[RoundRecord]
Moves = list[tuple[int, bytes]]
ROUND_SLOTS: Final = 1000  # round numbers per Tichu deal index: a match is never that long


class PlayedGame(msgspec.Struct, frozen=True):
    """A finished game as the database stores it, and its outcome."""

    table: int
    number: int
    start: bytes
    moves: Moves
    result: dict[str, Any]
    record: str | None
    outcome: Outcome


def adapter(game: str) -> GameKind:
    """The server's adapter for `game`."""
    return SkatGame() if game == "skat" else TichuGame()


def play_game(params: Params, table: TableSpec, spec: GameSpec) -> PlayedGame:
    """Deal and play one game (in a worker process: the policies are loaded here)."""
    kind = adapter(params.game)
    start, state = kind.deal(kind.parse_rules(params.rules), spec.seed, spec.number)
    policies = [policy(params.game, name) for name in table.players]
    moves: Moves = []

    def record(seat: int, action: Any) -> None:
        moves.append((seat, kind.encode_action(action)))

    final: GameState
    if params.game == "skat":
        rng = make_stream_rng(spec.seed)
        final = play_skat(state, policies, rng, on_action=lambda _, s, a: record(s, a))  # type: ignore[arg-type]
    else:
        final = play_tichu(state, policies, spec.seed, on_action=lambda _, s, a, __: record(s, a))  # type: ignore[arg-type]
    return PlayedGame(
        table=table.index,
        number=spec.number,
        start=start,
        moves=moves,
        result=kind.result_payload(final),
        record=kind.record(final, table.players),
        outcome=outcome(params, table, spec.deal, start, moves)[1],
    )


def replay(kind: GameKind, start: bytes, moves: Moves) -> tuple[GameState, list[GameState]]:
    """The final state of a stored game, and the state before each move that ended a round
    (Tichu: its seats' calls are still there)."""
    state = kind.restore(start)
    round_ends = []
    for seat, action in moves:
        after = state.apply(seat, kind.decode_action(action))
        if after.is_over or getattr(after, "round_index", 0) != getattr(state, "round_index", 0):
            round_ends.append(state)
        state = after
    return state, round_ends


def outcome(
    params: Params, table: TableSpec, deal: int, start: bytes, moves: Moves
) -> tuple[GameState, Outcome]:
    """The final state and the standings data of a stored game: per seat (Skat), per round
    from the view of the pair's first player (Tichu). Deals are numbered across groups (and,
    in Tichu, rounds within a deal's match), so the seatings of one deal pair up and different
    groups never do."""
    final, round_ends = replay(adapter(params.game), start, moves)
    unique_deal = table.group * params.deals + deal
    if params.game == "skat":
        return final, seat_scores(final.result, table.players, unique_deal, (table.seating,))
    swapped = table.seating == 1
    records = [
        round_record(unique_deal * ROUND_SLOTS + k, swapped, before.calls, score)
        for k, (before, score) in enumerate(zip(round_ends, final.result.rounds, strict=True))
    ]
    return final, records
