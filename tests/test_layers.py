"""docs/conventions.md section 1: imports go engine <- bots <- server, never the other way.

Also: the server never imports a solver module at import time (an explicit-signature @njit
compiles when its module is imported; only bot-pool workers and CLI handlers load it lazily).
"""

import ast
import gc
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"engine": {"bots", "server"}, "bots": {"server"}, "server": set()}
IO_MODULES = {
    "aiomqtt",
    "asyncio",
    "http",
    "logging.config",
    "multiprocessing",
    "socket",
    "sqlalchemy",
    "subprocess",
    "urllib",
    "websockets",
}
# The file system: the engine reads and writes no files (numba's own cache aside; the
# solver's cache hygiene is `bots/solver_cache.py`), so none of these, nor `open`.
FILE_MODULES = {
    "dbm",
    "fileinput",
    "filecmp",
    "fnmatch",
    "glob",
    "gzip",
    "io",
    "mmap",
    "os",
    "pathlib",
    "pickle",
    "shelve",
    "shutil",
    "sqlite3",
    "tarfile",
    "tempfile",
    "zipfile",
}


def _parse(path: Path) -> ast.Module:
    """`ast.parse` with the garbage collector paused: on CPython 3.11.7 a finalizer running
    while the AST is built can raise "SystemError: AST constructor recursion depth mismatch"
    (cpython gh-106905), which made this test flaky after the server tests."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(path.read_text(), filename=str(path))
    finally:
        if enabled:
            gc.enable()


def _imports(path: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every import in a file."""
    tree = _parse(path)
    found: list[tuple[str, int, bool]] = []
    top_level = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, id(node) in top_level) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno, id(node) in top_level))
    return found


def _files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_only_point_down_the_layers(package: str) -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _files(package)
        for module, line, _ in _imports(path)
        if module.split(".")[0] in FORBIDDEN[package]
    ]
    assert not bad, "layer violation: " + "; ".join(bad)


def _all_server_but(*own: str) -> tuple[str, ...]:
    """Every module and package of server/ except `own`: what the vocabulary may not import."""
    parts = {p.stem for p in (ROOT / "server").iterdir() if p.suffix == ".py" or p.is_dir()}
    return tuple(
        f"server.{p}"
        for p in sorted(parts - {"__pycache__", "__init__"})
        if f"server.{p}" not in own
    )


# Inside the server: what each part may not import. The vocabulary (standings, plain, protocol,
# events) is at the bottom, the typed standings and plain data below the other two; the table
# core knows neither the edge, the cluster nor the lobby; persistence depends on the event
# types, not on the core; edge and cluster do not know each other.
SERVER_FORBIDDEN = {
    "server/standings.py": ("server",),
    "server/plain.py": ("server",),
    "server/protocol": _all_server_but("server.protocol", "server.standings", "server.plain"),
    "server/events.py": _all_server_but("server.standings", "server.plain"),
    "server/games": (
        "server.core",
        "server.edge",
        "server.cluster",
        "server.lobby",
        "server.store",
    ),
    "server/core": ("server.edge", "server.cluster", "server.lobby", "server.app"),
    "server/store": ("server.core", "server.edge", "server.cluster", "server.lobby", "server.app"),
    "server/cluster": ("server.core", "server.edge", "server.lobby", "server.app"),
    "server/edge": ("server.cluster", "server.app"),
}


@pytest.mark.parametrize("part", sorted(SERVER_FORBIDDEN))
def test_server_parts_import_only_downwards(part: str) -> None:
    where = ROOT / part
    files = [where] if where.is_file() else sorted(where.rglob("*.py"))
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for module, line, _ in _imports(path)
        if any(module == f or module.startswith(f + ".") for f in SERVER_FORBIDDEN[part])
    ]
    assert not bad, "server layering: " + "; ".join(bad)


def test_engine_does_no_io() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _files("engine")
        for module, line, _ in _imports(path)
        if module in IO_MODULES or module.split(".")[0] in IO_MODULES
    ]
    assert not bad, "I/O in the engine: " + "; ".join(bad)


def test_engine_touches_no_files() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _files("engine")
        for module, line, _ in _imports(path)
        if module.split(".")[0] in FILE_MODULES
    ]
    bad += [
        f"{path.relative_to(ROOT)}:{node.lineno} calls open"
        for path in _files("engine")
        for node in ast.walk(_parse(path))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open"
    ]
    assert not bad, "file access in the engine: " + "; ".join(bad)


def test_server_never_imports_the_solver_at_module_level() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _files("server")
        for module, line, top in _imports(path)
        if top and "solver" in module.split(".")  # the package, not e.g. bots.solver_cache
    ]
    assert not bad, "solver imported at server module level: " + "; ".join(bad)


def _engine_uses(path: Path) -> list[int]:
    """Lines of `path` that read an attribute called `engine` (a database engine)."""
    return [
        node.lineno
        for node in ast.walk(_parse(path))
        if isinstance(node, ast.Attribute) and node.attr == "engine"
    ]


def test_the_store_is_the_only_door_to_the_database() -> None:
    """docs/conventions.md section 8: only `server/store` holds the database engine; the rest
    of the server, the benchmarks and the examples ask `Store` (tests may read rows directly
    to check what was written)."""
    store = ROOT / "server" / "store"
    paths = [*_files("server"), *_files("bench"), *_files("examples")]
    bad = [
        f"{path.relative_to(ROOT)}:{line} uses .engine"
        for path in paths
        if store not in path.parents
        for line in _engine_uses(path)
    ]
    assert not bad, "database engine outside server/store: " + "; ".join(bad)


MAX_ANY_IN_SERVER = 39  # issue 27: "Any in server/ below 40"


def _any_uses(path: Path) -> list[int]:
    """Lines of `path` that use `typing.Any` (a name, `typing.Any`, or in a string annotation);
    the import itself does not count."""
    return [
        node.lineno
        for node in ast.walk(_parse(path))
        if (isinstance(node, ast.Name) and node.id == "Any")
        or (isinstance(node, ast.Attribute) and node.attr == "Any")
        or (isinstance(node, ast.Constant) and isinstance(node.value, str) and "[Any" in node.value)
    ]


def test_the_server_stays_typed() -> None:
    """docs/conventions.md section 7: the server's data are typed structs or `Plain`; `Any`
    stays only where a value is a game's own type (read by its adapter alone) or a library's
    untyped edge. Past the cap, type the new value instead of raising the cap."""
    uses = [
        f"{path.relative_to(ROOT)}:{line}" for path in _files("server") for line in _any_uses(path)
    ]
    assert len(uses) <= MAX_ANY_IN_SERVER, f"{len(uses)} uses of Any in server/: " + ", ".join(uses)


def test_layer_checker_sees_a_violation(tmp_path: Path) -> None:
    """The checker itself must catch an upward import, or the tests above prove nothing."""
    bad = tmp_path / "bad.py"
    bad.write_text("from server import cli\nimport os.path\n")
    assert _imports(bad) == [("server", 1, True), ("os.path", 2, True)]
    bad.write_text("async def f(store):\n    return store.engine\n")
    assert _engine_uses(bad) == [2]
    bad.write_text("from typing import Any\nx: Any\ny: 'list[Any]'\nz: typing.Any\n")
    assert _any_uses(bad) == [2, 3, 4]
