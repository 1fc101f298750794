"""`tischrunde db upgrade`: bring the database schema to the newest migration."""

import argparse

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `db` and its subcommands."""
    db = subparsers.add_parser("db", help="database maintenance")
    commands = db.add_subparsers(dest="db_command", required=True, metavar="SUBCOMMAND")
    upgrade = commands.add_parser("upgrade", help="run the migrations up to the newest schema")
    upgrade.add_argument("--db", help="database URL (default: TISCHRUNDE_DB or the SQLite file)")
    upgrade.set_defaults(handler=_upgrade)


def _upgrade(args: argparse.Namespace) -> int:
    from server.settings import settings_from_env
    from server.store.migrate import upgrade

    settings = settings_from_env(db=args.db)
    upgrade(settings.db)
    print(f"database at {settings.db.split('@')[-1]} is up to date")
    return 0
