"""Fit the score bidder's calibration table: solved-world win rate -> real win rate.

Run: `python -m bench.skat_calibration --games 3000 --seed 7 [--worlds 16] [--write]`, or
`--declarations FILE` to fit on other declarations (JSON lines of `Declaration`, e.g. our own
bot's as declarer) instead of XSkat's self-play.
The outcomes are XSkat's (`bench.xskat`): its headless self-play declares in almost every
deal, so a few thousand games give thousands of real-play outcomes in seconds, and its
declarer card play is level with ours (issue 17). Each declaration is valued as the `score`
bidder values it when it declares (`--worlds` solved worlds of the opponents' hands): a
game with the skat from the ten cards kept and the two laid away (the skat is known then;
valuing the ten dealt cards instead would pair a prediction that never saw the skat with a
game chosen after seeing it), a hand game from the ten dealt cards; and paired with the real
outcome. Per
game kind (suit, grand, null; hand or not) the predictions are binned, the won share per
bin made non-decreasing, and the table (bin mean -> won share, from 0 -> 0) printed; with
`--write` it replaces bots/skat/data/calibration.json for the kinds with the skat that have
at least `MIN_GAMES` declarations. Hand kinds keep their rows: XSkat plays hand only on
near-certain hands, so its hand games would teach the table that a hand game solved at 0.8
is always won (our expert's first hand grands, solved 0.83 on average, won 4 of 7). Null
with the skat keeps its hand-set row too (docs/bots.md "Null").
"""

import argparse
import itertools
import json
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Final

import msgspec
import numpy as np

from bench.xskat import SEPARATOR, dealt_hands, parse_game, play
from bots.skat.expected import Contract, solve_outcomes
from bots.skat.montecarlo import shared_solver
from engine.skat.cards import GameType, parse_cards

TABLE: Final = Path(__file__).resolve().parents[1] / "bots" / "skat" / "data" / "calibration.json"
EDGES: Final = (0.0, 0.4, 0.6, 0.75, 0.9, 0.97, 1.01)
MIN_GAMES: Final = 30
MIN_BIN: Final = 8
GAMES: Final[dict[str, GameType]] = {
    "Club": "clubs",
    "Spade": "spades",
    "Heart": "hearts",
    "Diamond": "diamonds",
    "Grand": "grand",
    "Null": "null",
}


class Declaration(msgspec.Struct, frozen=True):
    """One declaration and its outcome: what the fit needs. `kept` are the declarer's ten
    cards (after the discard, or as dealt for a hand game), `laid` the two laid away (None
    for a hand game), `position` 0 forehand; `key` seeds the valuation's worlds."""

    key: int
    position: int
    game: GameType
    hand: bool
    kept: str
    laid: str | None
    won: bool


def declarations_of_log(text: str) -> list[Declaration]:
    """Every declaration in an XSkat log (`key` is the game's number in the log)."""
    found: list[Declaration] = []
    for number, block in enumerate(b for b in text.split(SEPARATOR) if "random_seed" in b):
        game, deal = parse_game(block), dealt_hands(block)
        if game["declarer"] is None or deal is None or game["game"] not in GAMES:
            continue
        hands, skat, dealer = deal
        seat = game["declarer"] - 1
        found.append(
            Declaration(
                key=number,
                position=(seat - dealer % 3) % 3,  # forehand sits after the dealer
                game=GAMES[game["game"]],
                hand=game["hand"],
                kept=" ".join(hands[seat]),
                laid=None if game["hand"] else " ".join(skat["is"]),
                won=game["won"],
            )
        )
    return found


def valued(declarations: list[Declaration], worlds: int) -> dict[str, list[tuple[float, bool]]]:
    """(solved win rate, won) per kind: each declaration solved in `worlds` worlds of the
    opponents' hands, as the `score` bidder values it when it declares."""
    by_kind: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for found in declarations:
        laid = None if found.hand or found.laid is None else parse_cards(found.laid)
        outcomes = solve_outcomes(
            shared_solver(),
            parse_cards(found.kept),
            [(found.game, found.hand, None)],
            position=found.position,
            worlds=worlds,
            rng=np.random.default_rng([found.key, worlds]),
            skat=laid,
        )[0]
        solved = float(np.mean([level > 0 for level in outcomes.levels]))
        by_kind[Contract(found.game, found.hand).kind].append((solved, found.won))
    return by_kind


def samples(text: str, worlds: int) -> dict[str, list[tuple[float, bool]]]:
    """(solved win rate, won) per kind for every declaration in an XSkat log."""
    return valued(declarations_of_log(text), worlds)


def fit(points: list[tuple[float, bool]]) -> dict[str, list[float]]:
    """Bin means of the predictions against the won share, non-decreasing."""
    solved, won = [0.0], [0.0]
    for low, high in itertools.pairwise(EDGES):
        inside = [(p, w) for p, w in points if low <= p < high]
        if len(inside) < MIN_BIN:
            continue
        solved.append(round(float(np.mean([p for p, _ in inside])), 3))
        won.append(round(max(won[-1], float(np.mean([w for _, w in inside]))), 3))
    if solved[-1] < 1.0:
        solved.append(1.0)
        won.append(won[-1])
    return {"solved": solved, "won": won}


def read_declarations(path: Path) -> list[Declaration]:
    """Declarations from a JSON-lines file, one `Declaration` per line."""
    decoder = msgspec.json.Decoder(Declaration)
    return [decoder.decode(line) for line in path.read_bytes().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description="Fit the score bidder's calibration")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument(
        "--declarations",
        type=Path,
        help="fit on these declarations (JSON lines) instead of XSkat's self-play",
    )
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.declarations is not None:
        found = read_declarations(args.declarations)
        command = f"--declarations {args.declarations}"
    else:
        with tempfile.TemporaryDirectory() as tmp:
            found = declarations_of_log(play(args.games, args.seed, Path(tmp) / "xskat.log"))
        command = f"--games {args.games} --seed {args.seed}"
    table = json.loads(TABLE.read_text())
    for kind, points in sorted(valued(found, args.worlds).items()):
        row = fit(points)
        share = np.mean([w for _, w in points])
        mean_solved = np.mean([p for p, _ in points])
        print(f"{kind}: {len(points)} declarations, solved {mean_solved:.1%}, won {share:.1%}")
        print(f"  {row}")
        if len(points) >= MIN_GAMES and not kind.endswith("hand") and kind != "null":
            table["kinds"][kind] = row
    if args.write:
        table["source"] = (
            f"python -m bench.skat_calibration {command} --worlds {args.worlds} --write;"
            " hand kinds and null: a hand-set prior"
        )
        TABLE.write_text(json.dumps(table, indent=1) + "\n")


if __name__ == "__main__":
    main()
