"""What drawing worlds costs a Monte Carlo Skat decision: `sample_worlds` for every seat's
observation of the card-play states of `--deals` deals (`bench.skat_views`' random deals),
`--worlds` worlds each. Printed: the median over `--repeats` runs of the milliseconds per
draw, and the worlds drawn per second.

    python -m bench.skat_sampling --deals 30 --worlds 100 --repeats 5
"""

import argparse
import statistics
import time

import numpy as np

from bench.skat_views import SEATS, card_play_states
from bots.skat.sampling import sample_worlds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    states = card_play_states(args.deals)
    observations = [state.observation(seat) for state in states for seat in range(SEATS)]
    runs = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for index, obs in enumerate(observations):
            sample_worlds(obs, args.worlds, np.random.default_rng(index))
        runs.append((time.perf_counter() - start) / len(observations) * 1e3)
    median = statistics.median(runs)
    print(f"{len(observations)} observations of {args.deals} deals, median of {args.repeats} runs:")
    print(
        f"  {median:.2f} ms per {args.worlds} worlds ({args.worlds / median * 1e3:,.0f} worlds/s)"
    )


if __name__ == "__main__":
    main()
