"""Skat in a bot tournament (`SkatGame.tournament`): groups of a table's size, every seating of
a group with `duplicate`, each seat's Seeger-Fabian score per deal.

Standings per player: the Seeger-Fabian total, the mean per game with its 95% confidence
interval and the declarer win rate (`bots.skat.match.summarize`); details: declarer win rates
per game type, and each pair's difference per deal (`paired_differences`).
"""

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

import msgspec

from bots.skat.match import SeatScore, play_out, seat_scores, summarize
from engine.rng import make_stream_rng
from engine.skat.state import State
from server.games.kind import Games, Outcome, Policy, Schedule, ScheduleFlags
from server.games.statistics import paired_differences
from server.plain import JSON, Plain
from server.protocol import StandingsColumn
from server.standings import TournamentRow

if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["SkatRow", "SkatTournament"]

TABLE: Final = 3  # players at a Skat table unless the rules say 4


def _scores(games: Games) -> list[SeatScore]:
    return [score for _, outcome in games for score in outcome if isinstance(score, SeatScore)]


class SkatRow(TournamentRow, frozen=True, kw_only=True):
    """A player's Skat standings: Seeger-Fabian points, declarer games and the share won."""

    declared: int
    declarer_win_rate: float | None


class SkatTournament:
    """`TournamentPlay` for Skat."""

    score_unit = "Seeger-Fabian points"
    count_unit = "games"
    columns = (
        StandingsColumn("declared", "declared", False),
        StandingsColumn("declarer_win_rate", "won", True),
    )
    row_type = SkatRow

    def schedule(self, flags: ScheduleFlags, list_length: Callable[[int], int]) -> Schedule:
        if flags.games is None:
            raise ValueError("Skat needs --games")
        size = flags.table_size
        return Schedule(flags.games, {"players": size}, list_length(size))

    def group_size(self, rules: Mapping[str, JSON]) -> int:
        return int(rules.get("players", TABLE))

    def seatings(self, group: tuple[str, ...], duplicate: bool) -> list[tuple[str, ...]]:
        return list(itertools.permutations(group)) if duplicate else [group]

    def play_out(
        self,
        state: State,
        policies: Sequence[Policy],
        seed: int,
        on_action: Callable[[int, msgspec.Struct], None],
    ) -> State:
        rng = make_stream_rng(seed)
        return play_out(state, policies, rng, on_action=lambda _, seat, a: on_action(seat, a))

    def round_of(self, state: State) -> int:
        return 0

    def outcome(
        self,
        final: State,
        round_ends: Sequence[State],
        players: Sequence[str],
        deal: int,
        seating: int,
    ) -> Outcome:
        return list(seat_scores(final.result, players, deal, (seating,)))

    def scores(self, final: State, players: Sequence[str]) -> dict[str, int]:
        return {name: final.result.seeger_fabian[s] for s, name in enumerate(players)}

    def standings(self, games: Games) -> list[TournamentRow]:
        scores = _scores(games)
        rows: list[TournamentRow] = []
        for player, row in summarize(scores).items():
            total = sum(s.seeger_fabian for s in scores if s.bot == player)
            rows.append(SkatRow(player=player, total=total, **row))
        return rows

    def details(self, games: Games) -> Plain:
        """Declarer games and wins per player and game type; each pair's difference per
        deal (the seatings of a deal pair up: duplicate deals cancel the cards' luck)."""
        types: dict[str, dict[str, dict[str, float]]] = {}
        deals: dict[int, dict[str, list[int]]] = {}
        for s in _scores(games):
            deals.setdefault(s.deal, {}).setdefault(s.bot, []).append(s.seeger_fabian)
            if s.declarer and s.won is not None and s.game is not None:
                cell = types.setdefault(s.bot, {}).setdefault(s.game, {"declared": 0, "won": 0})
                cell["declared"] += 1
                cell["won"] += int(s.won)
        for cells in types.values():
            for cell in cells.values():
                cell["win_rate"] = cell["won"] / cell["declared"]
        return {"game_types": types, "paired": paired_differences(deals.values())}

    def detail_tables(self, details: Plain) -> "list[Table]":
        """Declarer games won of played by game type; each pair's difference per deal."""
        from rich.table import Table

        types = Table(title="declarer games won / played, by game type")
        kinds = sorted({k for cells in details["game_types"].values() for k in cells})
        types.add_column("player")
        for kind in kinds:
            types.add_column(kind, justify="right")
        for player, cells in sorted(details["game_types"].items()):
            types.add_row(
                player,
                *(
                    f"{cells[k]['won']}/{cells[k]['declared']}" if k in cells else "-"
                    for k in kinds
                ),
            )
        paired = Table(title="a − b per game, paired by deal (95 % interval)")
        for column in ("a", "b", "deals", "a − b"):
            paired.add_column(column, justify="left" if column in ("a", "b") else "right")
        for pair in details["paired"]:
            difference = f"{pair['mean']:+.2f} ± {pair['ci95']:.2f}"
            paired.add_row(pair["a"], pair["b"], str(pair["deals"]), difference)
        return [types, paired]
