"""Tichu engine speed on one core: random-policy rounds and legal-move generations per second.

Run: `python -m bench.tichu_engine [--repeat 7] [--rounds 300] [--positions 4000]`. Prints the
median and the range over the repetitions of:

* rounds/s: whole rounds (deal, Grand Tichu decisions, exchange, play, scoring) through the
  public interface. The policy is uniform over `State.legal_actions(to_move)` and applies its
  choice with `State.apply_listed` (the fast path for a listed action), or with the checked
  `State.apply` in the rows marked so; in the simultaneous phases every seat acts in seat order, an
  exchange being three distinct cards drawn at random (uniform over the legal exchanges without
  listing all 2,184). With interrupts polled, after every play each other seat is asked for
  its legal actions and throws one of its bombs with probability 1/4.
* generations/s: `State.legal_actions(seat)` on positions sampled from random play (leads and
  answers), and the mask-level generator `plays.plays` on the same positions.

`--breakdown` instead plays `--rounds` random rounds once and prints where their time goes:
microseconds per round and per call for listing a lead or an answer, applying (listed) a lead, an
answer or a pass, the action that ends the round (it also scores it and deals the next), the
Grand Tichu and exchange phases and the policy's choice. A lead's list is either generated
or derived from the list of the same seat's hand before its last play (`play_actions`).

Times are process CPU time (`time.process_time`), so other load on the machine distorts them
less than wall-clock time would.
"""

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Final

from engine.tichu import Action, Exchange, Pass, Play, Rules, State, new_game
from engine.tichu.cards import format_cards
from engine.tichu.combos import NO_COMBO
from engine.tichu.plays import plays

BOMB_PROBABILITY: Final = 0.25
_SEATS: Final = 4
_EXCHANGED: Final = 3


def _random_exchange(state: State, seat: int, rng: random.Random) -> Exchange:
    cards = rng.sample(format_cards(state.hands[seat]), _EXCHANGED)
    return Exchange(left=cards[0], partner=cards[1], right=cards[2])


def _take(state: State, seat: int, action: Action, listed: bool) -> State:
    """`state` after `seat` takes `action`, chosen from its legal actions: through the fast
    path (`listed`) or the checked `apply`."""
    return state.apply_listed(seat, action) if listed else state.apply(seat, action)


def _simultaneous(state: State, rng: random.Random, listed: bool = True) -> State:
    """Every seat that still has to act in the Grand Tichu or exchange phase acts once."""
    for seat in range(_SEATS):
        if state.phase == "exchange":
            if state.gifts[seat] is None:
                state = state.apply(seat, _random_exchange(state, seat, rng))
        else:
            choices = state.legal_actions(seat)
            if choices:
                state = _take(state, seat, rng.choice(choices), listed)
    return state


def random_round(state: State, rng: random.Random, interrupts: bool, listed: bool = True) -> State:
    """Play the current round of `state` to its end with the random policy."""
    round_index = state.round_index
    while not state.is_over and state.round_index == round_index:
        seat = state.to_move
        if seat is None:
            state = _simultaneous(state, rng, listed)
            continue
        state = _take(state, seat, rng.choice(state.legal_actions(seat)), listed)
        if interrupts and state.table != NO_COMBO and not state.is_over:
            for other in range(_SEATS):
                if other == state.to_move:
                    continue
                found = [a for a in state.legal_actions(other) if isinstance(a, Play)]
                if found and rng.random() < BOMB_PROBABILITY:
                    state = _take(state, other, rng.choice(found), listed)
                    break
    return state


def rounds_per_second(rounds: int, seed: int, interrupts: bool, listed: bool = True) -> float:
    """Rounds per CPU second over `rounds` fresh deals."""
    rng = random.Random(seed)
    rules = Rules()
    start = time.process_time()
    for index in range(rounds):
        random_round(new_game(rules, seed=seed * rounds + index), rng, interrupts, listed)
    return rounds / (time.process_time() - start)


def sample_positions(count: int, seed: int) -> list[tuple[State, int]]:
    """(state, seat on turn) pairs from random play, leads and answers mixed."""
    rng = random.Random(seed)
    positions: list[tuple[State, int]] = []
    game = 0
    while len(positions) < count:
        state = new_game(Rules(), seed=seed + game)
        game += 1
        while state.phase in ("grand_tichu", "exchange"):
            state = _simultaneous(state, rng)
        while state.phase == "play" and state.round_index == 0 and len(positions) < count:
            positions.append((state, state.turn))
            state = state.apply_listed(state.turn, rng.choice(state.legal_actions(state.turn)))
    return positions


