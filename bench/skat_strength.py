"""Skat levels against the frozen `baseline` on duplicate deals.

Run: `python -m bench.skat_strength --levels expert --deals 667 --out FILE` (resumable: games
already in FILE are skipped), then `python -m bench.skat_strength --report --out FILE`.

Every deal is played in all three seatings with the level in one seat and `baseline` in the
other two, and once by three baselines (the mirror: `baseline` in the level's seat of every
seating). A deal's score for a level is the mean over the three seats of the level's
Seeger-Fabian points minus the mirror's in that seat, so the cards' luck cancels; the report
gives its mean per game with a 95 % interval over deals. Per level (and for `baseline`, from
the mirror games) it also prints the declare rate, the declarer's win rate, the share of
grand / suit / null / hand / ouvert among the declarations, the mean final bid of its
declarations, the passed-in deals and the level's decision times (median / p95, in process
wall time) by phase group. Each line of FILE is one game; the declarer's predicted win rate
(solved worlds, as the `score` bidder reported it) is kept for `bench.skat_calibration`.
"""

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

import numpy as np

from bots.policy import Decision
from bots.registry import skat_policy
from bots.skat.match import DecisionTime, SkatPolicy, play_deal
from engine.skat.actions import Action
from engine.skat.cards import SUIT_GAMES
from engine.skat.observation import Observation

BASELINE: Final = "baseline"
MIRROR: Final = "mirror"
SEATS: Final = 3
GROUPS: Final = {"bidding": "bid", "skat": "skat", "discard": "skat", "declare": "skat"}
FIRST_SEED: Final = 20_261_127


def _recording(policy: SkatPolicy, seat: int, notes: dict[int, dict[str, Any]]) -> SkatPolicy:
    """`policy`, keeping the diagnostics of its last skat-phase decision in `notes[seat]`."""

    def decide(obs: Observation, rng: np.random.Generator) -> Decision[Action]:
        decision = policy(obs, rng)
        if obs.phase in ("skat", "declare"):
            notes[seat] = dict(decision.diagnostics)
        return decision

    return decide


def play_game(names: list[str], seed: int) -> dict[str, Any]:
    """One game of deal `seed` with the bots `names` by seat, as a JSON-able record."""
    notes: dict[int, dict[str, Any]] = {}
    policies = [_recording(skat_policy(n), s, notes) for s, n in enumerate(names)]
    timings: list[DecisionTime] = []
    result = play_deal(policies, seed, timings=timings).result
    times: dict[str, list[list[float]]] = {}
    for t in timings:
        group = GROUPS.get(t.phase, "play")
        times.setdefault(group, [[] for _ in range(SEATS)])[t.seat].append(round(t.seconds, 4))
    declarer = result.declarer
    note = notes.get(declarer, {}) if declarer is not None else {}
    predicted = note.get("hand", note) if result.hand else note
    return {
        "deal": seed,
        "names": names,
        "sf": list(result.seeger_fabian),
        "declarer": declarer,
        "game": result.game,
        "hand": result.hand,
        "ouvert": result.ouvert,
        "schneider_announced": result.schneider_announced,
        "won": result.won,
        "bid": result.bid,
        "passed_in": result.passed_in,
        "predicted": predicted.get("solved") if isinstance(predicted, dict) else None,
        "kind": predicted.get("kind") if isinstance(predicted, dict) else None,
        "times": times,
    }


def _key(record: dict[str, Any]) -> tuple[int, tuple[str, ...]]:
    return record["deal"], tuple(record["names"])


def games_to_play(
    levels: list[str], seeds: Iterable[int], base: str = BASELINE
) -> list[tuple[int, list[str]]]:
    """Per deal: the mirror (three `base` bots), then each level in each seat against two."""
    games = []
    for seed in seeds:
        games.append((seed, [base] * SEATS))
        for level in levels:
            for seat in range(SEATS):
                names = [base] * SEATS
                names[seat] = level
                games.append((seed, names))
    return games


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def run(
    levels: list[str],
    seeds: range,
    path: Path,
    log: Callable[[str], None],
    base: str = BASELINE,
    done: set[tuple[int, tuple[str, ...]]] | None = None,
) -> None:
    """Play the games of `games_to_play` not yet in `path` (or in `done`), appending each."""
    done = {_key(r) for r in load(path)} | (done or set())
    with path.open("a") as out:
        for seed, names in games_to_play(levels, seeds, base):
            if (seed, tuple(names)) in done:
                continue
            start = time.perf_counter()
            record = play_game(names, seed)
            out.write(json.dumps(record) + "\n")
            out.flush()
            log(
                f"deal {seed} {','.join(names)}: {record['game']} {record['won']} "
                f"sf {record['sf']} {time.perf_counter() - start:.1f} s"
            )


