"""Display names of any script (issue 18, bug 3): one check (server/names.py) that the web
client mirrors, uniqueness by what a name looks like, the same on SQLite and PostgreSQL;
and a guest who registers becomes the account (bug 4)."""

import asyncio
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from server.app import App
from server.names import normalize, problem, skeleton
from server.store.migrate import alembic_config, upgrade
from tests.server.client import Client, bot_table, play
from tests.server.services import PrivatePostgres

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "name_cases.json").read_text(encoding="utf-8")
)["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_each_name_case_normalises_and_is_judged_as_the_table_says(case: dict[str, Any]) -> None:
    name = normalize(case["input"])
    assert name == case["name"]
    assert problem(name) == case["problem"]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Jürgen", "Jurgen"),
        ("Jürgen", "JÜRGEN"),
        ("anna", "Anna"),
        ("anna", "аnna"),  # Cyrillic a
        ("Olga", "Оlga"),  # Cyrillic O
        ("Nikos", "Νikos"),  # Greek capital nu
        ("Bill", "BiII"),  # capital I for l
        ("bob0", "bobo"),
        ("anna_b", "anna.b"),
        ("Straße", "STRASSE"),
    ],
)
def test_look_alike_names_share_a_skeleton(first: str, second: str) -> None:
    assert skeleton(first) == skeleton(second)


@pytest.mark.parametrize(
    ("first", "second"),
    [("anna", "hanna"), ("Jürgen", "Juergen"), ("Дима", "Дина"), ("山田", "山本")],
)
def test_different_names_have_different_skeletons(first: str, second: str) -> None:
    assert skeleton(first) != skeleton(second)


async def test_names_of_any_script_and_their_look_alikes_on_both_databases(
    any_db_app: App,
) -> None:
    app = any_db_app
    juergen, other = await Client.open(app.port), await Client.open(app.port)
    taken = await juergen.ok("rename", name="Ju\u0308rgen")  # typed decomposed
    assert taken["user"]["name"] == "Jürgen"
    for look_alike in ("Jürgen", "jurgen", "JÜRGEN", "Ｊürgen"):
        reply = await other.request("rename", name=look_alike)
        assert reply["code"] == "name_taken", look_alike
    refused = await other.request("register", name="Jürgеn", password="correct horse")
    assert (refused["code"], refused["reason"]) == ("bad_name", "scripts")
    invisible = await other.request("rename", name="an\u200bna")
    assert (invisible["code"], invisible["reason"]) == ("bad_name", "invisible")
    long = await other.request("rename", name="x" * 25)
    assert (long["code"], long["reason"]) == ("bad_name", "too_long")
    dmitri = await other.ok("register", name="Дмитрий", password="correct horse")
    assert dmitri["user"] == {"id": dmitri["user"]["id"], "name": "Дмитрий", "guest": False}
    again = await Client.open(app.port)
    # The login finds the account by the normal form of what was typed.
    login = await again.ok("login", name=" Дмитрий ", password="correct horse")
    assert login["user"]["id"] == dmitri["user"]["id"]
    assert (await again.request("rename", name="Jurgen"))["code"] == "not_a_guest"


async def test_a_guest_registers_under_his_own_name_and_keeps_his_games(app: App) -> None:
    guest = await Client.open(app.port)
    guest_id = guest.user["id"]
    await guest.ok("rename", name="Jürgen")
    table, _ = await bot_table(guest)
    await play({0: guest}, table)
    board = (await guest.ok("leaderboard", game="skat"))["entries"]
    assert "Jürgen" in [entry["name"] for entry in board]
    registered = await guest.ok("register", name="Jürgen", password="correct horse")
    assert registered["user"] == {"id": guest_id, "name": "Jürgen", "guest": False}
    # Still one Jürgen on the board, now an account; logging in elsewhere is the same user.
    board = (await guest.ok("leaderboard", game="skat"))["entries"]
    assert [entry["name"] for entry in board].count("Jürgen") == 1
    elsewhere = await Client.open(app.port)
    login = await elsewhere.ok("login", name="Jürgen", password="correct horse")
    assert login["user"]["id"] == guest_id
    # Another guest may neither register nor take that name.
    other = await Client.open(app.port)
    reply = await other.request("register", name="jurgen", password="correct horse")
    assert reply["code"] == "name_taken"


async def test_a_guest_registering_a_new_name_brings_his_identity_along(app: App) -> None:
    guest = await Client.open(app.port)
    registered = await guest.ok("register", name="Zoë", password="correct horse")
    assert registered["user"] == {"id": guest.user["id"], "name": "Zoë", "guest": False}
    assert (await guest.request("register", name="Zoe2", password="correct horse"))[
        "type"
    ] == "welcome"  # an account registering makes a second account, as before


