"""A Skat tournament for people, in the browser: the organiser opens it on the tournaments page
and registers, five more players (protocol clients playing random legal moves) register, two
bots fill the places (6 + 2: two tables of four), both tables start together, the standings
move on the organiser's page while the games are played, and at the end the standings and
results are in the database. A guest follows it on a phone, in German."""

import asyncio
import json
import random
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from tests.server.client import Client
from tests.web.conftest import PHONE, Browser, LiveServer

T = TypeVar("T")
DE = json.loads(
    (Path(__file__).resolve().parents[2] / "server" / "web" / "i18n" / "de.json").read_text()
)
EN = json.loads(
    (Path(__file__).resolve().parents[2] / "server" / "web" / "i18n" / "en.json").read_text()
)
PLAYERS = [f"Spieler{n}" for n in range(1, 6)]
SKIPPED = ("resign", "kontra", "re")


# The organiser's browser plays its seat while its page shows the standings: the first legal
# move whenever it is his turn (through the page's own connection and model).
AUTOPLAY = """(table) => {
  let busy = false;
  setInterval(async () => {
    const model = window.tischrunde.models.get(table);
    const view = model && model.view;
    if (busy || !view || view.phase === "over" || view.to_move !== model.seat) return;
    const moves = view.legal.filter((a) => !["resign", "kontra", "re"].includes(a.type));
    if (!moves.length) return;
    busy = true;
    try {
      await window.tischrunde.net.request("act", { table, seq: model.seq, action: moves[0] });
    } catch { /* stale: the next tick tries again */ }
    busy = false;
  }, 100);
}"""


def on_server(server: LiveServer, work: Coroutine[Any, Any, T]) -> T:
    """Run `work` on the server's event loop (where the protocol clients live)."""
    assert server.loop is not None
    return asyncio.run_coroutine_threadsafe(work, server.loop).result(60)


async def register_player(port: int, name: str, tournament: str) -> Client:
    client = await Client.open(port)
    await client.ok("register", name=name, password="correct horse")
    await client.ok("register_tournament", tournament=tournament)
    return client


async def play_tournament(client: Client, stop: asyncio.Event) -> None:
    """Join the table the tournament gives us and play random legal moves until `stop`."""
    rng = random.Random(client.user["name"])
    seat = await client.wait_for(lambda m: m["type"] == "tournament_seat")
    table = seat["table"]
    await client.ok("join", table=table)
    while not stop.is_set():
        view = client.latest_view(table)
        if view and view["phase"] != "over" and view["to_move"] == seat["seat"]:
            moves = [a for a in view["legal"] if a["type"] not in SKIPPED]
            if moves:
                seq = client.last_seq(table)
                await client.request("act", table=table, seq=seq, action=rng.choice(moves))
        await asyncio.sleep(0.05)


def register_in_browser(page: Any, url: str, name: str, words: dict[str, str] = EN) -> None:
    page.goto(url)
    page.wait_for_selector("#status.online")
    page.locator("#user-button").click()
    page.locator(".dialog button", has_text=words["menu.register"]).click()
    page.fill(".dialog input[name=name]", name)
    page.fill(".dialog input[name=password]", "correct horse")
    page.locator(".dialog button[type=submit]").click()
    page.wait_for_function("window.tischrunde.user && !window.tischrunde.user.guest")


def open_tournament(page: Any, name: str, deals: str, choices: dict[str, str]) -> str:
    """Open a tournament from the lobby with the organiser's form (`choices`: its selects,
    the game first since choosing it draws the form anew); its id."""
    page.locator("#people-tournaments").click()
    page.wait_for_selector("#tournament-form")
    if "game" in choices:
        page.select_option("#tournament-form select[name=game]", choices["game"])
    page.fill("#tournament-form input[name=name]", name)
    page.fill("#tournament-form input[name=deals]", deals)
    for field, value in choices.items():
        if field != "game":
            page.select_option(f"#tournament-form select[name={field}]", value)
    page.locator("#tournament-form button[type=submit]").click()
    row = page.locator("[data-group=open] [data-tournament]")
    row.wait_for()
    tournament = row.get_attribute("data-tournament")
    assert tournament is not None
    return tournament


