"""The deal analysis in the replay (issue 26): "Analyse" shows a progress bar while the bot
pool computes, then the evaluation chart with a bar per card, the marked mistakes with the
better card, a step to the next mistake, the bidding panel; in German on a phone, in English
on a desktop."""

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.skat_ui import open_lobby
from tests.web.test_replay import BOTS_PLAY, wait_for_record

SAW_PROGRESS = """() => {
  window.sawProgress = false;
  new MutationObserver(() => {
    if (document.querySelector(".analysis-progress progress")) window.sawProgress = true;
  }).observe(document.body, { childList: true, subtree: true });
}"""
MARK_TRIES = 5
ANALYSIS_MS = 240_000  # a bots' deal, small budget; a fresh worker loads the solver first


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from tests.web.conftest import require_browser

    require_browser()
    server = LiveServer(
        tmp_path_factory.mktemp("server"),
        bot_delay_seconds=0.0,
        analysis_card_worlds=4,
        analysis_skat_worlds=4,
    ).start()
    yield server
    server.stop()


def played_deal(page: Any, server: LiveServer) -> tuple[str, int]:
    """A deal of greedy bots that came to card play: its table and how many cards."""
    for _ in range(8):
        # Rule-of-thumb bots declare games a card can still win or lose, so their slips get
        # marked; random bots mostly announce hand games lost from the first card.
        table = page.evaluate(BOTS_PLAY, ["skat", {"players": 3}, 3, "greedy"])
        wait_for_record(server, table)
        url = f"{server.url}api/records/{table}/0/replay"
        with urllib.request.urlopen(url) as response:
            steps = json.loads(response.read())["steps"]
        cards = sum(1 for s in steps if (s["action"] or {}).get("type") == "play")
        if cards:
            return table, cards
    raise AssertionError("the bots never came to play cards")


def analyse(page: Any, server: LiveServer, table: str) -> None:
    page.goto(f"{server.url}#/replay/{table}/0")
    page.wait_for_selector("#analyse")
    page.evaluate(SAW_PROGRESS)
    page.locator("#analyse").click()
    page.wait_for_selector(".analysis-chart", timeout=ANALYSIS_MS)
    assert page.evaluate("window.sawProgress")


def test_a_phone_in_german_shows_the_analysis(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page(PHONE, locale="de-DE")
    open_lobby(page, live_server.url)
    table, cards = played_deal(page, live_server)
    analyse(page, live_server, table)
    panel = page.locator("#analysis")
    assert panel.locator("h2").inner_text() == "Analyse"
    assert page.locator(".analysis-bar").count() == cards
    assert "Reizen und Skat" in panel.inner_text() and "Verlorene Punkte" in panel.inner_text()
    assert page.locator("#next-mistake").inner_text() == "Nächster Fehler"
    width: int = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]  # no sideways scrolling
    # A bar steps the replay to its card, which the note then grades.
    page.locator(".analysis-bar").nth(cards - 1).click()
    assert page.locator(".analysis-bar.current").count() == 1
    assert page.locator(".analysis-note").count() >= 1
    if not page.locator("#next-mistake").is_disabled():
        page.locator("#next-mistake").click()
        note = page.locator(".analysis-notes").inner_text()
        assert "Fehler" in note and "besser:" in note
    browser.shot(page, "phone-analysis-de")


def test_a_desktop_in_english_shows_marks_and_the_bidding(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    panel = page.locator("#analysis")
    marked = 0
    for _ in range(MARK_TRIES):  # greedy bots slip in most deals they play out
        table, cards = played_deal(page, live_server)
        analyse(page, live_server, table)
        assert page.locator(".analysis-bar").count() == cards
        assert "Bidding and skat" in panel.inner_text() and "Points lost" in panel.inner_text()
        assert page.locator(".analysis-bidding li").count() >= 1
        marked = page.locator(".analysis-bar.mistake, .analysis-bar.blunder").count()
        assert f"Marked cards: {marked}" in panel.inner_text()
        if marked:
            break
    assert marked, f"no card was marked in {MARK_TRIES} deals of greedy bots"
    page.locator("#next-mistake").click()
    current = ".analysis-bar.current.mistake, .analysis-bar.current.blunder"
    assert page.locator(current).count() == 1
    assert "better:" in page.locator(".analysis-notes").inner_text()
    # The card played is marked on the felt too.
    played = page.locator(".analysis-notes .analysis-note .mini").first.get_attribute("data-card")
    assert page.locator(f'.trick-card.analysis-marked[data-card="{played}"]').count() == 1
    browser.shot(page, "desktop-analysis-en")
