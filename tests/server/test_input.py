"""Every error code over the wire; malformed or abusive input leaves server and games intact."""

import asyncio
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.app import App
from tests.server.client import Client, play
from tests.server.test_play import open_table


async def test_requests_before_hello_and_bad_versions_and_tokens_are_refused(app: App) -> None:
    client = await Client.open(app.port, hello=False)
    assert (await client.request("list_tables"))["code"] == "hello_required"
    assert (await client.request("hello", version=99))["code"] == "unsupported_version"
    assert (await client.request("hello", version=1, token="forged"))["code"] == "bad_token"
    assert (await client.request("ping"))["type"] == "pong"


async def test_malformed_frames_get_stable_error_codes(app: App) -> None:
    client = await Client.open(app.port)
    await client.ws.send("{not json")
    await client.ws.send(json.dumps({"type": "no_such_request", "id": 5}))
    await client.ws.send(json.dumps({"type": "join", "id": 6, "table": 12}))
    await client.ws.send(b"\x00binary")
    errors = [await client.wait_for(lambda m, i=i: m["type"] == "error", i) for i in range(4)]
    assert [e["code"] for e in errors] == ["bad_json", "bad_request", "bad_request", "bad_frame"]
    assert errors[2]["id"] == 6


async def test_table_errors_carry_their_codes(app: App) -> None:
    host, other = await Client.open(app.port), await Client.open(app.port)
    assert (await host.request("join", table="missing"))["code"] == "no_such_table"
    assert (await host.request("create_table", game="chess"))["code"] == "unknown_game"
    bad_rules = await host.request("create_table", game="skat", rules={"players": 5})
    assert bad_rules["code"] == "bad_rules"
    bad_bot = await host.request("create_table", game="skat", bot_level="strong:oracle")
    assert bad_bot["code"] == "unknown_bot"
    await host.ok("create_table", game="skat", bot_level="strong:lms")
    table = await open_table(app, host, series_length=1)
    assert (await host.request("act", table=table, seq=0, action={"type": "pass"}))[
        "code"
    ] == "not_seated"
    assert (await host.request("chat", table=table, text="hi"))["code"] == "not_at_table"
    assert (await host.request("leave", table=table))["code"] == "not_at_table"
    await host.ok("join", table=table, seat=0)
    assert (await other.request("join", table=table, seat=0))["code"] == "seat_taken"
    assert (await other.request("join", table=table, seat=5))["code"] == "no_such_seat"
    assert (await host.request("add_bot", table=table, seat=0))["code"] == "seat_taken"
    assert (await host.request("act", table=table, seq=0, action={"type": "pass"}))[
        "code"
    ] == "not_playing"
    await host.ok("add_bot", table=table, seat=1)
    await other.ok("join", table=table, seat=2)
    assert (await other.request("resume", table=table, seq=10_000))["code"] == "bad_seq"
    view = host.latest_view(table) or {}
    seq = host.last_seq(table)
    # Seat 0 is forehand and answers middlehand's bid; seat 2 may not move.
    wrong = await other.request("act", table=table, seq=seq, action={"type": "pass"})
    assert wrong["code"] in ("not_your_turn", "stale_seq")
    stale = await host.request("act", table=table, seq=1, action={"type": "pass"})
    assert stale["code"] == "stale_seq"
    illegal = await host.request(
        "act", table=table, seq=host.last_seq(table), action={"type": "play", "card": "JC"}
    )
    assert illegal["code"] in ("wrong_phase", "not_your_turn")
    bad = await host.request("act", table=table, seq=host.last_seq(table), action={"type": "x"})
    assert bad["code"] == "bad_action"
    seq = host.last_seq(table)
    typo = {"type": "pass", "extra": 1}  # a field the action does not have: refused, not ignored
    assert (await host.request("act", table=table, seq=seq, action=typo))["code"] == "bad_action"
    await host.ok("resume", table=table, seq=seq)  # would send any event after `seq` first
    assert host.last_seq(table) == seq
    assert view  # the table still runs: finish the deal
    await play({0: host, 2: other}, table)


