"""Tournaments for people: the seat draw, registration and its errors, a whole tournament of
two series with bots filling places, and a scheduled tournament surviving a restart."""

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from server.app import running
from server.store.db import Store
from server.tournament.draw import BOT_PREFIX, draw, pairs_again, standings, table_sizes
from tests.server.client import PATIENCE, Client, until
from tests.server.conftest import server_settings


@pytest.mark.parametrize(
    ("players", "size", "fill", "sizes"),
    [
        (6, 4, True, [4, 4]),
        (6, 4, False, [3, 3]),
        (7, 4, False, [4, 3]),
        (10, 4, False, [4, 3, 3]),
        (12, 4, False, [4, 4, 4]),
        (9, 3, False, [3, 3, 3]),
        (10, 3, False, [3, 3, 4]),
        (5, 4, False, [4, 4]),
        (5, 3, False, [3, 3]),
        (7, 3, True, [3, 3, 3]),
        (1, 3, False, [3]),
        (0, 3, True, []),
    ],
)
def test_tables_of_three_and_four(players: int, size: int, fill: bool, sizes: list[int]) -> None:
    assert sorted(table_sizes(players, size, fill=fill)) == sorted(sizes)


def test_the_draw_seats_everybody_once_and_spreads_the_bots() -> None:
    names = [f"p{i}" for i in range(6)]
    tables = draw(names, [4, 4], "greedy", random.Random(1))
    seated = [name for table in tables for name in table]
    assert sorted(n for n in seated if not n.startswith(BOT_PREFIX)) == names
    assert [sum(n.startswith(BOT_PREFIX) for n in t) for t in tables] == [1, 1]
    assert len(set(seated)) == 8
    assert draw(names, [4, 4], "greedy", random.Random(1)) == tables
    assert draw(names, [4, 4], "greedy", random.Random(2)) != tables


def test_standings_sum_each_players_lists() -> None:
    result = {"declarer": 0, "won": True, "list_value": 24, "seeger_fabian": [74, 0, 0]}
    rows = standings("skat", [(["a", "b", "c"], [_skat(result)]), (["b", "a", "d"], [])])
    by_name = {r.player: r for r in rows}
    assert rows[0].player == "a"
    assert by_name["a"].total == 74 and by_name["a"].won == 1
    assert by_name["a"].tables == 2 and by_name["d"].games == 0


def _skat(fields: dict[str, Any]) -> dict[str, Any]:
    """A won Grand's result as a table stores it, with `fields` changed."""
    flags = ("hand", "schneider_announced", "schwarz_announced", "ouvert", "overbid")
    base: dict[str, Any] = dict.fromkeys((*flags, "schneider", "schwarz"), False)
    base |= {"game": "grand", "bid": 18, "game_value": 24, "matadors": 1}
    base |= {"declarer_points": 70, "declarer_tricks": 5}
    return base | fields


async def _account(port: int, name: str) -> Client:
    client = await Client.open(port)
    await client.ok("register", name=name, password="correct horse")
    return client


