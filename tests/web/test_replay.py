"""Replays in the browser (issue 18): a deal played by bots alone, Skat and Tichu, stepped
through from its start to its result and back, every hand shown as it was."""

import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.server.client import PATIENCE
from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.skat_ui import open_lobby

# Create a public table of bots only through the page's own connection.
BOTS_PLAY = """async ([game, rules, seats]) => {
  const net = window.tischrunde.net;
  const reply = await net.request("create_table", { game, rules, series_length: 1 });
  const id = reply.table.id;
  for (let seat = 0; seat < seats; seat += 1) {
    await net.request("add_bot", { table: id, seat, level: "random" });
  }
  return id;
}"""


def wait_for_record(server: LiveServer, table: str) -> None:
    """Until the server has the finished deal's record."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{server.url}api/records/{table}/0"):
                return
        except urllib.error.HTTPError:
            time.sleep(0.2)
    raise AssertionError("the bots did not finish the deal")


def step_text(page: Any) -> str:
    text: str = page.locator(".replay-step").inner_text()
    return text


def hand_sizes(page: Any) -> list[int]:
    hands = page.locator(".replay-hand")
    return [hands.nth(i).locator(".mini").count() for i in range(hands.count())]


def step_through(page: Any, url: str, table: str, first_hands: list[int]) -> None:
    """Open the replay, check its first step, walk forward and back, to the end and the start."""
    page.goto(f"{url}#/replay/{table}/0")
    page.wait_for_selector(".replay-controls")
    assert step_text(page).startswith("Move 0 of ")
    last = int(step_text(page).split()[-1])
    assert last >= 3 and hand_sizes(page) == first_hands
    assert "The cards are dealt" in page.locator(".replay-move").inner_text()
    assert page.locator("#back").is_disabled() and page.locator("#start").is_disabled()
    page.locator("#forward").click()
    assert step_text(page) == f"Move 1 of {last}"
    assert page.locator(".replay-move").inner_text().startswith("Bot ")
    page.locator("#forward").click()
    assert step_text(page) == f"Move 2 of {last}"
    page.locator("#back").click()
    assert step_text(page) == f"Move 1 of {last}"
    page.locator("#end").click()
    assert step_text(page) == f"Move {last} of {last}" and page.locator("#forward").is_disabled()
    page.wait_for_selector(".replay-table .result-panel")
    page.locator("#start").click()
    assert step_text(page) == f"Move 0 of {last}" and hand_sizes(page) == first_hands


@pytest.mark.parametrize(
    ("game", "rules", "seats", "first_hands"),
    [("skat", {"players": 3}, 3, [10, 10, 10]), ("tichu", {"max_rounds": 1}, 4, [8, 8, 8, 8])],
)
def test_a_deal_played_by_bots_is_stepped_through(
    live_server: LiveServer,
    browser: Browser,
    game: str,
    rules: dict[str, Any],
    seats: int,
    first_hands: list[int],
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    table = page.evaluate(BOTS_PLAY, [game, rules, seats])
    wait_for_record(live_server, table)
    step_through(page, live_server.url, table, first_hands)
    page.locator("#end").click()
    browser.shot(page, f"replay-{game}")


def test_a_replay_we_may_not_see_says_so(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    page.goto(f"{live_server.url}#/replay/nosuchtable/0")
    page.wait_for_selector(".replay-screen .empty")
    assert "no replay" in page.locator(".replay-screen .empty").inner_text()
    # The server's 404 is the one problem the browser reports (Chromium logs failed loads).
    assert len(browser.problems) == 1 and "404" in browser.problems[0]
    browser.problems.clear()


def test_a_replay_fits_a_phone(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page(PHONE)
    open_lobby(page, live_server.url)
    table = page.evaluate(BOTS_PLAY, ["skat", {"players": 3}, 3])
    wait_for_record(live_server, table)
    page.goto(f"{live_server.url}#/replay/{table}/0")
    page.wait_for_selector(".replay-controls")
    tops = set()
    for control in ("#start", "#back", "#forward", "#end"):
        box = page.locator(control).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44  # big enough to tap
        tops.add(box["y"])
    assert len(tops) == 1  # in one row
    page.locator("#forward").click()
    width: int = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # no sideways scrolling
    browser.shot(page, "phone-replay")
