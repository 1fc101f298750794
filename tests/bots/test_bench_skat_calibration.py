"""bench.skat_calibration: each declaration of XSkat's log valued as the score bidder values
it and filed under its kind; a fitted row never decreases and leaves out thin bins."""

from pathlib import Path

import msgspec

from bench.skat_calibration import (
    EDGES,
    MIN_BIN,
    declarations_of_log,
    fit,
    read_declarations,
    samples,
    valued,
)
from tests.bots.test_bench_xskat import LOG

BLOCK = "=" * 40 + LOG


def test_a_declaration_is_valued_and_filed_under_its_kind() -> None:
    # Computer1 (seat 0, middlehand under dealer 2) declares grand with the skat and wins.
    found = samples(BLOCK, worlds=4)
    assert list(found) == ["grand"]
    ((solved, won),) = found["grand"]
    assert 0.0 <= solved <= 1.0 and won
    assert samples(BLOCK, worlds=4) == found  # seeded per game: the same value again


def test_a_fitted_row_never_decreases_and_leaves_out_thin_bins() -> None:
    points = [(0.5, False)] * MIN_BIN + [(0.55, True)] * MIN_BIN  # one bin, won half
    points += [(0.7, False)] * (MIN_BIN - 1)  # too few to make a bin of their own
    points += [(0.95, False)] * MIN_BIN  # all lost: raised to the bin below
    row = fit(points)
    assert row == {"solved": [0.0, 0.525, 0.95, 1.0], "won": [0.0, 0.5, 0.5, 0.5]}
    assert EDGES[0] == 0.0 and EDGES[-1] > 1.0  # every rate falls into a bin


def test_declarations_from_a_file_are_valued_like_the_logs(tmp_path: Path) -> None:
    # The same declaration, written as a line of a declarations file, is valued exactly as
    # the log's: the fit can learn from any program's declarations, ours included.
    (logged,) = declarations_of_log(BLOCK)
    path = tmp_path / "declarations.jsonl"
    path.write_bytes(msgspec.json.encode(logged) + b"\n\n")
    assert read_declarations(path) == [logged]
    assert valued(read_declarations(path), worlds=4) == samples(BLOCK, worlds=4)
    assert logged.laid is not None and len(logged.laid.split()) == 2
    assert len(logged.kept.split()) == 10
