"""`tischrunde skat ...`: deals, ISS record replay and the open-card solver."""

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from engine.errors import IllegalAction, InvalidInput
from engine.skat.deal import deal_from_seed
from engine.skat.iss import parse_record, read_records, replay_record

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

    knowledge = commands.add_parser(
        "build-knowledge",
        help="label deals with the solver: the bidding knowledge base of the knn bidder",
    )
    knowledge.add_argument("--deals", type=int, default=10_000, help="deals to label")
    knowledge.add_argument("--seed", type=int, default=0, help="first deal number")
    knowledge.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    knowledge.add_argument(
        "--out", type=Path, default=None, help="npz file (default: the shipped knowledge base)"
    )
    knowledge.set_defaults(handler=_build_knowledge)

    lms = commands.add_parser(
        "train-lms", help="fit the LMS bidder's weights on the bidding knowledge base"
    )
    lms.add_argument("--knowledge", type=Path, default=None, help="knowledge base npz")
    lms.add_argument("--out", type=Path, default=None, help="weights npz (default: shipped)")
    lms.set_defaults(handler=_train_lms)


def _build_knowledge(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from bots.skat.knowledge import DEFAULT_PATH, EVALUATION_SEEDS, build_knowledge

    if args.seed + args.deals > EVALUATION_SEEDS:
        raise SystemExit(f"deal numbers from {EVALUATION_SEEDS} are kept for evaluation")
    out = args.out or DEFAULT_PATH
    seeds = list(range(args.seed, args.seed + args.deals))
    with Progress() as bar:
        task = bar.add_task("labelling deals", total=len(seeds))
        columns = build_knowledge(
            seeds, workers=args.workers, progress=lambda done: bar.update(task, completed=done)
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **columns)
    print(f"{len(columns['position'])} labelled hands from {len(seeds)} deals -> {out}")
    return 0


def _train_lms(args: argparse.Namespace) -> int:
    from bots.skat.knowledge import DEFAULT_PATH, load_knowledge
    from bots.skat.lms import LMS_PATH, train_lms

    knowledge = load_knowledge(args.knowledge or DEFAULT_PATH)
    out = args.out or LMS_PATH
    np.savez_compressed(out, weights=train_lms(knowledge))
    print(f"LMS weights from {len(knowledge)} labelled hands -> {out}")
    return 0


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
