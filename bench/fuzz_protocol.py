"""Protocol fuzzing against a real server: many generated frames, no crash, no state change.

A victim plays a private Skat table (invite code) with two bots and stops when it is on turn,
so the table waits for it and its `seq` must not move. An attacker, a guest on its own
connection, then sends `frames` generated frames of these kinds, each checked against the
code it must get:

* garbage text (`bad_json`), binary frames (`bad_frame`), oversized frames (close 1009, then
  a new connection);
* JSON of the wrong shape: unknown types, missing or mistyped fields (`bad_request`);
* requests aimed at the victim's table: acts with any seq and action, its seat, chat, leave,
  resume, watch or join without or with a wrong invite (`not_seated`, `not_at_table`,
  `bad_invite`, `seat_taken`, ... : any documented code, never a success);
* the victim's own earlier `act` frames replayed on the attacker's connection (`not_seated`),
  and acts with a seq other than the current one on the victim's own connection (`stale_seq`);
* `hello` with forged session tokens on the attacker's welcomed connection (`already_welcomed`:
  a second hello is refused before its token is looked at; a forged token on a new
  connection gets `bad_token`, tests/server/test_input.py), and out-of-order requests on a
  connection that has not said hello (`hello_required`);
* JSON nested 1,000 to 5,000 levels deep anywhere in a request, still under the frame limit
  (`bad_json` or `bad_request`); a control character (NUL, a line break, an escape, U+0085)
  in any string a request carries (`bad_request`); a number just past its range, or far past
  it (`bad_request`; a game's rules: `bad_rules`).

Afterwards: the server still answers, the victim's table is at the same `seq` with the same
hand, the attacker never received an event, snapshot or view of the victim's table, every
error code is one that docs/protocol.md lists, and each kind got the code it must get.

    python -m bench.fuzz_protocol --frames 100000 --seed 1
"""

import argparse
import asyncio
import json
import random
import re
import string
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server import protocol

PROTOCOL_DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"
SHAPE_TYPES = [
    "hello",
    "register",
    "login",
    "rename",
    "create_table",
    "join",
    "leave",
    "watch",
    "add_bot",
    "act",
    "chat",
    "resume",
    "nope",
    "ACT",
]
BEFORE_HELLO = (
    {"type": "list_tables"},
    {"type": "list_games"},
    {"type": "join", "table": "abcdef"},
    {"type": "create_table", "game": "skat"},
    {"type": "act", "table": "abcdef", "seq": 1, "action": {"type": "pass"}},
)
MAX_FRAME = 16 * 1024
REPLY_TIMEOUT = 30.0
# What each kind of frame must get: an error with one of these codes, or a close code.
EXPECTED: dict[str, set[str]] = {
    "garbage": {"bad_json"},
    "binary": {"bad_frame"},
    "shape": {"bad_request"},
    "victim": {
        "bad_request",
        "not_seated",
        "not_at_table",
        "bad_invite",
        "seat_taken",
        "no_such_seat",
        "bad_seq",
        "stale_seq",
        "unknown_bot",
        "no_such_table",
        "already_started",
        "table_full",
    },
    "replay": {"not_seated"},
    "out_of_order": {"stale_seq"},
    "forged_token": {"already_welcomed"},
    "before_hello": {"hello_required"},
    "deep": {"bad_json", "bad_request"},
    "control": {"bad_request"},
    "range": {"bad_request", "bad_rules"},
}
CONTROL = "\x00\x01\x08\n\r\x1b\x7f\x85"
SAFE_INTEGER = 2**53 - 1
# Requests with one number past its range (the documented ranges of docs/protocol.md); "TABLE"
# is the victim's table.
OUT_OF_RANGE: tuple[tuple[str, dict[str, Any], str, list[Any]], ...] = (
    ("resume", {"table": "TABLE"}, "seq", [-1, 2**31, 10**20]),
    ("join", {"table": "TABLE"}, "seat", [-1, 8, 10**9]),
    ("create_table", {"game": "skat"}, "series_length", [0, 201, 10**12]),
    ("create_table", {"game": "skat"}, "fill_bots_after", [-0.5, 3600.5, 1e300]),
    ("hello", {}, "version", [-1, 1000, 10**15]),
    ("ping", {}, "id", [SAFE_INTEGER + 1, -SAFE_INTEGER - 1, 10**30]),
)
TICHU_RULES_OUT_OF_RANGE = (
    ("target_points", [0, 10_001, 10**20]),
    ("max_rounds", [0, 101, 10**15]),
)


