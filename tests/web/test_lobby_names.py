"""Table names in the lobby (issue 28): a table is named after the player who opened it and its
game, in the reader's language, never by its raw id."""

from tests.web.conftest import Browser, LiveServer
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