def _level_of(record: dict[str, Any], base: str) -> tuple[str, int] | None:
    """The level and its seat in a game of one level against two `base` bots; None for the
    mirror and for games of other bots."""
    others = [(n, s) for s, n in enumerate(record["names"]) if n != base]
    return others[0] if len(others) == 1 else None


def _is_mirror(record: dict[str, Any], base: str) -> bool:
    return all(n == base for n in record["names"])


def _seat_stats(games: list[tuple[dict[str, Any], int]]) -> dict[str, Any]:
    """Statistics of one bot over (game, its seat) pairs."""
    declared = [g for g, seat in games if g["declarer"] == seat]
    n = len(declared) or 1
    times: dict[str, list[float]] = defaultdict(list)
    for g, seat in games:
        for group, per_seat in g["times"].items():
            times[group] += per_seat[seat]
    return {
        "games": len(games),
        "declare_rate": len(declared) / max(len(games), 1),
        "win_rate": sum(bool(g["won"]) for g in declared) / n,
        "grand": sum(g["game"] == "grand" for g in declared) / n,
        "suit": sum(g["game"] in SUIT_GAMES for g in declared) / n,
        "null": sum(g["game"] == "null" for g in declared) / n,
        "hand": sum(bool(g["hand"]) for g in declared) / n,
        "ouvert": sum(bool(g["ouvert"]) for g in declared) / n,
        "mean_bid": float(np.mean([g["bid"] for g in declared])) if declared else 0.0,
        "passed_in": len({id(g) for g, _ in games if g["passed_in"]}),
        "distinct_games": len({id(g) for g, _ in games}),
        "times_ms": {
            group: (1000 * float(np.median(v)), 1000 * float(np.percentile(v, 95)))
            for group, v in sorted(times.items())
            if v
        },
    }


def report(records: list[dict[str, Any]], base: str = BASELINE) -> dict[str, dict[str, Any]]:
    """Per level (and `base` from the mirror games): paired SF per game and statistics."""
    mirror = {r["deal"]: r for r in records if _is_mirror(r, base)}
    by_level: dict[str, dict[int, dict[int, dict[str, Any]]]] = defaultdict(dict)
    for r in records:
        found = _level_of(r, base)
        if found is not None:
            by_level[found[0]].setdefault(r["deal"], {})[found[1]] = r
    table: dict[str, dict[str, Any]] = {}
    for level, deals in sorted(by_level.items()):
        complete = {d: g for d, g in deals.items() if len(g) == SEATS and d in mirror}
        diffs = [
            np.mean([g[s]["sf"][s] - mirror[d]["sf"][s] for s in range(SEATS)])
            for d, g in complete.items()
        ]
        stats = _seat_stats([(g, s) for gs in complete.values() for s, g in gs.items()])
        n = len(diffs)
        stats["deals"] = n
        stats["sf_per_game"] = float(np.mean(diffs)) if n else 0.0
        stats["ci95"] = 1.96 * float(np.std(diffs, ddof=1)) / np.sqrt(n) if n > 1 else 0.0
        table[level] = stats
    mirrored = [(r, s) for r in mirror.values() for s in range(SEATS)]
    table[base] = _seat_stats(mirrored) | {"deals": len(mirror)}
    return table


def print_report(table: dict[str, dict[str, Any]], base: str = BASELINE) -> None:
    for name, s in table.items():
        head = f"{name}: {s['deals']} deals"
        if "sf_per_game" in s:
            head += f", SF/game vs {base} {s['sf_per_game']:+.1f} ± {s['ci95']:.1f}"
        print(head)
        print(
            f"  declares {s['declare_rate']:.1%}, wins {s['win_rate']:.1%}, grand {s['grand']:.1%},"
            f" suit {s['suit']:.1%}, null {s['null']:.1%}, hand {s['hand']:.1%},"
            f" ouvert {s['ouvert']:.1%}, mean bid {s['mean_bid']:.1f},"
            f" passed in {s['passed_in']} of {s['distinct_games']} games"
        )
        times = ", ".join(f"{g} {m:.0f}/{p:.0f}" for g, (m, p) in s["times_ms"].items())
        print(f"  decision times ms (median/p95): {times}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Skat levels against the frozen baseline")
    parser.add_argument("--levels", default="expert", help="comma-separated level names")
    parser.add_argument("--deals", type=int, default=667)
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="first deal's seed")
    parser.add_argument("--out", type=Path, default=Path("skat_strength.jsonl"))
    parser.add_argument("--report", action="store_true", help="only print the report")
    args = parser.parse_args()
    if not args.report:
        levels = args.levels.split(",")
        run(levels, range(args.seed, args.seed + args.deals), args.out, print)
    print_report(report(load(args.out)))


if __name__ == "__main__":
    main()