def documented_codes() -> set[str]:
    """The error codes docs/protocol.md lists under Errors: the server's (its table's first
    column) and the engine's (the paragraph on moves the rules forbid)."""
    text = PROTOCOL_DOC.read_text()
    section = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    server = re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE)
    engine = section.split("Moves the rules forbid", 1)[1].split("\n\n", 1)[0]
    return set(server) | set(re.findall(r"`([a-z_]+)`", engine))


class Wire:
    """One connection: send a frame, get the reply to it (by id) or the close code."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.pushed: list[dict[str, Any]] = []

    async def reply(self, frame: str | bytes, request_id: int | None) -> dict[str, Any]:
        await self.ws.send(frame)
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), REPLY_TIMEOUT))
            if message["type"] in ("event", "snapshot"):
                self.pushed.append(message)
                continue
            if request_id is None or message.get("id") == request_id:
                return dict(message)
            self.pushed.append(message)


async def open_wire(port: int) -> Wire:
    return Wire(await connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22, proxy=None))


async def hello(wire: Wire, token: str | None = None) -> dict[str, Any]:
    return await wire.reply(json.dumps({"type": "hello", "id": 0, "version": 1, "token": token}), 0)


def random_json(rng: random.Random, depth: int = 0) -> Any:
    choice = rng.randrange(8 if depth < 2 else 5)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.choice([0, -1, 1, 2**63, rng.randrange(-1000, 1000), 1.5])
    if choice in (3, 4):
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(12)))
    if choice == 5:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "id", "table", "seq", "action", "card", "seat", "text", "token", "game"]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


class Fuzzer:
    def __init__(
        self, port: int, rng: random.Random, victim: dict[str, Any], victim_wire: Wire
    ) -> None:
        self.port = port
        self.victim_wire = victim_wire
        self.rng = rng
        self.victim = victim
        self.counts: Counter[str] = Counter()
        self.codes: Counter[tuple[str, str]] = Counter()  # (kind, code) -> frames
        self.wrong: list[tuple[str, Any]] = []
        self.leaks = 0
        self.ids = 0
        self.token = ""

    def _next_id(self) -> int:
        self.ids += 1
        return self.ids

    def _frame(self, kind: str) -> tuple[str | bytes, int | None]:
        rng, victim = self.rng, self.victim
        request_id = self._next_id()
        if kind == "garbage":
            text = "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 80)))
            return "{:" + text, None  # "{:" starts no valid JSON
        if kind == "binary":
            return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))), None
        if kind == "shape":
            body = random_json(rng)
            message = body if isinstance(body, dict) else {"value": body}
            message["type"] = rng.choice(SHAPE_TYPES)
            message["id"] = request_id
            # Every required field of these types, mistyped: the frame can never be valid.
            message.update(table=[1, 2], version="one", name=7, game=5)
            return json.dumps(message), request_id
        if kind == "victim":
            table = victim["table"]
            request = rng.choice(
                [
                    {"type": "act", "seq": rng.randrange(-2, 500), "action": random_json(rng)},
                    {"type": "act", "seq": victim["seq"], "action": rng.choice(victim["legal"])},
                    {"type": "join", "seat": rng.randrange(0, 3)},
                    {"type": "join", "invite": "wrong-" + str(rng.randrange(1000))},
                    {"type": "watch", "invite": None},
                    {"type": "chat", "text": "hello"},
                    {"type": "leave"},
                    {"type": "resume", "seq": rng.randrange(0, 50)},
                    {"type": "add_bot", "seat": rng.randrange(0, 3), "level": "random"},
                ]
            )
            return json.dumps({**request, "table": table, "id": request_id}), request_id
        if kind == "replay":
            frame = json.loads(rng.choice(victim["frames"]))
            frame["id"] = request_id
            return json.dumps(frame), request_id
        if kind == "deep":
            return self._deep(request_id), request_id
        if kind == "control":
            return self._control(request_id), request_id
        if kind == "range":
            return self._out_of_range(request_id), request_id
        if kind == "forged_token":
            token = "".join(rng.choice(string.ascii_letters) for _ in range(rng.randrange(1, 60)))
            return json.dumps(
                {"type": "hello", "id": request_id, "version": 1, "token": token}
            ), request_id
        raise ValueError(kind)

    def _deep(self, request_id: int) -> str:
        """A request with a field of JSON nested 1,000 levels or more (arrays or objects, up
        to what fits a frame), after its `type` or before it (then the decoder must skip it
        to find the tag and gives up: `bad_json` without the id)."""
        rng, table = self.rng, self.victim["table"]
        if rng.random() < 0.5:
            depth = rng.randrange(1000, 5000)
            nested = "[" * depth + "]" * depth
        else:
            depth = rng.randrange(1000, (MAX_FRAME - 300) // 6)
            nested = '{"a":' * depth + "1" + "}" * depth
        field = rng.choice(["action", "rules", "seq", "table", "text"])
        request = {"type": "act", "id": request_id, "table": table, "seq": self.victim["seq"]}
        if field == "rules":
            request = {"type": "create_table", "id": request_id, "game": "skat"}
        body = json.dumps(request)[1:-1]
        if rng.random() < 0.3:  # before the `type`: the decoder must skip it to find the tag
            return f'{{"{field}": {nested}, {body}}}'
        return f'{{{body}, "{field}": {nested}}}'

    def _control(self, request_id: int) -> str:
        """A valid request with a control character in one of its strings."""
        rng, victim = self.rng, self.victim
        char = rng.choice(CONTROL)
        table = victim["table"]
        where = rng.randrange(len(table) + 1)
        requests: list[dict[str, Any]] = [
            {"type": "watch", "table": table[:where] + char + table[where:]},
            {"type": "resume", "table": table + char, "seq": 0},
            {"type": "leaderboard", "game": "sk" + char + "at"},
            {"type": "create_table", "game": "skat", "bot_level": "random" + char},
            {"type": "create_table", "game": "skat", "rules": {"all_pass" + char: "ramsch"}},
            {"type": "watch_tournament", "tournament": "ab" + char},
            {"type": "chat", "table": table, "text": "hi" + char},
            {"type": "join", "table": table, "invite": "x" + char},
            {"type": "act", "table": table, "seq": victim["seq"],
             "action": {"type": "play", "card": "J" + char}},
            {"type": "login", "name": "anna", "password": "pass" + char + "word"},
        ]  # fmt: skip
        return json.dumps({**rng.choice(requests), "id": request_id})

    def _out_of_range(self, request_id: int) -> str:
        """A request with one number outside its documented range."""
        rng, table = self.rng, self.victim["table"]
        if rng.random() < 0.2:
            field, values = rng.choice(TICHU_RULES_OUT_OF_RANGE)
            rules = {field: rng.choice(values)}
            return json.dumps({"type": "create_table", "id": request_id, "game": "tichu",
                               "rules": rules})  # fmt: skip
        if rng.random() < 0.2:
            action = {"type": "bid", "value": rng.choice([-1, 1001, 10**18])}
            act = {"type": "act", "id": request_id, "table": table, "seq": self.victim["seq"]}
            return json.dumps({**act, "action": action})
        kind, fields, name, values = rng.choice(OUT_OF_RANGE)
        known = {key: table if value == "TABLE" else value for key, value in fields.items()}
        request = {"type": kind, "id": request_id, **known, name: rng.choice(values)}
        return json.dumps(request)

    async def run(self, frames: int, on_progress: Callable[[int], None] | None = None) -> None:
        kinds = [
            *("garbage", "binary", "shape", "victim", "victim", "replay", "forged_token"),
            *("deep", "control", "range"),
        ]
        wire = await open_wire(self.port)
        self.token = (await hello(wire))["token"]
        fresh = await open_wire(self.port)  # a connection that never says hello
        for index in range(frames):
            roll = self.rng.random()
            if roll < 0.002:
                wire = await self._oversized(wire)
                continue
            if roll < 0.05:
                request = {**self.rng.choice(BEFORE_HELLO), "id": index}
                await self._check(fresh, "before_hello", json.dumps(request), index)
                continue
            if roll < 0.1:
                await self._check(self.victim_wire, "out_of_order", *self._stale_act())
                continue
            kind = self.rng.choice(kinds)
            frame, request_id = self._frame(kind)
            await self._check(wire, kind, frame, request_id)
            if on_progress is not None and index % 1000 == 0:
                on_progress(index)
        self._audit(wire)
        self._audit(fresh)

    def _stale_act(self) -> tuple[str, int]:
        """The victim's own legal action with any seq but the current one."""
        request_id = self._next_id()
        seq = self.victim["seq"] + self.rng.choice([-3, -2, -1, 1, 2, 50])
        action = self.rng.choice(self.victim["legal"])
        message = {"type": "act", "id": request_id, "table": self.victim["table"], "seq": seq}
        return json.dumps({**message, "action": action}), request_id

    async def _check(
        self, wire: Wire, kind: str, frame: str | bytes, request_id: int | None
    ) -> None:
        self.counts[kind] += 1
        if kind in ("deep", "range"):
            request_id = _answered_id(frame)
        reply = await wire.reply(frame, request_id)
        code = reply.get("code", reply["type"])
        self.codes[kind, code] += 1
        if reply["type"] != "error" or code not in EXPECTED[kind]:
            self.wrong.append((kind, reply))

    async def _oversized(self, wire: Wire) -> Wire:
        self.counts["oversized"] += 1
        try:
            await wire.ws.send("x" * (MAX_FRAME + 1 + self.rng.randrange(1000)))
            await asyncio.wait_for(wire.ws.wait_closed(), REPLY_TIMEOUT)
        except ConnectionClosed:
            pass
        if wire.ws.close_code != 1009:
            self.wrong.append(("oversized", wire.ws.close_code))
        self._audit(wire)
        fresh = await open_wire(self.port)
        await hello(fresh, self.token)  # the same guest again: no new one per reconnect
        return fresh

    def _audit(self, wire: Wire) -> None:
        self.leaks += sum(1 for m in wire.pushed if _table_of(m) == self.victim["table"])