async def test_account_and_name_errors(app: App) -> None:
    client = await Client.open(app.port)
    assert (await client.request("register", name="guest-1", password="longenough"))[
        "code"
    ] == "name_taken"
    short = await client.request("register", name="bob", password="short")
    assert short["code"] == "bad_request"


async def test_huge_frames_close_only_that_connection(app: App) -> None:
    bystander = await Client.open(app.port)
    async with connect(f"ws://127.0.0.1:{app.port}/ws") as ws:
        await ws.send("x" * (app.settings.max_frame_bytes + 1))
        try:
            await asyncio.wait_for(ws.recv(), 5)
            raise AssertionError("the server answered a frame over the limit")
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1009
    assert (await bystander.request("ping"))["type"] == "pong"


async def test_a_flood_is_rate_limited_then_closed_with_1008(app: App) -> None:
    client = await Client.open(app.port)
    frame = json.dumps({"type": "ping"})
    try:
        for _ in range(int(app.settings.rate_burst + app.settings.abuse_limit) + 50):
            await client.ws.send(frame)
    except ConnectionClosed:
        pass
    await asyncio.wait_for(client.ws.wait_closed(), 10)
    assert client.ws.close_code == 1008
    assert any(m.get("code") == "rate_limited" for m in client.messages)
    other = await Client.open(app.port)
    assert (await other.request("ping"))["type"] == "pong"


async def test_every_request_refused_by_the_rate_limit_gets_its_own_id(app: App) -> None:
    """One reply per request, refusals included: a client can tell which ones to send again."""
    client = await Client.open(app.port)
    ids = list(range(1000, 1000 + int(app.settings.rate_burst) + 10))
    for request_id in ids:
        await client.send({"type": "ping", "id": request_id})
    await client.wait_for(lambda m: m.get("id") == ids[-1] and m["type"] == "error")
    replies = [json.loads(f) for f in client.frames if json.loads(f).get("id") in ids]
    assert sorted(r["id"] for r in replies) == ids
    refused = [r for r in replies if r["type"] == "error"]
    assert refused and all(r["code"] == "rate_limited" for r in refused)
    assert min(r["id"] for r in refused) >= ids[int(app.settings.rate_burst) - 1]  # burst passed


async def test_a_value_nested_too_deeply_is_refused_with_the_requests_id(app: App) -> None:
    """The id before the nested value, as clients write a request (`type` and `id` first)."""
    client = await Client.open(app.port)
    deep = "[" * 3000 + "]" * 3000
    await client.ws.send('{"type": "ping", "id": 12, "x": ' + '{"a": ' * 2000 + "1" + "}" * 2001)
    act = '{"type": "act", "id": 13, "table": "t", "seq": 1, "action": {"type": "play", "card": '
    await client.ws.send(act + deep + "}}")
    await client.ws.send('{"type": "create_table", "id": "x", "rules": {"players": ' + deep + "}}")
    errors = [await client.wait_for(lambda m, i=i: m["type"] == "error", i) for i in range(3)]
    assert [(e["id"], e["code"]) for e in errors] == [
        (12, "bad_request"),
        (13, "bad_request"),
        ("x", "bad_request"),
    ]
    assert (await client.request("ping"))["type"] == "pong"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
request_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "join", "act", "create_table", "chat", "resume", "watch"])},
    optional={
        "id": json_values,
        "table": json_values,
        "seq": json_values,
        "action": json_values,
        "rules": json_values,
        "version": json_values,
        "text": json_values,
    },
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    frames=st.lists(st.text(max_size=200) | request_like.map(json.dumps), min_size=1, max_size=8)
)
async def test_random_frames_never_break_the_server(app: App, frames: list[str]) -> None:
    client = await Client.open(app.port)
    for frame in frames:
        await client.ws.send(frame)
    assert (await client.request("ping"))["type"] == "pong"
    assert all(isinstance(m, dict) and "type" in m for m in client.messages)
    assert not any(table.broken for table in app.lobby.tables.values())
    await client.close()
