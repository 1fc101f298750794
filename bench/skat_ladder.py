"""The Skat ladder: each level against the next one up, in duplicate.

Run: `python -m bench.skat_ladder --deals 150 --out FILE` (resumable: games already in FILE
are skipped; `--steps club-strong` plays only that step, `--quick` 12 deals), then
`python -m bench.skat_ladder --report --out FILE [FILE ...]`. With `--counted` the Monte
Carlo levels play as `LEVEL-counted` (time budgets off: every world they ask for is solved),
so a step depends only on its seeds, not on the machine's load; without it they play as at
the tables, with wall-time budgets. The output names which was used.

A step `weaker-stronger` is `bench.skat_strength` with the weaker level as the reference:
every deal is played once by three weaker bots (the mirror) and once per seat with the
stronger level in that seat and the weaker in the other two, the same cards and seats. A
deal's score is the mean over the seats of the stronger level's Seeger-Fabian points minus
the mirror's in that seat; the step's result is the mean per game with a 95 % interval over
deals. A ladder holds when every step's interval lies above 0: a change that flattens it
(a level no better than the one below) shows up as a step whose interval reaches 0.
"""

import argparse
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import msgspec

from bench import skat_strength
from bots.registry import counted_name

__all__ = ["LADDER", "Step", "ladder_steps", "main", "played_steps", "step_result"]

LADDER: Final = ("beginner", "club", "strong", "expert")
QUICK_DEALS: Final = 12
FIRST_SEED: Final = 30_261_127


class Step(msgspec.Struct, frozen=True):
    """One rung: the stronger level's SF points per game over the weaker's, paired by deal
    and seat, with the half-width of its 95 % interval."""

    weaker: str
    stronger: str
    deals: int
    sf_per_game: float
    ci95: float

    @property
    def holds(self) -> bool:
        """Whether the whole interval lies above 0 (needs at least two deals)."""
        return self.deals > 1 and self.sf_per_game - self.ci95 > 0


def ladder_steps(ladder: Sequence[str] = LADDER) -> list[tuple[str, str]]:
    """Each level with the next one up."""
    return list(itertools.pairwise(ladder))


def played_steps(steps: list[tuple[str, str]], counted: bool) -> list[tuple[str, str]]:
    """The bots that play `steps`: the levels themselves, or with `counted` their variants
    without time budgets."""
    if not counted:
        return steps
    return [(counted_name(weaker), counted_name(stronger)) for weaker, stronger in steps]


def budgets_note(counted: bool) -> str:
    """The line that says how the Monte Carlo levels were limited."""
    if counted:
        return "Monte Carlo levels counted: time budgets off, every world solved (load-independent)"
    return "Monte Carlo levels timed: wall-time budgets as at the tables (load-dependent)"


def step_result(records: list[dict[str, Any]], weaker: str, stronger: str) -> Step:
    """The step `weaker`-`stronger` from game records (other games in them are ignored)."""
    table = skat_strength.report(records, base=weaker)
    stats = table.get(stronger, {"deals": 0, "sf_per_game": 0.0, "ci95": 0.0})
    return Step(weaker, stronger, stats["deals"], stats["sf_per_game"], stats["ci95"])


def print_ladder(records: list[dict[str, Any]], steps: list[tuple[str, str]]) -> None:
    for weaker, stronger in steps:
        step = step_result(records, weaker, stronger)
        verdict = "above 0" if step.holds else "NOT above 0"
        print(
            f"{stronger} - {weaker}: {step.sf_per_game:+.1f} ± {step.ci95:.1f} SF per game, "
            f"{step.deals} deals, interval {verdict}"
        )
    for weaker, stronger in steps:
        print(f"\n{stronger} in one seat, {weaker} in the others (and the {weaker} mirror):")
        table = skat_strength.report(records, base=weaker)
        shown = {k: v for k, v in table.items() if k in (weaker, stronger)}
        skat_strength.print_report(shown, base=weaker)


def _parse_steps(text: str | None) -> list[tuple[str, str]]:
    if text is None:
        return ladder_steps()
    steps = []
    for item in text.split(","):
        weaker, _, stronger = item.partition("-")
        if not weaker or not stronger:
            raise SystemExit(f"a step is WEAKER-STRONGER, not {item!r}")
        steps.append((weaker, stronger))
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description="Skat levels against the next one up")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--quick", action="store_true", help=f"only {QUICK_DEALS} deals")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="first deal's seed")
    parser.add_argument("--steps", help="e.g. beginner-club,club-strong (default: the ladder)")
    parser.add_argument(
        "--out",
        type=Path,
        nargs="+",
        default=[Path("skat_ladder.jsonl")],
        help="games are appended to the first file; all are read for resuming and the report",
    )
    parser.add_argument("--report", action="store_true", help="only print the ladder")
    parser.add_argument(
        "--counted", action="store_true", help="play LEVEL-counted (time budgets off)"
    )
    args = parser.parse_args()
    steps = played_steps(_parse_steps(args.steps), args.counted)
    records = [r for path in args.out for r in skat_strength.load(path)]
    if not args.report:
        deals = QUICK_DEALS if args.quick else args.deals
        seeds = range(args.seed, args.seed + deals)
        done = {(r["deal"], tuple(r["names"])) for r in records}
        for weaker, stronger in steps:
            skat_strength.run([stronger], seeds, args.out[0], print, base=weaker, done=done)
        records = [r for path in args.out for r in skat_strength.load(path)]
    print(budgets_note(args.counted))
    print_ladder(records, steps)


if __name__ == "__main__":
    main()