def _soon(seconds: float = 0.0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


async def test_registration_and_its_errors(tmp_path: Path) -> None:
    async with running(server_settings(tmp_path)) as app:
        guest = await Client.open(app.port)
        anna = await _account(app.port, "anna")
        bert = await _account(app.port, "bert")
        try:
            create = {"name": "Club evening", "starts_at": _soon(3600), "max_players": 3}
            refused = await guest.request("create_tournament", **create)
            assert refused["code"] == "account_required"
            far = await anna.request("create_tournament", **{**create, "starts_at": _soon(9e5)})
            assert far["code"] == "bad_tournament"
            level = await anna.request("create_tournament", **create, bot_level="nobody")
            assert level["code"] == "bad_tournament"
            deals = await anna.request("create_tournament", **create, deals=0)
            assert deals["code"] == "bad_request"
            opened = (await anna.ok("create_tournament", **create))["tournament"]
            tid = opened["id"]
            assert opened["status"] == "open" and opened["organizer"] == "anna"
            unknown = await anna.request("register_tournament", tournament="nothing")
            assert unknown["code"] == "no_such_tournament"
            guest_in = await guest.request("register_tournament", tournament=tid)
            assert guest_in["code"] == "account_required"
            await anna.ok("register_tournament", tournament=tid)
            reply = await bert.ok("register_tournament", tournament=tid)
            assert reply["tournament"]["players"] == ["anna", "bert"]
            not_in = await guest.request("unregister_tournament", tournament=tid)
            assert not_in["code"] == "not_entered"
            third = await _account(app.port, "carl")
            fourth = await _account(app.port, "dora")
            await third.ok("register_tournament", tournament=tid)
            full = await fourth.request("register_tournament", tournament=tid)
            assert full["code"] == "tournament_full"
            await third.ok("unregister_tournament", tournament=tid)
            await fourth.ok("register_tournament", tournament=tid)
            not_yours = await bert.request("start_tournament", tournament=tid)
            assert not_yours["code"] == "not_organiser"
            cancelled = await anna.ok("cancel_tournament", tournament=tid)
            assert cancelled["tournament"]["status"] == "cancelled"
            closed = await bert.request("unregister_tournament", tournament=tid)
            assert closed["code"] == "registration_closed"
            listed = await guest.ok("list_tournaments")
            assert [t["id"] for t in listed["tournaments"]] == [tid]
            for client in (third, fourth):
                await client.close()
        finally:
            for client in (guest, anna, bert):
                await client.close()


async def test_a_tournament_of_two_series_with_bots_filling_places(tmp_path: Path) -> None:
    """Six people, tables of four: two bots fill. Nobody joins his seat, so after the grace
    time bots play for everybody; both series are drawn, played and counted."""
    settings = server_settings(tmp_path)
    async with running(settings) as app:
        people = [await _account(app.port, f"p{i}") for i in range(6)]
        try:
            create = {
                "name": "Two series",
                "starts_at": _soon(3600),
                "series": 2,
                "deals": 2,
                "table_size": 4,
                "bot_level": "random",
            }
            tid = (await people[0].ok("create_tournament", **create))["tournament"]["id"]
            for person in people:
                await person.ok("register_tournament", tournament=tid)
            watched = await people[1].ok("watch_tournament", tournament=tid)
            assert watched["tournament"]["status"] == "open"
            started = await people[0].ok("start_tournament", tournament=tid)
            assert started["tournament"]["status"] == "running"
            assert len(started["tournament"]["tables"]) == 2
            seat = await people[2].wait_for(lambda m: m["type"] == "tournament_seat")
            assert seat["tournament"] == tid and seat["series"] == 1
            assert seat["table"] in started["tournament"]["tables"]

            def finished() -> bool:
                return any(
                    m["type"] == "tournament" and m["tournament"]["status"] == "finished"
                    for m in people[1].messages
                )

            await until(finished)
            pushes = [m["tournament"] for m in people[1].messages if m["type"] == "tournament"]
            assert len({p["played"] for p in pushes}) > 2  # standings moved game by game
            final = pushes[-1]
            assert final["played"] == final["total"] == 2 * 2 * 2
            assert [t["series"] for t in final["lists"]] == [1, 1, 2, 2]
            assert {r["player"] for r in final["standings"]} >= {f"p{i}" for i in range(6)}
            assert all(r["games"] == 4 for r in final["standings"] if r["player"][0] == "p")
            store = Store.connect(settings.db)
            stored = await store.tournaments.load(tid)
            assert stored is not None and stored.status == "finished"
            assert stored.standings == final["standings"]
            results = await store.tournaments.people.results(tid)
            assert sorted(map(len, results.values())) == [2, 2, 2, 2]
            # A series is drawn once, whichever process gets there first.
            assert not await store.tournaments.people.claim_series(tid, 2)
            await store.close()
        finally:
            for person in people:
                await person.close()


async def test_a_scheduled_tournament_starts_after_a_restart(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    async with running(settings) as app:
        anna = await _account(app.port, "anna")
        create = {"name": "Later", "starts_at": _soon(PATIENCE / 8), "deals": 1}
        tid = (await anna.ok("create_tournament", **create))["tournament"]["id"]
        await anna.ok("register_tournament", tournament=tid)
        token = anna.token
        await anna.close()
    async with running(settings) as app:
        anna = await Client.open(app.port, token=token)
        try:
            await anna.ok("watch_tournament", tournament=tid)
            seat = await anna.wait_for(lambda m: m["type"] == "tournament_seat")
            assert seat["tournament"] == tid
            joined = await anna.ok("join", table=seat["table"])
            assert joined["seat"] == seat["seat"]
        finally:
            await anna.close()


async def test_a_tichu_tournament_draws_partners_and_counts_team_points(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    async with running(settings) as app:
        people = [await _account(app.port, f"t{i}") for i in range(3)]
        try:
            create = {"name": "Tichu", "starts_at": _soon(3600), "game": "tichu", "deals": 1}
            refused = await people[0].request("create_tournament", **create, table_size=3)
            assert refused["code"] == "bad_tournament"
            skat = await people[0].request(
                "create_tournament", **create | {"game": "skat"}, partners="fixed"
            )
            assert skat["code"] == "bad_tournament"  # only Tichu has partners
            create |= {"table_size": 4, "bot_level": "random", "partners": "fixed", "series": 2}
            tid = (await people[0].ok("create_tournament", **create))["tournament"]["id"]
            for person in people:
                await person.ok("register_tournament", tournament=tid)
            await people[0].ok("watch_tournament", tournament=tid)
            started = (await people[0].ok("start_tournament", tournament=tid))["tournament"]
            assert [len(t["seats"]) for t in started["lists"]] == [4]
            await people[0].wait_for(
                lambda m: m["type"] == "tournament" and m["tournament"]["status"] == "finished"
            )
            store = Store.connect(settings.db)
            stored = await store.tournaments.load(tid)
            await store.close()
            assert stored is not None and stored.played == 2
            totals = {row["player"]: row["total"] for row in stored.standings}
            seats = started["lists"][0]["seats"]
            assert totals[seats[0]] == totals[seats[2]] and totals[seats[1]] == totals[seats[3]]
            lists = (await people[0].ok("watch_tournament", tournament=tid))["tournament"]["lists"]
            teams = [{frozenset(t["seats"][i::2]) for i in (0, 1)} for t in lists]
            assert len(lists) == 2 and teams[0] == teams[1]  # the partners stayed together
        finally:
            for person in people:
                await person.close()


async def test_a_running_tournament_goes_on_after_a_restart(tmp_path: Path) -> None:
    """Nobody moves before the restart (a long grace time); after it the restored table's
    absent players are played by bots, and the restarted server finishes the tournament."""
    async with running(server_settings(tmp_path, grace_seconds=600.0)) as app:
        people = [await _account(app.port, f"r{i}") for i in range(3)]
        create = {"name": "Restart", "starts_at": _soon(3600), "deals": 1, "fill_bots": False}
        tid = (await people[0].ok("create_tournament", **create))["tournament"]["id"]
        for person in people:
            await person.ok("register_tournament", tournament=tid)
        started = (await people[0].ok("start_tournament", tournament=tid))["tournament"]
        assert [t["seats"] for t in started["lists"]] != [] and started["played"] == 0
        tokens = [person.token for person in people]
        for person in people:
            await person.close()
    async with running(server_settings(tmp_path)) as app:
        anna = await Client.open(app.port, token=tokens[0])
        try:
            await anna.ok("watch_tournament", tournament=tid)
            done = await anna.wait_for(
                lambda m: m["type"] == "tournament" and m["tournament"]["status"] == "finished"
            )
            assert done["tournament"]["played"] == 1
        finally:
            await anna.close()


def test_fixed_tichu_partners_stay_together_against_other_teams() -> None:
    first = [["a", "b", "c", "d"], ["e", "f", "g", "h"]]
    for seed in range(5):
        tables = pairs_again(first, random.Random(seed))
        teams = {frozenset((t[i], t[i + 2])) for t in tables for i in (0, 1)}
        assert teams == {frozenset(p) for p in ("ac", "bd", "eg", "fh")}
