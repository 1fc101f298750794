"""A user as the store hands it out: guests, accounts and bots alike (its own module, so the
social tables can name it without importing the whole store)."""

import msgspec

__all__ = ["StoredUser"]


class StoredUser(msgspec.Struct, frozen=True):
    id: int
    name: str
    kind: str  # guest, account, bot
