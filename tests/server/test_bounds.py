"""Input at and past its limits: deep nesting, control characters, numbers at the ends of
their ranges. Each gets one clear answer, the same on SQLite and PostgreSQL, and leaves the
connection and the tables healthy."""

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

from server.app import App
from server.protocol.fields import MAX_SEQ, MAX_SERIES, SAFE_INTEGER
from tests.server.client import Client, bot_table, play

DEEP = 2000  # levels: deeper than Python's recursion limit, in a frame of at most 12 KiB


def http_status(app: App, path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{app.port}{path}") as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


async def ask(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    """The reply to `message` (its `type` and fields) as a request with an id."""
    fields = {key: value for key, value in message.items() if key != "type"}
    return await client.request(message["type"], **fields)


async def answer(client: Client, frame: str) -> dict[str, Any]:
    """The reply to a raw frame sent as is (an error without `id` for a frame that has none)."""
    start = len(client.messages)
    await client.ws.send(frame)
    return await client.wait_for(lambda m: m["type"] == "error", start)


async def test_json_nested_thousands_deep_gets_one_answer_and_the_table_plays_on(app: App) -> None:
    client = await Client.open(app.port)
    table, _ = await bot_table(client)
    await client.wait_for(lambda m: m.get("view") is not None)
    seq = client.last_seq(table)
    frames = [
        "[" * DEEP + "]" * DEEP,
        '{"id": ' + "[" * DEEP + "]" * DEEP + ', "type": "ping"}',
        f'{{"type": "act", "table": "{table}", "seq": {seq}, "action": '
        + '{"a":' * DEEP
        + "1"
        + "}" * DEEP
        + "}",
        '{"type": "create_table", "rules": ' + '{"a":' * DEEP + "1" + "}" * DEEP + "}",
        '{"type": "act", "id": 5, "action": ' + "[" * DEEP + "]" * DEEP + "}",
    ]
    for frame in frames:
        assert len(frame) < app.settings.max_frame_bytes
        reply = await answer(client, frame)
        assert reply["code"] in ("bad_json", "bad_request"), reply
    assert (await client.request("ping"))["type"] == "pong"
    assert not any(t.broken for t in app.lobby.tables.values())
    await play({0: client}, table)  # the table plays on, and so does the connection


NUL_REQUESTS: list[dict[str, Any]] = [
    {"type": "watch", "table": "ab\u0000cd"},
    {"type": "join", "table": "ab\u0000cd"},
    {"type": "resume", "table": "ab\u0000cd", "seq": 0},
    {"type": "join", "table": "abcd", "invite": "x\u0000"},
    {"type": "leaderboard", "game": "sk\u0000at"},
    {"type": "create_table", "game": "sk\u0000at"},
    {"type": "create_table", "game": "skat", "bot_level": "ran\u0000dom"},
    {"type": "create_table", "game": "skat", "rules": {"all_pass\u0000": "ramsch"}},
    {"type": "watch_tournament", "tournament": "ab\u0000"},
    {"type": "chat", "table": "abcd", "text": "hi\u0000there"},
    {"type": "chat", "table": "abcd", "text": "line\nbreak"},
    # A line break at the very end (Python's `$` would let it through).
    {"type": "watch", "table": "abcd\n"},
    {"type": "chat", "table": "abcd", "text": "hi\n"},
    {"type": "create_table", "game": "skat", "bot_level": "random\n"},
    {"type": "join", "table": "abcd", "invite": "x\n"},
    {"type": "login", "name": "anna", "password": "pass\u0000word"},
]


async def test_control_characters_are_refused_at_the_edge_alike_on_both_databases(
    any_db_app: App,
) -> None:
    app = any_db_app
    client = await Client.open(app.port)
    codes = [(await ask(client, request))["code"] for request in NUL_REQUESTS]
    assert codes == ["bad_request"] * len(NUL_REQUESTS)
    bad_id = await answer(client, json.dumps({"type": "ping", "id": "a\u0001"}))
    assert bad_id["code"] == "bad_request" and "id" not in bad_id
    hello = await Client.open(app.port, hello=False)
    assert (await hello.request("hello", version=1, token="tok\u0000en"))["code"] == "bad_request"
    for path, status in [
        ("/api/leaderboard?game=sk%00at", 400),
        ("/api/records/ab%00cd/0", 404),
        ("/api/records/abcd/%00", 404),
        ("/api/records/abcd/0?invite=%00", 404),
        ("/api/tournaments/ab%00", 404),
    ]:
        assert await asyncio.to_thread(http_status, app, path) == status, path
    assert (await client.request("ping"))["type"] == "pong"


async def test_every_number_is_bounded_and_its_bounds_are_accepted(app: App) -> None:
    client = await Client.open(app.port)

    async def code(**request: Any) -> str:
        reply = await ask(client, request)
        return str(reply.get("code", reply["type"]))

    async def frame_code(message: dict[str, Any]) -> str:
        return str((await answer(client, json.dumps(message)))["code"])

    create = {"type": "create_table", "game": "skat"}
    assert await code(**create, series_length=MAX_SERIES) == "table_created"
    assert await code(**create, series_length=MAX_SERIES + 1) == "bad_request"
    assert await code(**create, series_length=0) == "bad_request"
    assert await code(**create, fill_bots_after=3600) == "table_created"
    assert await code(**create, fill_bots_after=3600.5) == "bad_request"
    huge = '{"type": "create_table", "id": 0, "fill_bots_after": 1e999}'
    assert (await answer(client, huge))["code"] == "bad_request"
    tichu = {"type": "create_table", "game": "tichu"}
    assert await code(**tichu, rules={"target_points": 10_000}) == "table_created"
    assert await code(**tichu, rules={"target_points": 10_001}) == "bad_rules"
    assert await code(**tichu, rules={"target_points": 10**20}) == "bad_rules"
    assert await code(**tichu, rules={"target_points": 0}) == "bad_rules"
    assert await code(**tichu, rules={"max_rounds": 100}) == "table_created"
    assert await code(**tichu, rules={"max_rounds": 10**15}) == "bad_rules"

    table = (await client.ok("create_table", game="skat", series_length=1))["table"]["id"]
    assert await code(type="join", table=table, seat=7) == "no_such_seat"
    assert await code(type="join", table=table, seat=8) == "bad_request"
    assert await code(type="resume", table=table, seq=MAX_SEQ) == "bad_seq"
    assert await code(type="resume", table=table, seq=MAX_SEQ + 1) == "bad_request"
    await client.ok("join", table=table, seat=0)
    await client.ok("add_bot", table=table, seat=1)
    await client.ok("add_bot", table=table, seat=2)
    await client.wait_for(lambda m: m.get("view") is not None)
    seq = client.last_seq(table)
    act = {"type": "act", "table": table, "seq": seq}
    # A bid of 1000 reaches the engine (no such bid value, or not this seat's turn); 1001
    # never leaves the edge.
    engine_said = await code(**act, action={"type": "bid", "value": 1000})
    assert engine_said not in ("bad_request", "bad_action", "ok")
    assert await code(**act, action={"type": "bid", "value": 1001}) == "bad_request"

    for request_id in (SAFE_INTEGER, -SAFE_INTEGER):
        await client.ws.send(json.dumps({"type": "ping", "id": request_id}))
        pong = await client.wait_for(lambda m, i=request_id: m.get("id") == i)
        assert pong["type"] == "pong"
    assert await frame_code({"type": "ping", "id": SAFE_INTEGER + 1}) == "bad_request"
    assert await frame_code({"type": "hello", "id": 0, "version": 1000}) == "bad_request"
    fresh = await Client.open(app.port, hello=False)  # a second hello is already_welcomed
    assert (await fresh.request("hello", version=999))["code"] == "unsupported_version"
    assert await code(type="chat", table=table, text="x" * 500) == "ok"
    assert await code(type="chat", table=table, text="x" * 501) == "bad_request"
