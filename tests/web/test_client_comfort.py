"""Friction removed, measured in the browser: hands that fit and can be
tapped, calls that ask first, results that leave the next deal free, marked cards, the Tichu
last trick, bot reasons in words, readable ratings and the optional turn sound."""

from typing import Any

import msgspec
import numpy as np

from bots.skat.claims import answer_claim
from bots.skat.greedy import greedy_policy
from bots.skat.levels import SkatBot
from bots.skat.montecarlo import EXACT_CARDS, choose_card
from engine.skat.actions import Bid, Claim, Declare, Hold, Pass, PickUpSkat, Play
from engine.skat.state import new_game
from tests.engine.skat.helpers import deal_state, declared, run
from tests.web.conftest import DESKTOP, PHONE, WAIT_MS, Browser, LiveServer
from tests.web.skat_ui import Log, Plan, create_skat_table, fill_with_bots, open_lobby, play_deals
from tests.web.tichu_ui import (
    open_fake_table,
    play_selection,
    press,
    select,
    state,
    tap,
    wait_until,
)

# Per card of the hand: its box and how much of it the next card in the same row leaves free.
TAP_JS = """() => {
  const boxes = [...document.querySelectorAll('.hand .card')].map((c) => c.getBoundingClientRect());
  return boxes.map((box, i) => {
    const next = boxes[i + 1];
    const sameRow = next && Math.abs(next.top - box.top) < 4;
    const free = sameRow ? Math.min(box.width, next.left - box.left) : box.width;
    return {free, bottom: box.bottom, right: box.right, left: box.left};
  });
}"""


def to_exchange(page: Any) -> None:
    press(page, "No, deal my six cards")
    wait_until(page, "s.phase === 'exchange' && s.hand.length === 14")


def test_the_14_card_tichu_hand_fits_1280_by_860(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page(DESKTOP)
    open_fake_table(page, live_server.url)
    to_exchange(page)
    cards = page.evaluate(TAP_JS)
    assert len(cards) == 14
    assert all(c["bottom"] <= DESKTOP["height"] and c["right"] <= DESKTOP["width"] for c in cards)
    assert page.evaluate("window.scrollY") == 0


def test_on_a_phone_the_exchange_is_above_the_fold_and_every_card_40_px_to_tap(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE)
    open_fake_table(page, live_server.url)
    to_exchange(page)
    assert page.evaluate("window.scrollY") == 0
    controls = page.locator(".exchange .slot, #action-bar button[data-act=exchange]")
    assert controls.count() == 4
    for i in range(4):
        assert (
            controls.nth(i).bounding_box()["y"] + controls.nth(i).bounding_box()["height"]
            <= PHONE["height"]
        )
    cards = page.evaluate(TAP_JS)
    assert len(cards) == 14 and min(c["free"] for c in cards) >= 40
    assert max(c["right"] for c in cards) <= PHONE["width"] and min(c["left"] for c in cards) >= 0
    browser.shot(page, "phone-tichu-exchange-fold")


def test_a_skat_hand_on_a_phone_leaves_40_px_of_every_card(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE)
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=1)
    fill_with_bots(page, "greedy")
    seen: list[int] = []

    def measure(now: dict[str, Any]) -> bool:
        if now["phase"] in ("bidding", "discard"):
            cards = page.evaluate(TAP_JS)
            seen.append(len(cards))
            assert min(c["free"] for c in cards) >= 40, now["phase"]
        return now["phase"] == "play"

    play_deals(page, browser, {0: Plan(game="Grand")}, deals=1, stop=measure, log=Log())
    assert 12 in seen  # the discard: ten cards and the skat


