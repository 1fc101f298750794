"""Declaring help and claims in the browser, on two fixed deals at a real server (issue 18).

The server deals from seeds; here `engine.skat.state.deal_from_seed` hands out two prepared
deals instead, so the bidding, the game values and the bots' answers to the claims are known:

1. Rearhand (a greedy bot holding all four jacks) bids up to 55 and passes; we play hand.
   The declare panel shows each game's value (no jack: without 4, game 5, hand 6); Diamonds
   (54) is below the bid and asks before it is sent. Our claim at the first card is refused
   (the jacks are out against us), the table says so (issue 28, bug 11), and play goes on
   with our cards open.
2. We sit in rearhand with all jacks and the top clubs, spades and hearts: the claim of the
   rest is proved for every split the defenders cannot see, both accept, the deal ends.
Both claims are in the ISS records (`SC`, the acceptance as each defender's `RE`).
"""

import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.skat.deal import Deal, parse_deal
from tests.web.conftest import WAIT_MS, Browser, LiveServer
from tests.web.skat_ui import (
    Plan,
    bar_button,
    create_skat_table,
    fill_with_bots,
    open_lobby,
    play_deals,
    state,
    wait_after,
    wait_our_turn,
)

# Forehand, middlehand, rearhand and skat of each deal (seat 0 is forehand in the first deal
# and rearhand in the second: the dealer moves on).
DEALS = [
    (
        "AC AS AH AD KC KS KH KD QC QS",
        "QH QD 9H 9D 8C 8S 8H 8D 7C 7S",
        "JC JS JH JD TC TS TH TD 9C 9S",
        "7H 7D",
    ),
    (
        "QC 9C KS QS 9S TH KH QH 9H AD",
        "8C 7C 8S 7S 8H 7H TD KD QD 9D",
        "JC JS JH JD AC TC KC AS TS AH",
        "8D 7D",
    ),
]
VIEW = "window.tischrunde.screen.model.view"


def prepared_deals() -> Iterator[Deal]:
    for fh, mh, hh, skat in DEALS:
        yield parse_deal([fh.split(), mh.split(), hh.split()], skat.split())


def record(server: LiveServer, table: str, deal: int) -> str:
    with urllib.request.urlopen(f"{server.url}api/records/{table}/{deal}") as response:
        text: str = response.read().decode()
    return text


def moves(line: str) -> str:
    found = re.search(r"MV\[([^\]]*)\]", line)
    assert found is not None
    return found.group(1)


def claim(page: Any) -> None:
    """Press the claim button and confirm it."""
    page.locator("#claim").click()
    page.locator(".dialog button[data-choice=confirm]").click()


def test_declaring_shows_values_warns_below_the_bid_and_claims_are_refused_and_accepted(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dealt = prepared_deals()
    monkeypatch.setattr("engine.skat.state.deal_from_seed", lambda seed: next(dealt))
    # The bots answer a claim with the solver: loaded in their workers before the server
    # listens, not at the first claim, where loading it on a busy machine could miss the
    # bot deadline and the fallback would answer the claim at random.
    server = LiveServer(
        tmp_path / "server", bot_delay_seconds=0.0, series_3=2, bot_warm_up=True
    ).start()
    try:
        page = browser.page()
        open_lobby(page, server.url)
        table = create_skat_table(page, deals=2)
        fill_with_bots(page, "greedy")

        # Deal 1: the bidding ends at 55; the values of every game against it.
        now = play_deals(page, browser, {}, deals=2, stop=lambda now: now["phase"] == "skat")
        assert page.evaluate(f"{VIEW}.bid") == 55
        bar_button(page, "Play hand").click()
        values = page.locator(".game-buttons button").evaluate_all(
            "(buttons) => Object.fromEntries(buttons.map((b) =>"
            " [b.dataset.game, Number(b.querySelector('.game-value').textContent)]))"
        )
        # Null hand (35) is below the bid: only Null ouvert hand (59) is offered.
        assert values == {
            "clubs": 72, "spades": 66, "hearts": 60, "diamonds": 54, "grand": 144, "null": 59,
        }  # fmt: skip
        page.locator(".game-buttons button[data-game=diamonds]").click()
        worth = page.locator("#game-worth")
        assert "without 4, game 5, hand 6, Diamonds = 54" in worth.inner_text()
        assert "warn" in (worth.get_attribute("class") or "")
        browser.shot(page, "skat-declare-help")
        play = page.locator("#action-bar button.primary", has_text="Play ")
        sent = state(page)["seq"]
        play.click()
        page.locator(".dialog button[data-choice=cancel]").click()
        assert state(page)["phase"] == "skat" and state(page)["seq"] == sent
        play.click()
        page.locator(".dialog button[data-choice=confirm]").click()
        wait_after(page, sent)
        assert page.evaluate(f"{VIEW}.contract.game") == "diamonds"

        # A claim the defence can beat: refused, our cards stay open, play goes on.
        now = wait_our_turn(page)
        assert now["phase"] == "play"
        claim(page)
        page.wait_for_function(f"{VIEW}.claimed && !{VIEW}.claim_open", timeout=WAIT_MS)
        assert state(page)["phase"] == "play"
        # Issue 28 bug 11: the refusal is said at the table itself, with what it means.
        said = page.locator(".centre .claim-refused")
        said.wait_for()
        text = said.inner_text()
        assert re.search(r"Bot \d refused your claim", text), text
        assert "The defence thinks it can still take a trick." in text
        assert "Play goes on with your cards open" in text
        assert "possible deals" not in text  # the bot's own reasons wait for the deal's end
        browser.shot(page, "skat-claim-refused")
        kibitz = browser.page()
        kibitz.goto(f"{server.url}#/table/{table}")
        kibitz.wait_for_selector(".felt.skat .hand .card:not(.back)")  # seat 0 sits at the bottom
        assert kibitz.locator(".hand .card:not(.back)").count() >= len(now["hand"]) - 1
        assert kibitz.locator(".badge.claim-badge").count() == 1
        browser.close_page(kibitz)

        # Deal 2: the rest is ours for certain; both defenders accept.
        play_deals(
            page,
            browser,
            {1: Plan(hand=True, game="Grand")},
            deals=2,
            stop=lambda now: now["deal"] == 1 and now["phase"] == "play",
        )
        claim(page)
        page.wait_for_selector("#result-ok")
        panel = page.locator(".result-panel").inner_text()
        assert "The defenders accepted the claim" in panel
        browser.shot(page, "skat-claim-accepted")

        refused, accepted = record(server, table, 0), record(server, table, 1)
        assert " 0 SC " in f"{moves(refused)} " and " RE" not in moves(refused)
        assert re.search(r"2 SC [01] RE [01] RE$", moves(accepted).strip())
        assert " r:1" in accepted and " z:1" in accepted and " win " in accepted
    finally:
        browser.close()
        server.stop()
