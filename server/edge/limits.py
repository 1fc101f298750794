"""Limits on how fast a client may do things: a token bucket (one per connection, and per
address and overall for new guests) and a backoff after failed logins (per account and per
address). Each takes `now` from a clock it is given, so tests need not sleep.

Both forget what no longer matters: a bucket that has filled up again is the same as no
bucket, and failures older than the backoff's memory are the same as none, so a flood from
many addresses costs memory only while it lasts.
"""

import time
from collections.abc import Callable

__all__ = ["Backoff", "Buckets", "TokenBucket"]

Clock = Callable[[], float]
PRUNE_ABOVE = 10_000  # keys kept before the ones that no longer matter are dropped


class TokenBucket:
    """`rate` tokens per second up to `burst`; each message takes one."""

    __slots__ = ("burst", "clock", "rate", "tokens", "updated")

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.updated = clock()

    def refill(self) -> float:
        """The tokens there are now."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        return self.tokens

    def take(self) -> bool:
        if self.refill() < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """A token bucket per key (a client's address)."""

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= PRUNE_ABOVE:
                self.buckets = {k: b for k, b in self.buckets.items() if b.refill() < b.burst}
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.take()


class Backoff:
    """Failures per key: after `free` of them in a row each further one locks the key for
    `first` seconds, doubling up to `longest`. A success (`forget`) clears the key; so do
    `longest` seconds without a failure."""

    def __init__(self, free: int, first: float, longest: float, clock: Clock = time.monotonic):
        self.free = free
        self.first = first
        self.longest = longest
        self.clock = clock
        self.failures: dict[str, tuple[int, float]] = {}  # key -> (count, time of the last)

    def wait(self, key: str) -> float:
        """Seconds until `key` may try again (0: now)."""
        count, last = self.failures.get(key, (0, 0.0))
        if count < self.free:
            return 0.0
        return max(0.0, last + self._lock(count) - self.clock())

    def failed(self, key: str) -> None:
        now = self.clock()
        count, last = self.failures.get(key, (0, now))
        if now - last > self.longest:
            count = 0  # long ago: start over
        if len(self.failures) >= PRUNE_ABOVE:
            self.failures = {
                k: (c, t) for k, (c, t) in self.failures.items() if now - t <= self.longest
            }
        self.failures[key] = (count + 1, now)

    def forget(self, key: str) -> None:
        self.failures.pop(key, None)

    def _lock(self, count: int) -> float:
        return min(self.longest, self.first * 2.0 ** (count - self.free))
