"""docs/protocol.md shows every message of server/protocol, and docs/asyncapi.yaml describes
exactly the messages the code has (in both directions): it is what the generator makes from the
types (`python -m tests.server.asyncapi`)."""

import re
import typing
from pathlib import Path

import msgspec
import yaml

from bench.fuzz_protocol import documented_codes
from server import protocol
from tests.server import asyncapi
from tests.web.test_i18n import engine_error_codes

# Where the server sends an error code: a table's refusal, the edge's, the lobby's, an Error.
RAISED = re.compile(r'(?:error\(\s*\w+,\s*|_reject\(\s*[^,]+,\s*|LobbyError\(\s*|code=)"([a-z_]+)"')

DOCS = Path(__file__).resolve().parents[2] / "docs"


def tags(union: object) -> set[str]:
    return {str(t.__struct_config__.tag) for t in typing.get_args(union)}


def asyncapi_names(action: str) -> set[str]:
    spec = yaml.safe_load((DOCS / "asyncapi.yaml").read_text())
    assert spec["asyncapi"].startswith("3.")
    [operation] = [o for o in spec["operations"].values() if o["action"] == action]
    keys = [ref["$ref"].rsplit("/", 1)[1] for ref in operation["messages"]]
    return {spec["components"]["messages"][k]["name"] for k in keys}


def test_asyncapi_yaml_is_what_the_generator_makes_from_the_types() -> None:
    assert asyncapi.SPEC.read_text() == asyncapi.render(), (
        "docs/asyncapi.yaml is out of date: run python -m tests.server.asyncapi"
    )


def test_asyncapi_describes_the_open_fields_with_the_games_types() -> None:
    schemas = yaml.safe_load(asyncapi.render())["components"]["schemas"]
    assert schemas["Event"]["properties"]["event"] == {"$ref": "#/components/schemas/VisibleEvent"}
    kinds = schemas["VisibleEvent"]["discriminator"]["mapping"]
    assert set(kinds) == {"seated", "vacated", "taken_over", "deal", "move", "chat", "series_end"}
    assert "bid" in schemas["SkatAction"]["discriminator"]["mapping"]
    assert "exchange" in schemas["TichuAction"]["discriminator"]["mapping"]
    assert {"left", "partner", "right"} <= set(schemas["TichuExchange"]["properties"])
    assert "hand" in schemas["SkatObservation"]["properties"]
    assert "combinations" in schemas["TichuView"]["properties"]
    target = schemas["TichuRules"]["properties"]["target_points"]
    assert (target["minimum"], target["maximum"]) == (1, 10_000)


def test_asyncapi_lists_every_request_and_nothing_else() -> None:
    assert asyncapi_names("receive") == tags(protocol.Request)


def test_asyncapi_lists_every_server_message_and_nothing_else() -> None:
    assert asyncapi_names("send") == tags(protocol.Reply)


def test_protocol_md_has_a_valid_example_of_every_message() -> None:
    blocks = re.findall(r"```json\n(.*?)\n```", (DOCS / "protocol.md").read_text(), re.S)
    requests, replies = set(), set()
    for block in blocks:
        # A reply may share its request's type (`leaderboard`, `profile`): what does not
        # decode as a request must decode as a reply.
        try:
            requests.add(type(protocol.decode_request(block)).__struct_config__.tag)
        except msgspec.ValidationError:
            message = msgspec.json.decode(block, type=protocol.Reply)
            replies.add(type(message).__struct_config__.tag)
    assert requests == tags(protocol.Request)
    assert replies == tags(protocol.Reply)


def test_protocol_md_lists_every_error_code_the_server_and_the_engines_send() -> None:
    server = set()
    for path in (DOCS.parent / "server").rglob("*.py"):
        server |= set(RAISED.findall(path.read_text()))
    assert {"bad_json", "stale_seq", "watch_only", "no_such_tournament", "moved"} <= server
    moves = engine_error_codes() - {"game_not_over"}  # the ISS exporter's, never a move's
    missing = (server | moves) - documented_codes()
    assert not missing, sorted(missing)
