"""What one server process remembers to keep identities safe: which connection holds each
session token, how many guests each address creates, failed logins per account and address,
and the address a client connects from.

A session token is in use on one connection at a time. A second connection that says `hello`
with it replaces the first, which is told (`session_replaced`) and closed with
`SESSION_REPLACED`: refusing the newcomer instead would lock a player out for up to a minute
whenever his old connection died without the server noticing yet (a phone changing networks),
while a thief holding the token could act as the user either way; this way the owner sees at
once that his session went elsewhere (docs/protocol.md, Session).
"""

import ipaddress
import time
from collections.abc import Callable
from typing import Protocol

from server.edge.limits import Backoff, Buckets, TokenBucket
from server.names import skeleton
from server.settings import Settings

__all__ = ["SESSION_REPLACED", "Guard", "Holder"]

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
SESSION_REPLACED = 4409  # WebSocket close code (application range): the session went elsewhere
SECONDS_PER_MINUTE = 60.0


class Holder(Protocol):
    """A connection as the guard sees it."""

    def replaced(self) -> None:
        """Tell the client that its session continues on another connection, and close."""
        ...


class Guard:
    """Sessions in use, guest creation and login attempts of this process."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        self.holders: dict[str, Holder] = {}
        self.proxies = _networks(settings.trusted_proxies)
        per_minute = 1 / SECONDS_PER_MINUTE
        self.guests = TokenBucket(
            settings.guests_per_minute * per_minute, settings.guest_burst, clock
        )
        self.guests_by_address = Buckets(
            settings.guests_per_minute_per_address * per_minute,
            settings.guest_burst_per_address,
            clock,
        )
        self.accounts = Backoff(
            settings.login_failures_per_account,
            settings.login_backoff_seconds,
            settings.login_backoff_max_seconds,
            clock,
        )
        self.addresses = Backoff(
            settings.login_failures_per_address,
            settings.login_backoff_seconds,
            settings.login_backoff_max_seconds,
            clock,
        )

    def hold(self, token: str, holder: Holder) -> None:
        """`holder` uses session `token` now; the connection that used it is replaced."""
        before = self.holders.get(token)
        self.holders[token] = holder
        if before is not None and before is not holder:
            before.replaced()

    def release(self, token: str, holder: Holder) -> None:
        """`holder` no longer uses `token` (closed, or logged in as someone else)."""
        if self.holders.get(token) is holder:
            del self.holders[token]

    def may_create_guest(self, address: str) -> bool:
        """Whether `address` may have a new guest now (counts it if so)."""
        return self.guests_by_address.take(address) and self.guests.take()

    def login_wait(self, name: str, address: str) -> float:
        """Seconds until a login to `name` from `address` may be tried (0: now). An account
        is counted by its name's skeleton, the key logins find it by (server/names.py)."""
        return max(self.accounts.wait(skeleton(name)), self.addresses.wait(address))

    def login_failed(self, name: str, address: str) -> None:
        self.accounts.failed(skeleton(name))
        self.addresses.failed(address)

    def login_succeeded(self, name: str) -> None:
        """The account's failures are forgiven; the address's are not (an attacker could
        clear them by logging in to an account of his own)."""
        self.accounts.forget(skeleton(name))

    def address(self, peer: str, forwarded_for: str | None) -> str:
        """The client's address: the peer's, or, when the peer is a trusted proxy
        (`trusted_proxies`), the last address the proxy appended to `X-Forwarded-For` (what
        the proxy itself saw; the entries before it are whatever the client claimed)."""
        if not forwarded_for or not self._is_proxy(peer):
            return peer
        return forwarded_for.rsplit(",", 1)[-1].strip() or peer

    def _is_proxy(self, peer: str) -> bool:
        if self.proxies is None:
            return True
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in self.proxies)


def _networks(trusted: str) -> list[IPNetwork] | None:
    """The networks of `trusted_proxies` (comma separated addresses or networks); None for
    `*`, any peer. A wrong entry stops the server at start, not at the first client."""
    entries = [entry.strip() for entry in trusted.split(",") if entry.strip()]
    if "*" in entries:
        return None
    return [ipaddress.ip_network(entry, strict=False) for entry in entries]
