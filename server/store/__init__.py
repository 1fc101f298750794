"""Persistence: the event log, identities, results and ratings in SQLite or PostgreSQL."""

__all__: list[str] = []
