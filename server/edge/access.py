"""Who may see a table outside the WebSocket (HTTP): the one rule every endpoint that reveals
a table uses (records, and whatever shows a table's deals later).

A public table is everybody's. A private table is shown only to the users who sat at it,
recognised by their session token (`Authorization: Bearer TOKEN`), and to whoever knows its
invite (`?invite=CODE`), the same people the WebSocket lets `watch` it. Anybody else is told
that there is no such thing, so a private table's existence does not leak either.
"""

import hmac

from server.store.db import Store

__all__ = ["bearer_token", "may_see_table", "user_may_see_table"]

BEARER = "bearer "


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header, if there is one."""
    if authorization is None or not authorization.lower().startswith(BEARER):
        return None
    return authorization[len(BEARER) :].strip() or None


async def may_see_table(
    store: Store, table_id: str, *, token: str | None, invite: str | None
) -> bool:
    """Whether the holder of session `token` (or of `invite`) may see table `table_id`;
    False for a table that does not exist."""
    access = await store.table_access(table_id)
    if access is None:
        return False
    if not access.private:
        return True
    if _same(invite, access.invite):
        return True
    if token is None:
        return False
    user = await store.user_for_token(token)
    return user is not None and user.id in access.players


async def user_may_see_table(store: Store, table_id: str, user_id: int | None) -> bool:
    """Whether user `user_id` (None: nobody known) may see table `table_id` without its
    invite: a public table, or a private one he sat at."""
    access = await store.table_access(table_id)
    if access is None:
        return False
    return not access.private or user_id in access.players


def _same(given: str | None, secret: str | None) -> bool:
    """Whether `given` is the `secret` (compared in constant time)."""
    if given is None or secret is None:
        return False
    return hmac.compare_digest(given.encode(), secret.encode())
