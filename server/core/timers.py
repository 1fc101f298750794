"""The three timers of a table and when each starts. A timer's firing comes back as
`TimerFired(key)`; the core then checks whether it still matters (`decide`):

- **fill** (`fill_bots_after` seconds after the table opens): bots take the empty seats
  (`seating.fill`).
- **grace** (per seat, `grace_seconds` after its owner's last connection closed, or after a
  restart or start without him): a bot plays the seat until he is back
  (`seating.grace_over`).
- **move** (`move_seconds` after the game waited for a human, keyed by that `seq`; the first
  move after a finished deal `READING_SECONDS` more, to read its result): if the game is
  still there, the timeout bot takes the seat and makes the move (`moves.out_of_time`); its
  owner takes the seat back with a `join`. The table's creator chooses `move_seconds` among
  `MOVE_CLOCKS`.
"""

from typing import Final

from server.core.batch import Batch
from server.core.commands import TimerKey
from server.core.effects import StartTimer
from server.core.state import TableState

__all__ = [
    "FILL",
    "GRACE",
    "MOVE",
    "MOVE_CLOCKS",
    "READING_SECONDS",
    "fill",
    "grace",
    "move",
    "time_absent",
]

FILL: Final = "fill"
GRACE: Final = "grace"
MOVE: Final = "move"
MOVE_CLOCKS: Final = (0, 20, 40, 120)  # the move times a table may have (0: no clock)
READING_SECONDS: Final = 15  # added to the first move after a deal: its result is shown


def fill(table: TableState) -> StartTimer | None:
    """The fill timer of a table waiting for players, if it has one."""
    after = table.config.fill_bots_after
    if table.status != "waiting" or after is None:
        return None
    return StartTimer((FILL,), after)


def grace(table: TableState, seat: int) -> StartTimer:
    return StartTimer((GRACE, seat), table.config.grace_seconds)


def move(table: TableState, *, after_deal: bool = False) -> StartTimer:
    """Time the humans the game waits for now (`after_deal`: a deal just ended)."""
    key: TimerKey = (MOVE, table.game_seq)
    return StartTimer(key, table.config.move_seconds + (READING_SECONDS if after_deal else 0))


def time_absent(batch: Batch) -> None:
    """Grace timers for human seats nobody is connected to (after a restart, at the start of
    a list filled by bots)."""
    table = batch.table
    present = {v.seat for v in (*batch.viewers.values(), *batch.attach.values())}
    for seat, player in enumerate(table.seats):
        if player is not None and player.bot is None and seat not in present | table.away:
            batch.later(grace(table, seat))
