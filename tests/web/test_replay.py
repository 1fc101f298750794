"""Replays in the browser (issues 18 and 28): a finished deal as it was played, the cards on
the felt trick by trick, stepped through move by move and trick by trick with buttons and
keys, every hand open, the bidding and the skat beside the felt, and a back link to the page
the replay was opened from (issue 28, bug 10); on a phone too."""

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.server.client import PATIENCE
from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.skat_ui import PLAY_A_LIST, create_skat_table, fill_with_bots, open_lobby

# Create a public table of bots only through the page's own connection.
BOTS_PLAY = """async ([game, rules, seats, level = "random"]) => {
  const net = window.tischrunde.net;
  const reply = await net.request("create_table", { game, rules, series_length: 1 });
  const id = reply.table.id;
  for (let seat = 0; seat < seats; seat += 1) {
    await net.request("add_bot", { table: id, seat, level });
  }
  return id;
}"""

# The replay's data as the page loaded it (whole views), and what the felt shows now.
REPLAY_JS = "() => window.tischrunde.screen.replay"
FELT_JS = """() => ({
  step: Number(document.querySelector('#replay-screen').dataset.step),
  trick: [...document.querySelectorAll('.trick .trick-card')].map((el) =>
    [el.dataset.card, Number(el.dataset.seat)]),
  hands: Object.fromEntries([...document.querySelectorAll('[data-hand]')].map((el) =>
    [el.dataset.hand, [...el.querySelectorAll('[data-card]')].map((c) => c.dataset.card).sort()])),
})"""


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


def bots_deal(page: Any, server: LiveServer, game: str = "skat", players: int = 3) -> str:
    """A finished deal of random bots with at least two tricks (a Skat deal may be passed in:
    then another table)."""
    rules, seats = ({"players": players}, players) if game == "skat" else ({"max_rounds": 1}, 4)
    for _ in range(10):
        table: str = page.evaluate(BOTS_PLAY, [game, rules, seats])
        wait_for_record(server, table)
        with urllib.request.urlopen(f"{server.url}api/records/{table}/0/replay") as response:
            replay = json.load(response)
        view: dict[str, Any] = {}
        for step in replay["steps"]:  # each step sends the fields it changed
            view = step["view"] = {**view, **step["view"]}
        if len(trick_ends(replay, game)) >= 2:
            return table
    raise AssertionError("ten deals without two tricks")


def step_text(page: Any) -> str:
    text: str = page.locator(".replay-step").inner_text()
    return text


def felt(page: Any) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate(FELT_JS)
    return shown


def hand_sizes(page: Any) -> list[int]:
    hands = felt(page)["hands"]
    return [len(hands[seat]) for seat in sorted(hands, key=int)]


def step_through(page: Any, url: str, table: str, first_hands: list[int]) -> None:
    """Open the replay, check its first step, walk forward and back, to the end and the start."""
    page.goto(f"{url}#/replay/{table}/0")
    page.wait_for_selector(".replay-controls")
    assert step_text(page).startswith("Move 0 of ")
    last = int(step_text(page).split()[-1])
    assert last >= 3 and hand_sizes(page) == first_hands
    assert "The cards are dealt" in page.locator(".replay-move").inner_text()
    for control in ("#start", "#trick-back", "#back"):
        assert page.locator(control).is_disabled()
    page.locator("#forward").click()
    assert step_text(page) == f"Move 1 of {last}"
    assert page.locator(".replay-move").inner_text().startswith("Bot ")
    page.locator("#forward").click()
    assert step_text(page) == f"Move 2 of {last}"
    page.locator("#back").click()
    assert step_text(page) == f"Move 1 of {last}"
    page.locator("#end").click()
    assert step_text(page) == f"Move {last} of {last}" and page.locator("#forward").is_disabled()
    assert page.locator("#trick-forward").is_disabled()
    page.wait_for_selector(".replay-screen .result-panel")
    page.locator("#start").click()
    assert step_text(page) == f"Move 0 of {last}" and hand_sizes(page) == first_hands


