"""The game at a table: a human's or a bot's move, deals and the end of the list, and who is
asked to move next.

Each move is decoded once (a client's bytes; a bot's decision arrives decoded) and applied
once: the state `apply` returns is the one the table evolves with, its decoded action kept
for the views. Only stored moves (a restore, a followed table) are decoded and applied in
`state.evolve`.
"""

import msgspec

from engine.errors import IllegalAction
from server.core import timers
from server.core.batch import Batch
from server.core.commands import Act, BotMoved
from server.core.effects import AskBot
from server.core.state import TurnClock, draw
from server.core.views import ShowClock
from server.events import DealStarted, GameOver, ListOver, Moved, SeriesEnded, TakenOver
from server.games import GameState
from server.plain import Plain
from server.protocol import Ok

__all__ = ["act", "ask_bot", "bot_moved", "deal", "out_of_time", "schedule", "start_if_full"]


def act(cmd: Act, batch: Batch) -> None:
    """A seated client's move: checked by the engine, refused with one error otherwise."""
    table = batch.table
    viewer = batch.viewers.get(cmd.client)
    seat = table.seat_of(cmd.user.id)
    if viewer is None or viewer.seat is None or seat is None:
        return batch.error(cmd, "not_seated", "you have no seat at this table")
    if table.status != "playing" or table.state is None:
        return batch.error(cmd, "not_playing", "no deal is running at this table")
    if not table.game_seq <= cmd.seq <= table.seq:
        message = f"the game changed at seq {table.game_seq}; you saw {cmd.seq}"
        return batch.error(cmd, "stale_seq", message)
    try:
        action = table.game.decode_action(cmd.action)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        return batch.error(cmd, "bad_action", f"not an action: {error}")
    try:
        after = table.state.apply(seat, action)
    except IllegalAction as error:
        return batch.error(cmd, error.code, error.message)
    _move(batch, seat, action, after)
    if cmd.ack_in_event:
        batch.ack = (cmd.client, cmd.request_id)
    else:
        batch.reply(cmd.client, Ok(id=cmd.request_id))
    return None


def bot_moved(cmd: BotMoved, batch: Batch) -> None:
    """A bot's answer, void if the seat has acted or the game moved on since it was asked."""
    table = batch.table
    batch.asked.discard(cmd.seat)
    state = table.state
    if state is None or cmd.seat not in table.game.acting_seats(state):
        return  # the seat has acted or may not act now
    simultaneous = state.to_move is None
    if cmd.seq != table.game_seq and not simultaneous:
        return  # the game moved on (owner returned, timer raced)
    action, why = cmd.action, cmd.why
    try:
        after = state.apply(cmd.seat, action)
    except IllegalAction:
        if cmd.seq != table.game_seq:
            return  # decided on an older state; the seat is asked again
        # A buggy policy must not stall the table.
        action, why = state.legal_actions(cmd.seat)[0], None
        after = state.apply_listed(cmd.seat, action)
    _move(batch, cmd.seat, action, after, why or None)


def _move(
    batch: Batch,
    seat: int,
    action: msgspec.Struct,
    after: GameState,
    why: Plain | None = None,
) -> None:
    """Record a checked move; at the end of a deal its result, then the next deal or the
    end of the list."""
    encoded = msgspec.Raw(batch.table.game.encode_action(action))
    batch.emit(Moved(seat, encoded, why), action, after)
    if not after.is_over:
        return
    table = batch.table
    names = [p.name if p else "" for p in table.seats]
    record = table.game.record(after, names)
    batch.games.append(GameOver(table.deal_number, table.results[-1], record, tuple(table.seats)))
    if table.deal_number + 1 < table.config.series_length:
        deal(table.deal_number + 1, batch)
    else:
        standings = table.game.standings(table.seat_count, table.results)
        batch.emit(SeriesEnded(msgspec.to_builtins(standings)))
        batch.list_over = ListOver(batch.table.standings or [], table.seats)


def deal(number: int, batch: Batch) -> None:
    table = batch.table
    seed = draw(table, "deal", number)
    start, state = table.game.deal(table.rules, seed, number, table.results)
    batch.emit(DealStarted(number, msgspec.Raw(start)), state=state)


def start_if_full(batch: Batch) -> None:
    """The list begins once every seat is taken, whatever took the last one."""
    table = batch.table
    if table.status == "waiting" and all(p is not None for p in table.seats):
        deal(0, batch)
        timers.time_absent(batch)


def schedule(batch: Batch) -> None:
    """Ask a bot for the next move, or time the human to move (not at a followed table:
    its own process plays it)."""
    table = batch.table
    state = table.state
    if table.status != "playing" or state is None or table.config.followed:
        return
    simultaneous = state.to_move is None
    timed: list[int] = []
    for seat in table.game.acting_seats(state):
        if simultaneous and seat in batch.asked:
            continue  # its answer is on the way; a decision there outlives other moves
        player = table.seats[seat]
        if player is not None and player.bot is not None:
            ask_bot(seat, player.bot, batch)
        elif seat in table.away:
            ask_bot(seat, table.config.timeout_bot, batch)
        else:
            timed.append(seat)
    if timed and table.config.move_seconds > 0:
        batch.clock = TurnClock(table.game_seq, tuple(timed))
        batch.later(timers.move(table, after_deal=bool(batch.games)))
        batch.later(ShowClock())


def out_of_time(seq: int, batch: Batch) -> None:
    """The move timer of `seq` fired: the timeout bot takes the seats of the humans still to
    act (`TakenOver`; `schedule` asks it for their moves) and plays them until each owner
    takes his seat back, so a player who walked away does not stall every move."""
    table = batch.table
    if seq != table.game_seq or table.state is None:
        return
    for seat in table.game.acting_seats(table.state):
        player = table.seats[seat]
        if player is not None and player.bot is None and seat not in table.away:
            batch.emit(TakenOver(seat, True))


def ask_bot(seat: int, level: str, batch: Batch) -> None:
    table = batch.table
    if table.state is None:
        return
    observation = table.state.observation(seat)
    seed = draw(table, "bot", table.game_seq, seat)
    batch.asked.add(seat)
    batch.later(AskBot(seat, level, observation, seed, table.game_seq))
