"""The examples of docs/protocol.md read, and a message compared with the one the document
shows (for tests/server/test_protocol_examples.py, which replays them)."""

import json
import re
from pathlib import Path
from typing import Any

import msgspec

from server import protocol

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
BLOCK = re.compile(r"```json\n(.*?)\n```", re.S)
# Fields the document may show shortened (a view has dozens of fields; a bot's reasons vary).
PARTIAL = {"view", "why", "analysis"}
# Fields whose value the document shows as it is (not just its JSON type).
EXACT = {"type", "code", "kind", "game", "status", "private", "guest", "version"}


def examples() -> list[dict[str, Any]]:
    return [json.loads(block) for block in BLOCK.findall(DOC.read_text())]


def is_request(example: dict[str, Any]) -> bool:
    try:
        protocol.decode_request(json.dumps(example))
    except msgspec.ValidationError:
        return False
    return True


def differences(documented: Any, actual: Any, path: str = "$", partial: bool = False) -> list[str]:
    """How `actual` differs from the `documented` message (empty: it matches)."""
    if documented is None or actual is None:
        return []  # null in one, a value in the other: the document shows one case
    if isinstance(documented, dict):
        if not isinstance(actual, dict):
            return [f"{path}: an object is documented, {actual!r} came"]
        found = [f"{path}.{k}: documented, not sent" for k in documented.keys() - actual.keys()]
        if not partial:  # a field sent as null may be left out (a push's `id`)
            extra = [k for k in actual.keys() - documented.keys() if actual[k] is not None]
            found += [f"{path}.{k}: sent, not documented" for k in extra]
        for key in documented.keys() & actual.keys():
            if key in EXACT and documented[key] != actual[key]:
                found.append(f"{path}.{key}: {documented[key]!r} documented, {actual[key]!r} sent")
            found += differences(
                documented[key], actual[key], f"{path}.{key}", partial or key in PARTIAL
            )
        return found
    if isinstance(documented, list):
        if not isinstance(actual, list):
            return [f"{path}: a list is documented, {actual!r} came"]
        return [
            problem
            for index, (d, a) in enumerate(zip(documented, actual, strict=False))
            for problem in _item_differences(d, a, actual, f"{path}[{index}]", partial)
        ]
    if _json_type(documented) != _json_type(actual):
        return [f"{path}: {documented!r} documented, {actual!r} sent"]
    return []


def _item_differences(
    documented: Any, actual: Any, items: list[Any], path: str, partial: bool
) -> list[str]:
    """How a list's item differs from the one sent in its place; none when it matches another
    item of the list: the order of entries that rest on a random game (a leaderboard's rank,
    say) is not what the document shows."""
    found = differences(documented, actual, path, partial)
    if found and any(not differences(documented, other, path, partial) for other in items):
        return []
    return found


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


def push_key(message: dict[str, Any]) -> tuple[str, Any]:
    """What kind of push a message is: its type and its event's kind or error's code."""
    return message["type"], message.get("event", {}).get("kind") or message.get("code")
