"""The bounded field types of the protocol (docs/protocol.md, "Limits")."""

from typing import Annotated

import msgspec

__all__ = [
    "END",
    "ID_PATTERN",
    "MAX_ACTION_NUMBER",
    "MAX_SEQ",
    "MAX_SERIES",
    "SAFE_INTEGER",
    "TEXT_PATTERN",
    "ActionFields",
    "ActionNumber",
    "BotLevel",
    "Cards",
    "ChatText",
    "DealNumber",
    "GameName",
    "Invite",
    "Name",
    "Password",
    "PlayerName",
    "RequestId",
    "RuleOptions",
    "Seat",
    "Seq",
    "TableId",
    "Token",
    "TournamentId",
    "Word",
]

# Every string a client sends is bounded and free of control characters, and every number has
# a range (docs/protocol.md, "Limits"): what reaches the lobby, the tables and the database is
# checked here once, so SQLite and PostgreSQL can never answer the same request differently.
SAFE_INTEGER = 2**53 - 1  # JavaScript's largest exact integer: any client can count to it
MAX_SEQ = 2**31 - 1  # the database's integer
MAX_SERIES = 200  # deals in a list
MAX_ACTION_NUMBER = 1000  # numbers inside a game action (a Skat bid, a Tichu seat)
END = r"$(?!\n)"  # the end of the string (Python's `$` alone also matches before a final \n)
ID_PATTERN = r"^[A-Za-z0-9_-]+" + END  # table ids, invites, tokens: what token_urlsafe writes
TEXT_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*" + END  # no control character (NUL, newline, ...)

RequestId = (
    Annotated[int, msgspec.Meta(ge=-SAFE_INTEGER, le=SAFE_INTEGER)]
    | Annotated[str, msgspec.Meta(max_length=64, pattern=TEXT_PATTERN)]
)
TableId = Annotated[str, msgspec.Meta(min_length=1, max_length=32, pattern=ID_PATTERN)]
Invite = Annotated[str, msgspec.Meta(max_length=64, pattern=ID_PATTERN)]
Token = Annotated[str, msgspec.Meta(max_length=128, pattern=ID_PATTERN)]
# A name is checked by server/names.py (any script, normalised, 2-24 characters: `bad_name`
# with a reason); here only bounded, as every string.
Name = Annotated[str, msgspec.Meta(max_length=64, pattern=TEXT_PATTERN)]
Password = Annotated[str, msgspec.Meta(min_length=8, max_length=128, pattern=TEXT_PATTERN)]
Seat = Annotated[int, msgspec.Meta(ge=0, le=7)]
Seq = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
DealNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_SERIES - 1)]
BotLevel = Annotated[
    str, msgspec.Meta(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.:-]+" + END)
]
GameName = Annotated[str, msgspec.Meta(min_length=1, max_length=16, pattern=r"^[a-z0-9_]+" + END)]
TournamentId = Annotated[str, msgspec.Meta(min_length=1, max_length=16, pattern=ID_PATTERN)]
Word = Annotated[str, msgspec.Meta(max_length=32, pattern=TEXT_PATTERN)]
PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=TEXT_PATTERN)]
# A line of chat, at a table or in the lobby: the same rules for both.
ChatText = Annotated[str, msgspec.Meta(min_length=1, max_length=500, pattern=TEXT_PATTERN)]
# A game's rule options and actions are flat objects of plain values: no nesting to decode
# (a frame nested a thousand levels deep is refused at the first level too deep), and the
# game checks names and ranges (its Rules and Action types, docs/asyncapi.yaml).
RuleOptions = Annotated[dict[Word, Word | int | bool | None], msgspec.Meta(max_length=16)]
ActionNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_ACTION_NUMBER)]
Cards = Annotated[list[Word], msgspec.Meta(max_length=16)]
ActionFields = Annotated[
    dict[Word, Word | ActionNumber | bool | Cards | None], msgspec.Meta(min_length=1, max_length=8)
]
