"""`tischrunde skat build-knowledge` and `train-lms`: the learned bidders' data files.

Both write package data (`bots/skat/data/`) that the tests read but never rebuild.
"""

import argparse
import os
from pathlib import Path

import numpy as np

__all__ = ["add_bidding"]


def add_bidding(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `build-knowledge` and `train-lms` to the `skat` command group."""
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
