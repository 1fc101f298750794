"""`tischrunde skat ...`: deals, ISS record replay and the open-card solver."""

import argparse
import json

from engine.skat.deal import deal_from_seed

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `skat` and its subcommands."""
    skat = subparsers.add_parser("skat", help="Skat tools: deal, replay ISS records, solve")
    commands = skat.add_subparsers(dest="skat_command", required=True, metavar="SUBCOMMAND")

    deal = commands.add_parser("deal", help="print a random deal in the card notation")
    deal.add_argument("--seed", type=int, required=True, help="deal number (reproducible)")
    deal.set_defaults(handler=_deal)


def _deal(args: argparse.Namespace) -> int:
    print(json.dumps(deal_from_seed(args.seed).to_text()))
    return 0
