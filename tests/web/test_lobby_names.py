"""Table names in the lobby (issue 28): a table is named after the player who opened it and its
game, in the reader's language, never by its raw id."""

from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.skat_ui import open_lobby

CREATE = """async () => {
  const net = window.tischrunde.net;
  const reply = await net.request("create_table", { game: "skat", rules: { players: 3 } });
  return reply.table.id;
}"""


def test_the_lobby_names_tables_after_their_host_in_english_and_german(
    live_server: LiveServer, browser: Browser
) -> None:
    host = browser.page()
    open_lobby(host, live_server.url)
    table = host.evaluate(CREATE)
    name = host.evaluate("window.tischrunde.user.name")
    names = {"en-US": f"{name}’s Skat table", "de-DE": f"Skat-Tisch von {name}"}
    for locale, expected in names.items():
        page = browser.page(locale=locale)
        open_lobby(page, live_server.url)
        row = page.locator(f".table-row[data-table='{table}']")
        row.wait_for()
        assert row.locator(".table-name").inner_text() == expected
        assert table not in row.inner_text()
        browser.shot(page, f"lobby-{locale}")


OPEN_PRIVATE = """async (game) => {
  const app = window.tischrunde;
  const rules = game === "skat" ? { players: 3 } : {};
  const reply = await app.net.request("create_table", { game, rules, private: true });
  app.openTable(reply.table.id, reply.invite, "seat");
  return reply.table.id;
}"""


def test_your_private_tables_are_named_like_the_lobbys_after_a_reload(
    live_server: LiveServer, browser: Browser
) -> None:
    """A private table never is in the lobby's list; "Your tables" names each one, Skat or
    Tichu, after its host and game, also after a reload when no table is open."""
    page = browser.page(PHONE, locale="de-DE")
    open_lobby(page, live_server.url)
    name = page.evaluate("window.tischrunde.user.name")
    ids = {}
    for game in ("skat", "tichu"):
        ids[game] = page.evaluate(OPEN_PRIVATE, game)
        page.wait_for_selector(".waiting-room")
        page.goto(live_server.url)
        page.wait_for_selector(".create-form")
    page.reload()
    page.wait_for_selector(".mine .chip")
    assert page.evaluate("window.tischrunde.models.size") == 0
    names = {
        game: page.locator(f".mine .chip[data-table='{id}']").inner_text()
        for game, id in ids.items()
    }
    assert names == {"skat": f"Skat-Tisch von {name}", "tichu": f"Tichu-Tisch von {name}"}
    assert not any(id in page.locator(".mine").inner_text() for id in ids.values())
    browser.shot(page, "lobby-your-tables-de")
