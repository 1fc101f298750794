"""Bot tournaments recorded in the database (issue 9): duplicate pairing, standings checked
against the stored games on SQLite and PostgreSQL, resume after SIGKILL, and the report."""

import asyncio
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import create_async_engine

from server.cli import main
from server.events import DealStarted, Seated, decode_event
from server.store.db import Store
from server.store.migrate import upgrade
from server.store.models import game_events, games, rating_history, results, tables
from server.tournament.play import play_game
from server.tournament.report import Report, load_report
from server.tournament.runner import create, run
from server.tournament.schedule import Params, game_specs, table_id, table_specs
from server.tournament.standings import Tally
from tests.server.client import PATIENCE
from tests.server.test_restart import postgres_database

SKAT = Params(
    game="skat",
    players=("greedy", "random", "beginner"),
    deals=2,
    duplicate=True,
    list_length=1,
    seed=7,
    rules={},
)
TICHU = Params(
    game="tichu",
    players=("greedy", "random"),
    deals=6,
    duplicate=True,
    list_length=4,
    seed=7,
    rules={"max_rounds": 1},
)

TICHU_MATCHES = msgspec.structs.replace(TICHU, deals=1, list_length=1, rules={})


@contextlib.asynccontextmanager
async def database(kind: str, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database at the newest schema: a SQLite file or a PostgreSQL database."""
    if kind == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'tournament.db'}"
        await asyncio.to_thread(upgrade, url)
        yield url
        return
    async with postgres_database() as url:
        await asyncio.to_thread(upgrade, url)
        yield url


async def play_tournament(url: str, params: Params) -> tuple[str, Report]:
    store = Store.connect(url)
    try:
        tournament = await create(store, params)
        await run(store, tournament, params, workers=1, tally=Tally(params.game))
        report = await load_report(store.tournaments, tournament)
    finally:
        await store.close()
    assert report is not None
    return tournament, report


async def stored_rows(url: str, tournament: str) -> dict[str, Any]:
    """The tournament's tables, events, games, results and rating changes, straight from SQL."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            ids = select(tables.c.id).where(tables.c.tournament_id == tournament)
            found = {
                "tables": (await conn.execute(select(tables).where(tables.c.id.in_(ids)))).all(),
                "events": (
                    await conn.execute(
                        select(game_events)
                        .where(game_events.c.table_id.in_(ids))
                        .order_by(game_events.c.table_id, game_events.c.seq)
                    )
                ).all(),
                "games": (await conn.execute(select(games).where(games.c.table_id.in_(ids)))).all(),
                "results": (
                    await conn.execute(select(results).where(results.c.table_id.in_(ids)))
                ).all(),
                "ratings": await conn.scalar(
                    select(func.count())
                    .select_from(rating_history)
                    .where(rating_history.c.table_id.in_(ids))
                ),
            }
    finally:
        await engine.dispose()
    return found


def seats_of(events: list[Any]) -> dict[str, dict[int, str]]:
    """Who sat where at each table, from its `seated` events."""
    seats: dict[str, dict[int, str]] = {}
    for row in events:
        event = decode_event(row.payload, row.version)
        if isinstance(event, Seated):
            assert event.player.bot is not None
            seats.setdefault(row.table_id, {})[event.seat] = event.player.bot
    return seats


def totals_from_games(params: Params, rows: dict[str, Any]) -> dict[str, int]:
    """Each player's total recomputed from the stored game results alone: Seeger-Fabian
    points (Skat), own team's round points minus the other team's (Tichu)."""
    seats = seats_of(rows["events"])
    totals: Counter[str] = Counter()
    for game in rows["games"]:
        result = msgspec.json.decode(game.result)
        names = seats[game.table_id]
        if params.game == "skat":
            for seat, points in enumerate(result["seeger_fabian"]):
                totals[names[seat]] += points
        else:
            points = result["totals"]
            for team in (0, 1):
                totals[names[team]] += points[team] - points[1 - team]
    return dict(totals)


class TestSchedule:
    def test_skat_duplicate_plays_each_deal_in_all_six_seatings(self) -> None:
        specs = table_specs(msgspec.structs.replace(SKAT, list_length=2, deals=4))
        by_deal: dict[int, list[tuple[tuple[str, ...], int]]] = {}
        tables = {t.index: t for t in specs}
        for spec in game_specs(SKAT, specs):
            by_deal.setdefault(spec.deal, []).append((tables[spec.table].players, spec.seed))
        assert sorted(by_deal) == [0, 1, 2, 3]
        for plays in by_deal.values():
            assert sorted(p for p, _ in plays) == sorted(itertools.permutations(SKAT.players))
            assert len({seed for _, seed in plays}) == 1
        assert len({plays[0][1] for plays in by_deal.values()}) == len(by_deal)

    def test_tichu_duplicate_swaps_the_teams(self) -> None:
        specs = table_specs(TICHU)
        assert [t.players for t in specs[:2]] == [
            ("greedy", "random", "greedy", "random"),
            ("random", "greedy", "random", "greedy"),
        ]
        seeds = [(s.table, s.deal, s.seed) for s in game_specs(TICHU, specs)]
        first, swapped = ([s for t, d, s in seeds if t == k] for k in (0, 1))
        assert first == swapped

    def test_more_players_than_seats_play_every_group(self) -> None:
        params = msgspec.structs.replace(SKAT, players=("a", "b", "c", "d"), duplicate=False)
        groups = {frozenset(t.players) for t in table_specs(params)}
        assert len(groups) == 4  # every three of four

    def test_a_player_named_twice_is_refused(self) -> None:
        with pytest.raises(ValueError, match="once"):
            table_specs(msgspec.structs.replace(SKAT, players=("greedy", "greedy", "random")))


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
@pytest.mark.parametrize(
    "params", [SKAT, TICHU, TICHU_MATCHES], ids=["skat", "tichu", "tichu-matches"]
)
async def test_standings_agree_with_the_games_in_the_database(
    db: str, params: Params, tmp_path: Path
) -> None:
    async with database(db, tmp_path) as url:
        tournament, report = await play_tournament(url, params)
        rows = await stored_rows(url, tournament)
    expected_tables = table_specs(params)
    assert report.status == "finished"
    assert report.played == report.total == sum(t.games for t in expected_tables)
    assert len(rows["games"]) == report.total
    assert {r.status for r in rows["tables"]} == {"finished"}
    assert len(rows["results"]) == sum(len(t.players) for t in expected_tables)
    assert rows["ratings"] == len(expected_tables) * len(params.players)
    totals = totals_from_games(params, rows)
    assert {r.player: r.total for r in report.standings} == totals
    if params.game == "skat":
        assert sum(r.games for r in report.standings) == report.total * 3
        # Every deal is played in all seatings, so the paired difference per deal averages
        # to the difference of the players' means per game.
        mean_of = {r.player: r.mean for r in report.standings}
        pairs = {(p["a"], p["b"]): p for p in report.details["paired"]}
        assert set(pairs) == {("beginner", "greedy"), ("beginner", "random"), ("greedy", "random")}
        for (a, b), pair in pairs.items():
            assert pair["deals"] == params.deals
            assert pair["mean"] == pytest.approx(mean_of[a] - mean_of[b])
    else:
        rounds = sum(len(msgspec.json.decode(g.result)["rounds"]) for g in rows["games"])
        assert [r.games for r in report.standings] == [rounds, rounds]
        [pair] = report.details["pairs"]
        assert pair["rounds"] == rounds
        mean_of = {r.player: r.mean for r in report.standings}
        assert pair["mean"] == pytest.approx(mean_of[pair["a"]]) == -mean_of[pair["b"]]
    for player, rating in report.ratings.items():
        assert rating["mu_after"] != rating["mu_before"], player


@pytest.mark.parametrize(
    "params", [SKAT, TICHU, TICHU_MATCHES], ids=["skat", "tichu", "tichu-matches"]
)
async def test_a_duplicate_deal_gives_every_seating_the_same_cards(
    params: Params, tmp_path: Path
) -> None:
    async with database("sqlite", tmp_path) as url:
        tournament, _ = await play_tournament(url, params)
        rows = await stored_rows(url, tournament)
    seats = seats_of(rows["events"])
    starts = {}
    for row in rows["events"]:
        event = decode_event(row.payload, row.version)
        if isinstance(event, DealStarted):
            starts[(row.table_id, event.number)] = bytes(event.start)
    for table in table_specs(params):
        tid = table_id(tournament, table.index)
        assert tuple(seats[tid][s] for s in range(len(table.players))) == table.players
    by_deal: dict[tuple[int, int], set[bytes]] = {}
    seatings: dict[tuple[int, int], set[tuple[str, ...]]] = {}
    for table in table_specs(params):
        for number in range(table.games):
            key = (table.group, table.first_deal + number)
            by_deal.setdefault(key, set()).add(starts[(table_id(tournament, table.index), number)])
            seatings.setdefault(key, set()).add(table.players)
    assert all(len(cards) == 1 for cards in by_deal.values())
    assert all(len(s) == (6 if params.game == "skat" else 2) for s in seatings.values())


async def committed_games(url: str) -> int:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return int(await conn.scalar(select(func.count()).select_from(games)) or 0)
    finally:
        await engine.dispose()


async def test_a_run_killed_mid_way_resumes_without_losing_or_repeating_a_game(
    tmp_path: Path,
) -> None:
    params = msgspec.structs.replace(TICHU, deals=60, list_length=5)
    total = 2 * params.deals
    url = f"sqlite+aiosqlite:///{tmp_path / 'killed.db'}"
    command = [sys.executable, "-m", "server.cli", "tournament", "--db", url, "--json"]
    process = subprocess.Popen(
        [
            *command,
            *("--game", "tichu", "--players", ",".join(params.players)),
            *("--rounds", str(params.deals), "--list-length", str(params.list_length)),
            *("--seed", str(params.seed), "--workers", "1", "--out", str(tmp_path)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # the kill takes the workers down with it, like a crash
    )
    assert process.stderr is not None
    tournament = process.stderr.readline().decode().split()[1]
    deadline = time.monotonic() + 10 * PATIENCE
    while (done := await committed_games(url)) < 3:
        assert time.monotonic() < deadline and process.poll() is None
        await asyncio.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    process.stderr.close()
    before_resume = await committed_games(url)
    assert 3 <= before_resume < total, "the kill must land mid-run"
    store = Store.connect(url)
    try:
        leases = store.leases("a-server", 10.0)
        assert await leases.claim() == [], "a server must not adopt a tournament's tables"
    finally:
        await store.close()

    resumed = subprocess.run(
        [*command, "--resume", tournament, "--workers", "1", "--out", str(tmp_path)],
        capture_output=True,
        check=True,
    )
    report = json.loads(resumed.stdout)
    assert report["played"] == report["total"] == total
    assert done <= before_resume
    rows = await stored_rows(url, tournament)
    numbers = Counter((g.table_id, g.number) for g in rows["games"])
    assert len(numbers) == total and set(numbers.values()) == {1}
    for table in table_specs(params):
        seqs = [e.seq for e in rows["events"] if e.table_id == table_id(tournament, table.index)]
        assert seqs == list(range(1, len(seqs) + 1))
    # Every stored game is the game the schedule says, whichever run played it.
    tables = table_specs(params)
    stored = {(g.table_id, g.number): msgspec.json.decode(g.result) for g in rows["games"]}
    for spec in game_specs(params, tables)[: 2 * before_resume]:
        again = play_game(params, tables[spec.table], spec)
        as_stored = msgspec.json.decode(msgspec.json.encode(again.result))
        assert stored[(table_id(tournament, spec.table), spec.number)] == as_stored


async def test_report_command_prints_the_stored_standings_and_writes_csv_and_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with database("sqlite", tmp_path) as url:
        tournament, report = await play_tournament(url, TICHU)
    capsys.readouterr()
    out = tmp_path / "out"
    code = await asyncio.to_thread(
        main, ["tournament", "report", tournament, "--db", url, "--json", "--out", str(out)]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["standings"] == msgspec.to_builtins(report.standings)
    assert printed["details"]["pairs"][0]["rounds"] == report.total
    csv_lines = (out / f"tournament-{tournament}.csv").read_text().splitlines()
    assert csv_lines[0] == "game,table,number,player,score,cumulative,mu,sigma"
    assert len(csv_lines) == 1 + report.total * len(TICHU.players)
    assert (out / f"tournament-{tournament}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    final = {row.split(",")[3]: int(row.split(",")[5]) for row in csv_lines[-2:]}
    assert final == {r.player: r.total for r in report.standings}

    code = await asyncio.to_thread(main, ["tournament", "report", "nope", "--db", url])
    assert code == 2
    assert "no tournament" in capsys.readouterr().err


async def test_without_out_the_files_go_to_a_tournaments_folder_not_the_working_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async with database("sqlite", tmp_path) as url:
        tournament, _ = await play_tournament(url, TICHU)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    command = ["tournament", "report", tournament, "--db", url, "--json"]
    code = await asyncio.to_thread(main, command)
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    folder = tmp_path / "tournaments"
    assert not [p for p in tmp_path.iterdir() if p.suffix in (".csv", ".png")]
    assert sorted(p.name for p in folder.iterdir()) == [
        f"tournament-{tournament}.csv",
        f"tournament-{tournament}.png",
    ]
    assert Path(printed["csv"]).resolve() == folder / f"tournament-{tournament}.csv"
    assert Path(printed["plot"]).resolve() == folder / f"tournament-{tournament}.png"


def test_four_table_duplicate_plays_each_deal_in_all_24_seatings() -> None:
    params = msgspec.structs.replace(SKAT, players=("a", "b", "c", "d"), rules={"players": 4})
    specs = table_specs(params)
    seatings = {t.players for t in specs if t.first_deal == 0}
    assert len(seatings) == 24 and all(len(s) == 4 for s in seatings)


def test_a_four_table_tournament_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'four.db'}"
    players = "greedy,random,beginner,club"
    code = main(
        [
            *("tournament", "--game", "skat", "--players", players, "--table-size", "4"),
            *("--games", "1", "--no-duplicate", "--seed", "3", "--workers", "1"),
            *("--db", url, "--json", "--out", str(tmp_path)),
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["params"]["rules"] == {"players": 4}
    assert report["params"]["list_length"] == 48
    assert report["played"] == report["total"] == 1
    assert sorted(r["player"] for r in report["standings"]) == sorted(players.split(","))
    assert {r["games"] for r in report["standings"]} == {1}


def test_the_command_refuses_unknown_bots_and_missing_sizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'refused.db'}"
    base = ["tournament", "--db", url, "--game", "skat"]
    assert main([*base, "--players", "greedy,random,nobody", "--games", "1"]) == 2
    assert "unknown Skat bot 'nobody'" in capsys.readouterr().err
    assert main([*base, "--players", "greedy,random,beginner"]) == 2
    assert "needs --games" in capsys.readouterr().err
    assert main([*base, "--players", "greedy,random", "--games", "1"]) == 2
    assert "at least 3 players" in capsys.readouterr().err
    assert main(["tournament", "--db", url, "--resume", "nope"]) == 2
    assert "no tournament 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("game", "headings"),
    [
        ("skat", ["games", "declared", "won", "Seeger-Fabian points"]),
        ("tichu", ["rounds", "Tichu", "Grand", "made", "point differential"]),
    ],
)
def test_the_standings_table_has_the_games_own_columns(game: str, headings: list[str]) -> None:
    """The command's standings table takes its unit and columns from the game's adapter."""
    from rich.console import Console

    from server.commands.tournament import _standings_table
    from server.games import game_kind

    play = game_kind(game).tournament
    fields = {"player": "greedy", "games": 12, "total": 340, "mean": 28.3, "ci95": 9.1}
    fields |= {column.key: 0.5 if column.share else 3 for column in play.columns}
    row = msgspec.convert(fields, play.row_type)
    console = Console(width=200, record=True)
    console.print(_standings_table([row], game))
    text = console.export_text()
    assert all(heading in text for heading in headings), text
    assert "50.0 %" in text and "greedy" in text
