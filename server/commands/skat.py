"""`tischrunde skat ...`: deals, ISS record replay and analysis, and the open-card solver."""

import argparse
import json
import sys
from pathlib import Path

from engine.errors import IllegalAction, InvalidInput
from engine.skat.deal import deal_from_seed
from engine.skat.iss import parse_record, read_records, replay_record
from server.commands.skat_analyze import add_analyze
from server.commands.skat_bidding import add_bidding
from server.commands.skat_solve import add_solve

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `skat` and its subcommands."""
    skat = subparsers.add_parser("skat", help="Skat tools: deal, replay ISS records, solve")
    commands = skat.add_subparsers(dest="skat_command", required=True, metavar="SUBCOMMAND")

    deal = commands.add_parser("deal", help="print a random deal in the card notation")
    deal.add_argument("--seed", type=int, required=True, help="deal number (reproducible)")
    deal.set_defaults(handler=_deal)

    replay = commands.add_parser(
        "replay", help="replay ISS game records, one JSON line of results per game"
    )
    replay.add_argument("file", type=Path, help="ISS records, one per line ('-' for stdin)")
    replay.add_argument(
        "--iss-compat",
        action="store_true",
        help="the server's conventions (both defenders resign; remaining tricks to the other "
        "party); default: score by the ISkO",
    )
    replay.set_defaults(handler=_replay)

    add_solve(commands)
    add_bidding(commands)
    add_analyze(commands)


def _deal(args: argparse.Namespace) -> int:
    print(json.dumps(deal_from_seed(args.seed).to_text()))
    return 0


def _replay(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text()
    failures = 0
    for line in read_records(text):
        report = _replay_one(line, iss_compat=args.iss_compat)
        failures += not report["ok"]
        print(json.dumps(report))
    return 1 if failures else 0


def _replay_one(line: str, *, iss_compat: bool) -> dict[str, object]:
    game_id: str | None = None
    try:
        game_id = parse_record(line).game_id
        outcome = replay_record(line, iss_compat=iss_compat)
    except (InvalidInput, IllegalAction) as error:
        return {"id": game_id, "ok": False, "error": str(error)}
    result = outcome.state.result
    return {
        "id": game_id,
        "ok": True,
        "error": None,
        "declarer": result.declarer,
        "won": result.won,
        "game_value": result.game_value,
        "list_value": result.list_value,
        "matadors": result.matadors,
        "overbid": result.overbid,
        "declarer_points": result.declarer_points,
        "declarer_tricks": result.declarer_tricks,
        "schneider": result.schneider,
        "schwarz": result.schwarz,
        "seeger_fabian": list(result.seeger_fabian),
    }
