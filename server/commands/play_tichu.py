"""`tischrunde play --game tichu`: a whole Tichu match of bots, compact on a terminal.

The display shows each round's hands after the exchange, the calls, one line per trick
(who played what, `-` for a pass, and who took it), and the score after each round. The JSON
summary carries the result and the match record (the `GameStart` and every action, exchanges
included), which `engine.tichu.replay` turns back into the final state.
"""

import argparse
import json

import msgspec
from rich.console import Console

from engine.rng import make_rng
from engine.tichu.actions import Action, CallTichu, GiveDragon, GrandTichu, Pass, Play
from engine.tichu.cards import format_cards
from engine.tichu.combos import NO_COMBO
from engine.tichu.deal import SEATS
from engine.tichu.state import State
from server.plain import Plain

__all__ = ["play_tichu_command"]

_SEED_RANGE = 2**31


def play_tichu_command(args: argparse.Namespace) -> int:
    """Run `play --game tichu` with the parsed arguments."""
    from bots.registry import tichu_policy
    from bots.tichu.match import play_match

    names = [n.strip() for n in (args.seats or "classic,classic,classic,classic").split(",")]
    names = [n for n in names if n]
    if len(names) != SEATS:
        raise SystemExit("tischrunde play: Tichu needs 4 seats (--seats a,b,c,d)")
    try:
        policies = [tichu_policy(n) for n in names]
    except ValueError as error:
        raise SystemExit(f"tischrunde play: {error}") from error
    seed = args.seed if args.seed is not None else int(make_rng(None).integers(_SEED_RANGE))
    display = None if args.json else _Display(Console(), names)
    state = play_match(policies, seed, on_action=display)
    if display is not None:
        display.finish(state)
    else:
        print(json.dumps(summary(state, names, seed)))
    return 0


def summary(state: State, names: list[str], seed: int) -> Plain:
    """The JSON summary: seats, result and the replayable match record."""
    return {
        "game": "tichu",
        "seed": seed,
        "seats": names,
        "result": msgspec.to_builtins(state.result),
        "record": {
            "start": msgspec.to_builtins(state.start),
            "moves": [[seat, msgspec.to_builtins(action)] for seat, action in state.moves],
        },
    }


class _Display:
    """An `on_action` hook printing the match compactly."""

    def __init__(self, console: Console, names: list[str]) -> None:
        self.console = console
        self.names = names
        self.line: list[str] = []

    def __call__(self, before: State, seat: int, action: Action, after: State) -> None:
        if before.phase == "exchange" and after.phase == "play":
            self.console.rule(f"round {after.round_index + 1}")
            for s in range(SEATS):
                cards = " ".join(format_cards(after.hands[s]))
                self.console.print(f"seat {s} ({self.names[s]}): {cards}")
        if isinstance(action, GrandTichu | CallTichu):
            call = "Grand Tichu" if isinstance(action, GrandTichu) else "Tichu"
            self.console.print(f"[bold]seat {seat} calls {call}[/]")
        elif isinstance(action, Play):
            leading = seat == before.turn and (before.table == NO_COMBO or before.closed)
            if leading and before.phase == "play":
                self._flush()
            wish = f" (wish {action.wish})" if action.wish else ""
            self.line.append(f"{seat}:{','.join(action.cards)}{wish}")
        elif isinstance(action, Pass):
            self.line.append(f"{seat}:-")
        elif isinstance(action, GiveDragon):
            self.line.append(f"Dragon to {action.to}")
        if after.round_index != before.round_index or after.is_over:
            self._flush()
            score = after.rounds[-1]
            double = ", double victory" if score.double_victory else ""
            self.console.print(
                f"round {len(after.rounds)}: {score.points[0]:+d} / {score.points[1]:+d}"
                f" (finish {list(score.finish)}{double}); totals {after.totals[0]} : "
                f"{after.totals[1]}"
            )

    def _flush(self) -> None:
        if self.line:
            self.console.print("  " + "  ".join(self.line), highlight=False)
            self.line = []

    def finish(self, state: State) -> None:
        """Print the match result."""
        self.console.rule("result")
        winner = state.winner
        text = "a draw" if winner is None else f"team {winner} (seats {winner} and {winner + 2})"
        self.console.print(
            f"{state.totals[0]} : {state.totals[1]} after {len(state.rounds)} rounds: {text}"
        )
