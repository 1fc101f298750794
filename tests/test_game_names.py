"""Games are looked up, not branched on: outside a game's own modules no code compares
anything with a game's name (`game == "skat"`), in Python (server/, bots/) or in the web
client. Lookups go through `server.games.game_kind` (and `bots.registry.bots_of`), and the
client through what `list_games` sends and its drawing table `server/web/js/games.js`
(docs/architecture.md, "Games").
"""

import ast
import re
from pathlib import Path

from server.games import all_games

ROOT = Path(__file__).resolve().parent.parent
GAMES = frozenset(all_games())
# A game's own modules: its package or a file named after it, and what is the game's alone.
OWN_MODULES = {
    "server/analysis.py": "skat",  # the Skat deal analysis
    "server/store/statistics.py": "skat",  # a Skat player's statistics
}
_JS_COMPARISON = re.compile(r"""\bgame\b[\w?.\]\[]*\s*[!=]==?\s*["'](\w+)["']""")


def _own_game(path: Path) -> str | None:
    relative = path.relative_to(ROOT).as_posix()
    if relative in OWN_MODULES:
        return OWN_MODULES[relative]
    for game in GAMES:
        if f"/{game}/" in relative or path.name.startswith((game, f"play_{game}")):
            return game
    return None


def _compared_names(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) for every comparison with a game's name as a constant."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                values = (
                    operand.elts
                    if isinstance(operand, ast.Tuple | ast.List | ast.Set)
                    else [operand]
                )
                for value in values:
                    if isinstance(value, ast.Constant) and value.value in GAMES:
                        found.append((node.lineno, value.value))
    return found


def test_no_python_module_outside_a_game_compares_with_its_name() -> None:
    offences = []
    for package in ("server", "bots"):
        for path in sorted((ROOT / package).rglob("*.py")):
            own = _own_game(path)
            tree = ast.parse(path.read_text(), filename=str(path))
            offences += [
                f"{path.relative_to(ROOT)}:{line}: compares with {name!r}"
                for line, name in _compared_names(tree)
                if name != own
            ]
    assert offences == []


def test_no_client_module_compares_a_game_with_a_name() -> None:
    offences = []
    for path in sorted((ROOT / "server" / "web" / "js").glob("*.js")):
        own = _own_game(path)
        for number, line in enumerate(path.read_text().splitlines(), 1):
            offences += [
                f"{path.name}:{number}: compares a game with {name!r}"
                for name in _JS_COMPARISON.findall(line)
                if name in GAMES and name != own
            ]
    assert offences == []


def test_the_check_finds_a_comparison() -> None:
    tree = ast.parse('if kind == "tichu" or game in ("skat", "x"):\n    pass\n')
    assert sorted(name for _, name in _compared_names(tree)) == ["skat", "tichu"]
    assert _JS_COMPARISON.findall('if (this.screen.replay?.game !== "skat") return;') == ["skat"]
