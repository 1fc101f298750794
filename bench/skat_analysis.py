"""Deal analysis speed: wall seconds per deal on one process (one pool worker), p50 and p95.

Run: `python -m bench.skat_analysis [--deals 50] [--worlds 24] [--skat-worlds 12]`.
Analyses (`bots.skat.analysis.analyze_deal`) the first `--deals` XSkat records of tests/data
that end in a declared game played out (passed-in deals have no card play), one after the
other in this process, the way a pool worker takes them; the solver is warmed first. Prints
per deal the wall and CPU seconds of the bidding and skat part and of the card play, then
p50, p95 and the maximum of the whole, with the machine's load average at start and end
(wall time on a shared machine is CPU time stretched by the other jobs). Issue 26 asks for
<= 10 s wall per deal.
"""

import argparse
import os
import statistics
import time
from collections.abc import Callable

from bots.skat.analysis import Budget, Step, run_step, steps_of
from bots.skat.montecarlo import shared_solver
from engine.skat.iss import read_records, replay_record
from engine.skat.state import State
from tests.reference_data import reference_file

CARDS_PLAYED = 30


def played_deals(count: int) -> list[tuple[str, State]]:
    """The first `count` records whose game was declared and played to the last trick."""
    deals = []
    for line in read_records(reference_file("xskat_games_sample.sgf").read_text()):
        outcome = replay_record(line, iss_compat=False)
        state = outcome.state
        played = sum(len(t.cards) for t in state.tricks)
        if state.contract is not None and played == CARDS_PLAYED:
            deals.append((outcome.record.game_id, state))
        if len(deals) == count:
            break
    return deals


def timed(work: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=50)
    default = Budget()
    parser.add_argument("--worlds", type=int, default=default.card_worlds)
    parser.add_argument("--skat-worlds", type=int, default=default.skat_worlds)
    args = parser.parse_args()
    budget = Budget(card_worlds=args.worlds, skat_worlds=args.skat_worlds)
    shared_solver()
    deals = played_deals(args.deals)
    load_start = os.getloadavg()[0]
    walls, cpus = [], []
    print(f"{'deal':>10} {'bid wall':>9} {'cards wall':>11} {'total wall':>11} {'total cpu':>10}")
    for game_id, state in deals:
        steps = steps_of(state)
        bid_wall, bid_cpu = timed(lambda s=state: run_step(s, Step("bidding"), budget, 0))
        card_wall, card_cpu = timed(
            lambda s=state, steps=steps: [run_step(s, step, budget, 0) for step in steps[1:]]
        )
        walls.append(bid_wall + card_wall)
        cpus.append(bid_cpu + card_cpu)
        print(
            f"{game_id:>10} {bid_wall:>9.2f} {card_wall:>11.2f} {walls[-1]:>11.2f} "
            f"{cpus[-1]:>10.2f}",
            flush=True,
        )
    load_end = os.getloadavg()[0]
    print(
        f"{len(deals)} deals, budget {args.worlds} worlds per card, {args.skat_worlds} per "
        f"hand valuation; load average {load_start:.1f} at start, {load_end:.1f} at end"
    )
    for label, values in (("wall", walls), ("cpu", cpus)):
        print(
            f"{label}: p50 {statistics.median(values):.2f} s, "
            f"p95 {percentile(values, 0.95):.2f} s, max {max(values):.2f} s, "
            f"mean {statistics.fmean(values):.2f} s"
        )


if __name__ == "__main__":
    main()
