"""The move clock in the browser (issue 18): the seat the server's move timer times shows its
time left on its seat box and above the table, counting down, and the screen says that a bot
plays at the timeout, in English and German; a reload keeps the clock where it was."""

import re
from collections.abc import Iterator

import pytest

from tests.web.conftest import Browser, LiveServer, require_browser
from tests.web.skat_ui import create_skat_table, fill_with_bots, open_lobby

MOVE_SECONDS = 120.0


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server that gives each human move two minutes, then lets a greedy bot play it."""
    require_browser()
    server = LiveServer(
        tmp_path_factory.mktemp("server"),
        bot_delay_seconds=0.0,
        grace_seconds=600.0,
        move_seconds=MOVE_SECONDS,
        timeout_bot="greedy",
    ).start()
    yield server
    server.stop()


COUNTED_DOWN = """(first) => {
  const el = document.querySelector('.move-clock .clock-seat.mine');
  const m = el && el.textContent.match(/(\\d+):(\\d\\d)/);
  return m && Number(m[1]) * 60 + Number(m[2]) < first;
}"""


def seconds_shown(text: str) -> int:
    """The m:ss in a clock's text, in seconds."""
    found = re.search(r"(\d+):(\d\d)", text)
    assert found is not None, text
    return int(found[1]) * 60 + int(found[2])


def test_the_seat_to_move_shows_its_time_and_what_happens_then(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=1)
    fill_with_bots(page)
    # Every seat moves in turn; when it is ours, our clock runs.
    mine = page.locator(".move-clock .clock-seat.mine")
    mine.wait_for(timeout=60_000)
    text = mine.inner_text()
    # The timeout bot is the server's greedy, named as the level menus name it.
    assert text.startswith("Your move:")
    assert text.endswith("then a bot (Rule of thumb) plays for you.")
    first = seconds_shown(text)
    assert 0 < first <= MOVE_SECONDS
    # Our seat box shows it too, and no other seat (bots are not timed).
    assert page.locator(".seat-clock").count() == 1
    assert (
        abs(
            seconds_shown(page.locator(".seat-box[data-seat='0'] .seat-clock").inner_text()) - first
        )
        <= 1
    )
    page.wait_for_function(COUNTED_DOWN, arg=first)
    assert seconds_shown(mine.inner_text()) < first  # it counts down
    page.reload()
    mine.wait_for()
    assert seconds_shown(mine.inner_text()) < first  # the server's time left, not a new clock


def test_the_clock_speaks_german(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page(locale="de-DE")
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    page.locator("button", has_text="Skat-Tisch").first.click()
    page.wait_for_selector(".waiting-room")
    page.locator("button", has_text="Freie Plätze mit Bots").click()
    mine = page.locator(".move-clock .clock-seat.mine")
    mine.wait_for(timeout=60_000)
    assert mine.inner_text().startswith("Dein Zug: noch ")
    assert "dann spielt ein Bot" in mine.inner_text() and "für dich" in mine.inner_text()
