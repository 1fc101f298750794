"""One session, two windows (issue 20 F8): the window that opens a session takes it over, the
other says so and stays offline instead of taking it back, until it is reloaded."""

import json

from tests.web.conftest import Browser, LiveServer


def test_a_session_opened_in_a_second_window_leaves_the_first_offline_with_a_notice(
    live_server: LiveServer, browser: Browser
) -> None:
    first = browser.page()
    first.goto(live_server.url)
    first.wait_for_selector("#status.online")
    token = first.evaluate("localStorage.getItem('tischrunde.token')")
    name = first.inner_text("#user-name")

    second = browser.page()
    second.add_init_script(f"localStorage.setItem('tischrunde.token', {json.dumps(token)})")
    second.goto(live_server.url)
    second.wait_for_selector("#status.online")
    assert second.inner_text("#user-name") == name  # the same user

    first.wait_for_selector("#status.replaced")
    banner = first.locator("#banner")
    assert banner.is_visible() and "another window" in banner.inner_text()
    assert second.locator("#status.online").count() == 1  # not taken back

    first.reload()  # the player wants to play here again
    first.wait_for_selector("#status.online")
    second.wait_for_selector("#status.replaced")
    assert first.inner_text("#user-name") == name
