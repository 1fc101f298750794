"""Agreement with every case of tests/data/tichu_reference.jsonl (two independent engines).

`classify` cases go to the classifier; `beats` and `legal` cases go through a real State (an
analysis position), so they test the legality predicates a match uses.
"""

import json
from typing import Any

import pytest

from engine.errors import IllegalAction
from engine.tichu.actions import Pass, Play
from engine.tichu.cards import parse_cards, parse_rank, to_text
from engine.tichu.combos import KIND_NAMES, classify, kind_of, rank_of_combo
from engine.tichu.position import ON_TURN, position
from tests.reference_data import reference_file

CASES: list[dict[str, Any]] = [
    json.loads(line)
    for line in reference_file("tichu_reference.jsonl").read_text().splitlines()
    if line.strip()
]
HEADER, RECORDS = CASES[0], CASES[1:]


def _of_kind(kind: str) -> list[dict[str, Any]]:
    return [case for case in RECORDS if case["kind"] == kind]


def test_the_file_holds_2000_cases_of_three_kinds() -> None:
    assert HEADER["kind"] == "header"
    assert len(RECORDS) == 2000
    assert {case["kind"] for case in RECORDS} == {"classify", "beats", "legal"}


@pytest.mark.parametrize("case", _of_kind("classify"), ids=lambda case: case["id"])
def test_classify_agrees(case: dict[str, Any]) -> None:
    played = classify(parse_cards(case["cards"]))
    assert KIND_NAMES[kind_of(played)] == case["type"]
    assert rank_of_combo(played) == case["rank"]
    assert len(case["cards"]) == case["length"]


@pytest.mark.parametrize("case", _of_kind("beats"), ids=lambda case: case["id"])
def test_beats_agrees(case: dict[str, Any]) -> None:
    state = position(parse_cards(case["b"]), parse_cards(case["a"]))
    try:
        state.apply(ON_TURN, Play(cards=tuple(case["b"])))
        beats = True
    except IllegalAction:
        beats = False
    assert beats == case["beats"]


@pytest.mark.parametrize("case", _of_kind("legal"), ids=lambda case: case["id"])
def test_legal_plays_agree(case: dict[str, Any]) -> None:
    trick = parse_cards(case["trick"]) if case["trick"] is not None else None
    wish = parse_rank(case["wish"]) if case["wish"] is not None else 0
    state = position(parse_cards(case["hand"]), trick, wish)
    actions = state.legal_actions(ON_TURN)
    plays = sorted({to_text(parse_cards(a.cards)) for a in actions if isinstance(a, Play)})
    assert plays == sorted(case["plays"])
    assert any(isinstance(a, Pass) for a in actions) == case["can_pass"]
