"""`tischrunde play`: a complete game of bots, shown in the terminal or printed as JSON.

Skat plays one deal; Tichu a whole match (rounds until a team reaches 1000). The JSON summary
holds the result and the record that replays the game (`record` for Skat in ISS form; for
Tichu the `GameStart` and every action, so `engine.tichu.replay` rebuilds the match).
"""

import argparse
import json
from collections.abc import Callable

import msgspec
from rich.console import Console

from bots.skat.match import play_deal
from engine.rng import make_rng
from engine.skat.actions import Action, Bid, Declare, Discard, Hold, Pass, PickUpSkat, Play
from engine.skat.iss import format_record
from engine.skat.rules import Rules
from engine.skat.state import State, new_game
from server.plain import Plain

__all__ = ["play_skat", "register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `play`."""
    play = subparsers.add_parser("play", help="play a complete game of bots")
    play.add_argument("--game", choices=sorted(_PLAYERS), default="skat", help="which game")
    play.add_argument(
        "--seats",
        default=None,
        help="comma-separated bot names, one per seat (3 or 4 for Skat, 4 for Tichu; "
        "default: random bots for Skat, classic for Tichu)",
    )
    play.add_argument("--seed", type=int, default=None, help="deal and bot seed")
    play.add_argument("--json", action="store_true", help="print one JSON object, no display")
    play.set_defaults(handler=_play)


def _play(args: argparse.Namespace) -> int:
    return _PLAYERS[args.game](args)


def _play_tichu(args: argparse.Namespace) -> int:
    from server.commands.play_tichu import play_tichu_command

    return play_tichu_command(args)


def _play_skat(args: argparse.Namespace) -> int:
    from bots.registry import skat_policy

    seats = args.seats or "random,random,random"
    names = [n.strip() for n in seats.split(",") if n.strip()]
    if len(names) not in (3, 4):
        raise SystemExit("tischrunde play: Skat needs 3 or 4 seats (--seats a,b,c)")
    try:
        policies = [skat_policy(n) for n in names]
    except ValueError as error:
        raise SystemExit(f"tischrunde play: {error}") from error
    seed = args.seed if args.seed is not None else int(make_rng(None).integers(2**31))
    console = None if args.json else Console()
    state = play_skat(policies, seed, console)
    if args.json:
        print(json.dumps(_summary(state, names, seed)))
    return 0


_PLAYERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "skat": _play_skat,
    "tichu": _play_tichu,
}


def play_skat(
    policies: list[Callable[..., object]], seed: int, console: Console | None = None
) -> State:
    """Play one deal with one policy per seat, shown on `console` when given."""
    if console is None:
        return play_deal(policies, seed)
    _show_deal(console, new_game(Rules(players=len(policies)), seed=seed))  # type: ignore[arg-type]

    def show(state: State, seat: int, action: Action) -> None:
        _show_action(console, state, seat, action)

    state = play_deal(policies, seed, on_action=show)
    _show_result(console, state)
    return state


def _summary(state: State, names: list[str], seed: int) -> Plain:
    result: Plain = msgspec.to_builtins(state.result)
    players = tuple(names[s] for s in state.active_seats)
    return {
        "game": "skat",
        "seed": seed,
        "seats": names,
        "record": format_record(state, game_id=str(seed), players=players),  # type: ignore[arg-type]
        "result": result,
    }


def _show_deal(console: Console, state: State) -> None:
    console.rule(f"Skat deal {state.start.deal.to_text()['skat']} in the skat")
    roles = ("forehand", "middlehand", "rearhand")
    for role, seat in zip(roles, state.active_seats, strict=True):
        cards = " ".join(state.observation(seat).hand)
        console.print(f"seat {seat} ({role}): {cards}")


def _show_action(console: Console, state: State, seat: int, action: Action) -> None:
    if isinstance(action, Bid):
        console.print(f"seat {seat} bids {action.value}")
    elif isinstance(action, Hold | Pass):
        console.print(f"seat {seat} {'holds' if isinstance(action, Hold) else 'passes'}")
    elif isinstance(action, PickUpSkat):
        console.print(f"seat {seat} picks up the skat")
    elif isinstance(action, Discard):
        console.print(f"seat {seat} discards two cards")
    elif isinstance(action, Declare):
        extras = [k for k in ("schneider", "schwarz", "ouvert") if getattr(action, k)]
        hand = " hand" if not state.picked_up else ""
        console.print(f"[bold]seat {seat} declares {action.game}{hand} {' '.join(extras)}[/]")
    elif isinstance(action, Play) and not state.trick and state.tricks:
        trick = state.tricks[-1]
        cards = " ".join(state.observation(None).tricks[-1].cards)
        console.print(f"trick {len(state.tricks)}: {cards} -> seat {trick.winner}")


def _show_result(console: Console, state: State) -> None:
    result = state.result
    console.rule("result")
    if result.passed_in:
        console.print("all passed: the deal is thrown in")
        return
    if result.declarer is None:
        console.print(f"no declarer ({result.ended_by}); list points {result.seeger_fabian}")
        return
    outcome = "wins" if result.won else "loses"
    console.print(
        f"seat {result.declarer} {outcome} {result.game} with {result.declarer_points} points; "
        f"game value {result.game_value}, list {result.list_value:+d}, "
        f"Seeger-Fabian {list(result.seeger_fabian)}"
    )