def generations_per_second(
    positions: list[tuple[State, int]], generate: Callable[[State, int], object]
) -> float:
    """Calls of `generate(state, seat)` per CPU second over `positions`."""
    start = time.process_time()
    for state, seat in positions:
        generate(state, seat)
    return len(positions) / (time.process_time() - start)


def _legal_actions(state: State, seat: int) -> object:
    return state.legal_actions(seat)


def _mask_plays(state: State, seat: int) -> object:
    table = NO_COMBO if state.closed else state.table
    return plays(state.hands[seat], table)


def breakdown(rounds: int, seed: int) -> tuple[Counter[str], Counter[str], float]:
    """Seconds and calls per step of `rounds` random rounds (as `random_round` without
    interrupts, timed step by step), and the CPU seconds of the whole run."""
    rng = random.Random(seed)
    seconds: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    clock = time.perf_counter
    start = time.process_time()
    for index in range(rounds):
        state = new_game(Rules(), seed=seed * rounds + index)
        while not state.is_over and state.round_index == 0:
            seat = state.to_move
            if seat is None:
                before = clock()
                state = _simultaneous(state, rng)
                seconds["Grand Tichu and exchange phases"] += clock() - before
                calls["Grand Tichu and exchange phases"] += 1
                continue
            step = "lead" if state.table == NO_COMBO or state.closed else "answer"
            if state.phase == "dragon":
                step = "Dragon trick"
            before = clock()
            actions = state.legal_actions(seat)
            listed = clock()
            listing = f"legal_actions: {step}"
            action = rng.choice(actions)
            chosen = clock()
            state = state.apply_listed(seat, action)
            applied = clock()
            kind = "pass" if isinstance(action, Pass) else type(action).__name__.lower()
            applying = f"apply_listed: {kind} ({step})"
            if state.is_over or state.round_index:
                applying = "apply_listed: the action ending the round"
            for label, spent in (
                (listing, listed - before),
                ("policy: random.choice", chosen - listed),
                (applying, applied - chosen),
            ):
                seconds[label] += spent
                calls[label] += 1
    return seconds, calls, time.process_time() - start


def _report_breakdown(rounds: int) -> None:
    seconds, calls, total = breakdown(rounds, 0)
    print(f"{rounds} rounds, {rounds / total:,.0f} rounds per CPU second with the timers")
    print(f"{'step':<40} {'us/round':>10} {'calls/round':>12} {'us/call':>10}")
    for label, spent in seconds.most_common():
        per_round = spent / rounds * 1e6
        print(
            f"{label:<40} {per_round:>10.1f} {calls[label] / rounds:>12.1f}"
            f" {spent / calls[label] * 1e6:>10.2f}"
        )


def _report(label: str, rates: list[float]) -> None:
    low, mid, high = min(rates), statistics.median(rates), max(rates)
    print(f"{label:<40} {mid:>12,.0f} {low:>12,.0f} {high:>12,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Tichu engine speed on one core")
    parser.add_argument("--repeat", type=int, default=7, help="repetitions (median taken)")
    parser.add_argument("--rounds", type=int, default=300, help="rounds per repetition")
    parser.add_argument("--positions", type=int, default=4000, help="positions for generation")
    parser.add_argument("--breakdown", action="store_true", help="where a round's time goes")
    args = parser.parse_args()
    if args.breakdown:
        _report_breakdown(args.rounds)
        return
    print(f"{'measure (per CPU second)':<40} {'median':>12} {'min':>12} {'max':>12}")
    for interrupts, listed in ((False, True), (False, False), (True, True)):
        label = "random rounds" + (", bomb interrupts polled" if interrupts else "")
        label += "" if listed else ", checked apply"
        rates = [
            rounds_per_second(args.rounds, rep, interrupts, listed) for rep in range(args.repeat)
        ]
        _report(label, rates)
    positions = sample_positions(args.positions, 1)
    leads = sum(1 for state, _ in positions if state.table == NO_COMBO or state.closed)
    for label, generate in (
        ("State.legal_actions", _legal_actions),
        ("plays.plays (masks)", _mask_plays),
    ):
        rates = [generations_per_second(positions, generate) for _ in range(args.repeat)]
        _report(label, rates)
    print(f"({len(positions)} positions from random play, {leads} of them leads)")


if __name__ == "__main__":
    main()
