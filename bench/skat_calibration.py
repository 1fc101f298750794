"""Fit the score bidder's calibration table: solved-world win rate -> real win rate.

Run: `python -m bench.skat_calibration --games 3000 --seed 7 [--worlds 16] [--write]`.
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
is always won (our expert's first hand grands, solved 0.83 on average, won 4 of 7).
"""

import argparse
import itertools
import json
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Final

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


def samples(text: str, worlds: int) -> dict[str, list[tuple[float, bool]]]:
    """(solved win rate, won) per kind for every declaration in an XSkat log."""
    by_kind: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for number, block in enumerate(b for b in text.split(SEPARATOR) if "random_seed" in b):
        game, deal = parse_game(block), dealt_hands(block)
        if game["declarer"] is None or deal is None or game["game"] not in GAMES:
            continue
        hands, skat, dealer = deal
        seat = game["declarer"] - 1
        kept, laid = parse_cards(hands[seat]), parse_cards(skat["is"])
        position = (seat - dealer % 3) % 3  # forehand sits after the dealer
        name = GAMES[game["game"]]
        outcomes = solve_outcomes(
            shared_solver(),
            kept,
            [(name, game["hand"], None)],
            position=position,
            worlds=worlds,
            rng=np.random.default_rng([number, worlds]),
            skat=None if game["hand"] else laid,
        )[0]
        solved = float(np.mean([level > 0 for level in outcomes.levels]))
        by_kind[Contract(name, game["hand"]).kind].append((solved, game["won"]))
    return by_kind


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


def main() -> None:
    parser = argparse.ArgumentParser(description="Fit the score bidder's calibration")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        text = play(args.games, args.seed, Path(tmp) / "xskat.log")
    table = json.loads(TABLE.read_text())
    for kind, points in sorted(samples(text, args.worlds).items()):
        row = fit(points)
        share = np.mean([w for _, w in points])
        mean_solved = np.mean([p for p, _ in points])
        print(f"{kind}: {len(points)} declarations, solved {mean_solved:.1%}, won {share:.1%}")
        print(f"  {row}")
        if len(points) >= MIN_GAMES and not kind.endswith("hand"):
            table["kinds"][kind] = row
    if args.write:
        table["source"] = (
            f"python -m bench.skat_calibration --games {args.games} --seed {args.seed}"
            f" --worlds {args.worlds} --write; hand kinds: a hand-set prior"
        )
        TABLE.write_text(json.dumps(table, indent=1) + "\n")


if __name__ == "__main__":
    main()
