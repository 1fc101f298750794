"""`tischrunde tichu ...`: combination questions answered by the Tichu engine, JSON lines.

The bots' offline commands (build-initiative, evaluate) live in `server.commands.tichu_bots`.

Each subcommand reads one JSON object per line on stdin and prints one JSON object per line:

* `classify`: `{"cards": [...]}` -> `{"type", "rank", "length"}`
* `beats`: `{"a": [...], "b": [...]}` -> `{"beats": bool}` (a led, b played on it in turn)
* `legal`: `{"hand": [...], "trick": [...] | null, "wish": rank | null}` ->
  `{"plays": [canonical card sets], "can_pass": bool}` for the player on turn

Card texts and the canonical card-set strings are those of `tests/data/tichu_reference.jsonl`.
A line that cannot be answered gets `{"error": "..."}` and the next line is read.
"""

import argparse
import json
import sys
from collections.abc import Callable

import msgspec

from engine.errors import IllegalAction, InvalidInput
from engine.tichu.actions import Pass, Play
from engine.tichu.cards import ACE, DOG, LOWEST_RANK, parse_cards, parse_rank, to_text
from engine.tichu.combos import KIND_NAMES, classify, kind_of, rank_of_combo
from engine.tichu.position import ON_TURN, position
from engine.tichu.rules import Rules
from server.commands import tichu_bots
from server.plain import Plain

__all__ = ["register"]

Answer = Plain


class _ClassifyRequest(msgspec.Struct):
    cards: list[str]


class _BeatsRequest(msgspec.Struct):
    a: list[str]
    b: list[str]


class _LegalRequest(msgspec.Struct):
    hand: list[str]
    trick: list[str] | None = None
    wish: str | int | None = None


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `tichu` and its subcommands."""
    tichu = subparsers.add_parser(
        "tichu", help="Tichu tools: classify, compare, legal plays, bot statistics and evaluation"
    )
    commands = tichu.add_subparsers(dest="tichu_command", required=True, metavar="SUBCOMMAND")
    for name, handler, text in (
        ("classify", _classify, 'type, rank and length of {"cards": [...]}'),
        ("beats", _beats, 'whether b beats a led alone, for {"a": [...], "b": [...]}'),
        ("legal", _legal, 'legal plays for {"hand": [...], "trick": [...]|null, "wish": r|null}'),
    ):
        command = commands.add_parser(name, help=text + " (JSON lines on stdin)")
        command.add_argument(
            "--rules",
            default="{}",
            help="rule options as JSON, e.g. '{\"phoenix_as_one\": true}' (default: official)",
        )
        command.set_defaults(handler=_lines(handler))
    tichu_bots.add_commands(commands)


def _lines(answer: Callable[[bytes, Rules], Answer]) -> Callable[[argparse.Namespace], int]:
    """A handler answering every non-blank stdin line, errors included, one line each."""

    def handler(args: argparse.Namespace) -> int:
        try:
            rules = msgspec.json.decode(args.rules, type=Rules)
        except (msgspec.DecodeError, msgspec.ValidationError, InvalidInput) as error:
            print(json.dumps({"error": f"bad --rules: {error}"}))
            return 2
        for line in sys.stdin.buffer:
            if not line.strip():
                continue
            try:
                reply = answer(line, rules)
            except (msgspec.DecodeError, msgspec.ValidationError, InvalidInput) as error:
                reply = {"error": str(error)}
            print(json.dumps(reply), flush=True)
        return 0

    return handler


def _classify(line: bytes, rules: Rules) -> Answer:
    request = msgspec.json.decode(line, type=_ClassifyRequest)
    played = classify(parse_cards(request.cards), phoenix_as_one=rules.phoenix_as_one)
    return {
        "type": KIND_NAMES[kind_of(played)],
        "rank": rank_of_combo(played),
        "length": len(request.cards),
    }


def _beats(line: bytes, rules: Rules) -> Answer:
    request = msgspec.json.decode(line, type=_BeatsRequest)
    led, answer = parse_cards(request.a), parse_cards(request.b)
    if led == DOG:
        return {"beats": False}
    state = position(answer, led, rules=rules)
    try:
        state.apply(ON_TURN, Play(cards=tuple(request.b)))
    except IllegalAction:
        return {"beats": False}
    return {"beats": True}


def _legal(line: bytes, rules: Rules) -> Answer:
    request = msgspec.json.decode(line, type=_LegalRequest)
    wish = request.wish
    if isinstance(wish, str):
        wish = parse_rank(wish)
    elif wish is not None and not LOWEST_RANK <= wish <= ACE:
        raise InvalidInput(f"a wish is a rank 2..14 (or its text), not {wish}")
    trick = None if request.trick is None else parse_cards(request.trick)
    state = position(parse_cards(request.hand), trick, wish or 0, rules)
    actions = state.legal_actions(ON_TURN)
    plays = {to_text(parse_cards(a.cards)) for a in actions if isinstance(a, Play)}
    return {
        "plays": sorted(plays),
        "can_pass": any(isinstance(a, Pass) for a in actions),
    }
