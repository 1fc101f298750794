"""Cached machine code is dropped when any solver source changes (numba alone only notices
changes to a function's own file)."""

from pathlib import Path

import pytest

from bots.solver_cache import drop_stale_cache


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    package = tmp_path / "engine" / "skat" / "solver"
    (package / "__pycache__").mkdir(parents=True)
    (tmp_path / "engine" / "__pycache__").mkdir()
    (package / "search.py").write_text("x = 1\n")
    bits = tmp_path / "engine" / "bits.py"
    bits.write_text("y = 2\n")
    return package, bits


def _cached(package: Path, bits: Path) -> list[Path]:
    files = [
        package / "__pycache__" / "search.search-10.py311.nbi",
        package / "__pycache__" / "search.search-10.py311.1.nbc",
        bits.parent / "__pycache__" / "bits.popcount_swar-5.py311.nbi",
    ]
    for path in files:
        path.write_bytes(b"machine code")
    return files


def test_unchanged_sources_keep_the_cache(tree: tuple[Path, Path]) -> None:
    package, bits = tree
    drop_stale_cache(package, bits)
    files = _cached(package, bits)
    drop_stale_cache(package, bits)
    assert all(path.exists() for path in files)


def test_a_changed_source_anywhere_drops_the_whole_cache(tree: tuple[Path, Path]) -> None:
    package, bits = tree
    drop_stale_cache(package, bits)
    files = _cached(package, bits)
    other = bits.parent / "__pycache__" / "deal.cpython-311.pyc"
    other.write_bytes(b"bytecode")
    bits.write_text("y = 3\n")
    drop_stale_cache(package, bits)
    assert not any(path.exists() for path in files)
    assert other.exists()  # only numba cache files of the solver and bits.py go
