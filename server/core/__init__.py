"""One table: its state machine without I/O (commands in, effects out), the views it sends,
and the actor that runs it."""

__all__: list[str] = []
