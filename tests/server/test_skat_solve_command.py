"""`tischrunde skat solve`: JSON lines in, one JSON answer (or error) line out per input."""

import io
import json

import pytest

from server.cli import main
from tests.jit import needs_jit
from tests.reference_data import load_jsonl

DEAL = load_jsonl("skat_dds_reference.jsonl")[0]


def _run(
    lines: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> list[dict[str, object]]:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["skat", "solve"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _request(**changes: object) -> str:
    fields = {k: DEAL[k] for k in ("hands", "skat", "game", "declarer", "leader")}
    return json.dumps(fields | changes)


@needs_jit
def test_each_line_gets_its_answer_in_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    value, win, null = _run(
        [_request(), _request(mode="win"), _request(game="null", mode="win")], monkeypatch, capsys
    )
    assert value["declarer_points"] == DEAL["declarer_points"]
    assert value["declarer_wins"] == DEAL["declarer_wins"]
    assert value["nodes"] > 0 and value["ms"] >= 0
    assert win["declarer_points"] is None and win["declarer_wins"] == DEAL["declarer_wins"]
    assert null["declarer_points"] is None
    assert set(value) == {"declarer_points", "declarer_wins", "nodes", "ms"}


@needs_jit
@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "malformed"),
        (_request(game="ramsch"), "game"),
        (_request(mode="fast"), "mode"),
        (_request(declarer=5), "declarer"),
        (_request(hands=[["JC"], ["JS"], ["JH"]]), "10 cards"),
        (_request(skat=["JS", "XX"]), "not a Skat card"),
        (_request(colour="red"), "colour"),
    ],
)
def test_a_bad_line_gets_an_error_and_the_command_goes_on(
    line: str, problem: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    error, after = _run([line, _request(mode="win")], monkeypatch, capsys)
    assert problem in error["error"]
    assert after["declarer_wins"] == DEAL["declarer_wins"]


@needs_jit
def test_blank_lines_are_skipped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(_run(["", _request(mode="win"), "   "], monkeypatch, capsys)) == 1
