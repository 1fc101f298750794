"""`tischrunde tichu build-initiative|evaluate|calibrate`: the Tichu bots' offline commands.

Registered under the `tichu` group by `server.commands.tichu`. Long runs show a progress bar
on a terminal and stay quiet with `--json`; `--workers` spreads the work over processes.
"""

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from server.plain import Plain

if TYPE_CHECKING:
    from bots.tichu.duplicate import DuplicateSummary

__all__ = ["add_commands", "summary_table"]


def add_commands(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the bot subcommands to the `tichu` group."""
    build = commands.add_parser(
        "build-initiative",
        help="self-play statistics for the classic bot's initiative model (writes the data file)",
    )
    build.add_argument("--rounds", type=int, default=4000, help="rounds per iteration")
    build.add_argument("--seed", type=int, default=1, help="deal and bot seed")
    build.add_argument(
        "--iterations", type=int, default=2, help="classic self-play passes after the greedy one"
    )
    build.add_argument("--workers", type=int, default=1, help="processes")
    build.add_argument("--out", type=Path, default=None, help="file (default: the package data)")
    build.add_argument("--json", action="store_true", help="no progress bar, JSON summary")
    build.set_defaults(handler=_build)

    evaluate = commands.add_parser(
        "evaluate", help="duplicate-deal comparison of two bots (same deals, teams swapped)"
    )
    evaluate.add_argument("--a", default="classic", help="bot A")
    evaluate.add_argument("--b", default="greedy", help="bot B")
    evaluate.add_argument("--rounds", type=int, default=400, help="deals (each played twice)")
    evaluate.add_argument("--seed", type=int, default=1, help="deal and bot seed")
    evaluate.add_argument("--workers", type=int, default=1, help="processes")
    evaluate.add_argument("--json", action="store_true", help="no progress bar, JSON summary")
    evaluate.set_defaults(handler=_evaluate)

    calibrate = commands.add_parser(
        "calibrate", help="local search for the classic bot's weights and call thresholds"
    )
    calibrate.add_argument("--deals", type=int, default=300, help="duplicate deals per comparison")
    calibrate.add_argument("--sweeps", type=int, default=3, help="passes over the parameters")
    calibrate.add_argument("--seed", type=int, default=11, help="deal and bot seed")
    calibrate.add_argument("--workers", type=int, default=1, help="processes")
    calibrate.add_argument(
        "--start", default="default", choices=("default", "thesis"), help="starting parameters"
    )
    calibrate.set_defaults(handler=_calibrate)


def _progress(total: int, label: str, quiet: bool) -> tuple[Progress | None, Callable[[int], None]]:
    if quiet:
        return None, lambda _: None
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    )
    task = progress.add_task(label, total=total)
    return progress, lambda done: progress.advance(task, done)


def _build(args: argparse.Namespace) -> int:
    from bots.tichu.initiative import DEFAULT_FILE
    from bots.tichu.statistics import build_initiative

    out = args.out or Path(__file__).resolve().parents[2] / "bots" / "tichu" / "data" / DEFAULT_FILE
    total = args.rounds * (args.iterations + 1)
    progress, advance = _progress(total, "self-play rounds", args.json)
    if progress is not None:
        progress.start()
    try:
        counts = build_initiative(
            args.rounds, args.seed, args.iterations, out, workers=args.workers, on_progress=advance
        )
    finally:
        if progress is not None:
            progress.stop()
    report = {
        "out": str(out),
        "rounds": args.rounds,
        "seed": args.seed,
        "iterations": args.iterations,
        "plays_counted": int(counts.win[..., 0].sum()),
    }
    print(json.dumps(report))
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    from bots.registry import tichu_policy
    from bots.tichu.duplicate import run_duplicate, summarize

    try:
        a, b = tichu_policy(args.a), tichu_policy(args.b)
    except ValueError as error:
        raise SystemExit(f"tischrunde tichu evaluate: {error}") from error
    progress, advance = _progress(args.rounds, f"{args.a} vs {args.b}: deals", args.json)
    if progress is not None:
        progress.start()
    try:
        records = run_duplicate(
            a, b, args.rounds, args.seed, workers=args.workers, on_progress=advance
        )
    finally:
        if progress is not None:
            progress.stop()
    summary = summarize(records)
    if args.json:
        print(json.dumps({"a": args.a, "b": args.b, "seed": args.seed, **_as_dict(summary)}))
    else:
        Console().print(summary_table(args.a, args.b, summary))
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    """Print every step tried as a JSON line, then the best parameters."""
    from bots.tichu.calibration import Step, calibrate
    from bots.tichu.classic import THESIS_POLICY, ClassicPolicy

    start = THESIS_POLICY if args.start == "thesis" else ClassicPolicy()

    def show(step: Step) -> None:
        print(json.dumps(_as_dict(step)), flush=True)

    best, _ = calibrate(
        start, args.deals, args.seed, args.sweeps, workers=args.workers, on_step=show
    )
    print(json.dumps({"best": _as_dict(best)}))
    return 0


def _as_dict(summary: "DuplicateSummary") -> Plain:
    import msgspec

    result: Plain = msgspec.to_builtins(summary)
    return result


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f} %"


def summary_table(a: str, b: str, summary: "DuplicateSummary") -> Table:
    """The comparison as a rich table: differential with its CI, then rates per bot."""
    table = Table(
        title=(
            f"{a} vs {b}: {summary.rounds} rounds, {summary.mean:+.1f} ± {summary.ci95:.1f} "
            "points per round (95 %)"
        )
    )
    table.add_column("measure")
    table.add_column(a, justify="right")
    table.add_column(b, justify="right")
    rows = (
        ("Tichu calls per round (team)", summary.tichu_rate, False),
        ("Tichu success", summary.tichu_success, True),
        ("Grand Tichu calls per round (team)", summary.grand_rate, False),
        ("Grand Tichu success", summary.grand_success, True),
        ("double victories per round", summary.double_rate, False),
    )
    for label, pair, share in rows:
        cells = [_percent(v) if share else f"{v:.3f}" for v in pair]
        table.add_row(label, *cells)
    return table
