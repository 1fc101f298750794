"""Every example of docs/protocol.md, replayed against real servers.

The document's examples tell one story: guests and an account at a private Skat table played
to a claim, a Tichu table with bots through the exchange, a tournament, a reconnect, errors.
Each request example is sent as written by the client the story gives it (`STEPS`, by the
example's `id`), with only the placeholders filled in (table ids, invite, tokens, tournament
id, and a `seq` where the step says the client's last one); what the document shows after it
with the same `id` must be what the server answers: the same type and error code, the same
fields (a `view` may be shortened in the document), values of the same JSON type. Every other
example (events, snapshots, pushed errors) must match a message some client received, except
the few the story cannot provoke (`UNSEEN`).

A few things happen around the examples that the document does not show (another player's
bids, the table filled): `STEPS` says which, before the example they prepare.
"""

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.tichu.cards import ALL_CARDS, format_cards
from engine.tichu.deal import parse_deal
from engine.tichu.state import new_game
from server import protocol
from server.app import App, running
from server.store.db import Store
from server.tournament.runner import create
from tests.server.client import PATIENCE, Client, table_of, until
from tests.server.conftest import server_settings
from tests.server.protocol_examples import DOC, differences, examples, is_request, push_key
from tests.server.test_tournament import SKAT as SKAT_TOURNAMENT

SKAT, TICHU, INVITE, TOKEN, TOURNAMENT = (
    "Xb3k9QaZ",
    "Tq8c01xA",
    "h2Kd0q1L",
    "q0vT7mW2xLp9Zk",
    "3f9a01c2",
)
PEOPLE_TABLE = "Pv4nR2sE"  # the private table of the People section
VERAS_TABLE = "Vn5e2RtC"  # the table of the Versions section
REQUESTS = {str(t.__struct_config__.tag) for t in protocol.Request.__args__}  # type: ignore[attr-defined]
# Examples the story cannot provoke, by (type, kind or code), and why.
UNSEEN = {
    ("error", "moved"): "a table taken over while its clients were there (test_cluster.py)",
    ("clock", None): "the story's servers time no moves (test_move_clock.py)",
    ("session_moved", None): "the story's replaced session holds no seat (test_guard.py)",
}
# A deal's analysis, its first step loading the solver in the worker (compiling it, up to
# minutes on a loaded machine, when the numba cache is new or stale): the progress after that
# step is `analyze`'s first reply.
ANALYSIS_PATIENCE = 180.0
# Anna holds the cards of the exchange example (the rest of the deal is in a fixed order).
ANNAS_FIRST = ["2j", "3s", "Dragon", "4p", "5t", "6j", "7s", "8p"]


@dataclass
class Step:
    """Who sends a request example, and what happens first."""

    actor: str
    before: Callable[["Story"], Awaitable[None]] | None = None
    new_connection: bool = False  # a hello opens a connection of its own
    seq_back: int | None = None  # the example's seq becomes the actor's last one minus this
    second_process: bool = False
    check: Callable[["Story", Client, int], Awaitable[None] | None] | None = None
    patience: float = PATIENCE  # how long the first reply may take


class Story:
    """The servers, the clients by name and what the placeholders stand for."""

    def __init__(self, app: App, other: App) -> None:
        self.app = app
        self.other = other
        self.clients: dict[str, Client] = {}
        self.every_client: list[Client] = []
        self.tables = {SKAT: "", TICHU: "", PEOPLE_TABLE: "", VERAS_TABLE: ""}
        self.invite = ""
        self.tournament = ""
        self.first_ids: dict[str, int] = {}  # each actor's user id when he first said hello

    async def open(self, name: str, *, hello: bool = True, token: str | None = None,
                   app: App | None = None) -> Client:  # fmt: skip
        client = await Client.open((app or self.app).port, hello=hello, token=token)
        self.clients[name] = client
        self.every_client.append(client)
        if "id" in client.user:
            self.first_ids.setdefault(name, client.user["id"])
        return client

    async def client(self, name: str) -> Client:
        return self.clients.get(name) or await self.open(name)

    def view(self, name: str, table: str) -> dict[str, Any]:
        return self.clients[name].latest_view(self.tables[table]) or {}

    async def act(self, name: str, table: str, action: dict[str, Any]) -> None:
        client = self.clients[name]
        real = self.tables[table]
        await client.ok("act", table=real, seq=client.last_seq(real), action=action)

    async def turn(self, name: str, seat: int, table: str = SKAT) -> None:
        """Wait until `name`'s view says it is `seat`'s turn."""
        await until(lambda: self.view(name, table).get("to_move") == seat)

    def fill(self, value: Any, step: Step, client: Client) -> Any:
        """The placeholders of an example request replaced by what they stand for."""
        request = dict(value)
        if "table" in request:
            request["table"] = self.tables[request["table"]]
        if "invite" in request:
            request["invite"] = self.invite
        if "token" in request:
            request["token"] = self.clients[step.actor].token
        if "tournament" in request:
            request["tournament"] = self.tournament
        if "starts_at" in request:  # a tournament's start: from now to a week ahead
            request["starts_at"] = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        if step.seq_back is not None:
            request["seq"] = client.last_seq(request["table"]) - step.seq_back
        return request


