"""`tischrunde serve`: the WebSocket game server (HTTP on the same port)."""

import argparse
import asyncio

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `serve`."""
    serve = subparsers.add_parser(
        "serve",
        help="run the game server",
        description="Every setting also reads TISCHRUNDE_<NAME> from the environment "
        "(e.g. TISCHRUNDE_DB, TISCHRUNDE_GRACE_SECONDS); flags win.",
    )
    serve.add_argument("--host", help="listen address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port for WebSocket and HTTP (default 8765)")
    serve.add_argument(
        "--db",
        help="database URL (default sqlite+aiosqlite:///tischrunde.db; or postgresql+asyncpg://...)",
    )
    serve.add_argument("--mqtt", help="MQTT broker URL, e.g. mqtt://127.0.0.1:1883 (default: off)")
    serve.add_argument(
        "--grace-seconds", type=float, help="reconnect grace before a bot plays a seat"
    )
    serve.add_argument("--move-seconds", type=float, help="time per human move (0: no timer)")
    serve.add_argument("--bot-delay-seconds", type=float, help="minimum time a bot takes per move")
    serve.add_argument("--bot-workers", type=int, help="bot pool processes (0: one per core)")
    serve.add_argument(
        "--remote-bots-seconds",
        type=float,
        help="with --mqtt: wait this long for a remote bot worker before deciding locally "
        "(0: no remote workers, the default)",
    )
    serve.add_argument("--node", help="this process's name in a cluster (default {host}-{port})")
    serve.add_argument("--node-url", help="where clients reach this process (for redirects)")
    serve.add_argument("--log-level", help="DEBUG, INFO, WARNING, ...")
    serve.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    import msgspec

    from server.app import run
    from server.logs import configure
    from server.settings import settings_from_env
    from server.store.leases import NodeNameTaken

    flags = {
        name: getattr(args, name)
        for name in (
            "host",
            "port",
            "db",
            "mqtt",
            "grace_seconds",
            "move_seconds",
            "bot_delay_seconds",
            "bot_workers",
            "remote_bots_seconds",
            "node",
            "node_url",
            "log_level",
        )
    }
    try:
        settings = settings_from_env(**flags)
    except msgspec.ValidationError as error:
        raise SystemExit(f"tischrunde serve: bad setting: {error}") from error
    configure(settings.log_level)
    try:
        asyncio.run(run(settings))
    except (NodeNameTaken, OSError) as error:
        raise SystemExit(f"tischrunde serve: {error}") from error
    return 0
