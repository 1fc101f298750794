"""What the server's views of one Skat move cost: after each move it builds every seat's
observation (the public part once, then each seat's hand and legal actions) without history.

States: the card play of `--deals` deals played out with random cards (forehand bids 18 and
declares clubs after picking up; the others pass). Printed: the median over `--repeats` runs of
the microseconds per state for three observations and for the three legal-action lists in them.

    python -m bench.skat_views --deals 200 --repeats 5
"""

import argparse
import random
import statistics
import time
from collections.abc import Callable

from engine.skat.actions import Action, Bid, Declare, Pass, PickUpSkat, Play
from engine.skat.rules import Rules
from engine.skat.state import State, new_game

SEATS = 3


def card_play_states(deals: int) -> list[State]:
    rng = random.Random(1)
    states = []
    for seed in range(deals):
        state = new_game(Rules(), seed=seed, dealer=SEATS - 1)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if state.phase == "play":
                states.append(state)
            state = state.apply(seat, _choose(state, seat, rng))
    return states


def _choose(state: State, seat: int, rng: random.Random) -> Action:
    legal = state.legal_actions(seat)
    plays = [a for a in legal if isinstance(a, Play)]
    if plays:
        return rng.choice(plays)
    if state.phase == "bidding":
        return Bid(18) if Bid(18) in legal else Pass()
    if state.phase == "skat":
        return PickUpSkat()
    if state.phase == "declare":
        return Declare("clubs")
    return legal[0]  # the discard: the first pair listed


def per_state(states: list[State], step: Callable[[State, int], object], repeats: int) -> float:
    """Median over `repeats` runs of microseconds per state for `step` on every seat."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for state in states:
            for seat in range(SEATS):
                step(state, seat)
        runs.append((time.perf_counter() - start) / len(states) * 1e6)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    states = card_play_states(args.deals)
    views = per_state(states, lambda s, seat: s.observation(seat, history=False), args.repeats)
    legal = per_state(states, State.legal_actions, args.repeats)
    print(f"{len(states)} card-play states of {args.deals} deals, median of {args.repeats} runs:")
    print(f"  three observations: {views:.1f} us per state")
    print(f"  three legal-action lists: {legal:.1f} us per state")


if __name__ == "__main__":
    main()
