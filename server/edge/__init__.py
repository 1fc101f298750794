"""What faces the clients: one WebSocket connection each, plain HTTP on the same port, and
the tournament listings and live standings they read."""

__all__: list[str] = []
