"""Numba cache hygiene for the Skat solver: drop its cached machine code when any of its
sources change.

numba invalidates a cached function only when the function's own file changes, but a cached
function holds compiled copies of what it calls and of the constants it reads from other
modules (the stack layout, the table layout): after an edit in one module, a caller cached
from another file could go on running stale code and give wrong answers. So before a process
imports the solver, `drop_stale_cache` hashes the sources of its jitted modules (and
`engine/bits.py`) and, when the digest differs from the one stored beside the cache, deletes
those cache files; numba then recompiles once and caches again. The engine does no file work
itself, and importing this module does none either: the bot pool's workers call `keep_fresh`
before they warm up, `tischrunde` before it runs a command, the tests from their
`pytest_configure` hook, and `python -m bots.solver_cache` (`make solver-cache`, which
`make bench` runs first) before benchmarks. Only numba's default cache
beside the sources is managed: with `NUMBA_CACHE_DIR` set, or a read-only install, clear that
cache after an upgrade.
"""

import hashlib
from pathlib import Path
from typing import Final

import numba

import engine

__all__ = ["drop_stale_cache", "keep_fresh"]

_ENGINE: Final = Path(engine.__file__).resolve().parent  # not importing the solver: it compiles
_PACKAGE: Final = _ENGINE / "skat" / "solver"
_BITS: Final = _ENGINE / "bits.py"
_CACHE_SUFFIXES: Final = (".nbi", ".nbc")
_DIGEST_NAME: Final = "solver-sources.sha256"


def _cache_files(package: Path, bits: Path) -> list[Path]:
    ours = [p for p in (package / "__pycache__").glob("*") if p.suffix in _CACHE_SUFFIXES]
    stem = bits.stem + "."
    theirs = (bits.parent / "__pycache__").glob(stem + "*")
    return ours + [p for p in theirs if p.suffix in _CACHE_SUFFIXES]


def caches_beside_sources() -> bool:
    """Does numba compile and keep its cache in `__pycache__` beside the sources (its
    default), the only place `drop_stale_cache` looks?"""
    elsewhere = getattr(numba.config, "CACHE_DIR", "")
    return not elsewhere and not getattr(numba.config, "DISABLE_JIT", 0)


def keep_fresh() -> None:
    """Before the solver is imported: drop its cache if stale (only where numba keeps it)."""
    if caches_beside_sources():
        drop_stale_cache()


def drop_stale_cache(package: Path = _PACKAGE, bits: Path = _BITS) -> None:
    """Delete the numba cache files of `package` (and of `bits`) if their sources changed
    since the cache was written."""
    sources = [*sorted(package.glob("*.py")), bits]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    stored = package / "__pycache__" / _DIGEST_NAME
    try:
        if stored.read_text() == digest:
            return
    except OSError:
        pass  # no digest yet
    try:
        for path in _cache_files(package, bits):
            path.unlink(missing_ok=True)
        stored.parent.mkdir(exist_ok=True)
        stored.write_text(digest)
    except OSError:
        pass  # read-only tree: numba caches elsewhere (see module doc)


if __name__ == "__main__":
    keep_fresh()
