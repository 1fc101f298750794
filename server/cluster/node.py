"""This process's name and address in the cluster.

The name owns the process's table leases (`server/store/leases.py`); the URL is what
clients are sent to (`moved`) when another process asks for one of its tables.
"""

import secrets
import socket

from server.settings import Settings

__all__ = ["node_name", "node_url"]

ANY_ADDRESS = ("", "0.0.0.0", "::")


def node_name(settings: Settings, port: int) -> str:
    """This process's name: the `node` setting (`{host}` and `{port}` filled in), or
    `{hostname}-{port}` (stable across a restart on the same port, so a restarted process
    takes its tables back at once)."""
    if settings.node:
        return settings.node.format(host=socket.gethostname(), port=port)
    if settings.port == 0:  # a test's throwaway server: the next one must not look the same
        return f"{socket.gethostname()}-{port}-{secrets.token_hex(3)}"
    return f"{socket.gethostname()}-{port}"


def node_url(settings: Settings, node: str, port: int) -> str:
    """Where clients reach this process: `node_url` with its placeholders filled, or the
    address it listens on."""
    hostname = socket.gethostname()
    if settings.node_url:
        return settings.node_url.format(node=node, host=hostname, port=port)
    host = hostname if settings.host in ANY_ADDRESS else settings.host
    return f"ws://{host}:{port}/ws"