def _answered_id(frame: str | bytes) -> Any:
    """The `id` the server's error repeats: none for a frame that is no JSON to it (nested
    deeper than its decoder goes before the `type`), else the `id` if it is a valid one (a
    request the edge lets through, such as rules out of the game's range, keeps its own)."""
    try:
        return protocol.decode_request(frame).id
    except msgspec.ValidationError:
        return protocol.request_id(frame)
    except msgspec.DecodeError:
        return None


def _table_of(message: dict[str, Any]) -> Any:
    table = message.get("table")
    return table.get("id") if isinstance(table, dict) else table


async def victim_waiting(port: int) -> tuple[Wire, dict[str, Any]]:
    """A private Skat table whose human (seat 0) is on turn: the table waits for it."""
    wire = await open_wire(port)
    await hello(wire)
    sent: list[str] = []
    created = await wire.reply(
        json.dumps({"type": "create_table", "id": 1, "game": "skat", "private": True}), 1
    )
    table, invite = created["table"]["id"], created["invite"]
    await wire.reply(json.dumps({"type": "join", "id": 2, "table": table, "invite": invite}), 2)
    for seat, request_id in ((1, 3), (2, 4)):
        message = {"type": "add_bot", "id": request_id, "table": table, "seat": seat}
        await wire.reply(json.dumps({**message, "level": "random"}), request_id)
    rng = random.Random(0)
    request_id = 10
    while True:
        views = [m for m in wire.pushed if m.get("view")]
        view, seq = (views[-1]["view"], views[-1]["seq"]) if views else (None, 0)
        if view is not None and view["to_move"] == 0 and len(sent) >= 2:
            return wire, {
                "table": table,
                "seq": seq,
                "view": view,
                "frames": sent,
                "legal": view["legal"],
            }
        if view is not None and view["to_move"] == 0:
            request_id += 1
            frame = json.dumps(
                {
                    "type": "act",
                    "id": request_id,
                    "table": table,
                    "seq": seq,
                    "action": rng.choice([a for a in view["legal"] if a["type"] != "resign"]),
                }
            )
            sent.append(frame)
            await wire.reply(frame, request_id)
            continue
        message = json.loads(await asyncio.wait_for(wire.ws.recv(), REPLY_TIMEOUT))
        wire.pushed.append(message)


