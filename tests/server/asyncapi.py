"""docs/asyncapi.yaml, generated from the msgspec types, so the spec cannot drift from the code.

Every request and reply of `server/protocol`, and what their open fields hold: the table
events a client may see (`event.event`), each game's view (`view`), actions (`act.action`,
`move` events) and rules (`create_table.rules`), as JSON Schema made by
`msgspec.json.schema_components` from the same types the server decodes and encodes with.
`tests/server/test_protocol_docs.py` fails when the file differs from what this makes.

    python -m tests.server.asyncapi          # rewrites docs/asyncapi.yaml
"""

import inspect
import re
import typing
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
import yaml

from engine.skat.actions import Action as SkatAction
from engine.skat.observation import Observation as SkatObservation
from engine.skat.rules import Rules as SkatRules
from engine.tichu.actions import Action as TichuAction
from engine.tichu.observation import Observation as TichuObservation
from engine.tichu.rules import Rules as TichuRules
from server import protocol
from server.core.views import VisibleEvent
from server.games.skat import SkatStanding, SkatView
from server.games.tichu import TichuView

__all__ = ["SPEC", "build", "render"]

SPEC = Path(__file__).resolve().parents[2] / "docs" / "asyncapi.yaml"
REF = "#/components/schemas/{name}"
SENTENCE_END = re.compile(r"(?<=[^g]\.) (?=[A-Z`])")  # a sentence ends, but not at "e.g."
HEADER = (
    "# Generated from the msgspec types by `python -m tests.server.asyncapi`: do not edit.\n"
    "# tests/server/test_protocol_docs.py fails when this file differs from what it makes.\n"
)
DESCRIPTION = (
    "Protocol v1: JSON text frames, one message per frame, tagged by `type`; docs/protocol.md "
    "explains it with examples. `event.event` is a VisibleEvent; `view` the recipient's view of "
    "the running deal (SkatObservation, or SkatView for a seat that may declare; TichuView for a "
    "seat and TichuObservation for a spectator); "
    "`act.action` and a move's `action` a SkatAction or TichuAction; `create_table.rules` "
    "SkatRules or TichuRules. Every field a client sends has the range given here."
)
# Named unions: what the protocol's open fields hold.
UNIONS: dict[str, Any] = {
    "VisibleEvent": VisibleEvent,
    "SkatAction": SkatAction,
    "TichuAction": TichuAction,
}
GAME_PREFIXES = {"engine.skat": "Skat", "server.games.skat": "Skat"} | {
    "engine.tichu": "Tichu",
    "server.games.tichu": "Tichu",
}


def _structs(types: list[Any]) -> list[type]:
    """Every Struct type reachable from `types`."""
    found: dict[type, None] = {}

    def walk(info: mi.Type) -> None:
        if isinstance(info, mi.Metadata):
            walk(info.type)
        elif isinstance(info, mi.StructType):
            if info.cls not in found:
                found[info.cls] = None
                for field in info.fields:
                    walk(field.type)
        elif isinstance(info, mi.UnionType):
            for member in info.types:
                walk(member)
        elif isinstance(info, mi.CollectionType):
            walk(info.item_type)
        elif isinstance(info, mi.DictType):
            walk(info.value_type)
        elif isinstance(info, mi.TupleType):
            for member in info.item_types:
                walk(member)

    for info in mi.multi_type_info(types):
        walk(info)
    return list(found)


def _names(structs: list[type]) -> dict[str, str]:
    """msgspec's component name of each struct -> the name in the spec: an engine's or game
    adapter's types carry their game (`SkatBid`, `TichuPlay`), the server's keep theirs."""
    plain = [cls.__name__ for cls in structs]
    renamed = {}
    for cls in structs:
        original = cls.__name__
        if plain.count(original) > 1:
            original = f"{cls.__module__}.{cls.__qualname__}"
        prefix = next((p for m, p in GAME_PREFIXES.items() if cls.__module__.startswith(m)), "")
        name = cls.__name__ if cls.__name__.startswith(prefix) else prefix + cls.__name__
        renamed[original] = name
    assert len(set(renamed.values())) == len(renamed), renamed
    return renamed


def _rename(value: Any, names: dict[str, str]) -> Any:
    """`value` with every reference to a component by its spec name, and descriptions (the
    types' docstrings) as plain paragraphs."""
    if isinstance(value, dict):
        return {
            k: _paragraphs(v) if k == "description" else _rename(v, names) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, str) and value.startswith(REF.format(name="")):
        name = value.rsplit("/", 1)[1]
        return REF.format(name=names.get(name, name))
    return value


