"""The game server and the command line: protocol, tables, lobby, persistence, MQTT, web client."""

__all__: list[str] = []
