"""Table features that need the server: the chat kept over a reload (bug 7), the lobby
pushed over the WebSocket instead of polled."""

import json

from tests.web.conftest import Browser, LiveServer
from tests.web.skat_ui import create_skat_table, fill_with_bots, open_lobby


def test_bug7_the_chat_is_still_there_after_a_reload(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=1, private=True)
    fill_with_bots(page)
    page.locator(".side .tab", has_text="Chat").click()
    for line in ("Grüß euch!", "Viel Glück"):
        page.fill("input[name=chat]", line)
        page.locator(".chat-form button").click()
        page.wait_for_selector(f".chat-log li:has-text('{line}')")
    page.reload()
    page.wait_for_selector(".felt.skat")
    page.locator(".side .tab", has_text="Chat").click()
    page.wait_for_selector(".chat-log li:has-text('Viel Glück')")
    lines = page.locator(".chat-log li").all_inner_texts()
    me = page.locator("#user-name").inner_text()
    assert lines == [f"{me}: Grüß euch!", f"{me}: Viel Glück"]


def test_the_lobby_is_pushed_not_polled(live_server: LiveServer, browser: Browser) -> None:
    lobby = browser.page()
    sent: list[str] = []
    lobby.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    open_lobby(lobby, live_server.url)
    host = browser.page()
    open_lobby(host, live_server.url)
    public = create_skat_table(host, deals=1)
    row = lobby.locator(f".table-row[data-table='{public}']")
    row.locator(".status", has_text="2 free").wait_for()  # the host sat down: a change pushed
    friend = browser.page()
    open_lobby(friend, live_server.url)
    private = create_skat_table(friend, deals=1, private=True)
    fill_with_bots(host)
    row.locator(".status", has_text="deal 1 of 1").wait_for()
    assert lobby.locator(f".table-row[data-table='{private}']").count() == 0
    requests = [json.loads(frame)["type"] for frame in sent]
    assert "watch_lobby" in requests and "list_tables" not in requests
