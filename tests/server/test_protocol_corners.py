"""Corners of protocol v1 that a client written only from docs/protocol.md met (issue 27):
each answer here is the one the page promises."""

import asyncio

from bots.registry import SKAT_PLAYER_LEVELS, TICHU_POLICIES
from server.app import App
from tests.server.client import Client, bot_table, play
from tests.server.test_privacy import http_get


async def test_ping_needs_no_hello_and_a_second_hello_is_refused(app: App) -> None:
    """Session: `ping` answers before `hello` (a liveness check), every other request gets
    `hello_required`; one `hello` per connection (`already_welcomed`), the user unchanged."""
    client = await Client.open(app.port, hello=False)
    assert (await client.request("ping"))["type"] == "pong"
    assert (await client.request("list_tables"))["code"] == "hello_required"
    first = await client.ok("hello", version=1)
    other = await Client.open(app.port)
    again = await client.request("hello", version=1, token=other.token)
    assert again["type"] == "error" and again["code"] == "already_welcomed"
    # Whatever the second hello holds: a version this server does not speak, a forged token.
    for fields in ({"version": 3}, {"version": 2, "token": "forged"}):
        assert (await client.request("hello", **fields))["code"] == "already_welcomed"
    renamed = await client.ok("rename", name="bert")
    assert renamed["user"]["id"] == first["user"]["id"] and renamed["token"] == first["token"]


async def test_resuming_a_private_table_needs_a_seat_or_a_watch_with_the_invite(app: App) -> None:
    """`resume` has no `invite`: a stranger watches with the invite first, then resumes."""
    host, stranger = await Client.open(app.port), await Client.open(app.port)
    table, invite = await bot_table(host, private=True)
    refused = await stranger.request("resume", table=table, seq=0)
    assert refused["code"] == "bad_invite"
    await stranger.ok("watch", table=table, invite=invite)
    await stranger.ok("resume", table=table, seq=0)


async def test_leaving_during_the_list_seats_a_bot_with_a_seated_event(app: App) -> None:
    """Play: during a list a player who leaves is replaced by a bot, told as `seated`."""
    host, watcher = await Client.open(app.port), await Client.open(app.port)
    table, _ = await bot_table(host)
    await watcher.ok("watch", table=table)
    await host.wait_for(lambda m: m.get("event", {}).get("kind") == "deal")
    await host.ok("leave", table=table)
    seated = await watcher.wait_for(
        lambda m: m.get("event", {}).get("kind") == "seated" and m["event"]["seat"] == 0
    )
    assert seated["event"]["bot"] and seated["event"]["name"].startswith("bot:")


async def test_leaving_after_the_list_records_nothing(app: App) -> None:
    """Play: once the list is over a player who leaves only goes: no bot takes a seat."""
    host, watcher = await Client.open(app.port), await Client.open(app.port)
    table, _ = await bot_table(host)
    await watcher.ok("watch", table=table)
    await play({0: host}, table)
    await watcher.wait_for(lambda m: m.get("event", {}).get("kind") == "series_end")
    seq = host.last_seq(table)
    await host.ok("leave", table=table)
    await watcher.ok("resume", table=table, seq=seq)  # sends any event after `seq` first
    assert watcher.last_seq(table) == seq


async def test_list_games_names_the_player_levels_and_add_bot_takes_the_others(
    app: App,
) -> None:
    client = await Client.open(app.port)
    games = {g["name"]: g["bots"] for g in (await client.ok("list_games"))["games"]}
    assert games == {"skat": list(SKAT_PLAYER_LEVELS), "tichu": list(TICHU_POLICIES)}
    table = (await client.ok("create_table", game="skat"))["table"]["id"]
    await client.ok("join", table=table)
    await client.ok("add_bot", table=table, seat=1, level="strong:lms")  # a tournament name


async def test_a_seat_owner_on_another_connection_resumes_before_acting(app: App) -> None:
    """Play: `act` comes from a connection at the table; a second device of the seat's owner
    gets `not_seated` until it resumes (or watches), then the engine judges its moves."""
    laptop = await Client.open(app.port)
    await laptop.ok("register", name="anna", password="correct horse")
    table, _ = await bot_table(laptop)
    await laptop.wait_for(lambda m: m.get("event", {}).get("kind") == "deal")
    phone = await Client.open(app.port)
    await phone.ok("login", name="anna", password="correct horse")
    seq = laptop.last_seq(table)
    action = {"type": "play", "card": "XX"}
    early = await phone.request("act", table=table, seq=seq, action=action)
    assert early["code"] == "not_seated"
    await phone.ok("resume", table=table, seq=seq)
    later = await phone.request("act", table=table, seq=phone.last_seq(table) or seq, action=action)
    assert later["type"] == "error" and later["code"] != "not_seated"


async def test_event_views_have_an_empty_history_and_abandon_is_no_move(app: App) -> None:
    """Play: an `event`'s `view` carries `"history": []` (the events are the history); the
    schema's `abandon` is what the server records for a player who left, and a client
    sending it gets `not_a_move`."""
    host = await Client.open(app.port)
    table, _ = await bot_table(host)
    event = await host.wait_for(lambda m: m["type"] == "event" and m.get("view"))
    assert event["view"]["history"] == []
    seq = host.last_seq(table)
    reply = await host.request(
        "act", table=table, seq=seq, action={"type": "abandon", "reason": "left"}
    )
    assert reply["type"] == "error" and reply["code"] in ("not_a_move", "stale_seq")
    while reply["code"] == "stale_seq":  # the bots moved meanwhile
        seq = host.last_seq(table)
        reply = await host.request(
            "act", table=table, seq=seq, action={"type": "abandon", "reason": "left"}
        )
    assert reply["code"] == "not_a_move"


async def test_the_leaderboard_of_an_unknown_game_is_an_error(app: App) -> None:
    client = await Client.open(app.port)
    reply = await client.request("leaderboard", game="chess")
    assert reply["type"] == "error" and reply["code"] == "unknown_game"
    assert (await asyncio.to_thread(http_get, app, "/api/leaderboard?game=chess"))[0] == 400


async def test_a_guest_who_registers_ends_his_guest_sessions(app: App) -> None:
    """Session: the guest becomes the account; his guest token then answers `bad_token`."""
    guest = await Client.open(app.port)
    old = guest.token
    welcome = await guest.ok("register", name="anna", password="correct horse")
    assert welcome["token"] != old and welcome["user"]["id"] == guest.user["id"]
    comeback = await Client.open(app.port, hello=False)
    assert (await comeback.request("hello", version=1, token=old))["code"] == "bad_token"
    account = await Client.open(app.port, token=welcome["token"])
    assert account.user["name"] == "anna"