def _paragraphs(text: str) -> str:
    """A docstring's paragraphs, each on one line."""
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n"))


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [*schema.get("anyOf", [schema]), {"type": "null"}]}


def _schemas() -> dict[str, Any]:
    """Every component schema, with the open fields filled in."""
    requests = list(typing.get_args(protocol.Request))
    replies = list(typing.get_args(protocol.Reply))
    games = [SkatObservation, SkatView, TichuView, TichuObservation, SkatRules, TichuRules]
    games.append(SkatStanding)  # a list's standings: Skat's columns, or ListStanding's alone
    roots = [*requests, *replies, *UNIONS.values(), *games]
    made, components = msgspec.json.schema_components(roots, ref_template=REF)
    names = _names(_structs(roots))
    assert set(components) <= set(names), set(components) - set(names)
    schemas: dict[str, Any] = {names[k]: _rename(v, names) for k, v in components.items()}
    unions = made[len(requests) + len(replies) : len(requests) + len(replies) + len(UNIONS)]
    for name, schema in zip(UNIONS, unions, strict=True):
        schemas[name] = _rename(schema, names)
    action = {"anyOf": [_ref("SkatAction"), _ref("TichuAction")]}
    view = {
        "anyOf": [
            _ref("SkatObservation"),
            _ref("SkatView"),
            _ref("TichuView"),
            _ref("TichuObservation"),
        ]
    }
    standings = {"type": "array", "items": {"anyOf": [_ref("SkatStanding"), _ref("ListStanding")]}}
    fields = {
        ("Event", "event"): _ref("VisibleEvent"),
        ("Snapshot", "standings"): _nullable(standings),
        ("SeriesEnded", "standings"): standings,
        ("Event", "view"): _nullable(view),
        ("Snapshot", "view"): _nullable(view),
        ("MoveView", "action"): _nullable(action),
        ("BotHint", "action"): action,
        ("Act", "action"): {"allOf": [schemas["Act"]["properties"]["action"], action]},
        ("CreateTable", "rules"): {
            "allOf": [
                schemas["CreateTable"]["properties"]["rules"],
                {"anyOf": [_ref("SkatRules"), _ref("TichuRules")]},
            ]
        },
    }
    for (struct, field), schema in fields.items():
        properties = schemas[struct]["properties"]
        default = properties[field].get("default", msgspec.UNSET)
        properties[field] = schema if default is msgspec.UNSET else {**schema, "default": default}
    return dict(sorted(schemas.items()))


def _summary(cls: type) -> str:
    """The first sentence of a type's docstring, on one line."""
    text = " ".join((inspect.getdoc(cls) or "").split())
    return SENTENCE_END.split(text, maxsplit=1)[0]


def build() -> dict[str, Any]:
    """The AsyncAPI 3 document as plain data."""
    requests = typing.get_args(protocol.Request)
    replies = typing.get_args(protocol.Reply)
    messages: dict[str, Any] = {}
    keys = {}
    for cls in (*requests, *replies):
        tag = str(cls.__struct_config__.tag)
        key = tag if tag not in keys.values() else f"{tag}_reply"
        keys[cls] = key
        messages[key] = {
            "name": tag,
            "title": cls.__name__,
            "summary": _summary(cls),
            "payload": _ref(cls.__name__),
        }
    channel_messages = {key: {"$ref": f"#/components/messages/{key}"} for key in messages}

    def operation(action: str, summary: str, types: tuple[type, ...]) -> dict[str, Any]:
        return {
            "action": action,
            "channel": {"$ref": "#/channels/game"},
            "summary": summary,
            "messages": [{"$ref": f"#/channels/game/messages/{keys[cls]}"} for cls in types],
        }

    return {
        "asyncapi": "3.0.0",
        "info": {"title": "Tischrunde game server", "version": "1", "description": DESCRIPTION},
        "servers": {
            "local": {
                "host": "127.0.0.1:8765",
                "protocol": "ws",
                "pathname": "/ws",
                "description": "tischrunde serve (any path upgrades)",
            }
        },
        "channels": {"game": {"address": "/ws", "messages": channel_messages}},
        "operations": {
            "clientRequests": operation(
                "receive", "Requests the server receives from a client.", requests
            ),
            "serverMessages": operation(
                "send", "Replies and table pushes the server sends.", replies
            ),
        },
        "components": {"messages": messages, "schemas": _schemas()},
    }


class _Dumper(yaml.SafeDumper):
    """Writes a schema used in several places in full each time (no YAML anchors)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def render() -> str:
    """The text of docs/asyncapi.yaml."""
    body = yaml.dump(build(), Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True)
    return HEADER + body


if __name__ == "__main__":
    SPEC.write_text(render())
