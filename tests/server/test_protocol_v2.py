"""Protocol v2 (docs/protocol.md, "Versions"): a move is one frame per recipient, the mover's
event carrying its `act`'s id; v1 clients at the same table still get `ok` after the event."""

import json
from typing import Any

from server.app import App
from tests.server.client import Client, until


def frames_of(client: Client, table: str, seq: int, since: int = 0) -> list[dict[str, Any]]:
    """The frames `client` received from its `since`th on about `table` at `seq`, and every
    `ok` among them."""
    found = []
    for frame in client.frames[since:]:
        message = json.loads(frame)
        if message["type"] == "ok" or (message.get("table") == table and message.get("seq") == seq):
            found.append(message)
    return found


async def test_hello_says_the_version_and_others_are_refused(app: App) -> None:
    v2 = await Client.open(app.port, version=2)
    assert v2.user["guest"] is True
    v1 = await Client.open(app.port, hello=False)
    assert (await v1.request("hello", version=1))["version"] == 1
    for version in (0, 3):
        other = await Client.open(app.port, hello=False)
        reply = await other.request("hello", version=version)
        assert reply["code"] == "unsupported_version"
    again = await Client.open(app.port, hello=False)
    assert (await again.request("hello", version=2))["version"] == 2


async def test_a_v2_move_is_one_frame_per_recipient_and_v1_is_unchanged(app: App) -> None:
    forehand = await Client.open(app.port, version=2)
    middlehand = await Client.open(app.port, version=2)
    rearhand = await Client.open(app.port)  # v1
    spectator = await Client.open(app.port)
    table = (await forehand.ok("create_table", game="skat"))["table"]["id"]
    await spectator.ok("watch", table=table)
    for seat, client in enumerate((forehand, middlehand, rearhand)):
        await client.ok("join", table=table, seat=seat)
    # Middlehand's second device (v1, a session of its own) follows the table too.
    await middlehand.ok("register", name="mitte", password="correct horse")
    phone = await Client.open(app.port)
    await phone.ok("login", name="mitte", password="correct horse")
    await phone.ok("resume", table=table, seq=0)
    await until(lambda: (middlehand.latest_view(table) or {}).get("to_move") == 1)
    seq = middlehand.last_seq(table)
    everybody = (forehand, middlehand, rearhand, spectator, phone)
    since = {id(c): len(c.frames) for c in everybody}

    def after(client: Client, at: int) -> list[dict[str, Any]]:
        return frames_of(client, table, at, since[id(client)])

    answer = await middlehand.request("act", table=table, seq=seq, action={"type": "pass"})
    assert answer["type"] == "event" and answer["seq"] == seq + 1
    assert answer["event"] == {"kind": "move", "seat": 1, "action": {"type": "pass"}}
    assert answer["view"]["seat"] == 1
    await until(lambda: all(after(c, seq + 1) for c in everybody))
    assert after(middlehand, seq + 1) == [answer]  # the answer, and no `ok`
    for other in (forehand, rearhand, spectator, phone):
        [event] = after(other, seq + 1)
        assert event["id"] is None and event["event"] == answer["event"]

    # A v1 mover: the event (no id), then `ok` with the request's id, as before.
    await until(lambda: (rearhand.latest_view(table) or {}).get("to_move") == 2)
    bid = {"type": "bid", "value": 18}
    reply = await rearhand.request("act", table=table, seq=seq + 1, action=bid)
    assert reply["type"] == "ok"
    event, ok = after(rearhand, seq + 2)
    assert event["type"] == "event" and event["id"] is None and ok == reply
    [seen] = after(middlehand, seq + 2)
    assert seen["id"] is None and seen["event"]["action"] == bid
