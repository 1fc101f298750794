"""`tischrunde tournament`: bot-vs-bot tournaments recorded in the server's database.

`tischrunde tournament --game skat --players expert,club,greedy --games 36` plays and
records one; `--resume ID` finishes an interrupted one; `tischrunde tournament report ID`
prints the standings again from the database and writes the CSV and the plot. See
docs/tournaments.md.
"""

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from server.plain import Plain
from server.standings import TournamentRow

if TYPE_CHECKING:
    from server.settings import Settings
    from server.store.db import Store
    from server.tournament.play import PlayedGame
    from server.tournament.report import Report
    from server.tournament.schedule import Params, TableSpec
    from server.tournament.standings import Tally

__all__ = ["register"]

_SKAT_TABLES = (3, 4)
_DEFAULT_OUT = Path("tournaments")  # beside the default SQLite file, not loose in the folder


def _game_names() -> list[str]:
    from server.games import all_games

    return sorted(all_games())


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `tournament` (run or resume) and `tournament report`."""
    run = subparsers.add_parser(
        "tournament",
        help="bot-vs-bot tournament recorded in the database (or: tournament report ID)",
        description="Play a bot tournament (every game stored as at a live table) or resume one.",
    )
    run.add_argument("--game", choices=_game_names(), help="the game (not with --resume)")
    run.add_argument("--players", help="comma-separated bot names, e.g. expert,club,greedy")
    run.add_argument("--games", type=int, help="Skat: new deals per group of players (a table)")
    run.add_argument(
        "--table-size", type=int, choices=_SKAT_TABLES, default=3, help="Skat: 3- or 4-tables"
    )
    tichu = run.add_mutually_exclusive_group()
    tichu.add_argument("--rounds", type=int, help="Tichu: new one-round deals per pair")
    tichu.add_argument("--matches", type=int, help="Tichu: new matches to 1000 per pair")
    run.add_argument(
        "--duplicate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="replay each deal in every seating (Skat) / with teams swapped (Tichu)",
    )
    run.add_argument(
        "--list-length",
        type=int,
        help="games per table (Skat: the server's list, 36 or 48 at 4-tables; Tichu: 10 "
        "rounds or 1 match)",
    )
    run.add_argument("--seed", type=int, help="deal and bot seed (default: random)")
    run.add_argument("--resume", metavar="ID", help="continue the interrupted tournament ID")
    run.add_argument("--mqtt", help="broker URL for live standings (default: TISCHRUNDE_MQTT)")
    _common(run)
    run.add_argument("--workers", type=int, default=0, help="processes (0: one per core)")
    run.set_defaults(handler=_run)
    commands = run.add_subparsers(dest="tournament_command", metavar="report ID")
    report = commands.add_parser("report", help="standings of a tournament from the database")
    report.add_argument("id", help="tournament id")
    _common(report)
    report.set_defaults(handler=_report)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="database URL (default: TISCHRUNDE_DB or the SQLite file)")
    parser.add_argument(
        "--out",
        type=Path,
        default=_DEFAULT_OUT,
        metavar="DIR",
        help=f"folder for tournament-ID.csv and .png (default: {_DEFAULT_OUT}/, made if missing)",
    )
    parser.add_argument("--json", action="store_true", help="no live display, JSON report")


def _fail(message: str) -> int:
    print(f"tischrunde tournament: {message}", file=sys.stderr)
    return 2


def _params(args: argparse.Namespace, settings: "Settings") -> "Params":
    """New tournament parameters from the flags; raises ValueError with what is wrong."""
    from server.games import ScheduleFlags, game_kind
    from server.tournament.schedule import Params

    if args.game is None or not args.players:
        raise ValueError("--game and --players are required (or --resume ID)")
    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    for name in players:
        game_kind(args.game).bots.policy(name)  # raises ValueError naming the known bots
    flags = ScheduleFlags(args.games, args.rounds, args.matches, args.table_size)
    plan = game_kind(args.game).tournament.schedule(flags, settings.series_length)
    return Params(
        game=args.game,
        players=players,
        deals=plan.deals,
        duplicate=args.duplicate,
        list_length=args.list_length or plan.list_length,
        seed=secrets.randbits(63) if args.seed is None else args.seed,
        rules=plan.rules,
    )


def _run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_run_async(args))
    except KeyboardInterrupt:
        return _fail("interrupted; every finished game is stored: continue with --resume ID")


async def _run_async(args: argparse.Namespace) -> int:
    import msgspec

    from server.settings import settings_from_env
    from server.store.db import Store
    from server.store.migrate import upgrade
    from server.tournament.report import load_report, replayed_tally
    from server.tournament.runner import create
    from server.tournament.schedule import Params

    settings = settings_from_env(db=args.db, mqtt=args.mqtt)
    await asyncio.to_thread(upgrade, settings.db)
    store = Store.connect(settings.db)
    try:
        if args.resume:
            stored = await store.tournaments.load(args.resume)
            if stored is None:
                return _fail(f"no tournament {args.resume!r}")
            tournament, params = stored.id, msgspec.convert(stored.params, Params)
        else:
            try:
                params = _params(args, settings)
                tournament = await create(store, params)
            except ValueError as error:
                return _fail(str(error))
        print(f"tournament {tournament} (resume with --resume {tournament})", file=sys.stderr)
        tally = await replayed_tally(store.tournaments, tournament)
        played = await _play(store, tournament, params, tally, settings, args)
        report = await load_report(store.tournaments, tournament)
    finally:
        await store.close()
    if report is None:
        return _fail(f"tournament {tournament} vanished")
    return _show(report, args, played)


async def _play(
    store: "Store",
    tournament: str,
    params: "Params",
    tally: "Tally",
    settings: "Settings",
    args: argparse.Namespace,
) -> Plain:
    """Run the tournament with a live progress bar and standings (none with --json); publish
    the standings to MQTT when the settings name a broker. Returns how many games this run
    played and how fast (worker start-up included)."""
    from server.cluster.bus import Bus, NoBus
    from server.tournament.runner import run
    from server.tournament.schedule import table_specs

    workers = args.workers or os.cpu_count() or 1
    total = sum(t.games for t in table_specs(params))
    progress = Progress(
        TextColumn(f"{params.game} tournament {tournament}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
    )
    task = progress.add_task("games", total=total, completed=tally.games, rate="")
    started, played_now = time.monotonic(), 0
    live = (
        None
        if args.json
        else Live(
            Group(progress, _standings_table(tally.standings(), params.game)),
            console=Console(stderr=True),
            refresh_per_second=4,
            transient=True,
        )
    )

    def on_game(_table: "TableSpec", _game: "PlayedGame") -> None:
        nonlocal played_now
        played_now += 1
        rate = played_now / max(time.monotonic() - started, 1e-9)
        progress.update(task, completed=tally.games, rate=f"{rate:.1f} games/s")
        if live is not None:
            live.update(Group(progress, _standings_table(tally.standings(), params.game)))

    bus = Bus(settings.mqtt) if settings.mqtt else NoBus()
    bus.start()
    try:
        with live if live is not None else contextlib.nullcontext():
            await run(
                store, tournament, params, workers=workers, tally=tally, bus=bus, on_game=on_game
            )
    finally:
        await bus.close()
    seconds = time.monotonic() - started
    return {
        "played_now": played_now,
        "workers": workers,
        "seconds": round(seconds, 2),
        "games_per_second": round(played_now / seconds, 2) if seconds > 0 else None,
    }


def _report(args: argparse.Namespace) -> int:
    return asyncio.run(_report_async(args))


async def _report_async(args: argparse.Namespace) -> int:
    from server.settings import settings_from_env
    from server.store.db import Store
    from server.store.migrate import upgrade
    from server.tournament.report import load_report

    url = settings_from_env(db=args.db).db
    await asyncio.to_thread(upgrade, url)  # a database from before tournaments has none
    store = Store.connect(url)
    try:
        report = await load_report(store.tournaments, args.id)
    finally:
        await store.close()
    if report is None:
        return _fail(f"no tournament {args.id!r}")
    return _show(report, args)


def _show(report: "Report", args: argparse.Namespace, played: Plain | None = None) -> int:
    """Print the report (and, after a run, how fast it played), write the CSV and PNG next to
    each other in `--out`."""
    from server.tournament.report import write_csv, write_plot

    args.out.mkdir(parents=True, exist_ok=True)
    csv_path = args.out / f"tournament-{report.id}.csv"
    plot_path = args.out / f"tournament-{report.id}.png"
    write_csv(report, csv_path)
    write_plot(report, plot_path)
    if args.json:
        extra = {"csv": str(csv_path), "plot": str(plot_path)}
        print(json.dumps({**report.summary(), **extra, **({"run": played} if played else {})}))
        return 0
    console = Console()
    for table in _report_tables(report):
        console.print(table)
    if played:
        console.print(
            f"played {played['played_now']} games in {played['seconds']} s with "
            f"{played['workers']} workers: {played['games_per_second']} games/s"
        )
    console.print(f"CSV: {csv_path}  plot: {plot_path}")
    return 0


def _fmt(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f} %" if percent else f"{value:.1f}"


def _standings_table(rows: list[TournamentRow], game: str, title: str = "standings") -> Table:
    """Per player: games, total, mean with its 95 % CI and the game's own columns."""
    from server.games import game_kind

    play = game_kind(game).tournament
    table = Table(title=f"{title} ({play.score_unit})")
    count, extra = play.count_unit, play.columns
    table.add_column("player")
    for column in (count, "total", "mean ± 95 % CI", *(c.label for c in extra)):
        table.add_column(column, justify="right")
    for row in rows:
        cells = [row.player, str(row.games), str(row.total), f"{row.mean:+.1f} ± {row.ci95:.1f}"]
        values = [(getattr(row, c.key), c.share) for c in extra]
        cells += [_fmt(value, share) if share else str(value) for value, share in values]
        table.add_row(*cells)
    return table


def _report_tables(report: "Report") -> list[Table]:
    """The standings, the game's details and the ratings as rich tables."""
    from server.games import game_kind

    title = (
        f"tournament {report.id}: {report.game}, {report.played}/{report.total} games, "
        f"{report.status}"
    )
    tables = [_standings_table(report.standings, report.game, title)]
    tables += game_kind(report.game).tournament.detail_tables(report.details)
    ratings = Table(title="ratings (mu ± sigma, ordinal)")
    for column in ("player", "before", "after"):
        ratings.add_column(column, justify="left" if column == "player" else "right")
    for player, r in report.ratings.items():
        ratings.add_row(
            player,
            f"{r['mu_before']:.2f} ± {r['sigma_before']:.2f} ({r['ordinal_before']:.2f})",
            f"{r['mu_after']:.2f} ± {r['sigma_after']:.2f} ({r['ordinal_after']:.2f})",
        )
    tables.append(ratings)
    return tables