async def ask(client: Client, request: dict[str, Any], patience: float) -> dict[str, Any]:
    """Send `request` as it is (with its own id) and return the reply with that id."""
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    client.replies[request["id"]] = future
    await client.send(request)
    try:
        return await asyncio.wait_for(future, patience)
    except TimeoutError:
        raise AssertionError(f"no reply to {request}") from None


# --- what happens around the examples -----------------------------------------------------


async def setup(story: Story) -> None:
    """Before the first example: a finished list of dora's (bots, and her seat taken over
    when she leaves) watched by a spectator, carl's public table waiting, and a tournament."""
    dora, watcher = await story.open("dora"), await story.open("watcher")
    table = (await dora.ok("create_table", game="skat", series_length=1))["table"]["id"]
    await watcher.ok("watch", table=table)
    await dora.ok("join", table=table, seat=0)
    await dora.ok("add_bot", table=table, seat=1)
    await dora.ok("add_bot", table=table, seat=2)
    await dora.close()  # her seat is taken over after the grace period; bots finish the list
    await watcher.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")
    carl = await story.open("carl")
    mine = (await carl.ok("create_table", game="skat"))["table"]["id"]
    await carl.ok("join", table=mine, seat=0)
    store = Store.connect(story.app.settings.db)
    try:
        story.tournament = await create(store, SKAT_TOURNAMENT)
    finally:
        await store.close()


async def vera_sits_with_bots(story: Story) -> None:
    """Vera (protocol v2) on seat 1, bots on 0 and 2: she bids first."""
    vera = story.clients["vera"]
    table = (await vera.ok("create_table", game="skat", series_length=1))["table"]["id"]
    story.tables[VERAS_TABLE] = table
    await vera.ok("join", table=table, seat=1)
    for seat in (0, 2):
        await vera.ok("add_bot", table=table, seat=seat)
    await story.turn("vera", 1, VERAS_TABLE)


async def anna_first(story: Story) -> None:
    await story.open("anna")


async def others_sit_and_bert_bids(story: Story) -> None:
    table, invite = story.tables[SKAT], story.invite
    carl = story.clients["carl"]
    await carl.ok("join", table=table, seat=2, invite=invite)
    await carl.ok("leave", table=table)  # before the list: the seat is free again
    await story.clients["bert"].ok("join", table=table, invite=invite)
    await carl.ok("join", table=table, seat=2, invite=invite)
    await story.turn("bert", 1)
    await story.act("bert", SKAT, {"type": "bid", "value": 18})
    await story.turn("anna", 0)


async def the_others_pass(story: Story) -> None:
    await story.turn("bert", 1)
    await story.act("bert", SKAT, {"type": "pass"})
    await story.turn("carl", 2)
    await story.act("carl", SKAT, {"type": "pass"})
    await story.turn("anna", 0)


async def anna_may_claim(story: Story) -> None:
    await until(lambda: {"type": "claim"} in story.view("anna", SKAT).get("legal", []))


async def the_defenders_accept(story: Story) -> None:
    for name, seat in (("bert", 1), ("carl", 2)):
        await story.turn(name, seat)
        await story.act(name, SKAT, {"type": "accept_claim"})
    await story.clients["anna"].wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")


async def annas_tichu_seat(story: Story) -> None:
    await story.clients["anna"].ok("join", table=story.tables[TICHU], seat=0)


async def the_other_bots(story: Story) -> None:
    """The match begins; the bots decide on Grand Tichu before anna (so nothing changes
    between her reading the seq and her move)."""
    for seat in (2, 3):
        await story.clients["anna"].ok("add_bot", table=story.tables[TICHU], seat=seat)
    await until(lambda: all(story.view("anna", TICHU).get("grand_tichu_decided", [0])[1:]))


async def the_bots_exchanged(story: Story) -> None:
    await until(lambda: all(story.view("anna", TICHU).get("exchanged", [0])[1:]))


async def anna_reconnects(story: Story) -> None:
    old = story.clients["anna"]
    back = await story.open("anna", token=old.token)
    back.messages[:0] = old.messages  # the same player: what she saw, she saw
    await asyncio.wait_for(old.ws.wait_closed(), PATIENCE)


