"""Who is at a table and what they say: taking and leaving seats, bots on seats, watching,
coming back after a reconnect, disconnects, absent owners, chat.

A seat belongs to a user (or a bot level) from `Seated` on. Its owner may be connected more
than once; when his last connection closes the grace timer starts, and when it runs out a bot
plays the seat (`TakenOver`) until he comes back.
"""

from server.core import timers
from server.core.batch import Batch
from server.core.commands import (
    AddBot,
    ClientId,
    Disconnect,
    Join,
    Leave,
    Reserve,
    Resume,
    Say,
    User,
    Watch,
)
from server.core.effects import Send
from server.core.state import TableState, Viewer
from server.core.views import ShowMissed, ShowSnapshot
from server.events import Chatted, Player, Seated, TakenOver, Vacated
from server.protocol import Joined, Ok, Reply, SessionMoved

__all__ = [
    "add_bot",
    "disconnect",
    "fill",
    "grace_over",
    "join",
    "leave",
    "reserve",
    "resume",
    "say",
    "watch",
]


def join(cmd: Join, batch: Batch) -> None:
    table = batch.table
    own = table.seat_of(cmd.user.id)
    if own is not None:
        return _attach(cmd.client, cmd.user, cmd.request_id, own, batch, joined=True)
    if not _invited(table, cmd.invite):
        return batch.error(cmd, "bad_invite", "this private table needs its invite")
    if table.status != "waiting":
        return batch.error(cmd, "already_started", "the list has begun")
    free = [s for s, p in enumerate(table.seats) if p is None]
    if not free:
        return batch.error(cmd, "table_full", "every seat is taken")
    seat = free[0] if cmd.seat is None else cmd.seat
    if seat >= table.seat_count:
        return batch.error(cmd, "no_such_seat", f"seats are 0..{table.seat_count - 1}")
    if seat not in free:
        return batch.error(cmd, "seat_taken", f"seat {seat} is taken")
    batch.emit(Seated(seat, Player(cmd.user.id, cmd.user.name, client_bot=cmd.user.bot)))
    _attach(cmd.client, cmd.user, cmd.request_id, seat, batch, joined=True)
    return None


def watch(cmd: Watch, batch: Batch) -> None:
    table = batch.table
    if not _invited(table, cmd.invite):
        return batch.error(cmd, "bad_invite", "this private table needs its invite")
    _attach(cmd.client, cmd.user, cmd.request_id, None, batch, joined=False)
    return None


def resume(cmd: Resume, batch: Batch) -> None:
    """A client back after a reconnect: every event it missed, or a snapshot."""
    table = batch.table
    seat = table.seat_of(cmd.user.id)
    if seat is None and cmd.client not in batch.viewers and table.config.private:
        return batch.error(cmd, "bad_invite", "watch this private table with its invite")
    if cmd.seq > table.seq:
        return batch.error(cmd, "bad_seq", f"the table is only at seq {table.seq}")
    batch.viewers.pop(cmd.client, None)
    batch.attach[cmd.client] = Viewer(cmd.user, seat)
    _take_back(seat, batch)
    batch.later(ShowMissed(cmd.client, seat, cmd.seq))
    batch.reply(cmd.client, Ok(id=cmd.request_id))
    return None


def leave(cmd: Leave, batch: Batch) -> None:
    """Give up a seat (before the list: free it; during it: a bot plays on; after it: only go)
    or stop watching."""
    table = batch.table
    seat = table.seat_of(cmd.user.id)
    if seat is None:
        if batch.viewers.pop(cmd.client, None) is None:
            return batch.error(cmd, "not_at_table", "you are not at this table")
        batch.reply(cmd.client, Ok(id=cmd.request_id))
        return None
    for client, viewer in list(batch.viewers.items()):
        if viewer.user.id == cmd.user.id:
            del batch.viewers[client]
    if table.status == "waiting":
        batch.emit(Vacated(seat))
    elif table.status == "playing":
        batch.emit(Seated(seat, _bot(table.config.timeout_bot)))
    batch.reply(cmd.client, Ok(id=cmd.request_id))
    return None


