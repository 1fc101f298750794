"""Table layout bugs, one browser test each (each failed before its fix): the
Tichu trick taken and the lead note apart (bug 6), no sideways scrolling on a phone (bug 7),
the own hand in view at 1280x800 (bug 8), a refused claim said at the table (bug 11)."""

from typing import Any

from engine.tichu.actions import Play
from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.skat_ui import create_skat_table, fill_with_bots, open_lobby, play_deals
from tests.web.test_client_regressions import WORDS_JS, to_our_first_lead
from tests.web.tichu_ui import (
    exchange_after_declining,
    open_fake_table,
    play_selection,
    press,
    press_act,
    select,
    wait_until,
)

BOX_JS = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
}"""


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.evaluate(BOX_JS, selector)
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def test_bug6_the_trick_taken_and_the_lead_note_do_not_overlap(
    live_server: LiveServer, browser: Browser
) -> None:
    for viewport in ({"width": 1280, "height": 800}, {"width": 360, "height": 740}):
        page = browser.page(viewport)
        to_our_first_lead(page, live_server.url)
        select(page, "MahJong")
        play_selection(page, wish="none")
        wait_until(page, "s.to_move === 0 && s.table.length === 1 && s.hand.length === 13")
        taken = page.locator(".tichu-trick .combo.taken")
        note = page.locator(".tichu-trick .lead-note")
        assert "takes the trick" in taken.inner_text() and note.inner_text() == "Your lead."
        assert not overlap(
            box(page, ".tichu-trick .combo.taken"), box(page, ".tichu-trick .lead-note")
        )


NO_SIDEWAYS_JS = "() => document.documentElement.scrollWidth <= window.innerWidth"

# Whether the chosen option of a select shows whole: the text's width (measured in the
# select's font) fits the select's box less its padding and the arrow. The select is looked up
# in the same step: the table redraws as the bots move, and a select found before a redraw
# is no longer in the page (no style: NaN).
SELECT_FITS_JS = """(selector) => {
  const select = document.querySelector(selector);
  const style = getComputedStyle(select);
  const canvas = document.createElement('canvas').getContext('2d');
  canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = canvas.measureText(select.selectedOptions[0].textContent).width;
  const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const room = select.clientWidth - padding - 16;
  return {text, room};
}"""


def test_bug7_a_phone_never_scrolls_sideways_and_cuts_no_word(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE, locale="de-DE")
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    assert page.evaluate(NO_SIDEWAYS_JS), page.evaluate("document.documentElement.scrollWidth")
    page.select_option("select[name=bot]", "greedy")
    page.locator("button", has_text="Skat-Tisch").first.click()
    page.wait_for_selector(".waiting-room")
    page.locator("button", has_text="Freie Plätze mit Bots").click()
    page.wait_for_selector(".felt.skat")
    assert page.evaluate(NO_SIDEWAYS_JS), page.evaluate("document.documentElement.scrollWidth")
    outside = page.evaluate(
        "() => [...document.querySelectorAll('.table-top, .table-top *')]"
        ".map((e) => e.getBoundingClientRect())"
        ".filter((r) => r.width && (r.left < 0 || r.right > window.innerWidth)).length"
    )
    assert outside == 0  # nothing of the top bar hangs out on either side
    deck = page.locator("select[name=deck]")
    assert deck.locator("option:checked").inner_text() == "Französisch"
    fits = page.evaluate(SELECT_FITS_JS, "select[name=deck]")
    assert fits["text"] <= fits["room"], fits
    # Until someone declares: press the first button of each bar (pass or hold: keys work
    # in any language), then the declarer's badge shows on one line.
    page.wait_for_function(
        "() => { const b = document.querySelector('#action-bar button:not([disabled])');"
        " if (b && !window.tischrunde.screen.busy) b.click();"
        " return !!document.querySelector('.declarer-badge'); }",
        polling=300,
        timeout=60_000,
    )
    assert page.evaluate(NO_SIDEWAYS_JS), page.evaluate("document.documentElement.scrollWidth")
    broken = [w for w, lines in page.locator(".felt").evaluate(WORDS_JS) if lines > 1]
    broken += [w for w, lines in page.locator(".table-top").evaluate(WORDS_JS) if lines > 1]
    assert broken == []


LAPTOP = {"width": 1280, "height": 800}
HAND_IN_VIEW_JS = """() => {
  const r = document.querySelector('.hand').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: window.innerHeight,
          scroll: document.documentElement.scrollTop};
}"""


def hand_in_view(page: Any, label: str, browser: Browser) -> None:
    """The hand's cards lie inside the window as the page is scrolled now (at its top)."""
    browser.shot(page, f"bug8-{label}")
    found = page.evaluate(HAND_IN_VIEW_JS)
    assert found["scroll"] == 0
    assert found["top"] >= 0 and found["bottom"] <= found["height"], (label, found)


def test_bug8_the_own_hand_stays_in_view_at_1280x800(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(LAPTOP)
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=3)
    fill_with_bots(page)
    seen: set[str] = set()

    def check(now: dict[str, Any]) -> bool:
        if now["phase"] == "declare" and "declare" not in seen:
            page.locator(".game-buttons button", has_text="Grand").first.click()
            hand_in_view(page, "declare", browser)
            seen.add("declare")
        if now["panel"] and now["phase"] == "bidding" and "result" not in seen:
            hand_in_view(page, "result", browser)  # the result over the next bidding
            seen.add("result")
        return seen == {"declare", "result"}

    play_deals(page, browser, {}, deals=3, stop=check)
    assert seen == {"declare", "result"}
    tichu = browser.page(LAPTOP)
    open_fake_table(tichu, live_server.url)
    press(tichu, "No, deal my six cards")
    wait_until(tichu, "s.phase === 'exchange'")
    hand_in_view(tichu, "exchange", browser)


