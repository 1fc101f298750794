"""Table features of issue 18 that need the server: the chat kept over a reload (bug 7)."""

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