def test_grand_tichu_and_tichu_ask_before_they_are_sent(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    fake = open_fake_table(page, live_server.url)
    sent = len(fake.received)
    page.locator("#action-bar button[data-act=grand_tichu]").click()
    assert "200" in page.locator(".dialog").inner_text()
    page.locator(".dialog button[data-choice=cancel]").click()
    assert len(fake.received) == sent and state(page)["calls"][0] == "none"
    seq = state(page)["seq"]
    page.locator("#action-bar button[data-act=grand_tichu]").click()
    page.locator(".dialog button[data-choice=confirm]").click()
    wait_until(page, f"s.seq > {seq}")
    assert state(page)["calls"][0] == "grand_tichu"


def test_received_cards_are_marked_and_the_last_trick_can_be_reviewed(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_fake_table(page, live_server.url)
    to_exchange(page)
    for card in ("Kj", "Qs", "Jp"):
        tap(page, card)
    press(page, "Pass these cards")
    wait_until(page, "s.phase === 'play' && s.to_move === 0")
    received = page.evaluate(
        "(({left, partner, right}) => [left, partner, right])"
        "(window.tischrunde.screen.model.view.received)"
    )
    marked = page.locator(".hand .card.received").evaluate_all(
        "(cs) => cs.map((c) => c.dataset.card)"
    )
    assert sorted(marked) == sorted(received) and len(marked) == 3
    assert page.locator(".hand .card.received .gift-tag").count() == 3
    assert page.locator("#last-trick").count() == 0
    select(page, "MahJong")
    play_selection(page, wish="none")
    now = wait_until(page, "s.to_move === 0 && s.hand.length === 13")
    select(page, now["hand"][-1])
    play_selection(page)
    page.locator("#last-trick").click()
    plays = page.locator(".last-plays li")
    assert plays.count() == 5  # our Mah Jong, three passes, who took it
    assert "Mah Jong" in plays.first.locator(".mini").get_attribute("title")
    assert plays.last.inner_text() == "→ tina"


BUTTON_LIGHT_JS = """(selector) => {
  const [r, g, b, a] = getComputedStyle(document.querySelector(selector)).backgroundColor
    .match(/[\\d.]+/g).map(Number);
  return a === 0 ? 0 : (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}"""


def test_on_the_felt_the_main_action_is_the_bright_button(
    live_server: LiveServer, browser: Browser
) -> None:
    """In the bidding bar the answer the game expects ("Ja, 18", "18") stands out: filled and
    light on the dark felt, the other choices ("Passe") outlined."""
    page = browser.page(PHONE)
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=1)
    fill_with_bots(page, "greedy")
    seen: list[float] = []

    def bidding(now: dict[str, Any]) -> bool:
        if now["phase"] != "bidding" or page.locator("#action-bar button.primary").count() == 0:
            return False
        primary = page.evaluate(BUTTON_LIGHT_JS, "#action-bar button.act.primary")
        passing = page.evaluate(BUTTON_LIGHT_JS, "#action-bar button[data-act=pass]")
        assert primary > 0.9 and passing == 0, (primary, passing)
        browser.shot(page, "bidding-bar-on-a-phone")
        seen.append(primary)
        return True

    play_deals(page, browser, {0: Plan(game="Grand")}, deals=1, stop=bidding, log=Log())
    assert seen  # forehand answers the first bid: the bar was seen


def test_a_jump_bid_chosen_in_one_deal_is_not_offered_in_the_next(
    live_server: LiveServer, browser: Browser
) -> None:
    """The jump bid's list keeps a value chosen in this deal; a new deal starts at the list's
    usual third value, not at the last deal's (a player saw "36" where 18 was the lowest)."""
    page = browser.page()
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=6)
    fill_with_bots(page, "greedy")
    firsts: list[tuple[int, str, list[str]]] = []  # deal, the value shown, the values offered

    def jump_list(now: dict[str, Any]) -> bool:
        select = page.locator("#jump-bid")
        if (
            now["phase"] == "bidding"
            and select.count()
            and now["deal"] not in [f[0] for f in firsts]
        ):
            values = select.locator("option").all_inner_texts()
            firsts.append((now["deal"], select.input_value(), values))
            select.select_option(values[-1])  # chosen in this deal, then not bid
        return len(firsts) == 2

    play_deals(page, browser, {}, deals=6, stop=jump_list, log=Log())
    assert len(firsts) == 2, firsts
    for _, shown, values in firsts:
        assert shown == values[min(2, len(values) - 1)], firsts


def test_a_result_leaves_the_next_deals_bidding_free_on_a_phone(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE)
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=2)
    fill_with_bots(page, "greedy")
    play_deals(page, browser, {}, deals=2, stop=lambda now: now["panel"])
    page.wait_for_function(
        "window.tischrunde.screen.model.view.phase === 'bidding'"
        " && !!document.querySelector('#result-ok')",
        timeout=WAIT_MS,
    )
    # Measured in one go: the table re-renders with every bot's bid.
    layout = page.evaluate(
        """() => {
          const box = (el) => el.getBoundingClientRect();
          const panel = box(document.querySelector('.result-panel'));
          const bar = box(document.querySelector('#action-bar'));
          const hit = document.elementFromPoint(bar.left + bar.width / 2, bar.top + bar.height / 2);
          return {apart: panel.bottom <= bar.top || bar.bottom <= panel.top,
                  hit: !!hit && !!hit.closest('#action-bar')};
        }"""
    )
    browser.shot(page, "phone-skat-result-and-bidding")
    assert layout == {"apart": True, "hit": True}
    browser.shot(page, "phone-skat-result-and-bidding")


