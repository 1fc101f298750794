"""`tischrunde play --game tichu`, `tichu evaluate` and `tichu build-initiative`."""

import json
from pathlib import Path

import msgspec
import pytest

from bots.tichu.initiative import load_model
from engine.tichu.actions import Action
from engine.tichu.state import GameStart, replay
from server.cli import main


def test_play_tichu_json_carries_a_record_that_replays(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--game", "tichu", "--seats", "greedy,random,greedy,random", "--seed", "3"]
    assert main([*argv, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "tichu" and summary["seats"][1] == "random"
    start = msgspec.convert(summary["record"]["start"], GameStart)
    moves = [(seat, msgspec.convert(a, Action)) for seat, a in summary["record"]["moves"]]  # type: ignore[arg-type]
    state = replay(start, moves)
    assert state.is_over
    assert list(state.totals) == summary["result"]["totals"]


def test_play_tichu_shows_the_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "tichu", "--seats", "greedy,greedy,greedy,greedy"]) == 0
    out = capsys.readouterr().out
    assert "round 1" in out and "result" in out


def test_play_tichu_needs_four_seats() -> None:
    with pytest.raises(SystemExit, match="4 seats"):
        main(["play", "--game", "tichu", "--seats", "greedy,greedy"])


def test_evaluate_prints_the_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tichu", "evaluate", "--a", "greedy", "--b", "random", "--rounds", "3", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rounds"] == 6 and summary["a"] == "greedy"
    assert {"mean", "ci95", "tichu_rate", "grand_success", "double_rate"} <= set(summary)


def test_evaluate_rejects_unknown_bots() -> None:
    with pytest.raises(SystemExit, match="known: random"):
        main(["tichu", "evaluate", "--a", "nobody", "--rounds", "1", "--json"])


def test_build_initiative_writes_a_loadable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "initiative.npz"
    argv = ["tichu", "build-initiative", "--rounds", "3", "--iterations", "0", "--out", str(out)]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["plays_counted"] > 0
    model = load_model(str(out))
    assert all(0.0 <= p <= 1.0 for p in model.win)
