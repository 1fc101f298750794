"""`tischrunde moderator grant|revoke NAME` and `tischrunde moderator reports`: the operator
names the players who may mute others in the lobby chat, and reads what players reported
(docs/deploy.md, "Moderators")."""

import argparse
import asyncio
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.store.db import Store

__all__ = ["register"]


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add `moderator` and its subcommands."""
    group = subparsers.add_parser("moderator", help="moderators of the lobby chat, and reports")
    commands = group.add_subparsers(dest="moderator_command", required=True, metavar="SUBCOMMAND")
    for name, text in (
        ("grant", "make the account NAME a moderator (may mute players in the lobby chat)"),
        ("revoke", "take the moderator role from NAME"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("name", help="the account's name")
        command.add_argument("--db", help="database URL (default: TISCHRUNDE_DB)")
        command.set_defaults(handler=_role, grant=name == "grant")
    reports = commands.add_parser("reports", help="every report, one JSON line each, oldest first")
    reports.add_argument("--db", help="database URL (default: TISCHRUNDE_DB)")
    reports.set_defaults(handler=_reports)


def _role(args: argparse.Namespace) -> int:
    return asyncio.run(_set_role(_migrated(args.db), args.name, args.grant))


async def _set_role(url: str, name: str, grant: bool) -> int:
    from server.store.social import MODERATOR

    store = _store(url)
    try:
        user = await store.social.user_named(name)
        if user is None or user.kind != "account":
            print(f"no account {name!r}")
            return 1
        await store.social.set_role(user.id, MODERATOR if grant else None)
    finally:
        await store.close()
    print(f"{name} is {'a moderator now' if grant else 'no moderator any more'}")
    return 0


def _reports(args: argparse.Namespace) -> int:
    return asyncio.run(_print_reports(_migrated(args.db)))


async def _print_reports(url: str) -> int:
    store = _store(url)
    try:
        for reporter, reported, reason, at in await store.social.reports():
            line = {"at": at.isoformat(), "reporter": reporter, "reported": reported}
            print(json.dumps(line | {"reason": reason}, ensure_ascii=False))
    finally:
        await store.close()
    return 0


def _migrated(url: str | None) -> str:
    """The configured database's URL, its schema brought up to date."""
    from server.settings import settings_from_env
    from server.store.migrate import upgrade

    settings = settings_from_env(db=url)
    upgrade(settings.db)
    return settings.db


def _store(url: str) -> "Store":
    from server.store.db import Store

    return Store.connect(url)
