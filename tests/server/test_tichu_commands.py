"""`tischrunde tichu classify|beats|legal`: JSON lines in, one answer (or error) per line out."""

import io
import json
import sys

import pytest

from server.cli import main


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *argv: str,
    lines: list[str],
) -> list[dict[str, object]]:
    stdin = io.TextIOWrapper(io.BytesIO("\n".join(lines).encode() + b"\n"))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["tichu", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_classify_prints_type_rank_and_length(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        '{"cards": ["MahJong", "2j", "3s", "4p", "5t"]}',
        '{"cards": ["Phoenix"]}',
        '{"cards": ["Dog"]}',
        '{"cards": ["5j", "6s"]}',
    ]
    assert run(capsys, monkeypatch, "classify", lines=lines) == [
        {"type": "straight", "rank": 5, "length": 5},
        {"type": "single", "rank": 1.5, "length": 1},
        {"type": "dog", "rank": None, "length": 1},
        {"type": "invalid", "rank": None, "length": 2},
    ]


def test_beats_compares_a_play_with_a_lead(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        '{"a": ["Dragon"], "b": ["Phoenix"]}',
        '{"a": ["Aj"], "b": ["Phoenix"]}',
        '{"a": ["7j", "7s", "7p", "7t"], "b": ["2s", "3s", "4s", "5s", "6s"]}',
        '{"a": ["Dog"], "b": ["2s"]}',
    ]
    answers = [a["beats"] for a in run(capsys, monkeypatch, "beats", lines=lines)]
    assert answers == [False, True, True, False]


def test_legal_lists_every_play_once_and_whether_one_may_pass(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        '{"hand": ["8j", "8s", "8p", "8t", "3j"], "trick": ["9j"], "wish": "8"}',
        '{"hand": ["MahJong", "Phoenix"], "trick": null, "wish": null}',
        '{"hand": ["Tp", "8s"], "trick": ["Qs", "Qp"], "wish": 10}',
    ]
    assert run(capsys, monkeypatch, "legal", lines=lines) == [
        {"plays": ["8j 8s 8p 8t"], "can_pass": False},
        {"plays": ["MahJong", "Phoenix"], "can_pass": False},
        {"plays": [], "can_pass": True},
    ]


def test_bad_lines_get_an_error_and_the_next_line_is_answered(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["not json", '{"cards": ["Xx"]}', '{"cards": "Aj"}', "", '{"cards": ["Aj"]}']
    answers = run(capsys, monkeypatch, "classify", lines=lines)
    assert [set(a) for a in answers[:3]] == [{"error"}] * 3
    assert answers[3] == {"type": "single", "rank": 14, "length": 1}


def test_legal_rejects_impossible_positions(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        '{"hand": ["Aj"], "trick": ["Aj"]}',
        '{"hand": ["Aj"], "trick": ["5j", "6s"]}',
        '{"hand": ["Aj"], "wish": 1}',
        '{"hand": []}',
    ]
    answers = run(capsys, monkeypatch, "legal", lines=lines)
    assert all(set(a) == {"error"} for a in answers)


def test_rule_options_change_the_answers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = [
        "2j",
        "3s",
        "4p",
        "5t",
        "6j",
        "7s",
        "8p",
        "9t",
        "Tj",
        "Js",
        "Qp",
        "Kt",
        "Aj",
        "Phoenix",
    ]
    line = json.dumps({"cards": cards})
    official = run(capsys, monkeypatch, "classify", lines=[line])
    variant = run(
        capsys, monkeypatch, "classify", "--rules", '{"phoenix_as_one": true}', lines=[line]
    )
    assert official[0]["type"] == "invalid"
    assert variant[0] == {"type": "straight", "rank": 14, "length": 14}


def test_bad_rules_are_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(["tichu", "classify", "--rules", '{"no_such_option": 1}']) == 2
    assert "error" in json.loads(capsys.readouterr().out)
