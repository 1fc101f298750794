"""Self-play statistics for the initiative model (`tischrunde tichu build-initiative`).

Rounds are played by four copies of a policy; the recorder watches every play with the full
knowledge of the simulation (this is the statistics builder, not a bot) and counts:

* win: for each combination played, keyed by (class, height slot, highest card out against it
  from the player's view, trick bucket), whether it stayed on top of its trick;
* play: for each seat still holding cards at each trick, and each (class, height slot),
  whether another seat led a lower combination of that class from that trick on.

Iteration 0 is played by the greedy baseline (it needs no model); iteration i by the classic
bot (with the thesis's published weights and threshold) using the counts of iteration i-1, so
the statistics describe the classic bot's own games. The result depends only on (rounds,
seed, iterations).
"""

import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Final

import msgspec
import numpy as np

from bots.tichu.baseline import greedy_policy
from bots.tichu.classic import THESIS_POLICY
from bots.tichu.combination import CLASSES, class_of
from bots.tichu.initiative import (
    HEIGHT_SLOTS,
    TOP_SLOTS,
    TRICK_BUCKETS,
    height_slot,
    top_out,
    trick_bucket,
)
from bots.tichu.match import TichuPolicy, play_round
from engine.rng import make_stream_rng
from engine.tichu.actions import Action, Play
from engine.tichu.cards import parse_cards
from engine.tichu.combos import DRAGON_HEIGHT, NO_COMBO, classify, height_of
from engine.tichu.deal import SEATS, deal_from_seed
from engine.tichu.rules import Rules
from engine.tichu.state import State, new_game

__all__ = ["Counts", "RoundRecorder", "build_initiative", "gather", "save_counts"]

_BUCKETS: Final = len(TRICK_BUCKETS)
_ONE_ROUND: Final = Rules(max_rounds=1)
_HALVES: Final = 2
# a lead of height below this (half ranks) can be answered by a combination in a height slot;
# the Phoenix single answers every single below the Dragon
_ANSWERS_BELOW: Final = np.array(
    [_HALVES * h for h in range(HEIGHT_SLOTS - 1)] + [DRAGON_HEIGHT], dtype=np.int64
)
_NO_LEAD: Final = 1 << 10
_CHUNK: Final = 25  # rounds per job
_TRIALS_AND_HITS: Final = 2  # last axis of the count tables


class Counts:
    """Trials and successes of the two statistics (`win`: [class, height, top, bucket, 2],
    `play`: [class, height, bucket, 2])."""

    def __init__(self) -> None:
        win_shape = (CLASSES, HEIGHT_SLOTS, TOP_SLOTS, _BUCKETS, _TRIALS_AND_HITS)
        self.win = np.zeros(win_shape, dtype=np.int64)
        self.play = np.zeros((CLASSES, HEIGHT_SLOTS, _BUCKETS, _TRIALS_AND_HITS), dtype=np.int64)

    def add(self, other: "Counts") -> None:
        """Accumulate another set of counts."""
        self.win += other.win
        self.play += other.play


