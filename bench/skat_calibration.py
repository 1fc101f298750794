"""Fit the score bidder's calibration table from played games.

Run: `python -m bench.skat_calibration FILE [FILE ...] [--write]` on `bench.skat_strength`
output. Every declaration by a `score` level carries the share of solved worlds the contract
won (its prediction) and the real outcome. Per game kind (suit, grand, null; hand or not)
the predictions are binned, the won share per bin made non-decreasing, and the table
(bin mean -> won share, anchored at 0 -> 0) printed; with `--write` it replaces
bots/skat/data/calibration.json for the kinds with at least `MIN_GAMES` declarations (the
others keep their current rows).
"""

import argparse
import itertools
import json
from collections import defaultdict
from pathlib import Path
from typing import Final

import numpy as np

TABLE: Final = Path(__file__).resolve().parents[1] / "bots" / "skat" / "data" / "calibration.json"
EDGES: Final = (0.0, 0.6, 0.8, 0.9, 0.97, 1.01)
MIN_GAMES: Final = 30
MIN_BIN: Final = 5


def samples(paths: list[Path]) -> dict[str, list[tuple[float, bool]]]:
    """(predicted, won) per kind from the declarations that carry a prediction."""
    by_kind: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for path in paths:
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if record.get("predicted") is not None and record.get("kind"):
                by_kind[record["kind"]].append((float(record["predicted"]), bool(record["won"])))
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
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    table = json.loads(TABLE.read_text())
    for kind, points in sorted(samples(args.files).items()):
        row = fit(points)
        share = np.mean([w for _, w in points])
        print(f"{kind}: {len(points)} declarations, won {share:.1%}: {row}")
        if len(points) >= MIN_GAMES:
            table["kinds"][kind] = row
    if args.write:
        table["source"] = f"bench.skat_calibration on {', '.join(p.name for p in args.files)}"
        TABLE.write_text(json.dumps(table, indent=1) + "\n")


if __name__ == "__main__":
    main()
