"""Players finding each other: presence, friends, invitations, blocks and the lobby chat
(docs/protocol.md, "People")."""

__all__: list[str] = []
