"""The same browser, the real server and its own Tichu bots: one human plays a whole round (the
match is limited to one round) through the lobby, Grand Tichu, the exchange and the play,
with the simplest choices, since real bots cannot be scripted. Screenshots as in
test_tichu.py, prefixed `live-tichu-`. test_tichu.py keeps covering the scripted flows (wish,
Dragon, bomb) with its stand-in server.
"""

from typing import Any

from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.tichu_ui import create_table, play_round_simply, state, wait_until


def open_live_tichu_table(page: Any, url: str, level: str) -> None:
    create_table(page, url, rounds=1)
    page.select_option("select[name=bot-level]", level)
    page.locator("button", has_text="Fill free seats with bots").click()
    page.wait_for_selector(".felt.tichu")


def bot_levels(page: Any) -> list[str]:
    levels: list[str] = page.evaluate("window.tischrunde.games.tichu?.bots || []")
    return levels


def test_a_round_against_the_servers_tichu_bots(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page()
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    levels = bot_levels(page)
    assert levels, "the server lists Tichu with its bot levels (list_games)"
    open_live_tichu_table(page, live_server.url, levels[0])
    counts: list[list[int]] = []
    play_round_simply(page, on_turn=lambda now: counts.append(now["hand_sizes"]))
    assert any(sum(sizes) < 56 for sizes in counts), "cards were played"
    now = wait_until(page, "s.phase === 'over' || s.rounds >= 1")
    assert now["rounds"] == 1
    browser.shot(page, "live-tichu-round-over")
    page.locator(".side .tab", has_text="Score").click()
    assert page.locator(".list-table tbody tr.round").count() == 1
    # The match's end in full (the header may cut the rules short on a phone).
    assert page.locator(".tichu-goal").inner_text() == "Target: 1000 points · at most 1 round"
    assert state(page)["totals"] == [
        int(text) for text in page.locator(".list-table tfoot th").all_inner_texts()[1:3]
    ]


def test_a_round_against_the_servers_tichu_bots_on_a_phone(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE)
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    open_live_tichu_table(page, live_server.url, bot_levels(page)[0])

    def fits(now: dict[str, Any]) -> None:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    play_round_simply(page, on_turn=fits)
    browser.shot(page, "live-tichu-phone-round-over")


def test_a_tichu_table_plays_a_match_not_a_list_in_german(
    live_server: LiveServer, browser: Browser
) -> None:
    """Skat's word "Liste" is not Tichu's (docs/conventions.md section 2): a Tichu table's
    waiting room, status and end speak of its match (Partie), and the profile's latest
    games, Skat lists or Tichu matches, are headed by neither word."""
    page = browser.page(PHONE, locale="de-DE")
    create_table(page, live_server.url, rounds=1)
    starts = page.locator(".waiting-room p.muted").first.inner_text()
    assert starts == "Die Partie beginnt, sobald alle Plätze besetzt sind."
    page.select_option("select[name=bot-level]", "random")
    page.locator(".waiting-room button.primary").click()
    page.wait_for_selector(".felt.tichu")
    play_round_simply(page)
    page.wait_for_selector(".final h2")
    assert page.locator(".final h2").inner_text() == "Die Partie ist beendet"
    assert page.locator(".table-top .title").inner_text().endswith("· Partie beendet")
    assert "Liste" not in page.locator("#app").inner_text()
    browser.shot(page, "live-tichu-match-over-de")
    page.locator("#user-button").click()
    page.locator("#my-profile").click()
    page.wait_for_selector(".profile-screen .recent-table")
    assert page.locator("#recent-title").inner_text() == "Zuletzt beendet"
