"""Playing one tournament game, in a worker process, and reading its outcome.

The game is dealt by the server's own game adapter (`server.games`), exactly as a live table
deals it, and played by the named policies; what comes back is what the database stores (the
encoded deal, the encoded actions, the result payload, the record) plus the game's outcome
for the standings. `outcome` is the one place that turns a stored game into standings data: it
replays the game from its deal and actions, for the runner (on what it just played) and for the
report (on what the database holds) alike, so the two cannot disagree. What an outcome is, and
how a game is played out, is the adapter's (`GameKind.tournament`).
"""

import msgspec

from bots.registry import policy
from server.games import GameKind, GameState, Outcome, game_kind
from server.plain import Plain
from server.tournament.schedule import GameSpec, Params, TableSpec

__all__ = ["PlayedGame", "outcome", "play_game", "replay"]

Moves = list[tuple[int, bytes]]


class PlayedGame(msgspec.Struct, frozen=True):
    """A finished game as the database stores it, and its outcome."""

    table: int
    number: int
    start: bytes
    moves: Moves
    result: Plain  # the result payload
    record: str | None
    outcome: list[msgspec.Struct]


def play_game(params: Params, table: TableSpec, spec: GameSpec) -> PlayedGame:
    """Deal and play one game (in a worker process: the policies are loaded here)."""
    kind = game_kind(params.game)
    start, state = kind.deal(kind.parse_rules(params.rules), spec.seed, spec.number)
    policies = [policy(params.game, name) for name in table.players]
    moves: Moves = []

    def record(seat: int, action: msgspec.Struct) -> None:
        moves.append((seat, kind.encode_action(action)))

    final = kind.tournament.play_out(state, policies, spec.seed, record)
    return PlayedGame(
        table=table.index,
        number=spec.number,
        start=start,
        moves=moves,
        result=kind.result_payload(final),
        record=kind.record(final, table.players),
        outcome=list(outcome(params, table, spec.deal, start, moves)[1]),
    )


def replay(kind: GameKind, start: bytes, moves: Moves) -> tuple[GameState, list[GameState]]:
    """The final state of a stored game, and the state before each move that ended a round
    (Tichu: its seats' calls are still there)."""
    state = kind.restore(start)
    round_of = kind.tournament.round_of
    round_ends = []
    for seat, action in moves:
        after = state.apply(seat, kind.decode_action(action))
        if after.is_over or round_of(after) != round_of(state):
            round_ends.append(state)
        state = after
    return state, round_ends


def outcome(
    params: Params, table: TableSpec, deal: int, start: bytes, moves: Moves
) -> tuple[GameState, Outcome]:
    """The final state and the standings data of a stored game. Deals are numbered across
    groups, so the seatings of one deal pair up and different groups never do."""
    kind = game_kind(params.game)
    final, round_ends = replay(kind, start, moves)
    unique_deal = table.group * params.deals + deal
    play = kind.tournament
    return final, play.outcome(final, round_ends, table.players, unique_deal, table.seating)
