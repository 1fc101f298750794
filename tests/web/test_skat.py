"""The Skat client in a real browser against a real server (issue 8): one human with bots
plays lists through the page; reloads, dropped connections, phones, invites and chat."""

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from engine.skat.deal import parse_deal
from tests.web.conftest import PHONE, WAIT_MS, Browser, LiveServer
from tests.web.skat_ui import (
    Log,
    Plan,
    create_skat_table,
    fill_with_bots,
    open_lobby,
    play_deals,
    state,
    wait_our_turn,
)


def http_get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url) as response:
        return response.status, response.read().decode()


def rename(page: Any, name: str) -> None:
    page.locator("#user-button").click()
    page.locator(".dialog button", has_text="Change name").click()
    page.fill(".dialog input[name=name]", name)
    page.locator(".dialog button", has_text="Save").click()
    page.wait_for_function(
        "(name) => document.querySelector('#user-name').textContent === name", arg=name
    )


def no_horizontal_scroll(page: Any) -> bool:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width <= page.viewport_size["width"]


def test_a_guest_plays_a_list_with_bots_from_bidding_to_the_standings(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    rename(page, "anna")
    browser.shot(page, "lobby")
    table = create_skat_table(page, deals=2)
    browser.shot(page, "waiting-room")
    fill_with_bots(page, "greedy")
    plans = {
        0: Plan(game="Grand"),  # take the skat, discard, declare
        1: Plan(hand=True, game="Clubs", announce="Schneider", keyboard=True),
    }
    log = play_deals(page, browser, plans, deals=2)
    assert {"bidding", "discard", "declare", "play"} <= set(log.phases)
    assert log.declared[0] == "Play Grand"
    assert log.declared[1] == "Play Clubs Hand Schneider announced"
    page.wait_for_selector(".final")
    browser.shot(page, "final-standings")
    rows = page.locator(".list-table tbody tr")
    assert rows.count() == 2
    standings = page.locator(".final li")
    assert standings.count() == 3
    status, record = http_get(f"{live_server.url}api/records/{table}/0")
    assert status == 200 and record.startswith("(;GM[Skat]") and "anna" in record
    # Each line of the list and each result panel link the deal's replay, which leads back
    # to this table (the record's text file is the result panel's download).
    back = f"from=%23%2Ftable%2F{table}"
    href = page.locator(".list-table a").first.get_attribute("href")
    assert href == f"#/replay/{table}/0?{back}"
    assert log.replays == [f"#/replay/{table}/0?{back}", f"#/replay/{table}/1?{back}"]
    page.locator(".side .tab", has_text="Bot hints").click()
    hints = page.locator(".hint-list li").all_inner_texts()
    assert any(hint.startswith("Bot 2 ") for hint in hints), hints
    page.locator("a", has_text="Back to the lobby").click()
    page.locator("input[name=board-everyone]").check()  # anna is a guest: not a person's board
    page.wait_for_selector(".board-table")
    assert "anna" in page.locator(".board-table").inner_text()
    board = json.loads(http_get(f"{live_server.url}api/leaderboard?game=skat")[1])
    assert any(entry["name"] == "anna" for entry in board["entries"])


def test_a_reload_mid_hand_and_a_dropped_connection_continue_a_deal_at_a_four_table(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    table = create_skat_table(page, deals=1, players=4)
    fill_with_bots(page, "random")
    # A spectator from the lobby sees the table but no hidden card.
    kibitz = browser.page()
    open_lobby(kibitz, live_server.url)
    kibitz.locator(f".table-row[data-table='{table}'] button", has_text="Watch").click()
    kibitz.wait_for_selector(".felt.skat .hand .card.back")
    assert kibitz.locator(".hand .card:not(.back)").count() == 0
    assert kibitz.locator("#action-bar").count() == 0
    browser.close_page(kibitz)

    def mid_hand(now: dict[str, Any]) -> bool:
        return now["phase"] == "play" and now["hand"] is not None and len(now["hand"]) <= 7

    def before_the_end(now: dict[str, Any]) -> bool:
        return now["phase"] == "play" and now["hand"] is not None and len(now["hand"]) <= 4

    log = Log()
    hands = {0: Plan(game="Diamonds")}
    play_deals(page, browser, hands, deals=1, stop=mid_hand, log=log, prefix="reload-")
    before = state(page)
    page.reload()
    page.wait_for_selector(".felt.skat .hand .card")
    after = wait_our_turn(page)
    assert after["seq"] >= before["seq"] and after["hand"] == before["hand"]
    browser.shot(page, "reload-after")
    play_deals(page, browser, hands, deals=1, stop=before_the_end, log=log, prefix="reload-")
    page.evaluate("window.tischrunde.net.ws.close()")
    page.wait_for_selector("#banner", state="visible")
    page.wait_for_selector("#banner", state="hidden")
    play_deals(page, browser, hands, deals=1, log=log, prefix="reload-")
    assert page.locator(".list-table tbody tr").count() == 1


# The phone's deal: we (forehand) declare Hearts; middlehand's jacks and aces take tricks, so
# he leads and we play a card as third to a trick (the picture of a trick in progress). On a
# random deal middlehand might win no trick and that picture never come.
PHONE_HANDS = (
    "TH KH QH 9H 8H 7H KC QC 9C 8C",
    "JC JS JH JD AC AS AH AD TC TS",
    "TD KD QD 9D 8D KS QS 9S 8S 7S",
)
PHONE_DEAL = parse_deal([hand.split() for hand in PHONE_HANDS], ["7C", "7D"])


def test_a_phone_sized_screen_plays_a_deal_without_sideways_scrolling(
    live_server: LiveServer, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("engine.skat.state.deal_from_seed", lambda seed: PHONE_DEAL)
    page = browser.page(PHONE)
    open_lobby(page, live_server.url)
    assert no_horizontal_scroll(page)
    browser.shot(page, "phone-lobby")
    create_skat_table(page, deals=1)
    fill_with_bots(page, "greedy")
    log = Log()

    def check(now: dict[str, Any]) -> bool:
        assert no_horizontal_scroll(page), now["phase"]
        return False

    play_deals(
        page, browser, {0: Plan(game="Hearts")}, deals=1, stop=check, log=log, prefix="phone-"
    )
    assert {"phone-bidding", "phone-play", "phone-result"} <= log.shots, (
        log.phases,
        log.shots,
        log.declared,
    )
    page.wait_for_selector(".final")
    browser.shot(page, "phone-final")


def test_a_friend_follows_the_invite_link_watches_sits_down_and_chats(
    live_server: LiveServer, browser: Browser
) -> None:
    host = browser.page()
    open_lobby(host, live_server.url)
    create_skat_table(host, deals=1, private=True)
    link = host.locator("#invite-link").input_value()
    assert "?invite=" in link
    friend = browser.page()
    friend.goto(link)
    friend.wait_for_selector(".waiting-room")
    assert friend.locator(".table-top .badge", has_text="watching").count() == 1
    friend.locator(".wait-seat.free button", has_text="Sit here").first.click()
    friend.wait_for_selector(".wait-seat .muted", state="attached")
    friend.wait_for_function("window.tischrunde.screen.model.seat !== null")
    host.locator(".wait-seat.free button", has_text="Add bot").first.click()
    for page in (host, friend):
        page.wait_for_selector(".felt.skat")
    host.locator(".side .tab", has_text="Chat").click()
    host.fill("input[name=chat]", "viel Glück!")
    host.locator(".chat-form button").click()
    friend.locator(".side .tab", has_text="Chat").click()
    friend.wait_for_selector(".chat-log li:has-text('viel Glück!')", timeout=WAIT_MS)
    browser.shot(friend, "friend-chat")
    assert friend.locator(".hand .card").count() == 10
    friend.select_option("select[name=deck]", "german")
    friend.wait_for_selector(".hand .card .card-svg.german")
    labels = friend.locator(".hand .card").evaluate_all(
        "(cards) => cards.map((c) => c.getAttribute('aria-label'))"
    )
    assert all(re.search(r" of (acorns|leaves|hearts|bells)$", label) for label in labels)
    browser.shot(friend, "german-deck")


def test_a_bot_covers_an_absent_player_until_he_comes_back(
    browser: Browser, tmp_path: Path
) -> None:
    server = LiveServer(tmp_path / "server", bot_delay_seconds=0.0, grace_seconds=0.2).start()
    try:
        host = browser.page()
        open_lobby(host, server.url)
        create_skat_table(host, deals=1, private=True)
        link = host.locator("#invite-link").input_value()
        friend = browser.page()
        friend.goto(link)
        friend.locator(".wait-seat.free button", has_text="Sit here").first.click()
        friend.wait_for_function("window.tischrunde.screen.model.seat !== null")
        host.locator(".wait-seat.free button", has_text="Add bot").first.click()
        friend.wait_for_selector(".felt.skat .hand .card")
        session = friend.evaluate(
            "({token: localStorage.getItem('tischrunde.token'),"
            " tables: localStorage.getItem('tischrunde.tables')})"
        )
        browser.close_page(friend)
        host.wait_for_selector(".seat-box .away")
        assert "away" in host.locator(".seat-box .away").first.inner_text()
        browser.shot(host, "bot-covers-absent-player")
        back = browser.page()
        back.context.add_init_script(
            f"localStorage.setItem('tischrunde.token', {json.dumps(session['token'])});"
            f"localStorage.setItem('tischrunde.tables', {json.dumps(session['tables'])});"
        )
        back.goto(link)
        back.wait_for_selector(".felt.skat .hand .card")
        assert back.evaluate("window.tischrunde.screen.model.seat") is not None
        host.wait_for_selector(".seat-box .away", state="detached")
    finally:
        browser.close()
        server.stop()


def test_a_player_back_after_his_list_ended_is_told_a_bot_played_it_for_him(
    browser: Browser, tmp_path: Path
) -> None:
    """He left the table (the page closed) and the bots played on; when he comes back the
    list is over, and the table says who played his seat to the end."""
    server = LiveServer(tmp_path / "server", bot_delay_seconds=0.0, grace_seconds=0.2).start()
    try:
        page = browser.page()
        open_lobby(page, server.url)
        table = create_skat_table(page, deals=1)
        link = page.url
        fill_with_bots(page, "random")
        page.wait_for_selector(".felt.skat .hand .card")
        session = page.evaluate(
            "({token: localStorage.getItem('tischrunde.token'),"
            " tables: localStorage.getItem('tischrunde.tables')})"
        )
        browser.close_page(page)
        for _ in range(600):  # the bots finish the deal once the grace is over
            try:
                if http_get(f"{server.url}api/records/{table}/0")[0] == 200:
                    break
            except urllib.error.HTTPError:
                pass
            time.sleep(0.05)
        back = browser.page()
        back.context.add_init_script(
            f"localStorage.setItem('tischrunde.token', {json.dumps(session['token'])});"
            f"localStorage.setItem('tischrunde.tables', {json.dumps(session['tables'])});"
        )
        back.goto(link)
        notice = back.locator(".take-back")
        notice.wait_for(state="visible", timeout=WAIT_MS)
        assert notice.inner_text() == "You were away: a bot played to the end for you."
        assert back.locator("#take-back").count() == 0  # nothing to take back any more
        browser.shot(back, "bot-finished-for-absent-player")
    finally:
        browser.close()
        server.stop()


def test_a_link_opened_on_another_server_process_follows_the_table_there(
    browser: Browser, tmp_path: Path
) -> None:
    # Two server processes on one database: the table lives on the first; the friend's page
    # comes from the second, which answers `moved`, and the client reconnects to the first.
    first = LiveServer(tmp_path / "cluster", bot_delay_seconds=0.0).start()
    second = LiveServer(tmp_path / "cluster", bot_delay_seconds=0.0).start()
    try:
        assert first.app is not None and second.app is not None
        host = browser.page()
        open_lobby(host, first.url)
        table = create_skat_table(host, deals=1, private=True)
        link = host.locator("#invite-link").input_value()
        friend = browser.page()
        friend.goto(link.replace(first.url, second.url))
        friend.wait_for_selector(".waiting-room")
        friend.locator(".wait-seat.free button", has_text="Sit here").first.click()
        friend.wait_for_function("window.tischrunde.screen.model.seat !== null")
        assert friend.evaluate("window.tischrunde.net.url") == first.app.url
        host.locator(".wait-seat.free button", has_text="Add bot").first.click()
        friend.wait_for_selector(".felt.skat .hand .card")
        assert table in first.app.lobby.tables and table not in second.app.lobby.tables
    finally:
        browser.close()
        second.stop()
        first.stop()
