"""An external Skat bot: a program that plays at a Tischrunde table over the WebSocket protocol.

It is a normal client (docs/protocol.md) that says `"bot": true` in its `hello`, so its seat
shows as a bot and its ratings count as a bot's. It needs only the `websockets` package and
plays a random legal move whenever the server's view says it is on turn. Replace `choose`
with your own strategy.

    python examples/random_skat_bot.py --url ws://127.0.0.1:8765/ws --create --deals 3
    python examples/random_skat_bot.py --url ws://127.0.0.1:8765/ws --table Xb3k9QaZ

With `--create` it opens a table, sits at seat 0 and seats server bots (`--opponents`) on the
other seats; with `--table` it takes a free seat at an existing table. It prints the list's
standings as JSON when the list ends.
"""

import argparse
import asyncio
import itertools
import json
import random
import sys
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

SKIPPED = ("resign", "kontra", "re")  # legal, but a random bot should not concede or double


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The move to make: `view` is the seat's observation (`legal` its legal actions)."""
    moves = [a for a in view["legal"] if a["type"] not in SKIPPED] or view["legal"]
    return rng.choice(moves)


class Bot:
    """One connection: requests with ids, and the table's latest view and seq."""

    def __init__(self, ws: ClientConnection, seed: int) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.rng = random.Random(seed)
        self.table = ""
        self.seat = -1
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.standings: list[dict[str, Any]] | None = None

    async def request(self, type_: str, **fields: Any) -> dict[str, Any]:
        """Send a request and read until its reply; pushes that arrive meanwhile are kept."""
        request_id = next(self.ids)
        await self.ws.send(json.dumps({"type": type_, "id": request_id, **fields}))
        while True:
            message = json.loads(await self.ws.recv())
            self.note(message)  # protocol v2: the event of our own move is also its answer
            if message.get("id") == request_id:
                if message["type"] == "error" and type_ != "act":
                    raise RuntimeError(f"{type_}: {message['code']}: {message['message']}")
                return message

    def note(self, message: dict[str, Any]) -> None:
        """Remember the seq and view of a table push, and the standings at the list end (which
        may arrive while a request waits for its reply)."""
        table = message.get("table")
        table_id = table.get("id") if isinstance(table, dict) else table
        if table_id != self.table or "seq" not in message:
            return
        self.seq = message["seq"]
        if message.get("view") is not None:
            self.view = message["view"]
        event = message.get("event") or {}
        if event.get("kind") == "series_end":
            self.standings = event["standings"]

    async def play(self) -> list[dict[str, Any]]:
        """Play until the list ends; returns its standings."""
        while self.standings is None:
            view = self.view
            if view is not None and view.get("to_move") == self.seat and view["phase"] != "over":
                self.view = None  # act once per view; the next event brings a new one
                await self.request(
                    "act", table=self.table, seq=self.seq, action=choose(view, self.rng)
                )
                continue  # an error (e.g. stale_seq) just waits for the next view
            self.note(json.loads(await self.ws.recv()))
        return self.standings


async def main(args: argparse.Namespace) -> int:
    async with connect(args.url) as ws:
        bot = Bot(ws, args.seed)
        await bot.request("hello", version=2, bot=True)
        if args.name:
            await bot.request("rename", name=args.name)
        if args.create:
            created = await bot.request("create_table", game="skat", series_length=args.deals)
            bot.table = created["table"]["id"]
            bot.seat = (await bot.request("join", table=bot.table, seat=0))["seat"]
            for seat in (1, 2):
                await bot.request("add_bot", table=bot.table, seat=seat, level=args.opponents)
        else:
            bot.table = args.table
            bot.seat = (await bot.request("join", table=bot.table))["seat"]
        standings = await bot.play()
    print(json.dumps({"table": bot.table, "seat": bot.seat, "standings": standings}))
    return 0


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A random Skat bot for a Tischrunde server.")
    parser.add_argument("--url", default="ws://127.0.0.1:8765/ws", help="the server's WebSocket")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="join this table")
    where.add_argument("--create", action="store_true", help="open a table with server bots")
    parser.add_argument("--deals", type=int, default=3, help="list length with --create")
    parser.add_argument("--opponents", default="random", help="server bot level with --create")
    parser.add_argument("--name", help="the name others see (default: the guest name)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random choices")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse(sys.argv[1:]))))
