"""Typed errors of the rules engines.

`IllegalAction.code` is a stable string that the server sends to clients unchanged, so codes are
part of the protocol: add new ones, never rename them.
"""

__all__ = ["IllegalAction", "InvalidInput"]


class IllegalAction(Exception):
    """An action that the rules forbid in the current state; the state is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


class InvalidInput(ValueError):
    """Malformed input at an engine boundary (card text, deal, record)."""
