"""A trick just taken stays on the felt a moment even when a bot leads the next one soon
after, so a player sees who took what; the model is current all the while, the next trick
shows once the moment is over, and at once when it is our turn (we follow what we see).
German phone, Skat and Tichu. The server's bots take 0.4 s per move here.

Timing is asserted with generous bounds only: the trick taken still drawn a moment after the
bot's lead while another bot is to play (the client holds it about 1.5 s), the next trick
drawn within 5 s.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Browser, LiveServer
from tests.web.tichu_ui import (
    create_table,
    play_round_simply,
    press_act,
)

PHONE_390 = {"width": 390, "height": 844}
BOT_SECONDS = 0.4  # each bot move: the lead comes within the hold, the next card after it

# Play random legal actions of our seat (cards where it may) until one of our cards completes
# a trick a bot takes, the bot leads the next and the other bot is to play; 0.2 s after that
# lead: what the felt draws, and the model's trick.
SKAT_JS = """async () => {
  const app = window.tischrunde;
  const model = app.screen.model;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 6000; i += 1) {
    const view = model.view;
    if (model.info?.status === 'finished') return null;
    if (view && view.legal?.length && view.phase !== 'over') {
      // Pass in the bidding (a random bid would overbid and lose the deal at once), then
      // cards rather than resigning or claiming: the bots' games are played out.
      const plays = view.legal.filter((a) => a.type === 'play');
      const passes = view.phase === 'bidding' ? view.legal.filter((a) => a.type === 'pass') : [];
      const choices = passes.length ? passes : plays.length ? plays : view.legal;
      if (view.phase === 'play' && !plays.length) {  // out of turn only resigning is legal
        await sleep(30);
        continue;
      }
      const action = choices[Math.floor(Math.random() * choices.length)];
      const closing = view.phase === 'play' && action.type === 'play' && view.trick.length === 2;
      const tricks = closing ? view.tricks.length : 0;
      const sent = performance.now();
      try {
        await app.net.request('act', { table: model.id, seq: model.seq, action });
      } catch {
        continue;  // the table moved on meanwhile
      }
      const started = () => model.view.tricks.length > tricks
        && (model.view.trick.length > 0 || model.view.phase !== 'play');
      while (closing && !started() && performance.now() - sent < 2000) await sleep(10);
      const now = model.view;
      const botLed = closing && started() && now.phase === 'play' && now.trick.length === 1
        && now.tricks.at(-1).winner !== model.seat && now.to_move !== model.seat;
      if (botLed) {
        await sleep(200);
        return { taken: document.querySelectorAll('.trick-card.taken').length,
          current: document.querySelectorAll('.trick-card:not(.taken)').length,
          led: model.view.trick.length, ours: model.view.to_move === model.seat,
          playable: document.querySelectorAll('.hand .card.playable').length };
      }
    }
    await sleep(30);
  }
  return null;
}"""

SKAT_CURRENT_DRAWN = """() => !document.querySelector('.trick-card.taken')
  && document.querySelectorAll('.trick-card').length
     === window.tischrunde.screen.model.view.trick.length"""


@pytest.fixture
def slow_bots(browser: Browser, tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose bots take `BOT_SECONDS` a move."""
    server = LiveServer(tmp_path / "server", bot_delay_seconds=BOT_SECONDS).start()
    try:
        yield server
    finally:
        browser.close()
        server.stop()


def test_a_skat_trick_stays_in_view_when_a_bot_leads_soon_after(
    slow_bots: LiveServer, browser: Browser
) -> None:
    live_server = slow_bots
    page = browser.page(PHONE_390, locale="de-DE")
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    page.select_option("select[name=series]", "12")
    page.select_option("select[name=bot]", "greedy")  # bots that play their games out
    page.locator(".create-form button[type=submit]").click()
    page.locator(".waiting-room button.primary").click()
    page.wait_for_selector(".felt.skat")
    seen = page.evaluate(SKAT_JS)
    assert seen is not None, "no trick of ours was taken by a bot who led the next"
    # The bot led (the model has the new trick), yet the felt still shows the trick taken.
    assert seen["led"] >= 1 and seen["taken"] == 3 and seen["current"] == 0, seen
    assert not seen["ours"] and seen["playable"] == 0, seen
    # Then the next trick, by the time it is our turn at the latest.
    page.wait_for_function(SKAT_CURRENT_DRAWN, timeout=5_000)
    browser.shot(page, "phone-skat-trick-after-hold")


# Passes left of a Tichu trick after its last play: our pass after two closes it (nobody out).
CLOSING_PASS_JS = """() => {
  const view = window.tischrunde.screen.model.view;
  let passes = 0;
  for (const event of [...view.trick].reverse()) {
    if (event.action.type !== 'pass') break;
    passes += 1;
  }
  return view.phase === 'play' && !view.trick_closed && view.finish.length === 0 && passes === 2;
}"""

# Pass, closing the trick; if a bot leads the next within 2 s (the model keeps the trick taken
# as the last trick) and another bot is to play, 0.2 s after that lead: what the felt draws,
# and whether the model's trick is open. A Dragon's trick is given away first (no hold), and
# our turn ends a hold: null for those, as for a late lead.
TICHU_PASS_JS = """async () => {
  const model = window.tischrunde.screen.model;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const before = model.lastTrick;
  const top = [...model.view.trick].reverse().find((event) => event.action.type === 'play');
  const sent = performance.now();
  document.querySelector('#action-bar button[data-act=pass]').click();
  const led = () => model.lastTrick !== before && model.view.trick.length > 0;
  while (!led() && model.view.phase === 'play' && performance.now() - sent < 2000) await sleep(10);
  if (!led() || model.view.phase !== 'play' || top.action.cards.includes('Dragon')
      || model.view.to_move === model.seat) return null;
  await sleep(200);
  return { taken: document.querySelectorAll('.combo.taken').length,
    current: document.querySelectorAll('.combo:not(.taken)').length,
    open: !model.view.trick_closed && model.view.trick.length > 0 };
}"""

TICHU_CURRENT_DRAWN = """() => !document.querySelector('.combo.taken')
  && document.querySelectorAll('.combo').length > 0"""


def test_a_tichu_trick_stays_in_view_when_a_bot_leads_soon_after(
    slow_bots: LiveServer, browser: Browser
) -> None:
    live_server = slow_bots
    page = browser.page(PHONE_390, locale="de-DE")
    create_table(page, live_server.url, bot="greedy")
    page.locator(".waiting-room button.primary").click()
    page.wait_for_selector(".felt.tichu")
    seen: list[dict[str, Any]] = []

    def closing_pass(page: Any) -> bool:
        """Pass; True once a pass of ours closed a trick that a bot led anew (`seen`)."""
        if not page.evaluate(CLOSING_PASS_JS):
            press_act(page, "pass")
            return False
        found = page.evaluate(TICHU_PASS_JS)  # it passes
        if found is not None:
            seen.append(found)
        return found is not None

    for _ in range(20):  # rounds
        play_round_simply(page, passing=closing_pass)
        if seen:
            break
    assert seen, "no trick closed by our pass was led anew by a bot"
    assert seen[0] == {"taken": 1, "current": 0, "open": True}, seen
    page.wait_for_function(TICHU_CURRENT_DRAWN, timeout=5_000)
    browser.shot(page, "phone-tichu-trick-after-hold")
