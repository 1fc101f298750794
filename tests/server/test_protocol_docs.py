"""docs/protocol.md shows every message of server/protocol.py, and docs/asyncapi.yaml describes
exactly the messages the code has (in both directions)."""

import re
import typing
from pathlib import Path

import msgspec
import yaml

from server import protocol

DOCS = Path(__file__).resolve().parents[2] / "docs"


def tags(union: object) -> set[str]:
    return {str(t.__struct_config__.tag) for t in typing.get_args(union)}


def asyncapi_names(action: str) -> set[str]:
    spec = yaml.safe_load((DOCS / "asyncapi.yaml").read_text())
    assert spec["asyncapi"].startswith("3.")
    [operation] = [o for o in spec["operations"].values() if o["action"] == action]
    keys = [ref["$ref"].rsplit("/", 1)[1] for ref in operation["messages"]]
    return {spec["components"]["messages"][k]["name"] for k in keys}


def test_asyncapi_lists_every_request_and_nothing_else() -> None:
    assert asyncapi_names("receive") == tags(protocol.Request)


def test_asyncapi_lists_every_server_message_and_nothing_else() -> None:
    assert asyncapi_names("send") == tags(protocol.Reply)


def test_protocol_md_has_a_valid_example_of_every_message() -> None:
    blocks = re.findall(r"```json\n(.*?)\n```", (DOCS / "protocol.md").read_text(), re.S)
    requests, replies = set(), set()
    for block in blocks:
        raw = msgspec.json.decode(block)
        if raw["type"] in tags(protocol.Request) and "entries" not in raw:
            requests.add(type(protocol.decode_request(block)).__struct_config__.tag)
        else:
            message = msgspec.json.decode(block, type=protocol.Reply)
            replies.add(type(message).__struct_config__.tag)
    assert requests == tags(protocol.Request)
    assert replies == tags(protocol.Reply)
