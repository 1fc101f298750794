"""The duplicate-deal comparison of two bots (`tischrunde tichu evaluate`).

Each deal is played twice, bot A's team at seats 0 and 2 and then at seats 1 and 3, so the
cards' luck cancels and the difference is the play. The metric is the mean point
differential per round with a 95% confidence interval over deals (the two seatings of a deal
are one paired observation), plus call and double-victory rates. `run_duplicate` spreads the
deals over worker processes (policies are picklable structs or module-level functions).
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Final

import msgspec
import numpy as np

from bots.tichu.match import TichuPolicy, play_round
from engine.rng import make_stream_rng
from engine.tichu.deal import SEATS, deal_from_seed
from engine.tichu.rules import Rules
from engine.tichu.scoring import NO_CALL, TICHU, RoundScore, team_of
from engine.tichu.state import new_game

__all__ = [
    "DuplicateSummary",
    "RoundRecord",
    "duplicate_rounds",
    "round_record",
    "run_duplicate",
    "summarize",
]

_Z95: Final = 1.96
_ONE_ROUND: Final = Rules(max_rounds=1)
_CHUNK: Final = 10  # deals per job


class RoundRecord(msgspec.Struct, frozen=True):
    """One round of a duplicate comparison, from the point of view of bot A's team.

    Attributes:
        deal: deal index; `swapped`: A sat at seats 1 and 3 (else 0 and 2).
        points: round points of A's team and of B's team.
        tichu, grand: calls by (A's team, B's team); `tichu_made`, `grand_made`: successes.
        double: which team made a double victory (0: A, 1: B, None: neither).
    """

    deal: int
    swapped: bool
    points: tuple[int, int]
    tichu: tuple[int, int]
    tichu_made: tuple[int, int]
    grand: tuple[int, int]
    grand_made: tuple[int, int]
    double: int | None


def round_record(
    deal: int, swapped: bool, calls_made: Sequence[int], score: RoundScore
) -> RoundRecord:
    """The record of a finished round (its seats' `calls_made` and its `score`), seen from
    bot A's team (at seats 1 and 3 when `swapped`)."""
    a_team = 1 if swapped else 0
    calls = [[0, 0], [0, 0]]
    made = [[0, 0], [0, 0]]
    for seat, call in enumerate(calls_made):
        if call == NO_CALL:
            continue
        side = 0 if team_of(seat) == a_team else 1
        kind = 0 if call == TICHU else 1
        calls[kind][side] += 1
        made[kind][side] += score.finish[0] == seat
    double = None
    if score.double_victory:
        double = 0 if team_of(score.finish[0]) == a_team else 1
    return RoundRecord(
        deal=deal,
        swapped=swapped,
        points=(score.points[a_team], score.points[1 - a_team]),
        tichu=(calls[0][0], calls[0][1]),
        tichu_made=(made[0][0], made[0][1]),
        grand=(calls[1][0], calls[1][1]),
        grand_made=(made[1][0], made[1][1]),
        double=double,
    )


def duplicate_rounds(
    a: TichuPolicy, b: TichuPolicy, deals: Iterable[int], seed: int
) -> list[RoundRecord]:
    """Play each deal index twice, A's team at seats 0/2 then at 1/3; deals and bot RNGs come
    from (`seed`, deal index), so any subset of deals can be replayed alone."""
    records = []
    for deal in deals:
        start = new_game(_ONE_ROUND, seed=seed, deal=deal_from_seed(seed, deal))
        for swapped in (False, True):
            seating = [b, a, b, a] if swapped else [a, b, a, b]
            rngs = [make_stream_rng(seed, deal, int(swapped), seat) for seat in range(SEATS)]
            state = play_round(start, seating, rngs)
            records.append(round_record(deal, swapped, state.calls, state.rounds[-1]))
    return records


class DuplicateSummary(msgspec.Struct, frozen=True):
    """The comparison of A and B over duplicate rounds.

    Attributes:
        rounds: rounds played (two per deal).
        mean: mean point differential per round, A's team minus B's team.
        ci95: half-width of its 95% confidence interval (over deals: the two seatings of one
            deal form one paired observation).
        tichu_rate, grand_rate: calls per round by each bot's team; `..._success`: share made.
        double_rate: share of rounds with a double victory by each bot's team.
    """

    rounds: int
    mean: float
    ci95: float
    tichu_rate: tuple[float, float]
    tichu_success: tuple[float | None, float | None]
    grand_rate: tuple[float, float]
    grand_success: tuple[float | None, float | None]
    double_rate: tuple[float, float]


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def summarize(records: Sequence[RoundRecord]) -> DuplicateSummary:
    """Mean differential with its confidence interval, call and double-victory rates."""
    by_deal: dict[int, list[float]] = {}
    for r in records:
        by_deal.setdefault(r.deal, []).append(r.points[0] - r.points[1])
    pairs = np.array([np.mean(v) for v in by_deal.values()], dtype=np.float64)
    n = len(records)
    half = float(_Z95 * pairs.std(ddof=1) / np.sqrt(len(pairs))) if len(pairs) > 1 else 0.0

    def total(field: str, side: int) -> int:
        values: Any = [getattr(r, field)[side] for r in records]
        return int(sum(values))

    return DuplicateSummary(
        rounds=n,
        mean=float(pairs.mean()) if len(pairs) else 0.0,
        ci95=half,
        tichu_rate=(total("tichu", 0) / n, total("tichu", 1) / n),
        tichu_success=(
            _share(total("tichu_made", 0), total("tichu", 0)),
            _share(total("tichu_made", 1), total("tichu", 1)),
        ),
        grand_rate=(total("grand", 0) / n, total("grand", 1) / n),
        grand_success=(
            _share(total("grand_made", 0), total("grand", 0)),
            _share(total("grand_made", 1), total("grand", 1)),
        ),
        double_rate=(
            sum(1 for r in records if r.double == 0) / n,
            sum(1 for r in records if r.double == 1) / n,
        ),
    )


Job = tuple[TichuPolicy, TichuPolicy, list[int], int]


def _chunk(job: Job) -> list[RoundRecord]:
    a, b, deals, seed = job
    return duplicate_rounds(a, b, deals, seed)


def run_duplicate(
    a: TichuPolicy,
    b: TichuPolicy,
    deals: int | Sequence[int],
    seed: int,
    *,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> list[RoundRecord]:
    """Duplicate rounds of the (picklable) policies `a` and `b` on the deal indices (an int
    n: 0..n-1) of `seed`, in `workers` processes; `on_progress` gets the number of deals each
    finished job played. The records come back sorted, whatever the workers' order."""
    indices = list(range(deals)) if isinstance(deals, int) else list(deals)
    jobs = [(a, b, indices[i : i + _CHUNK], seed) for i in range(0, len(indices), _CHUNK)]
    records: list[RoundRecord] = []
    for size, part in _run(jobs, workers):
        records += part
        if on_progress is not None:
            on_progress(size)
    records.sort(key=lambda r: (r.deal, r.swapped))
    return records


def _run(jobs: Sequence[Job], workers: int) -> Iterator[tuple[int, list[RoundRecord]]]:
    if workers <= 1:
        for job in jobs:
            yield len(job[2]), _chunk(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as executor:
        futures = {executor.submit(_chunk, job): len(job[2]) for job in jobs}
        for future in as_completed(futures):
            yield futures[future], future.result()
