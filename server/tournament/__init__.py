"""Bot-vs-bot tournaments: a deterministic schedule, games played in worker processes and
committed one by one to the server's database, standings and reports read back from it."""

__all__: list[str] = []