def diagnostics() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(action, why) pairs as the real bots report them: bidding, skat, play and a claim."""
    rng = np.random.default_rng(3)
    tiny = SkatBot(worlds=6, skat_worlds=4)
    out = []
    state = new_game(seed=11)
    for policy in (greedy_policy, tiny):
        decision = policy(state.observation(state.to_move), rng)
        out.append((decision.action, decision.diagnostics))
    state = run(deal_state(), (1, Bid(18)), (0, Hold()), (1, Pass()), (2, Pass()))
    out.append(((d := tiny(state.observation(0), rng)).action, d.diagnostics))
    picked = state.apply(0, PickUpSkat())
    out.append(((d := tiny(picked.observation(0), rng)).action, d.diagnostics))
    playing = declared(0, Declare("grand"))
    out.append(((d := tiny(playing.observation(0), rng)).action, d.diagnostics))
    out.append(((d := greedy_policy(playing.observation(0), rng)).action, d.diagnostics))
    claimed = playing.apply(0, Claim())
    out.append(((d := answer_claim(claimed.observation(1))).action, d.diagnostics))
    return [(msgspec.to_builtins(a), msgspec.to_builtins(w)) for a, w in out]


def test_why_the_bot_played_that_is_said_in_words(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    lines = page.evaluate(
        """async (pairs) => {
          const { reasons } = await import('/js/hints.js');
          return pairs.map(([action, why]) => reasons(why, action, 'french').join('; '));
        }""",
        diagnostics(),
    )
    assert all(lines), lines
    for line in lines:
        assert not any(mark in line for mark in '{}[]_"'), line
    assert any("of 6 sampled deals" in line for line in lines), lines
    assert any("possible deals" in line for line in lines), lines
    assert any("points expected" in line for line in lines), lines  # the score bidder's plans


def card_play_diagnostics() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """The Monte Carlo card player's (action, why) in grand, as it reports them: at the first
    lead (bound mode, tied cards told apart at the second bound: counts of worlds, no mean),
    with five cards left (exact values: mean points), and with one legal card."""
    rng = np.random.default_rng(0)
    state = declared(0, Declare("grand"))
    found = {"bound": choose_card(state.observation(0), rng, worlds=6)}
    while "exact" not in found or "only" not in found:
        seat = state.to_move
        plays = [a for a in state.observation(seat).legal if isinstance(a, Play)]
        if len(plays) == 1 and "only" not in found:
            found["only"] = choose_card(state.observation(seat), rng, worlds=6)
        if seat == 0 and len(state.observation(0).hand) <= EXACT_CARDS and "exact" not in found:
            found["exact"] = choose_card(state.observation(0), rng, worlds=6)
        state = state.apply(seat, plays[0])
    assert found["bound"].diagnostics["tie_target"] is not None
    return {
        name: (msgspec.to_builtins(d.action), msgspec.to_builtins(d.diagnostics))
        for name, d in found.items()
    }


def test_a_card_hint_names_mean_points_only_when_the_bot_computed_a_mean(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(locale="de-DE")
    open_lobby(page, live_server.url)
    lines = page.evaluate(
        """async (cases) => {
          const { reasons } = await import('/js/hints.js');
          const out = {};
          for (const [name, [action, why]] of Object.entries(cases)) {
            out[name] = reasons(why, action, 'french').join('; ');
          }
          return out;
        }""",
        card_play_diagnostics(),
    )
    assert "gewann in 6 von 6 durchgespielten Verteilungen" in lines["bound"], lines
    assert "im Schnitt" not in lines["bound"], lines
    assert "im Schnitt" in lines["exact"] and "Augen für den Alleinspieler" in lines["exact"]
    assert lines["only"] == "die einzige Karte, die er spielen durfte"


def test_ratings_read_as_whole_numbers_around_1500(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    shown = page.evaluate(
        """async () => {
          const { displayRating } = await import('/js/lobby.js');
          return [0, 3.4, -2.5].map((ordinal) => displayRating({ ordinal }));
        }"""
    )
    assert shown == [1500, 1582, 1440]


def test_the_turn_sound_is_off_until_switched_on(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=1)
    fill_with_bots(page, "greedy")
    turns: list[int] = []

    def count(now: dict[str, Any]) -> bool:
        turns.append(page.evaluate("window.tischrunde.sound.played"))
        return len(turns) == 2

    play_deals(page, browser, {}, deals=1, stop=count)
    assert turns[0] == 0 and page.evaluate("window.tischrunde.sound.enabled") is False
    page.locator("#user-button").click()
    page.locator(".dialog input[name=sound]").check()
    page.keyboard.press("Escape")
    sample = page.evaluate("window.tischrunde.sound.played")
    assert sample == 1  # switching it on plays it once
    # Play on until the bots have moved and it is our turn again (a turn that goes on after
    # our own move, e.g. from taking the skat to laying away, does not chime).
    chimed = play_deals(
        page,
        browser,
        {},
        deals=1,
        stop=lambda now: page.evaluate("window.tischrunde.sound.played") > sample,
    )
    assert page.evaluate("window.tischrunde.sound.played") > sample, chimed.phases
    page.reload()
    page.wait_for_selector(".felt.skat")
    assert page.evaluate("window.tischrunde.sound.enabled") is True
