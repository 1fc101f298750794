"""What one server process shares with the others over the MQTT broker: the broker
connection loop, the event bus, the mirror of every process's lobby, remote bot workers."""

__all__: list[str] = []
