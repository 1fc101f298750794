"""Players finding each other: presence, friends, invitations, blocks and the lobby chat."""
