"""Tichu pairs registering together for a people's tournament with fixed partners: the draw
keeps them together, the others are paired by lot; naming a partner and its errors."""

import random
from pathlib import Path

from server.app import running
from server.tournament.draw import BOT_PREFIX, draw_teams
from tests.server.conftest import server_settings
from tests.server.test_tournament_people import _account, _soon


def _teams(tables: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset((seats[i], seats[i + 2])) for seats in tables for i in (0, 1)}


def test_pairs_stay_together_and_the_others_are_paired_by_lot() -> None:
    pairs = [("anna", "bert"), ("carl", "dora")]
    singles = ["emil", "fritz", "gina"]
    for seed in range(20):
        tables = draw_teams(pairs, singles, "greedy", random.Random(seed))
        seated = [name for seats in tables for name in seats]
        assert len(tables) == 2 and len(set(seated)) == 8
        people = sorted(n for n in seated if not n.startswith(BOT_PREFIX))
        assert people == sorted([*(n for pair in pairs for n in pair), *singles])
        teams = _teams(tables)
        assert {frozenset(p) for p in pairs} <= teams
        # One bot partners the single left over, spread: one at each table at most.
        assert [sum(n.startswith(BOT_PREFIX) for n in seats) for seats in tables] in (
            [0, 1],
            [1, 0],
        )
    assert draw_teams(pairs, singles, "greedy", random.Random(3)) == draw_teams(
        pairs, singles, "greedy", random.Random(3)
    )


def test_a_team_of_bots_meets_a_team_of_people() -> None:
    tables = draw_teams(
        [("anna", "bert")], ["carl", "dora", "emil", "fritz"], "x", random.Random(1)
    )
    bots = [sum(n.startswith(BOT_PREFIX) for n in seats) for seats in tables]
    assert sorted(bots) == [0, 2]
    assert frozenset(("anna", "bert")) in _teams(tables)


async def test_registering_as_a_pair_and_its_errors(tmp_path: Path) -> None:
    async with running(server_settings(tmp_path)) as app:
        names = ["anna", "bert", "carl", "dora", "emil"]
        clients = {name: await _account(app.port, name) for name in names}
        anna, bert, carl, dora = (clients[n] for n in names[:4])
        try:
            skat = {"name": "Skat", "starts_at": _soon(3600)}
            sid = (await anna.ok("create_tournament", **skat))["tournament"]["id"]
            await bert.ok("register_tournament", tournament=sid)
            no_partners = await anna.request("register_tournament", tournament=sid, partner="bert")
            assert no_partners["code"] == "bad_partner"
            tichu = {"name": "Tichu", "starts_at": _soon(3600), "game": "tichu", "deals": 1}
            tichu |= {"table_size": 4, "bot_level": "random"}
            drawn = (await anna.ok("create_tournament", **tichu))["tournament"]["id"]
            await bert.ok("register_tournament", tournament=drawn)
            each_round = await anna.request("register_tournament", tournament=drawn, partner="bert")
            assert each_round["code"] == "bad_partner"
            tid = (await anna.ok("create_tournament", **tichu, partners="fixed"))["tournament"][
                "id"
            ]
            await anna.ok("register_tournament", tournament=tid)
            for wrong in ("nobody", "carl", "bert"):  # unknown, not registered, himself
                refused = await bert.request("register_tournament", tournament=tid, partner=wrong)
                assert refused["code"] == "bad_partner", wrong
            registered = await bert.ok("register_tournament", tournament=tid, partner="anna")
            assert registered["tournament"]["players"] == ["anna", "bert"]
            assert registered["tournament"]["pairs"] == []  # anna has not named him yet
            confirmed = await anna.ok("register_tournament", tournament=tid, partner="bert")
            assert confirmed["tournament"]["pairs"] == [["anna", "bert"]]
            await carl.ok("register_tournament", tournament=tid)
            taken = await carl.request("register_tournament", tournament=tid, partner="anna")
            assert taken["code"] == "bad_partner"
            await dora.ok("register_tournament", tournament=tid, partner="carl")  # unanswered
            await clients["emil"].ok("register_tournament", tournament=tid)
            watched = await clients["emil"].ok("watch_tournament", tournament=tid)
            # dora named carl, who did not name her: no pair
            assert watched["tournament"]["pairs"] == [["anna", "bert"]]
            started = await anna.ok("start_tournament", tournament=tid)
            lists = started["tournament"]["lists"]
            assert len(lists) == 2
            assert frozenset(("anna", "bert")) in _teams([t["seats"] for t in lists])
            seat = await bert.wait_for(lambda m: m["type"] == "tournament_seat")
            mine = await anna.wait_for(lambda m: m["type"] == "tournament_seat")
            assert seat["table"] == mine["table"] and abs(seat["seat"] - mine["seat"]) == 2
        finally:
            for client in clients.values():
                await client.close()
