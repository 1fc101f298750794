"""Where a user is, as pure functions: from the tables his connections sit or watch at, the
place others see (docs/protocol.md, "People").

A private table is never named: its players and spectators are `private`, whatever they do
there, so neither its id nor who is at it leaves the table through presence.
"""

from collections.abc import Iterable, Mapping

import msgspec

from server.protocol.social import Person, Place

__all__ = ["Seat", "best", "place_of"]

# The order in which one user's places win when he is at several tables or connected to
# several processes: a game he plays beats one he watches beats the lobby.
RANK: Mapping[Place, int] = {"offline": 0, "lobby": 1, "watching": 2, "private": 3, "playing": 4}


class Seat(msgspec.Struct, frozen=True):
    """A user at a table: `seated` (a player) or a spectator; `private`: the table is."""

    seated: bool
    private: bool


def place_of(tables: Mapping[str, Seat]) -> tuple[Place, str | None]:
    """The place of a connected user at `tables` (table id -> his seat there, in the order he
    took them), and the public table it names. Of equal places the latest wins: who sits down
    at a second table is seen at the new one, not at the one he left behind."""
    found: tuple[Place, str | None] = ("lobby", None)
    for table_id, seat in tables.items():
        if seat.private:
            here: tuple[Place, str | None] = ("private", None)
        else:
            here = ("playing" if seat.seated else "watching", table_id)
        if RANK[here[0]] >= RANK[found[0]]:
            found = here
    return found


def best(people: Iterable[Person]) -> Person | None:
    """The one place of a user seen on several processes: the highest ranked."""
    chosen: Person | None = None
    for person in people:
        if chosen is None or RANK[person.place] > RANK[chosen.place]:
            chosen = person
    return chosen
