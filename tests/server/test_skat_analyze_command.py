"""`tischrunde skat analyze FILE`: ISS records analysed, as text or as JSON lines with a
summary per player over the file; a bad record gets its error line and a failing exit."""

import json
from pathlib import Path

import msgspec
import pytest

from bots.skat.analysis import DealAnalysis
from engine.skat.actions import Play
from engine.skat.iss import read_records, replay_record
from server.cli import main
from tests.jit import needs_jit
from tests.reference_data import reference_file

RECORDS = list(read_records(reference_file("iss_games_sample.sgf").read_text()))[:2]
BUDGET = ["--worlds", "6", "--skat-worlds", "4"]


def _file(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "games.sgf"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@needs_jit
def test_json_lines_per_game_and_a_summary_per_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["skat", "analyze", "--json", *BUDGET, _file(tmp_path, [*RECORDS, "(;GM[Go];)"])])
    assert code == 1  # the bad record
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x.get("ok") for x in lines] == [True, True, False, None]
    for line, record in zip(lines, RECORDS, strict=False):
        analysis = msgspec.convert(line["analysis"], DealAnalysis)
        played = [a for _, a in replay_record(record).state.log if isinstance(a, Play)]
        assert [c.card for c in analysis.cards] == [a.card for a in played]
        assert analysis.contract is not None and len(analysis.bidding) == 3
    assert lines[2]["error"]
    names = {n for line in lines[:2] for n in line["players"]}
    summary = lines[3]["summary"]
    assert {s["name"] for s in summary} == names
    deals = {s["name"]: s["deals"] for s in summary}
    assert deals["theCount"] == 2  # plays in both games


@needs_jit
def test_text_report_names_the_games_and_the_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["skat", "analyze", *BUDGET, _file(tmp_path, RECORDS[:1])]) == 0
    out = capsys.readouterr().out
    assert "game 6997018: theCount plays clubs at 20" in out
    assert "zoot" in out and "blkkjk" in out and "the whole list" in out


@needs_jit
def test_the_same_seed_prints_the_same_analysis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, RECORDS[:1])
    main(["skat", "analyze", "--json", "--seed", "3", *BUDGET, path])
    first = capsys.readouterr().out
    main(["skat", "analyze", "--json", "--seed", "3", *BUDGET, path])
    assert capsys.readouterr().out == first
