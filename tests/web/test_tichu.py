"""The Tichu client in a real browser (issue 8): a full round by one human with three bots,
through Grand Tichu, a Tichu call, the exchange (tap and drag), the Mah Jong's wish, the
Dragon given away, a bomb out of turn, and the round's and match's scores.

The page is served by the real server; its WebSocket is routed to `FakeTichuServer`, which
speaks protocol v1 over the real Tichu engine, until the server has its Tichu adapter
(tests/web/pending_tichu_live.py then runs the same round against the real server).
"""

import random
from typing import Any

from engine.tichu.cards import format_cards, parse_cards
from engine.tichu.combos import KIND_NAMES, classify, kind_of
from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.fake_tichu import FakeTichuServer
from tests.web.tichu_ui import button, press, select, state, tap, wait_after, wait_until


def open_tichu_table(page: Any, url: str, browser: Browser, prefix: str) -> None:
    page.goto(url)
    page.wait_for_selector(".create-form")
    page.check("input[name=game][value=tichu]")
    page.select_option("select[name=max_rounds]", "1")
    browser.shot(page, f"{prefix}lobby")
    page.locator("button", has_text="Create Tichu table").click()
    page.wait_for_selector(".waiting-room")
    page.locator("button", has_text="Fill free seats with bots").click()
    page.wait_for_selector(".felt.tichu")


def no_horizontal_scroll(page: Any) -> bool:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width <= page.viewport_size["width"]


def play_the_scripted_round(
    page: Any, fake: FakeTichuServer, browser: Browser, prefix: str
) -> None:
    # Grand Tichu: eight cards, the decision.
    now = wait_until(page, "s.phase === 'grand_tichu' && s.legal.includes('decline_grand_tichu')")
    assert len(now["hand"]) == 8
    assert page.locator(".seat-box .cards-left").first.inner_text().startswith("8 cards")
    browser.shot(page, f"{prefix}grand-tichu")
    press(page, "No, deal my six cards")

    # Exchange: call Tichu, then one card to each player by tap, drag and tap.
    now = wait_until(page, "s.phase === 'exchange' && s.legal.includes('tichu')")
    assert len(now["hand"]) == 14
    # A call costs 100 points: it waits for the confirmation, and Cancel sends nothing.
    sent = len(fake.received)
    button(page, "Tichu!").click()
    page.locator(".dialog button[data-choice=cancel]").click()
    assert len(fake.received) == sent and state(page)["calls"][0] == "none"
    button(page, "Tichu!").click()
    seq = state(page)["seq"]
    page.locator(".dialog button[data-choice=confirm]").click()
    wait_after(page, seq)
    assert state(page)["calls"][0] == "tichu"
    page.locator(".exchange .slot[data-slot=left]").click()
    tap(page, "2s")
    page.locator('.hand [data-card="3p"]').drag_to(
        page.locator(".exchange .slot[data-slot=partner]"), source_position={"x": 5, "y": 12}
    )
    tap(page, "4t")
    assert page.locator(".exchange .slot.filled").count() == 3
    browser.shot(page, f"{prefix}exchange")
    press(page, "Pass these cards")
    sent = [m for m in fake.received if m["type"] == "act"][-1]["action"]
    assert sent == {"type": "exchange", "left": "2s", "partner": "3p", "right": "4t"}

    # The Mah Jong lead with a wish; the bot holding an 8 must play it.
    now = wait_until(page, "s.phase === 'play' && s.to_move === 0")
    assert {"2j", "3s", "4p"} <= set(now["hand"])
    assert "Mah Jong (1)" in select(page, "MahJong")
    # The wish is asked when the Mah Jong is played.
    button(page, "Play").click()
    page.wait_for_selector(".dialog .wish-dialog")
    browser.shot(page, f"{prefix}wish")
    seq = state(page)["seq"]
    page.locator(".dialog button[data-choice=wish-8]").click()
    wait_after(page, seq)
    now = wait_until(page, "s.to_move === 0")
    assert now["table"] == ["8j"] and now["wish"] is None
    assert "Not a combination" in select(page, "2j", "Aj")
    assert "beats the table" in select(page, "Dragon")
    browser.shot(page, f"{prefix}select")
    press(page, "Play")

    # Everybody passes on the Dragon: give the trick to an opponent.
    now = wait_until(page, "s.phase === 'dragon' && s.legal.includes('give_dragon')")
    browser.shot(page, f"{prefix}dragon")
    press(page, "Give to Bot 2")

    # The Dog hands the lead to the partner; while his single lies there, bomb out of turn.
    wait_until(page, "s.phase === 'play' && s.to_move === 0 && s.table.length === 0")
    fake.auto = False
    select(page, "Dog")
    press(page, "Play")
    assert fake.step()  # the partner leads
    now = wait_until(page, "s.table.length === 1 && s.to_move === 3")
    hint = select(page, "9j", "9s", "9p", "9t")
    assert "Bomb: four 9s" in hint and "✓" in hint
    assert button(page, "Bomb!").is_enabled()
    browser.shot(page, f"{prefix}bomb")
    press(page, "Bomb!")
    fake.auto = True
    fake.run_bots()

    # Lead the rest one card at a time; the bots play the round out.
    while True:
        now = wait_until(
            page, "(s.to_move === 0 && s.legal.includes('play')) || s.phase === 'over'"
        )
        if now["phase"] == "over" or not now["hand"]:
            break
        select(page, now["hand"][0])
        press(page, "Play")
    now = wait_until(page, "s.phase === 'over'")
    assert now["finish"][0] == 0 and now["rounds"] == 1
    page.wait_for_selector(".result-panel")
    assert "win the match" in page.locator(".result-panel h3").inner_text()
    browser.shot(page, f"{prefix}match-over")


