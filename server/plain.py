"""Plain data: what a JSON document holds, typed, for values that are JSON by nature (a
game's rules as options, a deal's result as stored, a report's tables). Code that reads a
field narrows it or converts the whole to a struct (`msgspec.convert`). msgspec cannot
decode into this recursive alias, so struct fields that are decoded keep their own types."""

from typing import TypeAlias

__all__ = ["JSON", "Plain"]

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
Plain: TypeAlias = dict[str, JSON]  # a JSON object
