"""Bockrunden at a table (docs/skat-rules.md section 3.5): the table deals each deal as a
Bock deal exactly when the list so far owes one, each result says how many the list owes
after it, and a restored table deals the same."""

import msgspec
import numpy as np

from engine.skat.actions import Discard, Pass, PickUpSkat
from engine.skat.scoring import Result, bock_deals_due
from server.core.commands import Join
from server.events import Append
from tests.server.test_table_core import USERS, act, make_core, random_move

DEALS = 12


def play_list(rules: dict[str, object], seed: int) -> tuple[list[Result], list[Append]]:
    core = make_core(series_length=DEALS, rules=rules)
    log: list[Append] = []
    for client, user in enumerate(USERS[:3]):
        log += [
            e for e in core.handle(Join(client, user, None, None, None)) if isinstance(e, Append)
        ]
    rng = np.random.default_rng(seed)
    while core.status == "playing":
        log += [e for e in act(core, *random_move(core, rng)) if isinstance(e, Append)]
    return [msgspec.convert(r, Result) for r in core.results], log


def test_a_bock_table_doubles_the_deals_the_list_owes() -> None:
    results, _ = play_list({"bock": True}, seed=4)
    assert len(results) == DEALS
    owed = [bock_deals_due(3, results[:k]) > 0 for k in range(DEALS)]
    assert [r.bock for r in results] == owed
    assert any(owed) and not all(owed)
    # Each result says what the list owes after it (what the client shows as still owed).
    assert [r.bock_due for r in results] == [
        bock_deals_due(3, results[: k + 1]) for k in range(DEALS)
    ]


def test_without_the_rule_no_deal_is_bock() -> None:
    results, _ = play_list({}, seed=4)
    assert not any(r.bock for r in results)


def test_a_restored_bock_table_deals_the_same() -> None:
    _, log = play_list({"bock": True}, seed=4)
    events = [(a.first_seq + i, ev) for a in log for i, ev in enumerate(a.events)]
    restored = make_core(series_length=DEALS, rules={"bock": True})
    restored.restore(events)
    results = [msgspec.convert(r, Result) for r in restored.results]
    assert [r.bock for r in results] == [bock_deals_due(3, results[:k]) > 0 for k in range(DEALS)]
    assert [r.bock_due for r in results] == [
        bock_deals_due(3, results[: k + 1]) for k in range(DEALS)
    ]


def test_a_schieberamsch_at_a_bock_table_is_pushed_played_and_earns_a_bock_round() -> None:
    core = make_core(series_length=3, rules={"all_pass": "schieberamsch", "bock": True})
    for client, user in enumerate(USERS[:3]):
        core.handle(Join(client, user, None, None, None))
    for seat in (1, 2, 0):  # middlehand, rearhand, forehand: all pass
        act(core, seat, Pass())
    act(core, 0, PickUpSkat())
    assert core.state is not None and core.state.phase == "push"
    hand = core.state.observation(0).hand
    push = [card for card in hand if not card.startswith("J")][:2]
    act(core, 0, Discard((push[0], push[1])))
    act(core, 1, Pass())
    act(core, 2, Pass())
    rng = np.random.default_rng(1)
    while len(core.results) < 1:
        act(core, *random_move(core, rng))
    first = msgspec.convert(core.results[0], Result)
    assert first.ramsch and first.pushes == 1 and not first.bock
    assert core.state is not None and core.state.start.bock  # the next deal is Bock
