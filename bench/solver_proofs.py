"""Where an exact value's work goes: `python -m bench.solver_proofs [--deals N]`.

An exact value v needs two proofs: the declarer reaches v (a bound query at v succeeds) and
does not reach v + 1 (the query at v + 1 fails). This prints, over the suit and grand deals
among the first N of `bench.solver`, the mean and median nodes of

* `win`: the one query at 61 points;
* `value`: the value driver as shipped;
* `proofs`: the two queries at v and v + 1 with one table, the least any driver that is told
  v in advance has to search (the driver's excess over it is what a better driver could save);
* `reaches v`: the query at v alone (fresh table), the proof that the declarer gets v;
* `not v + 1`: the query at v + 1 alone (fresh table);
* `moves`: the exact value of every first card (mode `moves`);
* `moves proofs`: for every first card, the two queries at its value and one point above
  after playing it, all with one table: the least exact `moves` can search when told the
  values.

Node counts do not depend on the machine's load, so the figures compare across runs.
"""

import argparse
import statistics
from typing import Final

import msgspec

from bench.solver import bench_positions
from engine.skat.solver import Position, Solver

__all__ = ["main", "proof_nodes"]

DEALS: Final = 120
ALL_POINTS: Final = 120  # every card point: a value of 120 has no query above it
COLUMNS: Final = ("win", "value", "proofs", "reaches v", "not v + 1", "moves", "moves proofs")


def proof_nodes(position: Position) -> dict[str, int]:
    """Nodes of each search in the module doc for one suit or grand position."""
    solved = Solver().solve(position, "value")
    total = solved.declarer_points
    if total is None:
        raise ValueError("proof_nodes takes suit and grand positions")
    pair = Solver()
    lower = pair.solve(position, "win", target=total).nodes
    upper = pair.solve(position, "win", target=total + 1).nodes if total < ALL_POINTS else 0
    alone = Solver().solve(position, "win", target=total + 1).nodes if total < ALL_POINTS else 0
    moves = Solver().solve(position, "moves")
    shared = Solver()
    moves_proofs = 0
    seat = position.to_move
    for move in moves.moves:
        card = 1 << move.cards[0]
        hands = tuple(h & ~card if i == seat else h for i, h in enumerate(position.hands))
        child = msgspec.structs.replace(position, hands=hands, trick=(move.cards[0],))
        points = move.declarer_points or 0
        moves_proofs += shared.solve(child, "win", target=points).nodes
        if points < ALL_POINTS:
            moves_proofs += shared.solve(child, "win", target=points + 1).nodes
    return {
        "win": Solver().solve(position, "win").nodes,
        "value": solved.nodes,
        "proofs": lower + upper,
        "reaches v": lower,
        "not v + 1": alone,
        "moves": moves.nodes,
        "moves proofs": moves_proofs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Where an exact value's work goes")
    parser.add_argument("--deals", type=int, default=DEALS, help="benchmark deals (nulls skipped)")
    args = parser.parse_args()
    positions = [p for p in bench_positions(args.deals) if p.game != "null"]
    rows = [proof_nodes(p) for p in positions]
    value_mean = statistics.fmean(r["value"] for r in rows)
    print(f"{len(rows)} suit and grand deals of the first {args.deals}")
    print(f"{'search':<12} {'mean nodes':>12} {'median':>12} {'of value':>9}")
    for column in COLUMNS:
        found = [r[column] for r in rows]
        mean = statistics.fmean(found)
        share = mean / value_mean
        print(f"{column:<12} {mean:>12,.0f} {statistics.median(found):>12,.0f} {share:>9.0%}")


if __name__ == "__main__":
    main()
