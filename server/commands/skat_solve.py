"""`tischrunde skat solve`: open-card values of deals, JSON lines in, one answer line out each.

The solver is imported inside the handler: importing it compiles (or loads) the numba kernels,
which the server process never does (tests/test_layers.py).
"""

import argparse
import json
import sys
import time
from typing import Literal

import msgspec

from engine.errors import InvalidInput
from engine.skat.cards import GameType
from engine.skat.deal import parse_deal
from server.plain import Plain

__all__ = ["SolveRequest", "add_solve"]

_MS_PER_S = 1000.0
_MS_DIGITS = 3


class SolveRequest(msgspec.Struct, forbid_unknown_fields=True):
    """One line of `skat solve` input: a deal by seat, the game and who declares and leads."""

    hands: list[list[str]]
    skat: list[str]
    game: GameType
    declarer: int
    leader: int = 0
    mode: Literal["value", "win"] = "value"


def add_solve(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `solve` to the `skat` command group."""
    solve = commands.add_parser(
        "solve",
        help="open-card values of deals: JSON lines on stdin, one answer line each on stdout",
        description=(
            'Each input line: {"hands": [[10 cards], [10], [10]], "skat": [2 cards], '
            '"game": "clubs|spades|hearts|diamonds|grand|null", "declarer": 0, '
            '"leader": 0, "mode": "value|win"} (leader defaults to 0, forehand; mode to '
            'value). Each output line: {"declarer_points": int or null, "declarer_wins": bool, '
            '"nodes": int, "ms": float}, or {"error": "..."} for a bad line; the command goes '
            "on with the next line and exits 0."
        ),
    )
    solve.set_defaults(handler=_solve)


def _solve(args: argparse.Namespace) -> int:
    from engine.skat.solver import Position, Solver

    solver = Solver()
    decoder = msgspec.json.Decoder(SolveRequest)
    for line in sys.stdin:
        if not line.strip():
            continue
        reply: Plain
        try:
            request = decoder.decode(line)
            deal = parse_deal(request.hands, request.skat)
            position = Position.from_deal(
                deal.hands, deal.skat, request.game, request.declarer, request.leader
            )
            start = time.perf_counter()
            result = solver.solve(position, request.mode)
            elapsed = (time.perf_counter() - start) * _MS_PER_S
            reply = {
                "declarer_points": result.declarer_points,
                "declarer_wins": result.declarer_wins,
                "nodes": result.nodes,
                "ms": round(elapsed, _MS_DIGITS),
            }
        except (msgspec.ValidationError, msgspec.DecodeError, InvalidInput) as error:
            reply = {"error": str(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0
