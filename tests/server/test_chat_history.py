"""A table keeps its recent chat (issue 18, bug 7): a snapshot repeats the last lines, so the
conversation survives a reload and, folded again from the stored events, a restart. A
private table's chat reaches only those who may see the table (and never the bus:
test_privacy.py)."""

import random
from pathlib import Path

from server.app import running
from server.core.commands import Command, Join, Say, Watch
from server.core.state import CHAT_HISTORY
from server.core.table import TableCore
from server.events import Append, TableEvent
from server.games import SkatGame
from server.protocol import Snapshot
from tests.server.client import Client
from tests.server.conftest import server_settings
from tests.server.test_table_core import USERS, make_core, sent_to


def test_a_snapshot_repeats_the_last_chat_lines_and_so_does_a_restored_table() -> None:
    core = make_core()
    stored: list[tuple[int, TableEvent]] = []

    def handle(command: Command) -> None:
        for effect in core.handle(command):
            if isinstance(effect, Append):
                stored.extend(enumerate(effect.events, effect.first_seq))

    handle(Join(0, USERS[0], None, 0, None))
    for i in range(CHAT_HISTORY + 10):
        handle(Say(0, USERS[0], i, f"line {i}"))
    snapshot = sent_to(core.handle(Watch(7, USERS[1], 1, None)), 7)[-1]
    assert isinstance(snapshot, Snapshot) and snapshot.chat is not None
    assert [line.text for line in snapshot.chat] == [f"line {i}" for i in range(10, 60)]
    assert {(line.seat, line.name) for line in snapshot.chat} == {(0, USERS[0].name)}
    assert snapshot.chat[-1].seq == core.seq
    restored = TableCore(core.config, SkatGame(), random.Random(3), ["random"])
    restored.restore(stored)
    again = sent_to(restored.handle(Watch(9, USERS[2], 1, None)), 9)[-1]
    assert isinstance(again, Snapshot) and again.chat == snapshot.chat


def test_a_fresh_table_sends_no_chat() -> None:
    snapshot = sent_to(make_core().handle(Watch(7, USERS[1], 1, None)), 7)[-1]
    assert isinstance(snapshot, Snapshot) and snapshot.chat is None


async def test_the_chat_comes_back_after_a_reload_and_a_restart(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    async with running(settings) as app:
        host = await Client.open(app.port)
        created = await host.ok("create_table", game="skat", private=True)
        table, invite = created["table"]["id"], created["invite"]
        await host.ok("join", table=table, invite=invite)
        await host.ok("chat", table=table, text="Grüß euch")
        await host.ok("chat", table=table, text="wer spielt mit?")
        stranger = await Client.open(app.port)
        refused = await stranger.request("watch", table=table)
        assert refused["code"] == "bad_invite"
        assert not [m for m in stranger.messages if m["type"] in ("snapshot", "event")]
        token = host.token
    async with running(settings) as app:
        back = await Client.open(app.port, token=token)
        await back.ok("watch", table=table, invite=invite)
        snapshot = await back.wait_for(lambda m: m["type"] == "snapshot")
        chat = [(line["seat"], line["text"]) for line in snapshot["chat"]]
        assert chat == [(0, "Grüß euch"), (0, "wer spielt mit?")]
