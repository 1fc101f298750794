"""Benchmark of the Skat solver: `python -m bench.solver [--write]`.

A fixed set of seeded deals (`engine.skat.deal.deal_from_seed`), the same number of each game
type, each with a declarer whose hand someone would play that game with (at least five trumps
with a jack; a grand with two jacks and two aces; a null with a 7 or 8 in every suit held):
the seeds are searched in a fixed order until such a hand turns up. Forehand leads. After JIT
warm-up it times `win`, `value`, `moves` and `best` (the first card) per deal on one core, then runs
the ablation (each technique off, or another value driver) on a subset, then measures memory
and the start of a second process with the numba cache warm. `--write` puts the report into
`docs/benchmarks.md` under `## Skat solver`.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import msgspec

from engine.bits import popcount
from engine.skat.cards import (
    GAME_TYPES,
    JACKS,
    SUIT_CARDS,
    GameType,
    follow_mask,
    jack,
    power,
    suit_card,
    trump_mask,
)
from engine.skat.deal import deal_from_seed
from engine.skat.solver import Mode, Options, Position, Solver

__all__ = ["bench_positions", "main"]

BASE_SEED: Final = 20_250_000
DEALS: Final = 360  # 60 of each game type
ABLATION_DEALS: Final = 90
NO_TABLE_DEALS: Final = 12  # without a transposition table the search explodes
PERCENTILE: Final = 95
MS_PER_S: Final = 1000.0
KIB_PER_MIB: Final = 1024
ROOT: Final = Path(__file__).resolve().parent.parent
DOC: Final = ROOT / "docs" / "benchmarks.md"
SECTION: Final = "## Skat solver"
MODES: Final[tuple[Mode, ...]] = ("win", "value", "moves", "best")

NULL_SUITS: Final = tuple(SUIT_CARDS[s] | 1 << jack(s) for s in range(4))
SEED_TRIES: Final = 64  # seeds tried per benchmark deal to find a plausible game
_MIN_TRUMPS: Final = 5  # suit game: trumps, at least one of them a jack
_MIN_GRAND_JACKS: Final = 2
_MIN_GRAND_ACES: Final = 2
_LOW_NULL_POWER: Final = 1  # null: every suit held holds its 7 or 8

_SECOND_PROCESS: Final = """
import time
start = time.perf_counter()
from engine.skat.deal import deal_from_seed
from engine.skat.solver import Position, Solver
imported = time.perf_counter()
deal = deal_from_seed({seed})
Solver().solve(Position.from_deal(deal.hands, deal.skat, "grand", 0), "win")
print(imported - start, time.perf_counter() - start)
"""


def _plausible(game: GameType, hand: int) -> bool:
    """A hand someone would declare `game` with (no bidding: only to make deals realistic)."""
    if game == "null":
        return all(
            min(power(game, c) for c in range(32) if hand >> c & 1 and follow_mask(game, c) & suit)
            <= _LOW_NULL_POWER
            for suit in NULL_SUITS
            if hand & suit
        )
    jacks = popcount(hand & JACKS)
    if game == "grand":
        aces = sum(hand >> suit_card(s, "A") & 1 for s in range(4))
        return jacks >= _MIN_GRAND_JACKS and aces >= _MIN_GRAND_ACES
    return jacks >= 1 and popcount(hand & trump_mask(game)) >= _MIN_TRUMPS


def bench_positions(count: int = DEALS) -> list[Position]:
    """The benchmark deals: game types in turn; for deal i the first of seeds
    BASE_SEED + SEED_TRIES * i + k where a seat holds a plausible hand, which declares."""
    positions = []
    for i in range(count):
        game = GAME_TYPES[i % len(GAME_TYPES)]
        for k in range(SEED_TRIES):
            deal = deal_from_seed(BASE_SEED + SEED_TRIES * i + k)
            seats = [seat for seat in range(3) if _plausible(game, deal.hands[seat])]
            if seats:
                break
        else:
            raise RuntimeError(f"no plausible {game} hand in {SEED_TRIES} seeds")
        positions.append(Position.from_deal(deal.hands, deal.skat, game, seats[0], 0))
    return positions


def _run(
    solver: Solver, positions: Sequence[Position], mode: Mode
) -> tuple[list[float], list[int]]:
    times, nodes = [], []
    for position in positions:
        start = time.thread_time()
        result = solver.solve(position, mode)
        times.append((time.thread_time() - start) * MS_PER_S)
        nodes.append(result.nodes)
    return times, nodes


def _p95(values: Sequence[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[PERCENTILE - 1]


def _mode_table(solver: Solver, positions: Sequence[Position]) -> list[str]:
    lines = [
        "| mode | mean ms | median ms | p95 ms | max ms | nodes mean | nodes median | nodes max |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for mode in MODES:
        times, nodes = _run(solver, positions, mode)
        lines.append(
            f"| {mode} | {statistics.mean(times):.1f} | {statistics.median(times):.1f} "
            f"| {_p95(times):.1f} | {max(times):.0f} | {statistics.mean(nodes):,.0f} "
            f"| {statistics.median(nodes):,.0f} | {max(nodes):,} |"
        )
        print(lines[-1], flush=True)
    return lines


def _variants(few: int) -> list[tuple[str, Options, bool]]:
    """(label, options, only the first `few` deals in win mode)."""
    fixed = ("value_driver", "transposition_table")
    switches = [f for f in Options.__struct_fields__ if f not in fixed]
    drivers = ("mtd", "bisection", "window")
    return [
        ("all on (value driver: hybrid)", Options(), False),
        *((f"{name} off", msgspec.convert({name: False}, Options), False) for name in switches),
        *(
            (f"value driver: {d}", msgspec.convert({"value_driver": d}, Options), False)
            for d in drivers
        ),
        # Without a table the search explodes: compare on a few deals, win only.
        (f"all on, first {NO_TABLE_DEALS} deals", Options(), True),
        (
            f"transposition_table off, first {NO_TABLE_DEALS} deals",
            Options(transposition_table=False),
            True,
        ),
    ]


def _ablation(positions: Sequence[Position]) -> list[str]:
    lines = [
        f"| variant ({len(positions)} deals) | win nodes | win ms | value nodes | value ms |",
        "|---|---|---|---|---|",
    ]
    for label, options, few in _variants(min(NO_TABLE_DEALS, len(positions))):
        solver = Solver(options)
        cells = []
        for mode in MODES[:2]:
            if few and mode == "value":
                cells += ["not run", "not run"]
                continue
            subset = positions[:NO_TABLE_DEALS] if few else positions
            times, nodes = _run(solver, subset, mode)
            cells += [f"{statistics.mean(nodes):,.0f}", f"{statistics.mean(times):.1f}"]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    return lines


def _second_process() -> tuple[float, float]:
    """(import, import and first solve) seconds of a fresh process with the cache warm; a
    first throw-away process makes sure the cache is warm."""
    code = _SECOND_PROCESS.format(seed=BASE_SEED)
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        )
    imported, solved = (float(x) for x in done.stdout.split())
    return imported, solved


def _write(report: list[str]) -> None:
    text = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    head, _, rest = text.partition(SECTION)
    tail = rest.split("\n## ", 1)[1] if "\n## " in rest else ""
    body = "\n".join([SECTION, "", *report, ""])
    DOC.write_text(head.rstrip() + "\n\n" + body + ("\n## " + tail if tail else ""))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print a markdown report (and write it with `--write`)."""
    parser = argparse.ArgumentParser(prog="python -m bench.solver", description=__doc__)
    parser.add_argument("--deals", type=int, default=DEALS, help="deals per mode")
    parser.add_argument("--ablation-deals", type=int, default=ABLATION_DEALS)
    parser.add_argument("--write", action="store_true", help=f"update {DOC.relative_to(ROOT)}")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    positions = bench_positions(args.deals)
    solver = Solver()
    solver.solve(positions[0], "moves")  # JIT warm-up (or cache load)
    command = "python -m bench.solver" + (" --write" if args.write else "")
    report = [
        f"Command: `{command}` ({args.deals} deals from seeds {BASE_SEED}+, game types in "
        "turn, declarers with plausible hands, forehand leads; one core; CPU time of the "
        "solving thread per solve after JIT warm-up, one `Solver` kept across deals).",
        "",
        *_mode_table(solver, positions),
        "",
        *_ablation(positions[: args.ablation_deals]),
        "",
    ]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / KIB_PER_MIB
    imported, solved = _second_process()
    report += [
        f"Memory: peak RSS of this process {rss:.0f} MiB (the table is "
        f"{solver.table_bytes // KIB_PER_MIB // KIB_PER_MIB} MiB).",
        f"Second process, numba cache warm (wall time): import {imported:.2f} s, import and first "
        f"solve {solved:.2f} s.",
        f"Total benchmark time {time.perf_counter() - started:.0f} s; load average "
        f"{load_before:.1f} at the start and {os.getloadavg()[0]:.1f} at the end on "
        f"{os.cpu_count()} cores (other jobs share the machine: CPU times vary by about 10 %).",
    ]
    print("\n".join(report[-3:]))
    if args.write:
        _write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
