"""The group commit on SQLite (its writer's thread gathers): appends of several tables share a
commit and each is durable when `append` returns, a busy writer gathers longer, a bad append
fails alone, an append after the writer found nothing to do is still committed, `close`
commits what is queued, and an append fails with the error instead of waiting when the writer
cannot connect (and `close` does not wait for its next attempt)."""

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
from sqlalchemy import Connection, select
from sqlalchemy.exc import IntegrityError, OperationalError

from server.events import Append, Moved
from server.store import group_commit, writer
from server.store.db import Store
from server.store.migrate import upgrade
from server.store.models import game_events

MOVE = Moved(0, msgspec.Raw(b'"CJ"'))
TABLES = ("a", "b", "c", "d")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    url = f"sqlite+aiosqlite:///{tmp_path}/group.db"
    await asyncio.to_thread(upgrade, url)
    store = Store.connect(url, node="here")
    store.start()
    for table_id in TABLES:
        await store.create_table(table_id, "skat", {}, lease={"owner": "here"})
    yield store
    await store.close()


async def stored(store: Store) -> set[tuple[str, int]]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(select(game_events.c.table_id, game_events.c.seq))
        return {(row.table_id, row.seq) for row in rows}


async def test_appends_of_several_tables_share_a_commit_and_are_durable_on_return(
    store: Store,
) -> None:
    for seq in (1, 2, 3):
        await asyncio.gather(*(store.append(t, Append(seq, (MOVE,))) for t in TABLES))
        assert {(t, seq) for t in TABLES} <= await stored(store)
    assert 0 < store.commits <= 3


async def test_the_writer_gathers_longer_while_commits_carry_many_appends(store: Store) -> None:
    assert len(TABLES) >= group_commit.BUSY_APPENDS
    await asyncio.gather(*(store.append(t, Append(1, (MOVE,))) for t in TABLES))
    assert store._writer.window == group_commit.BUSY_GROUP_SECONDS
    await store.append("a", Append(2, (MOVE,)))  # one append alone: quiet again
    assert store._writer.window == group_commit.GROUP_SECONDS
    assert {(t, 1) for t in TABLES} | {("a", 2)} == await stored(store)


async def test_a_bad_append_fails_alone(store: Store) -> None:
    await store.append("a", Append(1, (MOVE,)))
    outcomes = await asyncio.gather(
        store.append("a", Append(1, (MOVE,))),  # seq 1 again
        store.append("b", Append(1, (MOVE,))),
        store.append("c", Append(1, (MOVE,))),
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], IntegrityError)
    assert outcomes[1:] == [None, None]
    assert await stored(store) == {("a", 1), ("b", 1), ("c", 1)}


async def test_an_append_after_an_idle_spell_is_committed(store: Store) -> None:
    await store.append("a", Append(1, (MOVE,)))
    await asyncio.sleep(5 * group_commit.GROUP_SECONDS)  # the writer found nothing: it waits
    await asyncio.wait_for(store.append("a", Append(2, (MOVE,))), timeout=5)
    assert await stored(store) == {("a", 1), ("a", 2)}


async def test_no_takeover_commits_between_the_fence_and_the_events(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writer's transaction holds SQLite's write lock from its start: another process
    taking the table over right after the fence read "ours" must wait for the commit
    (here it gives up at once), so no event lands after a new owner loaded the table."""
    fence = writer._fence
    tried: list[str] = []

    def fence_then_take_over(conn: Connection, node: str | None, table_ids: set[str]) -> None:
        fence(conn, node, table_ids)
        other = sqlite3.connect(tmp_path / "group.db", timeout=0.05)
        try:
            other.execute("UPDATE tables SET owner = 'there' WHERE id = 'a'")
            other.commit()
            tried.append("taken over")
        except sqlite3.OperationalError as error:
            tried.append(str(error))
        finally:
            other.close()

    monkeypatch.setattr(writer, "_fence", fence_then_take_over)
    await store.append("a", Append(1, (MOVE,)))
    assert tried == ["database is locked"]
    assert await stored(store) == {("a", 1)}


async def test_close_commits_what_is_queued(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/close.db"
    await asyncio.to_thread(upgrade, url)
    store = Store.connect(url, node="here")
    store.start()
    await store.create_table("a", "skat", {}, lease={"owner": "here"})
    pending = [asyncio.ensure_future(store.append("a", Append(seq, (MOVE,)))) for seq in (1, 2)]
    await asyncio.sleep(0)  # both queued
    await store.close()
    await asyncio.gather(*pending)
    reopened = Store.connect(url)
    try:
        assert await stored(reopened) == {("a", 1), ("a", 2)}
    finally:
        await reopened.close()


async def test_an_append_fails_instead_of_waiting_when_the_writer_cannot_connect(
    tmp_path: Path,
) -> None:
    store = Store.connect(f"sqlite+aiosqlite:///{tmp_path}/missing/folder/x.db")
    store.start()
    try:
        for seq in (1, 2):  # the writer keeps trying: a later append fails the same way
            with pytest.raises(OperationalError):
                await asyncio.wait_for(store.append("a", Append(seq, (MOVE,))), timeout=10)
    finally:
        await asyncio.wait_for(store.close(), timeout=10)


async def test_close_does_not_wait_out_the_writers_pause_before_it_connects_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(group_commit, "RESTART_SECONDS", 3600.0)
    store = Store.connect(f"sqlite+aiosqlite:///{tmp_path}/missing/folder/x.db")
    pending = asyncio.ensure_future(store.append("a", Append(1, (MOVE,))))
    await asyncio.sleep(0)  # queued before the writer's first attempt, which fails it
    store.start()
    with pytest.raises(OperationalError):
        await asyncio.wait_for(pending, timeout=10)
    # The writer now pauses an hour before it connects again; `close` ends the pause.
    await asyncio.wait_for(store.close(), timeout=10)