# --- the last-trick link beside the trick (phone, German and English) -----------------------

PHONE_390 = {"width": 390, "height": 844}

# What the middle of the table draws, by kind: its lines of text (the text's own box) and its
# cards and combinations (the element's box).
CENTRE_JS = """() => {
  const rect = (r) => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom});
  const text = (el) => { const range = document.createRange(); range.selectNodeContents(el);
    return rect(range.getBoundingClientRect()); };
  const all = (selector, box) => [...document.querySelectorAll(selector)]
    .filter((el) => el.getClientRects().length).map((el) => [selector, box(el)]);
  return {
    link: all('.centre .last-trick button', text)[0]?.[1] ?? null,
    area: all('.centre .trick', (el) => rect(el.getBoundingClientRect()))[0]?.[1] ?? null,
    texts: [...all('.centre .lead-note', text), ...all('.centre .taken-by', text),
      ...all('.centre .contract-line', (el) => rect(el.getBoundingClientRect()))],
    cards: [...all('.centre .trick-card', (el) => rect(el.getBoundingClientRect())),
      ...all('.centre .trick-slot', (el) => rect(el.getBoundingClientRect())),
      ...all('.centre .combo', (el) => rect(el.getBoundingClientRect()))],
  };
}"""


def centre_overlaps(page: Any) -> list[tuple[str, str]]:
    """The pairs of the centre that overlap: the last-trick link with anything (the trick's
    area too: whatever lies there may cover it), a line of text with a card or another line
    (cards of one trick may lie on each other)."""
    found = page.evaluate(CENTRE_JS)
    assert found["link"] is not None, "the last-trick link is drawn"
    link = ("last-trick", found["link"])
    things = [link, *found["texts"]]
    pairs = [(a, b) for i, a in enumerate(things) for b in things[i + 1 :] + found["cards"]]
    pairs.append((link, ("trick area", found["area"])))
    return [(a[0], b[0]) for a, b in pairs if overlap(a[1], b[1])]


# Random legal moves of our seat until it is ours to play to a trick that has a card, after
# at least one trick was taken.
SKAT_TO_FOLLOW_JS = """async () => {
  const app = window.tischrunde;
  const model = app.screen.model;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 2000; i += 1) {
    const view = model.view;
    if (model.info?.status === 'finished') return false;
    if (view?.phase === 'play' && view.to_move === model.seat && view.tricks.length
        && view.trick.length && !view.claim_open) return true;
    if (view?.legal?.length && view.phase !== 'over') {
      // Cards rather than resigning or claiming: the deal goes on.
      const plays = view.legal.filter((a) => a.type === 'play');
      const choices = plays.length ? plays : view.legal;
      const action = choices[Math.floor(Math.random() * choices.length)];
      try {
        await app.net.request('act', { table: model.id, seq: model.seq, action });
      } catch { /* the table moved on meanwhile */ }
    }
    await sleep(30);
  }
  return false;
}"""


def test_the_last_trick_link_lies_apart_from_a_skat_trick_on_a_phone(
    live_server: LiveServer, browser: Browser
) -> None:
    for locale in ("de-DE", "en-US"):
        page = browser.page(PHONE_390, locale=locale)
        page.goto(live_server.url)
        page.wait_for_selector(".create-form")
        page.select_option("select[name=series]", "12")
        page.select_option("select[name=bot]", "random")
        page.locator(".create-form button[type=submit]").click()
        page.locator(".waiting-room button.primary").click()
        page.wait_for_selector(".felt.skat")
        assert page.evaluate(SKAT_TO_FOLLOW_JS)
        page.wait_for_selector(".trick-card:not(.taken)")  # the trick taken is no longer held
        browser.shot(page, f"phone-skat-last-trick-{locale}")
        assert centre_overlaps(page) == [], locale


def test_the_last_trick_link_lies_apart_from_a_tichu_lead_note_on_a_phone(
    live_server: LiveServer, browser: Browser
) -> None:
    for locale, note in (("de-DE", "Bot 2 spielt aus."), ("en-US", "Bot 2 leads.")):
        page = browser.page(PHONE_390, locale=locale)
        fake = open_fake_table(page, live_server.url)
        exchange_after_declining(page, "Kj", "Qs", "Jp")  # keep the Mah Jong: we lead
        wait_until(page, "s.phase === 'play' && s.to_move === 0")
        # The Mah Jong's trick is ours (the bots pass); our next single the right-hand bot
        # beats, the others and we pass: the bot leads, the Mah Jong's trick is the last.
        select(page, "MahJong")
        play_selection(page, wish="none")
        wait_until(page, "s.to_move === 0 && s.table.length === 1 && s.hand.length === 13")
        fake.auto = False
        select(page, page.locator(".hand .card[data-card^='2']").first.get_attribute("data-card"))
        play_selection(page)
        assert fake.state is not None
        beat = next(
            a
            for a in fake.state.legal_actions(1, exchanges=False)
            if isinstance(a, Play) and len(a.cards) == 1
        )
        fake._move(1, beat)
        assert fake.step() and fake.step()  # the two others pass
        wait_until(page, "s.to_move === 0 && s.legal.includes('pass')")
        press_act(page, "pass")
        page.wait_for_selector(".tichu-trick .combo.taken")
        assert page.locator(".tichu-trick .lead-note").inner_text() == note
        browser.shot(page, f"phone-tichu-last-trick-{locale}")
        assert centre_overlaps(page) == [], locale