async def anna_resumes_tichu(story: Story) -> None:
    """Her new connection resumes the other table she sits at too."""
    anna, table = story.clients["anna"], story.tables[TICHU]
    await anna.ok("resume", table=table, seq=anna.last_seq(table))


def only_ok(story: Story, client: Client, pushes_before: int) -> None:
    """`resume` at the current seq: the reply and nothing else (no event, no view)."""
    table = story.tables[SKAT]
    assert not [m for m in client.messages[pushes_before:] if table_of(m) == table]


def three_events_then_ok(story: Story, client: Client, pushes_before: int) -> None:
    table = story.tables[SKAT]
    events = [m for m in client.messages[pushes_before:] if table_of(m) == table]
    assert [m["type"] for m in events] == ["event"] * 3


def the_guest_became_the_account(story: Story, client: Client, pushes_before: int) -> None:
    """A guest who registers keeps his user id (his seats, games and ratings)."""
    assert client.user["guest"] is False and client.user["name"] == "Dörte"
    assert client.user["id"] == story.first_ids["doerte"]


async def the_analysis_follows(story: Story, client: Client, pushes_before: int) -> None:
    """After its progress, `analyze` ends with the analysis the document shows (shortened)."""
    [documented] = [e for e in examples() if e["type"] == "analysis"]

    async def arrived() -> dict[str, Any]:
        while True:
            for message in client.messages[pushes_before:]:
                if message.get("id") == 34 and message["type"] in ("analysis", "error"):
                    return message
            client.arrived.clear()
            await client.arrived.wait()

    final = await asyncio.wait_for(arrived(), ANALYSIS_PATIENCE)
    assert not differences(documented, final), differences(documented, final)


async def erika_and_fritz(story: Story) -> None:
    """Two accounts for the People section."""
    for name in ("erika", "fritz"):
        client = await story.open(name)
        client.user = (await client.ok("register", name=name, password="correct horse"))["user"]


async def fritz_sits_at_a_private_table(story: Story) -> None:
    fritz = story.clients["fritz"]
    created = await fritz.ok("create_table", game="skat", private=True)
    story.tables[PEOPLE_TABLE] = created["table"]["id"]
    await fritz.ok("join", table=created["table"]["id"], invite=created["invite"])


async def fritz_asks_again(story: Story) -> None:
    await story.clients["fritz"].ok("friend_request", name="erika")


async def erika_is_seated(story: Story, client: Client, pushes_before: int) -> None:
    await client.wait_for(lambda m: m["type"] == "tournament_seat", pushes_before)


STEPS: dict[int, Step] = {
    35: Step("vera", new_connection=True),
    36: Step("vera", vera_sits_with_bots, seq_back=0),
    1: Step("bert", setup, new_connection=True),
    2: Step("bert", new_connection=True),
    3: Step("program", new_connection=True),
    4: Step("bert"),
    5: Step("anna", anna_first),
    6: Step("phone"),
    7: Step("anna"),
    8: Step("anna"),
    9: Step("anna"),
    10: Step("anna"),
    11: Step("anna"),
    12: Step("program"),
    13: Step("program"),
    14: Step("program"),
    15: Step("anna"),
    16: Step("anna", others_sit_and_bert_bids, seq_back=0),
    17: Step("anna", the_others_pass, seq_back=0),
    18: Step("anna"),
    19: Step("anna", anna_may_claim, seq_back=0),
    20: Step("anna"),
    21: Step("anna", annas_tichu_seat),
    22: Step("anna", the_other_bots, seq_back=0),
    23: Step("anna", the_bots_exchanged, seq_back=0),
    24: Step("program"),
    25: Step("anna", anna_reconnects, seq_back=3, check=three_events_then_ok),
    26: Step("anna", seq_back=0, check=only_ok),
    27: Step("anna", anna_resumes_tichu),
    28: Step("carl", second_process=True),
    29: Step("anna", the_defenders_accept),
    30: Step("doerte"),
    31: Step("doerte"),
    32: Step("doerte", check=the_guest_became_the_account),
    33: Step("watcher"),
    34: Step("anna", check=the_analysis_follows, patience=ANALYSIS_PATIENCE),
    61: Step("erika", erika_and_fritz),
    62: Step("fritz"),
    63: Step("erika"),
    64: Step("fritz"),
    65: Step("fritz", fritz_sits_at_a_private_table),
    66: Step("erika"),
    67: Step("watcher"),
    68: Step("erika"),
    69: Step("erika"),
    70: Step("erika"),
    71: Step("erika", fritz_asks_again),
    72: Step("erika"),
    73: Step("erika"),
    81: Step("erika"),
    82: Step("fritz"),
    83: Step("erika"),
    90: Step("fritz"),
    84: Step("watcher"),
    85: Step("fritz"),
    86: Step("erika", check=erika_is_seated),
    87: Step("watcher"),
    88: Step("fritz"),
    89: Step("erika"),
}