class RoundRecorder:
    """An `on_action` hook collecting one round's plays into `counts`."""

    def __init__(self, counts: Counts) -> None:
        self.counts = counts
        self.trick = -1
        self.pending: list[tuple[int, int, int, int]] = []  # this trick's recorded plays
        self.leads: list[tuple[int, int, int, int]] = []  # (trick, seat, class, height)
        self.holding: list[int] = []  # per trick: seats with cards at its lead

    def __call__(self, before: State, seat: int, action: Action, after: State) -> None:
        if isinstance(action, Play) and before.phase in ("play", "dragon"):
            self._play(before, seat, parse_cards(action.cards))
        if after.round_index != before.round_index or after.is_over:
            self._close_trick()
            self._count_leads()

    def _play(self, before: State, seat: int, cards: int) -> None:
        leading = seat == before.turn and (before.table == NO_COMBO or before.closed)
        table = NO_COMBO if leading else before.table
        combo = classify(cards, table)
        if leading:
            self._close_trick()
            self.trick += 1
            self.holding.append(sum(1 << s for s in range(SEATS) if before.hands[s]))
        klass = class_of(combo)
        if klass < 0:  # bombs and the Dog: not modelled, but they end the others' chances
            self.pending.append((-1, 0, 0, 0))
            return
        if leading:
            self.leads.append((self.trick, seat, klass, height_of(combo)))
        held = before.hands[0] | before.hands[1] | before.hands[2] | before.hands[3]
        unseen = held & ~before.hands[seat]
        self.pending.append(
            (klass, height_slot(combo), top_out(unseen, combo), trick_bucket(self.trick))
        )

    def _close_trick(self) -> None:
        for index, (klass, slot, top, bucket) in enumerate(self.pending):
            if klass < 0:
                continue
            cell = self.counts.win[klass, slot, top, bucket]
            cell[0] += 1
            cell[1] += index == len(self.pending) - 1
        self.pending = []

    def _count_leads(self) -> None:
        tricks = self.trick + 1
        if tricks <= 0:
            return
        lowest = np.full((tricks, SEATS, CLASSES), _NO_LEAD, dtype=np.int64)
        for trick, leader, klass, height in self.leads:
            for seat in range(SEATS):
                if seat != leader:
                    column = lowest[: trick + 1, seat, klass]
                    np.minimum(column, height, out=column)
        answerable = lowest[..., None] < _ANSWERS_BELOW  # [trick, seat, class, height]
        for trick in range(tricks):
            bucket = trick_bucket(trick)
            for seat in range(SEATS):
                if self.holding[trick] >> seat & 1:
                    self.counts.play[:, :, bucket, 0] += 1
                    self.counts.play[:, :, bucket, 1] += answerable[trick, seat]


def gather(policy: TichuPolicy, deals: Iterable[int], seed: int) -> Counts:
    """Counts from self-play of `policy` on the given deal indices of `seed`."""
    counts = Counts()
    for deal in deals:
        state = new_game(_ONE_ROUND, seed=seed, deal=deal_from_seed(seed, deal))
        rngs = [make_stream_rng(seed, deal, seat) for seat in range(SEATS)]
        play_round(state, [policy] * SEATS, rngs, on_action=RoundRecorder(counts))
    return counts


def save_counts(counts: Counts, path: Path) -> None:
    """Write counts as the compact initiative file (int32, compressed)."""
    np.savez_compressed(path, win=counts.win.astype(np.int32), play=counts.play.astype(np.int32))


def _gather_chunk(args: tuple[str | None, list[int], int]) -> Counts:
    initiative_file, deals, seed = args
    return gather(_iteration_policy(initiative_file), deals, seed)


def _iteration_policy(initiative_file: str | None) -> TichuPolicy:
    """Greedy first; then the classic bot with the thesis's published parameters, so the
    data does not depend on the weights later calibrated on top of it."""
    if initiative_file is None:
        return greedy_policy
    return msgspec.structs.replace(THESIS_POLICY, initiative_file=initiative_file)


def build_initiative(
    rounds: int,
    seed: int,
    iterations: int,
    out: Path,
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> Counts:
    """Bootstrap with greedy self-play, then `iterations` rounds of classic self-play, each on
    `rounds` deals with the previous counts; write the last counts to `out`. `on_progress`
    gets the number of rounds each finished chunk played."""
    previous: str | None = None
    counts = Counts()
    with tempfile.TemporaryDirectory() as scratch:
        for iteration in range(iterations + 1):
            deals = list(range(rounds))
            jobs = [
                (previous, deals[i : i + _CHUNK], seed + iteration)
                for i in range(0, rounds, _CHUNK)
            ]
            counts = Counts()
            for size, part in _run(jobs, workers):
                counts.add(part)
                if on_progress is not None:
                    on_progress(size)
            path = Path(scratch) / f"iteration{iteration}.npz"
            save_counts(counts, path)
            previous = str(path)
    save_counts(counts, out)
    return counts


def _run(
    jobs: Sequence[tuple[str | None, list[int], int]], workers: int
) -> Iterator[tuple[int, Counts]]:
    if workers <= 1:
        for job in jobs:
            yield len(job[1]), _gather_chunk(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as executor:
        futures = {executor.submit(_gather_chunk, job): len(job[1]) for job in jobs}
        for future in as_completed(futures):
            yield futures[future], future.result()
