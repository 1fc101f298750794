"""The `tischrunde` command line: wiring only, each command group lives in `server.commands`."""

import argparse
import sys
from collections.abc import Sequence

from bots.solver_cache import keep_fresh
from server.commands import bot_worker, db, moderator, play, serve, skat, tichu, tournament

__all__ = ["main"]

_COMMAND_GROUPS = (skat, tichu, play, tournament, serve, bot_worker, db, moderator)


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every command group registered."""
    parser = argparse.ArgumentParser(
        prog="tischrunde",
        description="Skat and Tichu: rules engines, solver, bots and the game server.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in _COMMAND_GROUPS:
        group.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the process exit code."""
    args = build_parser().parse_args(argv)
    keep_fresh()  # commands that load the solver must not run stale machine code
    try:
        code: int = args.handler(args)
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stderr.close()
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