async def test_a_guest_registers_the_name_the_server_gave_him(app: App) -> None:
    """Issue 28, bug 2: 'guest-...' is reserved for the server's guests, but a guest may
    register (or keep) his own; nobody else may take it."""
    guest = await Client.open(app.port)
    own = guest.user["name"]
    assert own.startswith("guest-")
    other = await Client.open(app.port)
    reply = await other.request("register", name=own, password="correct horse")
    assert reply["code"] == "name_taken"
    registered = await guest.ok("register", name=own, password="correct horse")
    assert registered["user"] == {"id": guest.user["id"], "name": own, "guest": False}
    again = await Client.open(app.port)
    assert (await again.ok("login", name=own, password="correct horse"))["user"]["name"] == own
    fresh = await Client.open(app.port)
    assert (await fresh.request("rename", name=other.user["name"]))["code"] == "name_taken"
    assert (await fresh.ok("rename", name=fresh.user["name"]))["user"]["guest"] is True


async def test_a_german_guest_is_called_gast_and_nobody_may_choose_that(app: App) -> None:
    """Issue 28: a new guest's name is in the language his `hello` names; both forms are
    reserved for the server's guests."""
    german = await Client.open(app.port, hello=False)
    welcome = await german.ok("hello", version=1, language="de")
    assert re.fullmatch(r"Gast-[0-9a-f]{8}", welcome["user"]["name"])
    english = await Client.open(app.port, hello=False)
    assert (await english.ok("hello", version=1, language="en"))["user"]["name"].startswith(
        "guest-"
    )
    other = await Client.open(app.port, hello=False)
    assert (await other.ok("hello", version=1, language="fr"))["user"]["name"].startswith("guest-")
    bad = await other.request("hello", version=1, language="deutsch")
    assert bad["code"] == "bad_request"
    for taken in ("Gast-1234", "gast-anna", welcome["user"]["name"]):
        assert (await other.request("rename", name=taken))["code"] == "name_taken", taken
    mine = await german.ok("register", name=welcome["user"]["name"], password="correct horse")
    assert mine["user"]["name"] == welcome["user"]["name"] and not mine["user"]["guest"]


async def test_login_finds_the_account_as_uniqueness_does(any_db_app: App) -> None:
    """Issue 28, bug 4: names are unique by their skeleton, so a login by another spelling of
    the same name (case, accents) finds the one account it can mean, under its own name."""
    app = any_db_app
    owner = await Client.open(app.port)
    made = await owner.ok("register", name="Jürgen Müller", password="correct horse")
    for typed in ("jürgen müller", "JÜRGEN MÜLLER", "Jürgen  Müller".replace("  ", " ")):
        client = await Client.open(app.port)
        login = await client.ok("login", name=typed, password="correct horse")
        assert login["user"] == made["user"], typed
    wrong = await Client.open(app.port)
    reply = await wrong.request("login", name="jürgen müller", password="wrong horse")
    assert reply["code"] == "bad_credentials"
    nobody = await wrong.request("login", name="Hans Müller", password="correct horse")
    assert nobody["code"] == "bad_credentials"


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_migration_gives_existing_names_keys_and_keeps_old_look_alikes(
    tmp_path: Path, database: str
) -> None:
    cluster = None
    if database == "postgresql":
        cluster = PrivatePostgres()
        cluster.start()
        url = cluster.url
    else:
        url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    try:
        command.upgrade(alembic_config(url), "0004")
        asyncio.run(_old_users(url))
        upgrade(url)
        rows = asyncio.run(_name_keys(url))
    finally:
        if cluster is not None:
            cluster.remove()
    assert rows == [(1, "anna"), (2, "anna#2"), (3, None), (4, "bert")]


async def _old_users(url: str) -> None:
    """Users stored before names had keys: two look-alikes, a bot, another guest."""
    engine = create_async_engine(url)
    created = datetime(2026, 1, 1, tzinfo=UTC)
    async with engine.begin() as conn:
        for user_id, name, kind in (
            (1, "anna", "account"),
            (2, "Anna", "guest"),
            (3, "bot:random", "bot"),
            (4, "bert", "guest"),
        ):
            await conn.execute(
                text(
                    "INSERT INTO users (id, name, kind, created_at) VALUES (:id, :name, :kind, :at)"
                ),
                {"id": user_id, "name": name, "kind": kind, "at": created},
            )
    await engine.dispose()


async def _name_keys(url: str) -> list[tuple[int, str | None]]:
    engine = create_async_engine(url)
    async with engine.connect() as conn:
        rows = (await conn.execute(text("SELECT id, name_key FROM users ORDER BY id"))).all()
    await engine.dispose()
    return [(row.id, row.name_key) for row in rows]