def trick_ends(replay: dict[str, Any], game: str) -> list[int]:
    """The steps that completed a trick, from the replay's data."""
    steps = replay["steps"]
    if game == "skat":
        return [
            i
            for i in range(1, len(steps))
            if len(steps[i]["view"]["tricks"]) > len(steps[i - 1]["view"]["tricks"])
        ]
    return [
        i
        for i in range(1, len(steps))
        if steps[i]["view"]["trick_closed"] and not steps[i - 1]["view"]["trick_closed"]
    ]


@pytest.mark.parametrize(
    ("game", "players", "first_hands"),
    # At a Skat table of four the dealer (seat 3 in the first deal) sits out with no cards.
    [("skat", 3, [10, 10, 10]), ("skat", 4, [10, 10, 10]), ("tichu", 4, [8, 8, 8, 8])],
)
def test_a_deal_played_by_bots_is_stepped_through_by_move_and_trick(
    live_server: LiveServer, browser: Browser, game: str, players: int, first_hands: list[int]
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    table = bots_deal(page, live_server, game, players)
    step_through(page, live_server.url, table, first_hands)
    ends = trick_ends(page.evaluate(REPLAY_JS), game)
    # A trick on: the step that completed the first trick; once more, the second; and back.
    page.locator("#trick-forward").click()
    assert felt(page)["step"] == ends[0]
    page.locator("#trick-forward").click()
    assert felt(page)["step"] == ends[1]
    page.locator("#trick-back").click()
    assert felt(page)["step"] == ends[0]
    # The keys: a move with the arrows, a trick with Shift, the ends with Home and End.
    page.keyboard.press("ArrowRight")
    assert felt(page)["step"] == ends[0] + 1
    browser.shot(page, f"replay-{game}{players}-trick")
    page.keyboard.press("ArrowLeft")
    assert felt(page)["step"] == ends[0]
    page.keyboard.press("Shift+ArrowRight")
    assert felt(page)["step"] == ends[1]
    page.keyboard.press("End")
    browser.shot(page, f"replay-{game}{players}")
    page.keyboard.press("Home")
    assert felt(page)["step"] == 0


def test_stepping_a_skat_replay_lays_each_card_on_the_felt_before_its_player(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    table = bots_deal(page, live_server)
    page.goto(f"{live_server.url}#/replay/{table}/0")
    page.wait_for_selector(".replay-controls")
    steps = page.evaluate(REPLAY_JS)["steps"]
    plays = [i for i, s in enumerate(steps) if s["action"] and s["action"]["type"] == "play"]
    first = plays[0]
    # Step by step up to the first card: the felt holds that card before its player, and the
    # player's open hand no longer holds it.
    while felt(page)["step"] < first:
        page.locator("#forward").click()
    card, seat = steps[first]["action"]["card"], steps[first]["seat"]
    shown = felt(page)
    assert shown["trick"] == [[card, seat]]
    assert card not in shown["hands"][str(seat)]
    assert shown["hands"][str(seat)] == sorted(steps[first]["hands"][seat])
    # Two cards more: the whole first trick, in the order played, each before its player.
    page.locator("#forward").click()
    page.locator("#forward").click()
    trick = [[steps[i]["action"]["card"], steps[i]["seat"]] for i in plays[:3]]
    assert felt(page)["trick"] == trick
    winner = steps[plays[2]]["view"]["tricks"][0]["winner"]
    name = page.locator(f".seat-box[data-seat='{winner}'] .seat-name strong").inner_text()
    assert page.locator(".taken-by").inner_text() == f"{name} takes the trick"
    # The next card led replaces the trick taken.
    page.locator("#forward").click()
    assert felt(page)["trick"] == [[steps[plays[3]]["action"]["card"], steps[plays[3]]["seat"]]]
    # Beside the felt: every bid of the auction, and the skat as dealt.
    bids = [s for s in steps if s["action"] and s["action"]["type"] in ("bid", "hold", "pass")]
    assert page.locator(".replay-auction li").count() >= len(bids)
    skat = page.locator(".replay-auction .skat-shown [data-card]")
    dealt = set(steps[0]["hands"][0] + steps[0]["hands"][1] + steps[0]["hands"][2])
    assert skat.count() == 2
    assert all(skat.nth(i).get_attribute("data-card") not in dealt for i in range(2))


def test_the_back_link_returns_to_the_table_and_to_the_profile(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    table = create_skat_table(page, deals=1)
    fill_with_bots(page, "random")
    page.evaluate(PLAY_A_LIST)
    wait_for_record(live_server, table)
    # From the table's result: back to the table.
    page.locator(".result-panel a.replay-link").first.click()
    page.wait_for_selector(".replay-controls")
    back = page.locator("#replay-back")
    assert back.get_attribute("aria-label") == "Back to the table"
    back.click()
    page.wait_for_selector(".felt.skat, .final")
    assert page.evaluate("location.hash") == f"#/table/{table}"
    # From the profile: back to the profile.
    name = page.evaluate("window.tischrunde.user.name")
    page.locator("#user-button").click()
    page.locator("#my-profile").click()
    page.wait_for_selector(".recent-table a.replay-link")
    profile = page.evaluate("location.hash")
    page.locator(".recent-table a.replay-link").first.click()
    page.wait_for_selector(".replay-controls")
    # It survives a reload: where to go back is part of the replay's address.
    page.reload()
    page.wait_for_selector(".replay-controls")
    assert page.locator("#replay-back").get_attribute("aria-label") == "Back to the profile"
    page.locator("#replay-back").click()
    page.wait_for_selector(".profile-screen h1")
    assert page.evaluate("location.hash") == profile
    assert page.locator(".profile-screen h1").inner_text() == name


def test_a_replay_link_from_elsewhere_goes_back_to_the_lobby(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    table = page.evaluate(BOTS_PLAY, ["skat", {"players": 3}, 3])
    wait_for_record(live_server, table)
    # A foreign 'from' is not followed: only a table or a profile of this client.
    page.goto(f"{live_server.url}#/replay/{table}/0?from=javascript%3Aalert(1)")
    page.wait_for_selector(".replay-controls")
    assert page.locator("#replay-back").get_attribute("href") == "#/"
    page.locator("#replay-back").click()
    page.wait_for_selector(".create-form")


def test_a_replay_we_may_not_see_says_so(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    page.goto(f"{live_server.url}#/replay/nosuchtable/0")
    page.wait_for_selector(".replay-screen .empty")
    assert "no replay" in page.locator(".replay-screen .empty").inner_text()
    # The server's 404 is the one problem the browser reports (Chromium logs failed loads).
    assert len(browser.problems) == 1 and "404" in browser.problems[0]
    browser.problems.clear()


def test_a_replay_fits_a_phone_in_german(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page(PHONE, locale="de-DE")
    open_lobby(page, live_server.url)
    table = bots_deal(page, live_server)
    page.goto(f"{live_server.url}#/replay/{table}/0")
    page.wait_for_selector(".replay-controls")
    assert page.locator(".replay-step").inner_text().startswith("Zug 0 von")
    tops = set()
    for control in ("#start", "#trick-back", "#back", "#forward", "#trick-forward", "#end"):
        box = page.locator(control).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44  # big enough to tap
        tops.add(box["y"])
    assert len(tops) == 1  # in one row
    width = page.viewport_size["width"]
    for key in ("Shift+ArrowRight", "Shift+ArrowRight", "ArrowRight", "End"):
        page.keyboard.press(key)
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways
        cards = page.locator(".replay-felt [data-card]")
        right = max(
            cards.nth(i).bounding_box()["x"] + cards.nth(i).bounding_box()["width"]
            for i in range(cards.count())
        )
        assert right <= width  # every card within the screen
    browser.shot(page, "phone-replay")
