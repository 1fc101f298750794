"""Subcommands of the `tischrunde` command line, one module per command group.

Each module exposes `register(subparsers)`; `server.cli` lists the modules explicitly. Heavy
imports (solver, bots) happen inside the command handlers, so `tischrunde --help` stays fast.
"""

__all__: list[str] = []
