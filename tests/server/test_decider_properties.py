"""The table core as a decider, checked on random command sequences: `decide` never changes
the state or the `Live` it is given, and the table restored from the stored events (as the
store encodes them), or followed in batches of them, is the table that played them live
(docs/architecture.md, "The table core")."""

import copy
from dataclasses import replace

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.core.commands import (
    Act,
    AddBot,
    BotMoved,
    Command,
    Disconnect,
    Followed,
    Join,
    Leave,
    Reserve,
    Resume,
    Say,
    TimerFired,
    User,
    Watch,
)
from server.core.decide import decide, wake
from server.core.state import Live, TableConfig, TableState, new_table, restore
from server.events import Append, Player, TableEvent, decode_event, encode_event
from server.games import GameKind, SkatGame, TichuGame

USERS = [User(i + 1, f"player{i}") for i in range(5)]  # the last one only watches
KINDS = ("join", "watch", "bot", "act", "act", "act", "bot_move", "bot_move", "leave", "say")
KINDS += ("resume", "disconnect", "timer", "timer", "reserve", "junk")


def fresh(game: GameKind) -> TableState:
    config = TableConfig(
        "t1",
        game.name,
        {},
        False,
        None,
        series_length=2,
        created_by=USERS[0].id,
        fill_bots_after=1.0,
        move_seconds=20.0,
        grace_seconds=5.0,
        resume_window=8,
    )
    return new_table(config, game, 1234, ["random"])


def command(data: st.DataObject, table: TableState, live: Live) -> Command:
    """A command that may come now: mostly plausible ones (legal moves of the seats to act),
    some that the core must refuse."""
    kind = data.draw(st.sampled_from(KINDS))
    client = data.draw(st.integers(0, len(USERS) - 1))
    user = USERS[client]
    state = table.state
    acting = list(table.game.acting_seats(state)) if state is not None else []
    if kind in ("act", "bot_move") and acting:
        seat = data.draw(st.sampled_from(acting))
        action = data.draw(st.sampled_from(state.legal_actions(seat)))  # type: ignore[union-attr]
        player = table.seats[seat]
        if kind == "bot_move":
            return BotMoved(
                seat, table.game_seq, action, data.draw(st.sampled_from([None, {"n": 1}]))
            )
        owner = next((c for c, u in enumerate(USERS) if player and u.id == player.user_id), client)
        raw = msgspec.json.encode(action)
        return Act(owner, USERS[owner], 1, table.seq, raw, data.draw(st.booleans()))
    if kind == "join":
        return Join(client, user, 2, data.draw(st.none() | st.integers(0, 4)), None)
    if kind == "watch":
        return Watch(client, user, 3, None)
    if kind == "bot":
        return AddBot(client, user, 4, data.draw(st.integers(0, 3)), "random")
    if kind == "leave":
        return Leave(client, user, 5)
    if kind == "say":
        return Say(client, user, 6, data.draw(st.text(max_size=5)))
    if kind == "resume":
        return Resume(client, user, 7, data.draw(st.integers(0, table.seq + 1)))
    if kind == "disconnect":
        return Disconnect(client, data.draw(st.booleans()))
    if kind == "reserve":
        drawn = [Player(u.id, u.name) for u in USERS[:4]]
        return Reserve(tuple(data.draw(st.permutations(drawn))))
    if kind == "timer":
        seat = data.draw(st.integers(0, table.seat_count - 1))
        keys = [("fill",), ("grace", seat), ("move", table.game_seq)]
        return TimerFired(data.draw(st.sampled_from(keys)))
    return Act(client, user, 8, table.seq, b'{"type": "nonsense"}')


def unchanged(table: TableState, live: Live) -> tuple[TableState, Live]:
    """A deep copy (the game adapter shared: it has no state)."""
    return copy.deepcopy((table, live), {id(table.game): table.game})


def play(data: st.DataObject, game: GameKind) -> tuple[TableState, list[tuple[int, TableEvent]]]:
    """Play a random command sequence; every decision's input is checked to stay as it was.
    The stored events come back as the store would read them."""
    table, live = fresh(game), Live()
    stored: list[tuple[int, TableEvent]] = []
    decision = wake(table, live)
    table, live = decision.table, decision.live
    for _ in range(data.draw(st.integers(1, 60))):
        cmd = command(data, table, live)
        before = unchanged(table, live)
        decision = decide(table, live, cmd)
        assert (table, live) == before, f"decide changed its input on {cmd}"
        for effect in decision.effects:
            if isinstance(effect, Append):
                assert effect.events == decision.events and effect.first_seq == table.seq + 1
                stored += [
                    (effect.first_seq + i, decode_event(encode_event(event)))
                    for i, event in enumerate(effect.events)
                ]
        table, live = decision.table, decision.live
    assert table.seq == len(stored)
    return table, stored


GAMES = pytest.mark.parametrize("game", [SkatGame(), TichuGame()], ids=["skat", "tichu"])
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GAMES
@PROPERTY
@given(data=st.data())
def test_restoring_the_stored_events_gives_the_live_table(
    game: GameKind, data: st.DataObject
) -> None:
    live, stored = play(data, game)
    assert restore(fresh(game), stored) == live


@GAMES
@PROPERTY
@given(data=st.data())
def test_a_followed_table_fed_in_batches_is_the_live_table(
    game: GameKind, data: st.DataObject
) -> None:
    live, stored = play(data, game)
    table = fresh(game)
    follower = replace(table, config=replace(table.config, followed=True))
    size = data.draw(st.integers(1, 20))
    view = Live()
    for start in range(0, len(stored), size):
        chunk = tuple(stored[max(0, start - 2) : start + size])  # overlaps are skipped
        before = unchanged(follower, view)
        decision = decide(follower, view, Followed(chunk))
        assert (follower, view) == before
        assert decision.events == ()
        follower, view = decision.table, decision.live
    assert replace(follower, config=live.config) == live
