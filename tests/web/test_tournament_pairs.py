"""A Tichu tournament with fixed partners, in the browser: the organiser chooses a registered
player as his partner when he registers, she confirms over the protocol, the page shows them
as a confirmed pair, and the draw seats them as partners. On a phone, in German, another
account is offered the choice too."""

from typing import Any

from tests.server.client import Client
from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.test_tournament_people import DE, EN, on_server, open_tournament, register_in_browser


async def account(port: int, name: str) -> Client:
    client = await Client.open(port)
    await client.ok("register", name=name, password="correct horse")
    return client


def open_tichu_tournament(page: Any) -> str:
    choices = {"game": "tichu", "bot_level": "random", "partners": "fixed"}
    return open_tournament(page, "Tichu pairs", "1", choices)


def test_a_pair_registers_together_and_is_seated_as_partners(
    live_server: LiveServer, browser: Browser
) -> None:
    app = live_server.app
    assert app is not None
    page = browser.page()
    register_in_browser(page, live_server.url, "Organiser")
    tournament = open_tichu_tournament(page)
    clara = on_server(live_server, account(app.port, "Clara"))
    others = [on_server(live_server, account(app.port, name)) for name in ("Dirk", "Emma")]
    try:
        for client in (clara, *others):
            on_server(live_server, client.ok("register_tournament", tournament=tournament))
        page.goto(f"{live_server.url}#/tournaments/{tournament}")
        page.wait_for_selector("select[name=partner] option[value=Emma]", state="attached")
        choice = page.locator("select[name=partner]")
        assert choice.locator("option").first.inner_text() == EN["tournaments.no_partner"]
        choice.select_option("Clara")
        page.locator("button.register").click()
        page.locator("button.unregister").wait_for()
        page.locator("button.pair").wait_for()  # he may name another partner
        pairs = page.locator("#tournament-pairs")
        assert pairs.inner_text() == EN["tournaments.pairs_none"]  # Clara has not answered
        browser.shot(page, "tournament-pair")
        confirm = clara.ok("register_tournament", tournament=tournament, partner="Organiser")
        on_server(live_server, confirm)
        confirmed = EN["tournaments.pairs"].format(pairs="Clara & Organiser")
        page.wait_for_function(
            "text => document.querySelector('#tournament-pairs')?.innerText === text", arg=confirmed
        )

        # Another account, on a phone in German, is offered the choice as well.
        phone = browser.page(viewport=PHONE, locale="de-DE")
        register_in_browser(phone, live_server.url, "Fiona", DE)
        phone.goto(f"{live_server.url}#/tournaments/{tournament}")
        phone.locator("select[name=partner]").wait_for()
        no_partner = phone.locator("select[name=partner] option").first.inner_text()
        assert no_partner == DE["tournaments.no_partner"]
        german = DE["tournaments.pairs"].format(pairs="Clara & Organiser")
        assert phone.locator("#tournament-pairs").inner_text() == german
        browser.shot(phone, "tournament-pair-phone")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        page.locator("button.start").click()
        page.wait_for_selector("#my-table")
        info = on_server(live_server, app.tournaments.info(tournament))
        assert info is not None and info.status == "running"
        teams = [{t.seats[i], t.seats[i + 2]} for t in info.lists for i in (0, 1)]
        assert {"Organiser", "Clara"} in teams
    finally:
        for client in (clara, *others):
            on_server(live_server, client.close())
