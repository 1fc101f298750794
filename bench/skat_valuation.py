"""CPU time of the `score` bidder's valuations: bidding, discard and declaration.

Run: `python -m bench.skat_valuation [--deals 200] [--seed 870500] [--worlds 32]
[--budget 0.6] [--out FILE] [--against FILE]`.
Every hand of the deals (positions 0-2) is valued as `expert` values it, without a time
budget so that every world is solved and the result depends only on the seed:
* bid: `estimate_hand` of the ten cards (uncached), what the first bidding decision costs;
* discard: `choose_discard` with the deal's skat picked up (bid 18);
* declare: `choose_declaration` of the ten cards kept, every declaration allowed.
Each decision is timed in CPU time of the process (`time.process_time`), which other load
on the shared machine distorts least. Prints per kind the count, p50, p95 and max in ms,
the worlds solved per second, and the share of decisions whose worlds fit `--budget`
seconds. `--out` writes every decision's time and valuation as JSON lines; `--against`
reads such a file of another version on the same hands, prints the time ratios and counts
the decisions whose valuation differs (a faster valuation must give the same one).
"""

import argparse
import json
import time
from pathlib import Path
from typing import Any, Final

import msgspec
import numpy as np

from bots.skat.score_bidding import choose_declaration, choose_discard, estimate_hand
from engine.skat.actions import Declare
from engine.skat.cards import GAME_TYPES, format_cards, parse_cards
from engine.skat.rules import Rules
from engine.skat.state import new_game

KINDS: Final = ("bid", "discard", "declare")
OPENING_BID: Final = 18
_MS: Final = 1000.0


def decisions(seed: int, worlds: int) -> list[dict[str, Any]]:
    """The three valuations of every hand of deal `seed`, timed."""
    state = new_game(Rules(), seed=seed)
    skat = state.skat
    rows = []
    for position in range(3):
        seat = state.position_seat(position)
        obs = state.observation(seat)
        cards = state.hands[seat]
        start = time.process_time()
        outcomes = estimate_hand.__wrapped__(cards, position, worlds, None)
        rows.append(_row("bid", seed, position, start, repr(outcomes)))
        twelve = msgspec.structs.replace(
            obs, phase="discard", hand=tuple(format_cards(cards | skat)), bid=OPENING_BID
        )
        start = time.process_time()
        discard = choose_discard(twelve, worlds=worlds, seconds=None)
        rows.append(_row("discard", seed, position, start, repr(discard)))
        laid = parse_cards(discard.action.cards)  # type: ignore[union-attr]
        ten = msgspec.structs.replace(
            twelve,
            phase="declare",
            hand=tuple(format_cards((cards | skat) & ~laid)),
            discarded=tuple(format_cards(laid)),
            legal=_declarations(),
        )
        start = time.process_time()
        declared = choose_declaration(ten, worlds=worlds, seconds=None)
        rows.append(_row("declare", seed, position, start, repr(declared)))
    return rows


def _declarations() -> tuple[Declare, ...]:
    plain = tuple(Declare(g) for g in GAME_TYPES)
    return (*plain, Declare("null", ouvert=True))


def _row(kind: str, seed: int, position: int, start: float, valued: str) -> dict[str, Any]:
    seconds = time.process_time() - start
    return {"kind": kind, "seed": seed, "position": position, "cpu": seconds, "value": valued}


def summary(rows: list[dict[str, Any]], worlds: int, budget: float) -> None:
    print("kind | decisions | p50 ms | p95 ms | max ms | worlds/s | within budget")
    for kind in KINDS:
        times = np.array([r["cpu"] for r in rows if r["kind"] == kind])
        if not len(times):
            continue
        p50, p95 = np.percentile(times, [50, 95]) * _MS
        rate = worlds * len(times) / times.sum()
        within = float(np.mean(times <= budget))
        print(
            f"{kind} | {len(times)} | {p50:.0f} | {p95:.0f} | {times.max() * _MS:.0f} |"
            f" {rate:.0f} | {within:.1%}"
        )


def compare(rows: list[dict[str, Any]], other: list[dict[str, Any]]) -> None:
    """Time ratios (other / these) and the decisions whose valuation differs."""
    theirs = {(r["kind"], r["seed"], r["position"]): r for r in other}
    for kind in KINDS:
        mine = [r for r in rows if r["kind"] == kind]
        found = [(r, theirs.get((kind, r["seed"], r["position"]))) for r in mine]
        pairs = [(a, b) for a, b in found if b is not None]
        if not pairs:
            continue
        ours = np.array([a["cpu"] for a, _ in pairs])
        old = np.array([b["cpu"] for _, b in pairs])
        differ = sum(a["value"] != b["value"] for a, b in pairs)
        print(
            f"{kind}: {len(pairs)} decisions, total {old.sum():.1f} s -> {ours.sum():.1f} s"
            f" ({old.sum() / ours.sum():.2f}x), p50 {np.median(old) / np.median(ours):.2f}x,"
            f" p95 {np.percentile(old, 95) / np.percentile(ours, 95):.2f}x;"
            f" valuations differing: {differ}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=870500)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--budget", type=float, default=0.6)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    decisions(args.seed, 2)  # compile the kernels first
    rows: list[dict[str, Any]] = []
    for seed in range(args.seed, args.seed + args.deals):
        rows += decisions(seed, args.worlds)
    summary(rows, args.worlds, args.budget)
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    if args.against:
        other = [json.loads(line) for line in args.against.read_text().splitlines()]
        compare(rows, other)


if __name__ == "__main__":
    main()
