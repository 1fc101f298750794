"""ISS game records (docs/iss-format.md): the 32 real ISS games and 500 XSkat games of
tests/data replay move by move, and our results equal each record's R[...] field."""

import json
import random
import subprocess
import sys

import pytest

from engine.errors import IllegalAction, InvalidInput
from engine.skat.actions import Action, Play
from engine.skat.iss import format_record, parse_record, parse_result, read_records, replay_record
from engine.skat.rules import Rules
from engine.skat.state import State, new_game
from tests.reference_data import reference_file

ISS_RECORDS = list(read_records(reference_file("iss_games_sample.sgf").read_text()))
XSKAT_RECORDS = list(read_records(reference_file("xskat_games_sample.sgf").read_text()))


def record_id(line: str) -> str:
    return parse_record(line).game_id


def assert_matches_record(line: str, *, iss_compat: bool) -> None:
    outcome = replay_record(line, iss_compat=iss_compat)
    expected = parse_result(outcome.record.properties["R"])
    if outcome.card_play:
        assert outcome.result == expected
    else:
        # Games that end before card play: the protocol, not m/v (docs/iss-format.md section 7.2).
        got = (outcome.result.passed, outcome.result.declarer, outcome.result.outcome)
        assert got == (expected.passed, expected.declarer, expected.outcome)


class TestIssSample:
    """With `iss_compat` every field the record states is reproduced exactly."""

    def test_the_sample_holds_32_records(self) -> None:
        assert len(ISS_RECORDS) == 32

    @pytest.mark.parametrize("line", ISS_RECORDS, ids=record_id)
    def test_record_replays_and_matches_its_result(self, line: str) -> None:
        assert_matches_record(line, iss_compat=True)

    @pytest.mark.parametrize("line", ISS_RECORDS, ids=record_id)
    def test_record_replays_under_the_isko_too(self, line: str) -> None:
        outcome = replay_record(line, iss_compat=False)
        assert outcome.state.is_over

    def test_isko_ends_at_the_first_defenders_resignation(self) -> None:
        line = next(r for r in ISS_RECORDS if "ID[4912814]" in r)
        assert replay_record(line, iss_compat=True).ignored_moves == 0
        isko = replay_record(line, iss_compat=False)
        assert isko.state.ended_by == "resigned" and isko.ignored_moves > 0


class TestXSkatSample:
    """500 games of XSkat's computer players, scored by the ISkO."""

    def test_every_game_replays_and_matches_its_result(self) -> None:
        assert len(XSKAT_RECORDS) == 500
        failures = []
        for line in XSKAT_RECORDS:
            try:
                assert_matches_record(line, iss_compat=False)
            except (AssertionError, IllegalAction, InvalidInput) as error:
                failures.append(f"{record_id(line)}: {error!r}")
        assert failures == []


class TestMalformedRecords:
    """Bad records get a clear error, never a crash."""

    @pytest.mark.parametrize(
        "line",
        [
            "not a record",
            "(;GM[Chess]MV[w CA]R[passed] ;)",
            "(;GM[Skat]MV[w CA.CK]R[passed] ;)",
            "(;GM[Skat]MV[w]R[passed] ;)",
        ],
    )
    def test_malformed_record_is_invalid_input(self, line: str) -> None:
        with pytest.raises(InvalidInput):
            replay_record(line)

    def test_an_illegal_move_is_reported(self) -> None:
        line = ISS_RECORDS[0].replace("1 18 0 p", "1 19 0 p", 1)
        with pytest.raises(IllegalAction) as error:
            replay_record(line)
        assert error.value.code == "not_a_bid_value"


def random_game(seed: int) -> State:
    rng = random.Random(seed)
    state = new_game(Rules(iss_compat=True), seed=seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        actions: list[Action] = state.legal_actions(seat)
        if state.phase == "play":
            actions = [a for a in actions if isinstance(a, Play)] or actions
        state = state.apply(seat, rng.choice(actions))
    return state


class TestExport:
    """Any finished game of ours exports to a record that replays to the same result."""

    @pytest.mark.parametrize("seed", range(40))
    def test_round_trip(self, seed: int) -> None:
        state = random_game(seed)
        line = format_record(state, game_id=str(seed))
        outcome = replay_record(line)
        assert outcome.state.result == state.result
        assert parse_result(outcome.record.properties["R"]) == outcome.result


class TestCommandLine:
    """`tischrunde skat replay FILE` prints one JSON line per game and fails on bad records."""

    def test_replay_sample_prints_a_line_per_game(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "server.cli", "skat", "replay", "--iss-compat",
             str(reference_file("iss_games_sample.sgf"))],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        lines = [json.loads(x) for x in done.stdout.splitlines()]
        assert len(lines) == 32 and all(x["ok"] for x in lines)
        first = lines[0]
        assert set(first) == {
            "id", "ok", "error", "declarer", "won", "game_value", "list_value", "matadors",
            "overbid", "declarer_points", "declarer_tricks", "schneider", "schwarz",
            "seeger_fabian",
        }  # fmt: skip
        expected = parse_result(parse_record(ISS_RECORDS[0]).properties["R"])
        assert first["list_value"] == expected.list_value

    def test_a_bad_record_makes_the_exit_code_non_zero(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "server.cli", "skat", "replay", "-"],
            input=ISS_RECORDS[1] + "\n(;GM[Skat]MV[w CA]R[passed] ;)\n",
            capture_output=True, text=True,
        )  # fmt: skip
        reports = [json.loads(x) for x in done.stdout.splitlines()]
        assert done.returncode == 1
        assert [r["ok"] for r in reports] == [True, False]
        assert "32 cards" in reports[1]["error"]

    def test_deal_prints_the_card_notation(self) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "server.cli", "skat", "deal", "--seed", "7"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        deal = json.loads(done.stdout)
        assert [len(h) for h in deal["hands"]] == [10, 10, 10] and len(deal["skat"]) == 2
