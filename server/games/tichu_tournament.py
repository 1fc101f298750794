"""Tichu in a bot tournament (`TichuGame.tournament`): every pair of players as two teams
(with `duplicate` also with the teams swapped), each round's points per team.

Standings: per pair the duplicate comparison (`bots.tichu.duplicate.summarize`: point
differential per round with its confidence interval over deals, call success rates), and per
player the differential over all its rounds, averaged the same way (the rounds of one deal in
its seatings first, then over deals), so with two players both agree.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

import msgspec
import numpy as np

from bots.tichu.duplicate import RoundRecord, round_record, summarize
from bots.tichu.match import play_out
from engine.tichu.state import State
from server.games.kind import Games, Outcome, Policy, Schedule, ScheduleFlags
from server.games.statistics import ci95
from server.plain import JSON, Plain
from server.protocol import StandingsColumn
from server.standings import TournamentRow

if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["TichuRow", "TichuTournament"]

TEAMS: Final = 2
ROUND_SLOTS: Final = 1000  # round numbers per deal index: a match is never that long
ROUNDS_LIST: Final = 10  # one-round games per rated table
MATCHES_LIST: Final = 1  # a match to 1000 is a series of its own, as at a live table


def _by_pair(games: Games) -> dict[tuple[str, str], list[RoundRecord]]:
    """Every round by pair (the pair is seats 0 and 1 of the unswapped seating)."""
    rounds: dict[tuple[str, str], list[RoundRecord]] = {}
    for players, outcome in games:
        for r in outcome:
            if not isinstance(r, RoundRecord):
                continue
            pair = (players[1], players[0]) if r.swapped else (players[0], players[1])
            rounds.setdefault(pair, []).append(r)
    return rounds


class TichuRow(TournamentRow, frozen=True, kw_only=True):
    """A player's Tichu standings (`games` counts rounds, `total` and `mean` the point
    differential): calls of Tichu and Grand Tichu and the share made."""

    tichu_calls: int
    tichu_success: float | None
    grand_calls: int
    grand_success: float | None


class TichuTournament:
    """`TournamentPlay` for Tichu."""

    score_unit = "point differential"
    count_unit = "rounds"
    columns = (
        StandingsColumn("tichu_calls", "Tichu", False),
        StandingsColumn("tichu_success", "made", True),
        StandingsColumn("grand_calls", "Grand", False),
        StandingsColumn("grand_success", "made", True),
    )
    row_type = TichuRow

    def schedule(self, flags: ScheduleFlags, list_length: Callable[[int], int]) -> Schedule:
        if flags.matches:
            return Schedule(flags.matches, {}, MATCHES_LIST)
        if flags.rounds is None:
            raise ValueError("Tichu needs --rounds or --matches")
        return Schedule(flags.rounds, {"max_rounds": 1}, ROUNDS_LIST)

    def group_size(self, rules: Mapping[str, JSON]) -> int:
        return TEAMS

    def seatings(self, group: tuple[str, ...], duplicate: bool) -> list[tuple[str, ...]]:
        a, b = group
        return [(a, b, a, b), (b, a, b, a)] if duplicate else [(a, b, a, b)]

    def play_out(
        self,
        state: State,
        policies: Sequence[Policy],
        seed: int,
        on_action: Callable[[int, msgspec.Struct], None],
    ) -> State:
        return play_out(state, policies, seed, on_action=lambda _, s, a, __: on_action(s, a))

    def round_of(self, state: State) -> int:
        return state.round_index

    def outcome(
        self,
        final: State,
        round_ends: Sequence[State],
        players: Sequence[str],
        deal: int,
        seating: int,
    ) -> Outcome:
        """Each round from the view of the pair's first player; rounds are numbered within
        the deal's match, so the seatings of one deal pair up."""
        swapped = seating == 1
        rounds = zip(round_ends, final.result.rounds, strict=True)
        return [
            round_record(deal * ROUND_SLOTS + k, swapped, before.calls, score)
            for k, (before, score) in enumerate(rounds)
        ]

    def scores(self, final: State, players: Sequence[str]) -> dict[str, int]:
        """Own team's points minus the other team's."""
        points = final.result.totals
        return {players[t]: points[t] - points[1 - t] for t in (0, 1)}

    def standings(self, games: Games) -> list[TournamentRow]:
        by_player: dict[str, dict[int, list[float]]] = {}
        calls: dict[str, list[int]] = {}
        for (a, b), records in _by_pair(games).items():
            for r in records:
                for side, player in ((0, a), (1, b)):
                    diff = r.points[side] - r.points[1 - side]
                    by_player.setdefault(player, {}).setdefault(r.deal, []).append(diff)
                    counts = calls.setdefault(player, [0, 0, 0, 0])
                    counts[0] += r.tichu[side]
                    counts[1] += r.tichu_made[side]
                    counts[2] += r.grand[side]
                    counts[3] += r.grand_made[side]
        rows: list[TournamentRow] = []
        for player, deals in by_player.items():
            diffs = [d for values in deals.values() for d in values]
            paired = [float(np.mean(values)) for values in deals.values()]
            tichu, tichu_made, grand, grand_made = calls[player]
            rows.append(
                TichuRow(
                    player=player,
                    games=len(diffs),
                    total=int(sum(diffs)),
                    mean=float(np.mean(paired)),
                    ci95=ci95(paired),
                    tichu_calls=tichu,
                    tichu_success=tichu_made / tichu if tichu else None,
                    grand_calls=grand,
                    grand_success=grand_made / grand if grand else None,
                )
            )
        return rows

    def details(self, games: Games) -> Plain:
        """Each pair's duplicate comparison."""
        pairs = [
            {"a": a, "b": b, **msgspec.to_builtins(summarize(records))}
            for (a, b), records in sorted(_by_pair(games).items())
        ]
        return {"pairs": pairs}

    def detail_tables(self, details: Plain) -> "list[Table]":
        """Each pair's duplicate comparison."""
        from bots.tichu.duplicate import DuplicateSummary
        from server.commands.tichu_bots import summary_table

        tables = []
        for pair in details["pairs"]:
            fields = {k: v for k, v in pair.items() if k not in ("a", "b")}
            summary = msgspec.convert(fields, DuplicateSummary)
            tables.append(summary_table(pair["a"], pair["b"], summary))
        return tables
