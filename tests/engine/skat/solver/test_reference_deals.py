"""The jitted solver reproduces the 97 exact values of `skat_dds_reference.jsonl`.

Each record gives the hands by seat, the skat, the game, the declarer's seat and the seat that
leads the first trick; `declarer_points` include the skat, null records give only the win.
"""

from typing import Any

import pytest

from engine.skat.cards import parse_cards
from engine.skat.solver import Position, Solver
from tests.reference_data import load_jsonl

DEALS = load_jsonl("skat_dds_reference.jsonl")


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def _position(record: dict[str, Any]) -> Position:
    h0, h1, h2 = (parse_cards(h) for h in record["hands"])
    skat = parse_cards(record["skat"])
    return Position.from_deal(
        (h0, h1, h2), skat, record["game"], record["declarer"], record["leader"]
    )


def test_the_reference_set_covers_every_game_type() -> None:
    assert len(DEALS) == 97
    assert {d["game"] for d in DEALS} == {"clubs", "spades", "hearts", "diamonds", "grand", "null"}


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(DEALS)))
def test_value_and_win_match_the_reference(solver: Solver, index: int) -> None:
    record = DEALS[index]
    position = _position(record)
    result = solver.solve(position, "value")
    assert result.declarer_points == record["declarer_points"]
    expected_win = (
        record["null_declarer_wins"] if record["game"] == "null" else record["declarer_wins"]
    )
    assert result.declarer_wins == expected_win
    assert solver.solve(position, "win").declarer_wins == expected_win
