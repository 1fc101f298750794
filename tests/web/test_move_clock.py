"""The move clock in the browser (issue 18): the seat the server's move timer times shows its
time left on its seat box and above the table, counting down, and the screen says that a bot
plays at the timeout, in English and German; a reload keeps the clock where it was.

Issue 28: the creator sets the clock in the create form; at the timeout a bot of the table's
level (never `random`) plays the seat, its owner reads what it played and takes the seat back
with one click; the clock lies over the table and does not push it down (bug 9). The lobby's
list and the table's header say a table's clock (German on a phone too)."""

import re
from collections.abc import Iterator

import pytest

from tests.web.conftest import PHONE, Browser, LiveServer, require_browser
from tests.web.skat_ui import create_skat_table, fill_with_bots, open_lobby

MOVE_SECONDS = 120.0


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose own clock is off: the tables have the clocks their creators chose."""
    require_browser()
    server = LiveServer(
        tmp_path_factory.mktemp("server"),
        bot_delay_seconds=0.4,  # a bot on our seat must not finish the list at once
        grace_seconds=600.0,
        timeout_bot="classic",
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
    page.select_option("select[name=bot]", "greedy")  # the table's level
    create_skat_table(page, deals=1, clock=int(MOVE_SECONDS))
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
    page.select_option("select[name=clock]", "40")
    assert page.locator("select[name=clock] option:checked").inner_text() == "40 s"
    page.locator("button", has_text="Skat-Tisch").first.click()
    page.wait_for_selector(".waiting-room")
    page.locator("button", has_text="Freie Plätze mit Bots").click()
    mine = page.locator(".move-clock .clock-seat.mine")
    mine.wait_for(timeout=60_000)
    assert mine.inner_text().startswith("Dein Zug: noch ")
    assert "dann spielt ein Bot" in mine.inner_text() and "für dich" in mine.inner_text()


FELT_TOP = "() => document.querySelector('.felt-holder').getBoundingClientRect().top"


def test_a_bot_of_the_tables_level_plays_at_the_timeout_until_the_owner_takes_over(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    assert page.locator("select[name=clock]").input_value() == "0"  # off unless chosen
    labels = page.locator("select[name=clock] option").all_inner_texts()
    assert labels == ["no clock", "20 s", "40 s", "2 min"]
    page.select_option("select[name=bot]", "random")  # random bots; the timeout bot is not
    create_skat_table(page, deals=6, clock=20)
    fill_with_bots(page, "random")
    mine = page.locator(".move-clock .clock-seat.mine")
    mine.wait_for(timeout=60_000)
    # The server's timeout level, as the table's own is random: Classic, never Random.
    assert mine.inner_text().endswith("then a bot (Classic) plays for you.")
    assert seconds_shown(mine.inner_text()) <= 20
    # Bug 9: the clock lies over the table; the table starts right under the header.
    header_bottom = page.evaluate(
        "document.querySelector('.table-top').getBoundingClientRect().bottom"
    )
    assert page.evaluate(FELT_TOP) - header_bottom < 16  # the body's padding, no banner
    # Nobody moves: the bot plays for us, we read what, and one click gives the seat back.
    notice = page.locator(".take-back")
    notice.wait_for(timeout=60_000)
    page.wait_for_selector(".take-back .played-for-us", timeout=60_000)
    text = notice.inner_text()
    assert text.startswith("Time is up: a bot (Classic) plays for you.")
    assert "For you it " in text
    # The table does not ask us to act meanwhile: its bar says the bot plays, and only that.
    assert page.locator("#action-bar").inner_text() == "Time is up: a bot (Classic) plays for you."
    assert page.locator(".seat-box[data-seat='0'] .away").count() == 1
    page.locator("#take-back").click()
    page.wait_for_selector(".take-back", state="hidden")
    assert page.locator(".seat-box[data-seat='0'] .away").count() == 0
    assert not page.evaluate("window.tischrunde.screen.model.seats[0].away")
    # Ours again: the next time it is our move, our own clock runs (no bot plays it).
    mine.wait_for(timeout=60_000)
    assert page.locator(".take-back").is_hidden()


def test_the_lobby_list_and_the_table_header_say_the_tables_clock(
    live_server: LiveServer, browser: Browser
) -> None:
    host = browser.page()
    open_lobby(host, live_server.url)
    timed = create_skat_table(host, deals=1, clock=40)
    setting = host.locator(".table-top .clock-setting")
    assert words(setting.inner_text()) == "· 40 s per move"
    browser.shot(host, "move-clock-header")
    host.goto(live_server.url + "#/")
    untimed = create_skat_table(host, deals=1, clock=0)
    assert host.locator(".table-top .clock-setting").count() == 0
    # In the lobby, in German on a phone: the timed table says its clock, the other nothing.
    phone = browser.page(viewport=PHONE, locale="de-DE")
    phone.goto(live_server.url)
    row = phone.locator(f".table-row[data-table='{timed}'] .clock-setting")
    row.wait_for()
    assert words(row.inner_text()) == "40 s pro Zug"
    phone.wait_for_selector(f".table-row[data-table='{untimed}']")
    assert phone.locator(f".table-row[data-table='{untimed}'] .clock-setting").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    browser.shot(phone, "move-clock-lobby-phone")


def words(text: str) -> str:
    return " ".join(text.split())
