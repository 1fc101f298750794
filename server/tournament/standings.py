"""Standings of a tournament from its games' outcomes: the same functions serve the live
display, the final table and `tischrunde tournament report`.

Skat: per player the Seeger-Fabian total, the mean per game with its 95% confidence interval
and the declarer win rate (`bots.skat.match.summarize`), plus declarer win rates per game type.
Tichu: per pair the duplicate comparison (`bots.tichu.duplicate.summarize`: point
differential per round with its confidence interval over deals, call success rates), and per
player the differential over all its rounds, averaged the same way (the rounds of one deal in
its seatings first, then over deals), so with two players both agree.
"""

import itertools
from collections.abc import Iterable, Sequence
from typing import Any, Final

import msgspec
import numpy as np

from bots.skat.match import SeatScore
from bots.skat.match import summarize as skat_summary
from bots.tichu.duplicate import RoundRecord
from bots.tichu.duplicate import summarize as tichu_summary
from server.tournament.play import Outcome

__all__ = ["Tally", "paired_differences"]

_Z95: Final = 1.96
_SPREAD: Final = 2  # values needed for a standard deviation


def _ci95(values: Sequence[float]) -> float:
    if len(values) < _SPREAD:
        return 0.0
    array = np.asarray(values, dtype=np.float64)
    return float(_Z95 * array.std(ddof=1) / np.sqrt(len(array)))


def paired_differences(deals: Iterable[dict[str, list[int]]]) -> list[dict[str, Any]]:
    """Per pair of players (a before b by name): a's mean score minus b's per deal, averaged
    over the deals both played, with its 95% confidence interval over deals. Each item of
    `deals` holds one deal's scores per player (in every seating it was played). Duplicate
    deals cancel the cards' luck, so this interval is far narrower than the difference of the
    two players' own intervals."""
    by_pair: dict[tuple[str, str], list[float]] = {}
    for scores in deals:
        means = {player: float(np.mean(values)) for player, values in scores.items()}
        for a, b in itertools.combinations(sorted(means), 2):
            by_pair.setdefault((a, b), []).append(means[a] - means[b])
    return [
        {"a": a, "b": b, "deals": len(diffs), "mean": float(np.mean(diffs)), "ci95": _ci95(diffs)}
        for (a, b), diffs in sorted(by_pair.items())
    ]


class Tally:
    """The outcomes so far of one tournament, by game; add games in any order."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.scores: list[SeatScore] = []
        self.rounds: dict[tuple[str, str], list[RoundRecord]] = {}
        self.games = 0

    def add(self, players: Sequence[str], outcome: Outcome) -> None:
        """One finished game; `players` by seat (Tichu: the pair is seats 0 and 1 of the
        unswapped seating, i.e. sorted as the schedule lists it)."""
        self.games += 1
        for item in outcome:
            if isinstance(item, RoundRecord):
                pair = (players[1], players[0]) if item.swapped else (players[0], players[1])
                self.rounds.setdefault(pair, []).append(item)
            else:
                self.scores.append(item)

    def standings(self) -> list[dict[str, Any]]:
        """One row per player, best first: `player`, `games`, `total`, `mean`, `ci95` and the
        game's own columns."""
        rows = self._skat() if self.game == "skat" else self._tichu()
        return sorted(rows, key=lambda r: (-r["mean"], r["player"]))

    def details(self) -> dict[str, Any]:
        """Skat: declarer games and wins per player and game type. Tichu: each pair's
        duplicate comparison."""
        if self.game == "skat":
            types: dict[str, dict[str, dict[str, Any]]] = {}
            for s in self.scores:
                if s.declarer and s.won is not None and s.game is not None:
                    cell = types.setdefault(s.bot, {}).setdefault(s.game, {"declared": 0, "won": 0})
                    cell["declared"] += 1
                    cell["won"] += int(s.won)
            for cells in types.values():
                for cell in cells.values():
                    cell["win_rate"] = cell["won"] / cell["declared"]
            return {"game_types": types}
        pairs = [
            {"a": a, "b": b, **msgspec.to_builtins(tichu_summary(records))}
            for (a, b), records in sorted(self.rounds.items())
        ]
        return {"pairs": pairs}

    def _skat(self) -> list[dict[str, Any]]:
        rows = []
        for player, row in skat_summary(self.scores).items():
            total = sum(s.seeger_fabian for s in self.scores if s.bot == player)
            rows.append({"player": player, "total": total, **row})
        return rows

    def _tichu(self) -> list[dict[str, Any]]:
        by_player: dict[str, dict[int, list[float]]] = {}
        calls: dict[str, list[int]] = {}
        for (a, b), records in self.rounds.items():
            for r in records:
                for side, player in ((0, a), (1, b)):
                    diff = r.points[side] - r.points[1 - side]
                    by_player.setdefault(player, {}).setdefault(r.deal, []).append(diff)
                    counts = calls.setdefault(player, [0, 0, 0, 0])
                    counts[0] += r.tichu[side]
                    counts[1] += r.tichu_made[side]
                    counts[2] += r.grand[side]
                    counts[3] += r.grand_made[side]
        rows = []
        for player, deals in by_player.items():
            diffs = [d for values in deals.values() for d in values]
            paired = [float(np.mean(values)) for values in deals.values()]
            tichu, tichu_made, grand, grand_made = calls[player]
            rows.append(
                {
                    "player": player,
                    "games": len(diffs),
                    "total": int(sum(diffs)),
                    "mean": float(np.mean(paired)),
                    "ci95": _ci95(paired),
                    "tichu_calls": tichu,
                    "tichu_success": tichu_made / tichu if tichu else None,
                    "grand_calls": grand,
                    "grand_success": grand_made / grand if grand else None,
                }
            )
        return rows
