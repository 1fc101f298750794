"""Prometheus metrics in the text exposition format, served at /metrics.

Counters live on one `Metrics` object that `app.py` creates and hands to whoever counts; gauges
(connections, tables) are read from the lobby when scraped.
"""

import asyncio
import time
from bisect import bisect_left
from dataclasses import dataclass, field

__all__ = ["LATENCY_BUCKETS", "Metrics"]

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LAG_INTERVAL_SECONDS = 0.5


@dataclass
class Metrics:
    """Server counters. `render` writes them with the gauges passed in."""

    connections: int = 0
    connections_total: int = 0
    moves_total: int = 0
    frames_rejected_total: int = 0
    social_limited_total: int = 0
    bot_buckets: list[int] = field(default_factory=lambda: [0] * (len(LATENCY_BUCKETS) + 1))
    bot_seconds_sum: float = 0.0
    bot_count: int = 0
    loop_lag_seconds: float = 0.0

    def count_moves(self, moves: int) -> None:
        self.moves_total += moves

    def observe_bot(self, seconds: float) -> None:
        self.bot_buckets[bisect_left(LATENCY_BUCKETS, seconds)] += 1
        self.bot_seconds_sum += seconds
        self.bot_count += 1

    async def watch_loop_lag(self) -> None:
        """Measure how late the event loop wakes a sleeper: the loop's responsiveness."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(LAG_INTERVAL_SECONDS)
            self.loop_lag_seconds = max(0.0, time.perf_counter() - started - LAG_INTERVAL_SECONDS)

    def render(self, tables: int, tables_playing: int, remote_decisions: int = 0) -> str:
        lines = [
            "# HELP tischrunde_connections Open WebSocket connections.",
            "# TYPE tischrunde_connections gauge",
            f"tischrunde_connections {self.connections}",
            "# HELP tischrunde_connections_total WebSocket connections accepted.",
            "# TYPE tischrunde_connections_total counter",
            f"tischrunde_connections_total {self.connections_total}",
            "# HELP tischrunde_tables Tables in memory, by status.",
            "# TYPE tischrunde_tables gauge",
            f'tischrunde_tables{{status="playing"}} {tables_playing}',
            f'tischrunde_tables{{status="other"}} {tables - tables_playing}',
            "# HELP tischrunde_moves_total Game moves committed.",
            "# TYPE tischrunde_moves_total counter",
            f"tischrunde_moves_total {self.moves_total}",
            "# HELP tischrunde_frames_rejected_total Client frames answered with an error.",
            "# TYPE tischrunde_frames_rejected_total counter",
            f"tischrunde_frames_rejected_total {self.frames_rejected_total}",
            "# HELP tischrunde_social_limited_total Social requests and lobby chat rate-limited.",
            "# TYPE tischrunde_social_limited_total counter",
            f"tischrunde_social_limited_total {self.social_limited_total}",
            "# HELP tischrunde_bot_decision_seconds Time from asking the bot pool to its answer.",
            "# TYPE tischrunde_bot_decision_seconds histogram",
        ]
        cumulative = 0
        for bound, count in zip((*LATENCY_BUCKETS, float("inf")), self.bot_buckets, strict=True):
            cumulative += count
            label = "+Inf" if bound == float("inf") else repr(bound)
            lines.append(f'tischrunde_bot_decision_seconds_bucket{{le="{label}"}} {cumulative}')
        lines += [
            f"tischrunde_bot_decision_seconds_sum {self.bot_seconds_sum}",
            f"tischrunde_bot_decision_seconds_count {self.bot_count}",
            "# HELP tischrunde_remote_bot_decisions_total Bot decisions remote workers answered.",
            "# TYPE tischrunde_remote_bot_decisions_total counter",
            f"tischrunde_remote_bot_decisions_total {remote_decisions}",
            "# HELP tischrunde_event_loop_lag_seconds How late the event loop woke a sleeper.",
            "# TYPE tischrunde_event_loop_lag_seconds gauge",
            f"tischrunde_event_loop_lag_seconds {self.loop_lag_seconds}",
        ]
        return "\n".join(lines) + "\n"
