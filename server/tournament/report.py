"""A tournament's report, read from the database alone: standings, details, ratings before
and after, and the game-by-game timeline behind the CSV export and the plot.

Every game is replayed from its stored events (the truth, docs/conventions.md section 8) and its
outcome read with the same function the runner used while playing, so the report and the live
standings cannot disagree.
"""

import csv
from pathlib import Path

import msgspec

from server.games import game_kind
from server.plain import Plain
from server.ratings import Rating, ordinal
from server.standings import TournamentRow
from server.store.tournaments import StoredTournament, Tournaments
from server.tournament.play import outcome
from server.tournament.schedule import Params, table_id, table_specs
from server.tournament.standings import Tally

__all__ = [
    "Report",
    "TimelineRow",
    "load_report",
    "replayed_tally",
    "write_csv",
    "write_plot",
]


class TimelineRow(msgspec.Struct, frozen=True):
    """One player's part in one game, in play order, and their rating once it counted."""

    game: int
    table: str
    number: int
    player: str
    score: int
    cumulative: int
    mu: float
    sigma: float


class Report(msgspec.Struct, kw_only=True):
    """Everything `tischrunde tournament report` shows; `timeline` feeds the CSV and plot."""

    id: str
    game: str
    status: str
    params: Plain
    played: int
    total: int
    standings: list[TournamentRow]
    details: Plain
    ratings: dict[str, dict[str, float]]
    timeline: list[TimelineRow] = []

    def summary(self) -> Plain:
        """The report as JSON-able data, without the timeline."""
        data: Plain = msgspec.to_builtins(self)
        del data["timeline"]
        return data


def _rating(value: Rating) -> dict[str, float]:
    return {"mu": value[0], "sigma": value[1], "ordinal": ordinal(value)}


class _Replayed(msgspec.Struct):
    tally: Tally
    timeline: list[TimelineRow]
    ratings_after: dict[str, Rating]
    played: int


async def _replay_games(records: Tournaments, stored: StoredTournament) -> _Replayed:
    """Replay every stored game of the tournament in play order into a tally and a timeline."""
    params = msgspec.convert(stored.params, Params)
    play = game_kind(params.game).tournament
    tally = Tally(params.game)
    steps: dict[str, list[tuple[str, Rating]]] = {}
    for table, name, rating in await records.rating_steps(stored.id):
        steps.setdefault(table, []).append((name, rating))
    current = dict(stored.ratings_before)
    cumulative = dict.fromkeys(params.players, 0)
    timeline: list[TimelineRow] = []
    games = await records.games(stored.id, with_moves=True)
    by_table = {table_id(stored.id, t.index): t for t in table_specs(params)}
    games.sort(key=lambda g: (by_table[g.table_id].index, g.number))
    for index, game in enumerate(games):
        table = by_table[game.table_id]
        deal = table.first_deal + game.number
        final, result = outcome(params, table, deal, game.start, game.moves)
        tally.add(table.players, result)
        if game.number + 1 == table.games:
            current.update(steps.get(game.table_id, []))
        for player, score in play.scores(final, table.players).items():
            cumulative[player] += score
            mu, sigma = current[player]
            timeline.append(
                TimelineRow(
                    index, game.table_id, game.number, player, score, cumulative[player], mu, sigma
                )
            )
    return _Replayed(tally, timeline, current, len(games))


async def replayed_tally(records: Tournaments, tournament_id: str) -> Tally:
    """The tally of the games stored so far (a resumed run's live standings start from it)."""
    stored = await records.load(tournament_id)
    if stored is None:
        raise ValueError(f"no tournament {tournament_id!r}")
    replayed: Tally = (await _replay_games(records, stored)).tally
    return replayed


async def load_report(records: Tournaments, tournament_id: str) -> Report | None:
    """The report of `tournament_id`, or None when there is no such tournament."""
    stored = await records.load(tournament_id)
    if stored is None:
        return None
    params = msgspec.convert(stored.params, Params)
    replayed = await _replay_games(records, stored)
    return Report(
        id=stored.id,
        game=stored.game,
        status=stored.status,
        params=stored.params,
        played=replayed.played,
        total=sum(t.games for t in table_specs(params)),
        standings=replayed.tally.standings(),
        details=replayed.tally.details(),
        ratings={
            name: {
                **{f"{k}_before": v for k, v in _rating(stored.ratings_before[name]).items()},
                **{f"{k}_after": v for k, v in _rating(replayed.ratings_after[name]).items()},
            }
            for name in params.players
        },
        timeline=replayed.timeline,
    )


def write_csv(report: Report, path: Path) -> None:
    """The timeline as CSV: one row per player and game."""
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(field.name for field in msgspec.structs.fields(TimelineRow))
        for row in report.timeline:
            writer.writerow(msgspec.structs.astuple(row))


def write_plot(report: Report, path: Path) -> None:
    """A PNG: each player's cumulative score (top) and rating mu (bottom) over the games."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (score_axis, rating_axis) = plt.subplots(2, 1, sharex=True, figsize=(9, 7))
    for player in report.params["players"]:
        rows = [r for r in report.timeline if r.player == player]
        games = [r.game + 1 for r in rows]
        score_axis.plot(games, [r.cumulative for r in rows], label=player)
        rating_axis.plot(games, [r.mu for r in rows], label=player)
    unit = game_kind(report.game).tournament.score_unit
    score_axis.set_ylabel(f"cumulative {unit}")
    rating_axis.set_ylabel("rating (mu)")
    rating_axis.set_xlabel("games")
    score_axis.legend()
    score_axis.set_title(f"tournament {report.id} ({report.game})")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
