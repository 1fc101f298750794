"""`tischrunde skat analyze FILE`: grade every bid, discard and card of ISS game records.

Each record is replayed through the engine (as `skat replay` does) and analysed
(`bots.skat.analysis`); the report is printed as text, or as one JSON line per game and a
last line with the summary per player over the file (`--json`). Imports the solver, so it
runs in this command's process, never in the game server's.
"""

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from rich.console import Console
from rich.table import Table

from engine.errors import IllegalAction, InvalidInput
from engine.skat.iss import parse_record, read_records, replay_record

if TYPE_CHECKING:
    from bots.skat.analysis import DealAnalysis, PlayerSummary


__all__ = ["add_analyze"]

PLAYER_KEYS = ("P0", "P1", "P2")


def add_analyze(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `analyze` to the `skat` command group."""
    analyze = commands.add_parser(
        "analyze", help="analyse ISS game records: every bid, discard and card graded"
    )
    analyze.add_argument("file", type=Path, help="ISS records, one per line ('-' for stdin)")
    analyze.add_argument("--json", action="store_true", help="JSON lines instead of text")
    analyze.add_argument("--worlds", type=int, default=None, help="worlds per card decision")
    analyze.add_argument(
        "--skat-worlds", type=int, default=None, help="worlds per valuation of a hand"
    )
    analyze.add_argument("--seed", type=int, default=0, help="random seed (reproducible)")
    analyze.add_argument(
        "--iss-compat", action="store_true", help="replay by the server's conventions"
    )
    analyze.set_defaults(handler=_analyze)


def _analyze(args: argparse.Namespace) -> int:
    from bots.skat.analysis import Budget, DealAnalysis, analyze_deal, summarize_list

    default = Budget()
    budget = Budget(
        card_worlds=args.worlds or default.card_worlds,
        skat_worlds=args.skat_worlds or default.skat_worlds,
    )
    text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text()
    console = Console(highlight=False)
    done: list[tuple[tuple[str, ...], DealAnalysis]] = []
    failures = 0
    for line in read_records(text):
        game_id, names = "", ("P0", "P1", "P2")
        try:
            record = parse_record(line)
            game_id = record.game_id
            names = tuple(record.properties.get(k) or k for k in PLAYER_KEYS)
            outcome = replay_record(line, iss_compat=args.iss_compat)
        except (InvalidInput, IllegalAction) as error:
            failures += 1
            _emit(args.json, console, {"id": game_id, "ok": False, "error": str(error)})
            continue
        analysis = analyze_deal(outcome.state, budget, seed=args.seed)
        done.append((names, analysis))
        if args.json:
            _emit(
                True, console, {"id": game_id, "ok": True, "players": names, "analysis": analysis}
            )
        else:
            _print_deal(console, game_id, names, analysis)
    totals = summarize_list(done)
    if args.json:
        _emit(True, console, {"summary": totals})
    else:
        _print_totals(console, totals)
    return 1 if failures else 0


def _emit(as_json: bool, console: Console, payload: dict[str, object]) -> None:
    if as_json:
        sys.stdout.write(msgspec.json.encode(payload).decode() + "\n")
    else:
        console.print(f"[red]game {payload['id']}: {payload['error']}[/red]")


def _print_deal(
    console: Console, game_id: str, names: tuple[str, ...], analysis: "DealAnalysis"
) -> None:
    declarer = names[analysis.declarer] if analysis.declarer is not None else None
    title = f"game {game_id}: " + (
        f"{declarer} plays {analysis.contract} at {analysis.bid}" if declarer else "no game"
    )
    console.rule(title)
    for bid in analysis.bidding:
        word = f"went on to {bid.bid}" if bid.went_on else f"passed at {bid.bid}"
        expected = "no game" if bid.expected is None else f"{bid.expected:+.1f}"
        console.print(
            f"bidding  {names[bid.seat]:<12} {word:<16} best plan {expected} "
            f"vs pass {bid.pass_score:+.1f}  {_mark(bid.mark, bid.lost)}"
        )
    for step, review in (("skat", analysis.skat), ("declare", analysis.declaration)):
        if review is not None:
            console.print(
                f"{step:<8} {names[review.seat]:<12} chose {review.chosen.label} "
                f"({review.chosen.expected:+.1f}), best {review.best.label} "
                f"({review.best.expected:+.1f})  {_mark(review.mark, review.lost)}"
            )
    marked = [c for c in analysis.cards if c.mark != "ok" or c.open_mark != "ok"]
    if marked:
        table = Table("trick", "player", "card", "own view", "open cards")
        for card in marked:
            own = f"{_mark(card.mark, card.lost)} better {card.best}" if card.mark != "ok" else ""
            opened = ""
            if card.open_mark != "ok":
                opened = f"{card.open_mark}: better {card.open_best}"
                if card.open_lost_points:
                    opened += f" ({card.open_lost_points} card points)"
            table.add_row(str(card.trick + 1), names[card.seat], card.card, own, opened)
        console.print(table)
    else:
        console.print("card play: no mistakes")
    _print_players(console, [(names[p.seat], p) for p in analysis.players])


def _print_players(console: Console, rows: "list[tuple[str, PlayerSummary]]") -> None:
    table = Table("player", "deals", "SF points lost", "mistakes", "blunders", "open-card blunders")
    for name, player in rows:
        table.add_row(
            name,
            str(player.deals),
            f"{player.points_lost:.1f}",
            str(player.mistakes),
            str(player.blunders),
            str(player.open_blunders),
        )
    console.print(table)


def _print_totals(console: Console, totals: "list[PlayerSummary]") -> None:
    console.rule("the whole list")
    _print_players(console, [(t.name, t) for t in totals])


def _mark(mark: str, lost: float) -> str:
    return "ok" if mark == "ok" else f"{mark} (-{lost:.1f} SF)"