async def fuzz(port: int, frames: int, seed: int, progress: bool = False) -> dict[str, Any]:
    """Run the fuzzer against the server on `port`; returns the report."""
    victim_wire, victim = await victim_waiting(port)
    fuzzer = Fuzzer(port, random.Random(seed), victim, victim_wire)
    started = time.perf_counter()
    await fuzzer.run(frames, (lambda i: print(f"  {i} frames", flush=True)) if progress else None)
    elapsed = time.perf_counter() - started
    request_id = 99_999
    after = await victim_wire.reply(
        json.dumps({"type": "resume", "id": request_id, "table": victim["table"], "seq": 0}),
        request_id,
    )
    snapshot_views = [m for m in victim_wire.pushed if m.get("view")]
    final = snapshot_views[-1]
    alive = await victim_wire.reply(json.dumps({"type": "ping", "id": 100_000}), 100_000)
    answered = {code for _, code in fuzzer.codes}
    undocumented = sorted(answered - documented_codes() - {"ok", "welcome", "pong"})
    return {
        "frames": sum(fuzzer.counts.values()),
        "by_kind": dict(fuzzer.counts),
        "codes": {
            kind: {code: n for (k, code), n in sorted(fuzzer.codes.items()) if k == kind}
            for kind in sorted(fuzzer.counts)
        },
        "wrong_answers": len(fuzzer.wrong),
        "examples_of_wrong": [repr(w)[:200] for w in fuzzer.wrong[:5]],
        "undocumented_codes": undocumented,
        "leaked_messages": fuzzer.leaks,
        "victim_seq_unchanged": final["seq"] == victim["seq"] and after["type"] == "ok",
        "victim_hand_unchanged": final["view"]["hand"] == victim["view"]["hand"],
        "server_alive": alive["type"] == "pong",
        "frames_per_second": round(sum(fuzzer.counts.values()) / elapsed),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="protocol fuzzing against a real server")
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from bench.kill_resume import free_port, start_server, wait_ready

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        unlimited = {"TISCHRUNDE_RATE_PER_SECOND": "1e9", "TISCHRUNDE_RATE_BURST": "1e9"}
        db = f"sqlite+aiosqlite:///{folder}/fuzz.db"
        server = start_server(db, port, Path(folder), unlimited)
        try:
            wait_ready(port, server)
            report = asyncio.run(fuzz(port, args.frames, args.seed, progress=True))
            report["server_crashed"] = server.poll() is not None
        finally:
            server.kill()
            server.wait()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
