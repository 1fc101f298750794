"""The Tichu client in a real browser (issue 8): a full round by one human with three bots,
through Grand Tichu, a Tichu call, the exchange (tap and drag), the Mah Jong's wish, the
Dragon given away, a bomb out of turn, and the round's and match's scores.

The page is served by the real server; its WebSocket is routed to `FakeTichuServer`, which
speaks protocol v1 over the real Tichu engine, until the server has its Tichu adapter
(tests/web/pending_tichu_live.py then runs the same round against the real server).
"""

from typing import Any

import msgspec

from engine.tichu.actions import Play
from engine.tichu.cards import parse_cards
from engine.tichu.position import position
from server.games import TichuGame
from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.fake_tichu import FakeTichuServer
from tests.web.tichu_ui import (
    button,
    exchange_after_declining,
    open_fake_table,
    play_selection,
    press,
    select,
    state,
    tap,
    wait_after,
    wait_until,
)


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
    assert "Not a combination that beats the table" in select(page, "2j", "Aj")
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
    table = page.evaluate("window.tischrunde.screen.model.id")
    replay = page.locator(".result-panel a.replay-link").get_attribute("href")
    assert replay == f"#/replay/{table}/0?from=%23%2Ftable%2F{table}"
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
    rows = page.locator(".list-table tbody tr.round")
    assert rows.count() == 1
    totals = state(page)["totals"]
    assert page.locator(".list-table tfoot").inner_text().split()[1:3] == [str(t) for t in totals]
    assert "calls +100" in page.locator(".list-table tbody").inner_text()
    browser.shot(page, "tichu-scores")


def test_a_tichu_round_on_a_phone(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page(PHONE)
    fake = FakeTichuServer()
    fake.attach(page)
    open_tichu_table(page, live_server.url, browser, "phone-tichu-")
    assert no_horizontal_scroll(page)
    play_the_scripted_round(page, fake, browser, "phone-tichu-")
    assert no_horizontal_scroll(page)


# --- the hint names each legal play as the server does -------------------------------------

HAND = "Phoenix 7j 7s 8j 8s 9p Tp Jp 4t 4j 4s 4p Dragon"
# Plays of HAND on a lead (the Phoenix single on a 9) and how the hint names them.
LABELS = {
    "7j 7s": "Pair of 7s",
    "4j 4s 4t": "Three 4s",
    "4j 4s 4t 7j 7s": "Full house, three 4s",
    "7j 8j 9p Tp Jp": "Straight of 5 to J",
    "7j 7s 8j 8s": "Stairs of 2 pairs to 8",
    "7j 7s 8j 8s 9p Phoenix": "Stairs of 3 pairs to 9",
    "4j 4s 4t 4p": "Bomb: four 4s",
    "Tp": "Single 10",
    "Dragon": "Dragon (highest single)",
}


def server_plays(table: str | None) -> list[dict[str, Any]]:
    """Each legal play of HAND as the server's view sends it: cards and combination."""
    state = position(parse_cards(HAND), parse_cards(table) if table else None)
    view = msgspec.to_builtins(TichuGame().view(state, 0, history=False))
    return [
        {"cards": action["cards"], "combination": named}
        for action, named in zip(view["legal"], view["combinations"], strict=True)
        if action["type"] == "play"
    ]


def test_the_hint_names_a_play_from_the_servers_combination(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    plays = server_plays(None) + server_plays("9s")
    labels = page.evaluate(
        """async (plays) => {
          const { comboLabel } = await import('/js/tichu.js');
          return plays.map((p) =>
            [p.cards.slice().sort().join(' '), comboLabel(p.combination, p.cards)]);
        }""",
        plays,
    )
    named = dict(labels)
    for cards, label in LABELS.items():
        assert named[" ".join(sorted(cards.split()))] == label
    assert named["Phoenix"] == "Phoenix (half above the last single)"
    # Every play is named: no label falls back to a raw kind or rank.
    assert all(label and "undefined" not in label and "combo." not in label for _, label in labels)


# --- the Mah Jong's wish says why there is nothing to pass ---------------------------------

PHONE_390 = {"width": 390, "height": 844}


def select_the_mahjong(page: Any, url: str) -> FakeTichuServer:
    """A German phone at the stand-in's table, our lead, the Mah Jong selected."""
    fake = open_fake_table(page, url)
    exchange_after_declining(page, "2s", "3p", "4t")
    wait_until(page, "s.phase === 'play' && s.to_move === 0")
    fake.auto = False
    select(page, "MahJong")
    return fake


def lead_the_mahjong_wishing_9(page: Any, url: str) -> FakeTichuServer:
    """The Mah Jong led with a wish for a 9: we hold all four 9s, so once the wish reaches us
    again we must play one."""
    fake = select_the_mahjong(page, url)
    play_selection(page, wish="9")
    return fake


def prompt(page: Any) -> str:
    text: str = page.locator("#action-bar .prompt").inner_text()
    return text


def test_when_the_wish_forbids_passing_the_prompt_says_so(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE_390, locale="de-DE")
    fake = lead_the_mahjong_wishing_9(page, live_server.url)
    fake._move(1, Play(cards=("5s",)))  # no 9 in that hand: the wish does not bind it
    assert fake.step() and fake.step()  # the others pass
    now = wait_until(page, "s.to_move === 0 && s.table.length > 0")
    assert now["wish"] == "9" and "pass" not in now["legal"]
    assert prompt(page) == "Du bist dran: der Wunsch (9) muss erfüllt werden."
    assert page.locator("#action-bar button[data-act=pass]").count() == 0
    browser.shot(page, "phone-tichu-wish-binds")


def test_a_lead_the_wish_binds_says_so_and_a_free_one_does_not(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE_390, locale="de-DE")
    fake = lead_the_mahjong_wishing_9(page, live_server.url)
    fake.run_bots()  # nobody else holds a 9: all pass, the lead is ours again
    now = wait_until(page, "s.to_move === 0 && s.legal.includes('play')")
    assert now["wish"] == "9"
    assert prompt(page) == "Du bist dran: der Wunsch (9) muss erfüllt werden."
    fake.auto = True
    select(page, "9j")
    play_selection(page)
    # The 9 fulfilled the wish; the others pass and the lead is ours, free.
    now = wait_until(page, "s.to_move === 0 && s.table[0] === '9j' && !s.legal.includes('pass')")
    assert now["wish"] is None
    assert prompt(page) == "Du spielst aus: eine beliebige Kombination."


def test_the_wish_names_its_rank_as_the_prompts_do(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE_390, locale="de-DE")
    select_the_mahjong(page, live_server.url)
    page.locator("#action-bar button[data-act=play]").click()
    page.wait_for_selector(".dialog .wish-dialog")
    labels = page.locator(".dialog button[data-choice^=wish-]").all_inner_texts()
    assert labels[:3] == ["2", "3", "4"] and labels[8:12] == ["10", "Bube", "Dame", "König"]
    browser.shot(page, "phone-tichu-wish-ranks")
    seq = state(page)["seq"]
    page.locator(".dialog button[data-choice=wish-Q]").click()
    wait_after(page, seq)
    # The badge over the table names the rank as the dialog did and the prompts do.
    assert page.locator(".centre .badge.wish").inner_text() == "Wunsch: Dame"
    assert no_horizontal_scroll(page)
    browser.shot(page, "phone-tichu-wish-badge")