def add_bot(cmd: AddBot, batch: Batch) -> None:
    table = batch.table
    if table.seat_of(cmd.user.id) is None and cmd.user.id != table.config.created_by:
        return batch.error(cmd, "not_seated", "only players and the host add bots")
    if cmd.level not in table.bot_levels:
        known = ", ".join(sorted(table.bot_levels))
        return batch.error(cmd, "unknown_bot", f"no bot {cmd.level!r}; known: {known}")
    if table.status != "waiting":
        return batch.error(cmd, "already_started", "the list has begun")
    if cmd.seat >= table.seat_count:
        return batch.error(cmd, "no_such_seat", f"seats are 0..{table.seat_count - 1}")
    if table.seats[cmd.seat] is not None:
        return batch.error(cmd, "seat_taken", f"seat {cmd.seat} is taken")
    batch.emit(Seated(cmd.seat, _bot(cmd.level)))
    batch.reply(cmd.client, Ok(id=cmd.request_id))
    return None


def say(cmd: Say, batch: Batch) -> None:
    viewer = batch.viewers.get(cmd.client)
    if viewer is None:
        return batch.error(cmd, "not_at_table", "join or watch the table to chat")
    batch.emit(Chatted(viewer.seat, cmd.user.name, cmd.text))
    batch.reply(cmd.client, Ok(id=cmd.request_id))
    return None


def disconnect(cmd: Disconnect, batch: Batch) -> None:
    """A connection closed; its seat's grace timer starts if it was the owner's last one.
    Closed for a newer connection of the same session: everybody at the table is told."""
    table = batch.table
    viewer = batch.viewers.pop(cmd.client, None)
    if viewer is None or viewer.seat is None:
        return
    if cmd.replaced and batch.viewers:
        notice = SessionMoved(table=table.config.id, seat=viewer.seat, name=viewer.user.name)
        batch.later(Send(tuple(batch.viewers), notice))
    if not any(v.user.id == viewer.user.id for v in batch.viewers.values()):
        batch.later(timers.grace(table, viewer.seat))


def fill(batch: Batch) -> None:
    """The fill timer fired: bots of the table's level take every empty seat."""
    table = batch.table
    if table.status != "waiting":
        return
    for seat, player in enumerate(table.seats):
        if player is None:
            batch.emit(Seated(seat, _bot(table.config.fill_level)))


def reserve(cmd: Reserve, batch: Batch) -> None:
    """Seat the drawn players on the empty seats of a waiting table, in seat order."""
    table = batch.table
    if table.status != "waiting":
        return
    for seat, player in enumerate(cmd.players[: table.seat_count]):
        if table.seats[seat] is None:
            batch.emit(Seated(seat, player))


def grace_over(seat: int, batch: Batch) -> None:
    """The grace timer of `seat` fired: a bot plays it if its owner is still away."""
    table = batch.table
    player = table.seats[seat]
    if (
        table.status == "playing"
        and player is not None
        and player.bot is None
        and seat not in table.away
        and not any(v.seat == seat for v in batch.viewers.values())
    ):
        batch.emit(TakenOver(seat, True))


def _bot(level: str) -> Player:
    return Player(None, f"bot:{level}", level)


def _invited(table: TableState, invite: str | None) -> bool:
    return not table.config.private or invite == table.config.invite


def _attach(
    client: ClientId,
    user: User,
    request_id: int | str | None,
    seat: int | None,
    batch: Batch,
    *,
    joined: bool,
) -> None:
    """Connect `client` to the table (as `seat`'s owner or a spectator): its reply, then a
    snapshot as it sees the table after the command."""
    batch.viewers.pop(client, None)
    batch.attach[client] = Viewer(user, seat)
    _take_back(seat, batch)
    reply: Reply = Ok(id=request_id)
    if joined and seat is not None:
        reply = Joined(id=request_id, table=batch.table.config.id, seat=seat)
    batch.reply(client, reply)
    batch.later(ShowSnapshot(client, seat))


def _take_back(seat: int | None, batch: Batch) -> None:
    """The owner is back: he plays his seat again (after the list there is nothing to take
    back, and the seat stays marked as the bot's, which played it to the end)."""
    table = batch.table
    if seat is not None and seat in table.away and table.status == "playing":
        batch.emit(TakenOver(seat, False))