# --- the replay -------------------------------------------------------------------------


def fixed_tichu_deal(app: App) -> None:
    """Anna's first eight cards hold those of the exchange example."""
    rest = [c for c in format_cards(ALL_CARDS) if c not in ANNAS_FIRST]
    first = [ANNAS_FIRST, rest[0:8], rest[8:16], rest[16:24]]
    second = [rest[24 + 6 * s : 30 + 6 * s] for s in range(4)]
    deal = parse_deal(first, second)
    game: Any = app.lobby.games["tichu"]
    game.deal = lambda rules, seed, number, results=(): game._dealt(
        new_game(rules, seed=seed, deal=deal)
    )


@asynccontextmanager
async def two_processes(tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    """Two server processes on one database (the second answers `moved`)."""
    async with AsyncExitStack() as stack:
        app = await stack.enter_async_context(running(server_settings(tmp_path)))
        other = await stack.enter_async_context(running(server_settings(tmp_path)))
        yield app, other


async def replay(story: Story) -> None:
    blocks = examples()
    for index, example in enumerate(blocks):
        if not is_request(example):
            continue
        step = STEPS.get(example["id"])
        assert step is not None, f"example id {example['id']} has no place in STEPS: add one"
        if step.before is not None:
            await step.before(story)
        if step.new_connection:  # a hello: a connection of its own, with the actor's token
            before = story.clients.get(step.actor)
            client = await story.open(step.actor, hello=False)
            client.token = before.token if before is not None else ""
        elif step.second_process:
            old = await story.client(step.actor)
            client = await story.open(step.actor, token=old.token, app=story.other)
        else:
            client = await story.client(step.actor)
        request = story.fill(example, step, client)
        pushes_before = len(client.messages)
        reply = await ask(client, request, step.patience)
        if reply["type"] == "welcome":
            client.user, client.token = reply["user"], reply["token"]
        if example["type"] == "create_tournament":  # a people's tournament from now on
            story.tournament = reply["tournament"]["id"]
        if reply["type"] == "table_created":
            story.tables[SKAT if reply["table"]["game"] == "skat" else TICHU] = reply["table"]["id"]
            story.invite = reply.get("invite") or story.invite
        documented = next(
            (b for b in blocks[index + 1 :] if not is_request(b) and b.get("id") == example["id"]),
            None,
        )
        if documented is None:
            assert reply["type"] != "error", (example, reply)
        else:
            assert not differences(documented, reply), (example, differences(documented, reply))
        if step.check is not None:
            checked = step.check(story, client, pushes_before)
            if checked is not None:
                await checked


async def test_every_example_of_the_protocol_document_is_what_the_server_does(
    tmp_path: Path,
) -> None:
    async with two_processes(tmp_path) as (app, other):
        fixed_tichu_deal(app)
        app.analyses.budget = (4, 4)  # the analysis example's shape, not its depth
        story = Story(app, other)
        await replay(story)
        received = [m for c in story.every_client for m in c.messages]
    requests = {e["id"] for e in examples() if is_request(e)}
    unmatched = []
    for example in examples():
        if is_request(example) or example.get("id") in requests:
            continue
        key = push_key(example)
        candidates = [m for m in received if push_key(m) == key]
        if not candidates and key in UNSEEN:
            continue
        if not any(not differences(example, m) for m in candidates):
            closest = min((differences(example, m) for m in candidates), key=len, default=None)
            unmatched.append((key, closest))
    assert not unmatched, unmatched


@pytest.mark.parametrize("game", ["skat", "tichu"])
def test_every_action_the_document_writes_is_one_of_the_game(game: str) -> None:
    """The actions in the text (not only in the examples) decode as the game's actions and
    name only the game's cards."""
    from server.games import all_games

    kind = all_games()[game]
    section = DOC.read_text()
    written = re.findall(r"`(\{\"type\": \"[a-z_]+\"[^`]*\})`", section)
    decoded = 0
    for text in written:
        try:
            action = json.loads(text)
        except json.JSONDecodeError:
            continue  # a sketch such as `{"type": "create_table", "rules": {...}}`
        if action["type"] in REQUESTS:
            continue
        try:
            kind.decode_action(text.encode())
        except msgspec.ValidationError:
            continue  # the other game's action
        decoded += 1
        for card in _cards(action):
            assert card in CARDS[game], (text, card)
    assert decoded >= 3


CARDS = {
    "skat": {r + s for r in "789TJQKA" for s in "CSHD"},
    "tichu": set(format_cards(ALL_CARDS)),
}


def _cards(action: dict[str, Any]) -> list[str]:
    cards = list(action.get("cards", []))
    cards += [action[k] for k in ("card", "left", "partner", "right") if k in action]
    return cards
