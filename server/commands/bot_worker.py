"""`tischrunde bot-worker --mqtt URL`: answer the servers' bot decisions from another machine.

Workers share the MQTT 5 subscription `$share/bots/tischrunde/v1/bots/requests`, so the broker
gives each request to one of them: start one per machine (it uses all cores through its own
process pool) to add bot capacity. Servers use them with `--remote-bots-seconds`. The requests
carry hidden cards: the shipped broker lets only the `bots` and `server` accounts read and
answer them (deploy/mosquitto/acl).
"""

import argparse
import asyncio
import os
import socket

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `bot-worker`."""
    worker = subparsers.add_parser(
        "bot-worker", help="take bot decisions for the servers from an MQTT broker"
    )
    worker.add_argument(
        "--mqtt",
        default=os.environ.get("TISCHRUNDE_MQTT"),
        required="TISCHRUNDE_MQTT" not in os.environ,
        help="broker URL with the bot workers' account, e.g. mqtt://bots:PASSWORD@10.0.0.5:1883"
        " (default: $TISCHRUNDE_MQTT, which keeps the password out of the process list)",
    )
    worker.add_argument("--workers", type=int, default=0, help="processes (0: one per core)")
    worker.add_argument("--name", default=socket.gethostname(), help="name in replies and logs")
    worker.add_argument(
        "--no-warm-up", action="store_true", help="do not load the solver before taking requests"
    )
    worker.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING, ...")
    worker.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from bots.pool import BotPool
    from server.cluster.remote_bots import serve_requests
    from server.logs import configure

    configure(args.log_level)

    async def main() -> None:
        pool = BotPool(args.workers, fallback="random", warm_up=not args.no_warm_up)
        await pool.start()
        try:
            await serve_requests(args.mqtt, pool, args.name)
        finally:
            await pool.close()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        return 130
    return 0