def test_a_full_tichu_round_with_exchange_wish_dragon_and_bomb(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    fake = FakeTichuServer()
    fake.attach(page)
    open_tichu_table(page, live_server.url, browser, "tichu-")
    play_the_scripted_round(page, fake, browser, "tichu-")
    # Our Tichu succeeded: the round's scores show the call and the match total.
    page.locator(".side .tab", has_text="Score").click()
    rows = page.locator(".list-table tbody tr")
    assert rows.count() == 1
    totals = state(page)["totals"]
    assert page.locator(".list-table tfoot").inner_text().split()[1:3] == [str(t) for t in totals]
    assert "calls +100" in rows.first.inner_text()
    browser.shot(page, "tichu-scores")


def test_a_tichu_round_on_a_phone(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page(PHONE)
    fake = FakeTichuServer()
    fake.attach(page)
    open_tichu_table(page, live_server.url, browser, "phone-tichu-")
    assert no_horizontal_scroll(page)
    play_the_scripted_round(page, fake, browser, "phone-tichu-")
    assert no_horizontal_scroll(page)


# --- the hint's classifier mirrors engine/tichu/combos.py ------------------------------------

JS_KINDS = {"single", "pair", "triple", "fullhouse", "straight", "stairs", "bomb4", "bombsf", "dog"}


def random_sets(count: int) -> list[list[str]]:
    rng = random.Random(11)
    deck = list(
        format_cards(
            parse_cards(
                " ".join(
                    [f"{r}{s}" for r in "23456789TJQKA" for s in "jspt"]
                    + ["MahJong", "Dog", "Phoenix", "Dragon"]
                )
            )
        )
    )
    sets = []
    by_rank = {r: [c for c in deck if c[0] == r and len(c) == 2] for r in "23456789TJQKA"}
    ranks = "23456789TJQKA"
    for _ in range(count):
        shape = rng.randrange(5)
        if shape == 0:  # a run of ranks, maybe with the Phoenix or the Mah Jong
            start = rng.randrange(0, 9)
            length = rng.randrange(4, 8)
            cards = [rng.choice(by_rank[r]) for r in ranks[start : start + length]]
        elif shape == 1:  # pairs and triples of neighbouring ranks
            start = rng.randrange(0, 10)
            cards = []
            for r in ranks[start : start + rng.randrange(1, 4)]:
                cards += rng.sample(by_rank[r], rng.randrange(1, 5))
        else:  # anything
            cards = rng.sample(deck, rng.randrange(1, 7))
        if rng.random() < 0.3 and "Phoenix" not in cards:
            cards.append("Phoenix")
        if rng.random() < 0.1 and "MahJong" not in cards:
            cards.append("MahJong")
        sets.append(sorted(set(cards)))
    return sets


def test_the_selection_hint_names_what_the_engine_classifies(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    sets = random_sets(3000)
    kinds = page.evaluate(
        """async (sets) => {
          const { classify } = await import('/js/tichu-combos.js');
          return sets.map((cards) => { const c = classify(cards); return c ? c.kind : 'invalid'; });
        }""",
        sets,
    )
    expected = [KIND_NAMES[kind_of(classify(parse_cards(cards)))] for cards in sets]
    mismatches = [(s, k, e) for s, k, e in zip(sets, kinds, expected, strict=True) if k != e]
    assert len({e for e in expected}) >= 8, "the sample should cover most kinds"
    assert mismatches == [], mismatches[:5]


def test_the_hint_knows_every_kind_of_combination() -> None:
    assert set(KIND_NAMES.values()) - {"invalid"} == JS_KINDS
