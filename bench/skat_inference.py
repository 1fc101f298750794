"""How well the sampler places the hidden cards, with and without inference.

Run: `python -m bench.skat_inference [--deals 200] [--level club:montecarlo] [--worlds 400]
[--out skat_inference.jsonl]`.
Held-out deals (seeds from `--seed`, far from the knowledge base's) are played by `--level`
bots in every seat. At chosen decision points (a defender's first card in tricks 1, 4 and 7,
the declarer's in tricks 1 and 4) `--worlds` worlds are drawn uniformly from those consistent
with the mover's observation and weighted by `bots.skat.inference.world_weights`. Per point:
* p(true): the mean over the hidden cards of the probability given to the card's true place
  (a seat or the skat), uniform (every world alike) and weighted;
* log gain: log L(true world) - log mean L(sampled worlds), how much more probable the
  weighting makes the true world than uniform sampling does (in nats; 0 = no gain);
* ESS: the effective sample size of the weights, as a share of the worlds.
Prints per point: mean p(true) uniform and weighted with 95 % intervals (normal over points),
the paired difference and ratio, the mean log gain and the ESS share. Each point is appended
to `--out` as a JSON line, and a rerun skips the deals already there (resumable).
"""

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Final

import numpy as np

from bench.intervals import mean_interval
from bots.registry import skat_policy
from bots.skat.inference import log_likelihood
from bots.skat.sampling import World, facts_of, sample_worlds
from engine.bits import popcount
from engine.skat.rules import Rules
from engine.skat.state import State, new_game

FIRST_SEED: Final = 20_000_000  # held out: the knowledge base's deals start at 0
DEFENDER_TRICKS: Final = (1, 4, 7)
DECLARER_TRICKS: Final = (1, 4)


def points_of(state: State) -> tuple[str, int] | None:
    """("defender"/"declarer", trick number) when the mover's decision is measured."""
    if state.phase != "play" or state.contract is None or state.ramsch:
        return None
    seat = state.to_move
    trick = len(state.tricks) + 1
    declarer = seat == state.declarer
    tricks = DECLARER_TRICKS if declarer else DEFENDER_TRICKS
    if seat is None or trick not in tricks:
        return None
    return ("declarer" if declarer else "defender", trick)


def measure(state: State, seat: int, worlds: int, rng: np.random.Generator) -> dict[str, float]:
    """p(true) uniform and weighted, log gain and ESS share at one decision point."""
    obs = state.observation(seat)
    unknown = facts_of(obs).unknown
    pool = sample_worlds(obs, worlds, rng)
    truth = World(hands=tuple(h & unknown for h in state.hands), skat=state.skat & unknown)
    correct = np.array(
        [
            sum(popcount(w.hands[s] & truth.hands[s]) for s in range(len(w.hands)))
            + popcount(w.skat & truth.skat)
            for w in pool
        ],
        dtype=np.float64,
    ) / popcount(unknown)
    logs = log_likelihood(obs, pool)
    top = logs.max()
    weights = np.exp(logs - top)
    weights /= weights.sum()
    true_log = log_likelihood(obs, [World(hands=state.hands, skat=state.skat)])[0]
    mean_log = top + np.log(np.mean(np.exp(logs - top)))
    return {
        "uniform": float(correct.mean()),
        "weighted": float(weights @ correct),
        "log_gain": float(true_log - mean_log),
        "ess": float(1.0 / (weights**2).sum() / len(pool)),
    }


def play_and_measure(policy: Any, seed: int, worlds: int) -> list[dict[str, Any]]:
    """Play deal `seed` with `policy` in every seat, measuring at the chosen points."""
    state = new_game(Rules(), seed=seed)
    rng = np.random.default_rng(seed)
    measure_rng = np.random.default_rng([seed, 1])
    rows = []
    seen: set[tuple[int, int]] = set()
    while not state.is_over:
        seat = state.to_move
        assert seat is not None  # a deal that is not over has a seat to move
        point = points_of(state)
        if point is not None and (seat, point[1]) not in seen:
            seen.add((seat, point[1]))
            row = measure(state, seat, worlds, measure_rng)
            rows.append({"seed": seed, "role": point[0], "trick": point[1], **row})
        state = state.apply(seat, policy(state.observation(seat), rng).action)
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    groups: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["role"], row["trick"])].append(row)
    print(
        "| mover | trick | points | p(true) uniform | p(true) weighted | difference | ratio "
        "| log gain (nats) | ESS share |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for (role, trick), group in sorted(groups.items()):
        uniform = [r["uniform"] for r in group]
        weighted = [r["weighted"] for r in group]
        diff = [w - u for w, u in zip(weighted, uniform, strict=True)]
        ratio = np.mean(weighted) / np.mean(uniform)
        print(
            f"| {role} | {trick} | {len(group)} | {mean_interval(uniform)} "
            f"| {mean_interval(weighted)} | {mean_interval(diff, signed=True)} | {ratio:.3f} "
            f"| {mean_interval([r['log_gain'] for r in group])} "
            f"| {np.median([r['ess'] for r in group]):.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description="Skat inference: p(true) of hidden cards")
    parser.add_argument("--deals", type=int, default=200, help="deals to play")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="first deal seed")
    parser.add_argument(
        "--level", default="club:montecarlo", help="bot playing every seat (the former medium)"
    )
    parser.add_argument("--worlds", type=int, default=400, help="worlds sampled per point")
    parser.add_argument("--out", type=Path, default=Path("skat_inference.jsonl"))
    args = parser.parse_args()
    policy = skat_policy(args.level)
    lines = args.out.read_text().splitlines() if args.out.exists() else []
    loaded = [json.loads(line) for line in lines if line]
    done = {r["played"] for r in loaded if "played" in r}
    rows = [r for r in loaded if "role" in r]
    with args.out.open("a") as out:
        for seed in range(args.seed, args.seed + args.deals):
            if seed in done:
                continue
            new = play_and_measure(policy, seed, args.worlds)
            rows += new
            for row in new:
                out.write(json.dumps(row) + "\n")
            out.write(json.dumps({"played": seed}) + "\n")
            out.flush()
    report(rows)


if __name__ == "__main__":
    main()
