"""Card play with and without inference: a duplicate A/B on the same deals and the same auction.

Run: `python -m bench.skat_card_play [--deals 100] [--worlds 40] [--out skat_card_play.jsonl]`.
Each deal (seeds from `--seed`, held out) is bid, and the skat taken and declared, once by
`strong` bots; from the first card on it is played out four times by Monte Carlo bots of
`--worlds` worlds (no time budget, so that the load on the machine does not change the play;
each seat with its own random stream): once with inference off in every seat, and once per
seat with inference on in that seat only. Per deal and seat the paired figure is that seat's
Seeger-Fabian points with inference minus without. Prints the mean per seat-game with a 95 %
interval (normal over seat-games), overall and for the declarer's and the defenders' seats,
with the number of seat-games whose points differ. Each deal is appended to `--out` as a JSON
line; a rerun skips the deals there.
Passed-in deals and Ramsch are skipped (nothing to play).
"""

import argparse
import json
from pathlib import Path
from typing import Any, Final

import numpy as np

from bench.intervals import mean_interval
from bots.policy import Decision
from bots.skat.levels import LEVELS, SkatBot
from bots.skat.match import SkatPolicy, play_out
from engine.skat.actions import Action
from engine.skat.observation import Observation
from engine.skat.rules import Rules
from engine.skat.scoring import Result
from engine.skat.state import State, new_game

FIRST_SEED: Final = 21_000_000


def auction(seed: int) -> State:
    """Deal `seed` bid, taken and declared by `strong` bots, up to its first card."""
    bot = LEVELS["strong"]
    state = new_game(Rules(), seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_over and state.phase != "play":
        seat = state.to_move
        assert seat is not None  # a deal that is not over has a seat to move
        state = state.apply(seat, bot(state.observation(seat), rng).action)
    return state


def compare(seed: int, worlds: int) -> dict[str, Any] | None:
    """Per seat: SF with inference in that seat minus SF with inference nowhere."""
    start = auction(seed)
    if start.is_over or start.ramsch:
        return None
    base = _play(start, seed, worlds, None)
    diffs = []
    for seat in range(3):
        result = _play(start, seed, worlds, seat)
        diffs.append(result.seeger_fabian[seat] - base.seeger_fabian[seat])
    return {"seed": seed, "declarer": start.declarer, "game": base.game, "diffs": diffs}


def _play(start: State, seed: int, worlds: int, inferring: int | None) -> Result:
    """Play `start` out, inference on in seat `inferring` only. Each seat draws from its own
    random stream, so the seats that do not change play as before until the cards differ."""
    streams = [np.random.default_rng([seed, seat]) for seat in range(3)]
    bots = [
        SkatBot(worlds=worlds, inference="both" if seat == inferring else "none")
        for seat in range(3)
    ]
    policies = [_with_stream(bot, stream) for bot, stream in zip(bots, streams, strict=True)]
    return play_out(start, policies, np.random.default_rng(seed)).result


def _with_stream(bot: SkatBot, stream: np.random.Generator) -> SkatPolicy:
    def policy(obs: Observation, rng: np.random.Generator) -> Decision[Action]:
        return bot(obs, stream)

    return policy


def report(rows: list[dict[str, Any]]) -> None:
    played = [r for r in rows if "diffs" in r]
    groups: dict[str, list[float]] = {"all seats": [], "declarer": [], "defenders": []}
    for row in played:
        for seat, diff in enumerate(row["diffs"]):
            groups["all seats"].append(diff)
            groups["declarer" if seat == row["declarer"] else "defenders"].append(diff)
    print(f"{len(rows)} deals, {len(played)} played (others passed in)")
    print("| seats | seat-games | differing | SF with - without inference, per seat-game |")
    print("|---|---|---|---|")
    for name, values in groups.items():
        differing = sum(1 for v in values if v)
        figure = mean_interval(values, signed=True, digits=2)
        print(f"| {name} | {len(values)} | {differing} | {figure} |")


def main() -> None:
    parser = argparse.ArgumentParser(description="Skat card play with and without inference")
    parser.add_argument("--deals", type=int, default=100, help="deals to play")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help="first deal seed")
    parser.add_argument("--worlds", type=int, default=40, help="worlds per card decision")
    parser.add_argument("--out", type=Path, default=Path("skat_card_play.jsonl"))
    args = parser.parse_args()
    lines = args.out.read_text().splitlines() if args.out.exists() else []
    rows = [json.loads(line) for line in lines if line]
    done = {r["seed"] for r in rows}
    with args.out.open("a") as out:
        for seed in range(args.seed, args.seed + args.deals):
            if seed in done:
                continue
            row = compare(seed, args.worlds) or {"seed": seed}
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
    report(rows)


if __name__ == "__main__":
    main()