def test_six_people_and_two_bots_play_a_skat_tournament(
    live_server: LiveServer, browser: Browser
) -> None:
    app = live_server.app
    assert app is not None
    page = browser.page()
    register_in_browser(page, live_server.url, "Organiser")

    # The lobby leads to the tournaments page; the organiser opens one and registers.
    tournament = open_tournament(
        page, "Friday Skat", "2", {"table_size": "4", "bot_level": "random"}
    )
    row = page.locator("[data-group=open] [data-tournament]")
    row.locator("button.register").click()
    row.locator("button.unregister").wait_for()

    # Five more people register over the protocol; the organiser's page shows them.
    clients = [
        on_server(live_server, register_player(app.port, name, tournament)) for name in PLAYERS
    ]
    page.locator(f"[data-tournament='{tournament}'] a").click()
    page.wait_for_selector(f"text={EN['tournaments.status_open']}")
    for name in PLAYERS:
        page.wait_for_selector(f"text={name}")
    browser.shot(page, "tournament-open")

    # A guest follows it on a phone, in German.
    phone = browser.page(viewport=PHONE, locale="de-DE")
    phone.goto(f"{live_server.url}#/tournaments/{tournament}")
    phone.wait_for_selector("h1:has-text('Friday Skat')")

    stop = asyncio.Event()
    players = [
        asyncio.run_coroutine_threadsafe(play_tournament(c, stop), live_server.loop)  # type: ignore[arg-type]
        for c in clients
    ]
    page.locator("button.start").click()

    # Both tables start together; the organiser gets his table and can go there.
    page.wait_for_selector("#my-table")
    info = on_server(live_server, app.tournaments.info(tournament))
    assert info is not None and info.status == "running"
    assert len(info.tables) == 2
    assert sorted(len(t.seats) for t in info.lists) == [4, 4]
    bots = [n for t in info.lists for n in t.seats if n.startswith("bot:")]
    assert len(bots) == 2
    assert [sum(n.startswith("bot:") for n in t.seats) for t in info.lists] == [1, 1]
    page.locator("#my-table").click()
    page.wait_for_selector(".felt.skat")
    my_table = page.evaluate("window.tischrunde.screen.model.id")
    page.evaluate(AUTOPLAY, my_table)
    page.goto(f"{live_server.url}#/tournaments/{tournament}")

    # The standings move while the games are played, without reloading the page.
    page.wait_for_selector("#standings tbody tr", timeout=90_000)
    seen = {page.evaluate("window.tischrunde.screen.info.played")}
    page.wait_for_selector(f"text={EN['tournaments.status_finished']}", timeout=120_000)
    seen.add(page.evaluate("window.tischrunde.screen.info.played"))
    assert len(seen) > 1
    assert page.locator("#standings tbody tr").count() == 8
    assert page.locator("#tournament-lists a.chip").count() == 4  # two deals at two tables
    browser.shot(page, "tournament-finished")
    phone.wait_for_selector(f"text={DE['tournaments.status_finished']}")
    phone.wait_for_selector("#standings tbody tr")
    browser.shot(phone, "tournament-finished-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.locator("a", has_text=DE["tournaments.back"]).click()
    phone.wait_for_selector(f"[data-group=finished] [data-tournament='{tournament}']")
    phone.wait_for_selector(f"text={DE['tournaments.guests']}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The replay link of a list opens.
    page.locator("#tournament-lists a.chip").first.click()
    page.wait_for_function("location.hash.startsWith('#/replay/')")

    stop_players(live_server, stop, players, clients)

    # The standings and every game's result are in the database.
    stored = on_server(live_server, app.store.tournaments.load(tournament))
    assert stored is not None and stored.status == "finished" and stored.played == 4
    assert {row["player"] for row in stored.standings} >= {"Organiser", *PLAYERS}
    results = on_server(live_server, app.store.tournaments.people.results(tournament))
    assert sorted(map(len, results.values())) == [2, 2]


def stop_players(
    server: LiveServer, stop: asyncio.Event, players: list[Any], clients: list[Client]
) -> None:
    assert server.loop is not None
    server.loop.call_soon_threadsafe(stop.set)
    for player in players:
        player.result(30)
    for client in clients:
        on_server(server, client.close())
