"""Players find each other in the browser (issue 29), in German: two people in two browsers
register, see each other online in the lobby's side panel, become friends, talk in the lobby
chat, and one invites the other to his private table, who accepts the prompt into a seat.
One of them plays on a phone (360x740)."""

import json
from pathlib import Path
from typing import Any

from tests.web.conftest import PHONE, Browser, LiveServer

DE = json.loads(
    (Path(__file__).resolve().parents[2] / "server" / "web" / "i18n" / "de.json").read_text()
)


def register(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_selector("#status.online")
    page.wait_for_selector("#people")
    page.locator("#user-button").click()
    page.locator(".dialog button", has_text=DE["menu.register"]).click()
    page.fill(".dialog input[name=name]", name)
    page.fill(".dialog input[name=password]", "correct horse")
    page.locator(".dialog button[type=submit]").click()
    page.wait_for_function("window.tischrunde.user && !window.tischrunde.user.guest")


def test_two_people_meet_become_friends_and_one_invites_the_other_to_his_private_table(
    live_server: LiveServer, browser: Browser
) -> None:
    anna = browser.page(locale="de-DE")
    bert = browser.page(viewport=PHONE, locale="de-DE")
    register(anna, live_server.url, "Anna")
    register(bert, live_server.url, "Bert")

    # They see each other online, in the lobby.
    anna.wait_for_selector("#people [data-person=Bert]")
    row = bert.locator("#people [data-person=Anna]")
    row.wait_for()
    assert DE["place.lobby"] in row.inner_text()

    # Anna asks, Bert accepts.
    anna.locator("#people [data-person=Bert] [data-social=befriend]").click()
    bert.locator("#people [data-friend=Anna][data-status=asking] [data-social=accept]").click()
    anna.wait_for_selector("#people [data-friend=Bert][data-status=friend]")
    bert.wait_for_selector("#people [data-friend=Anna][data-status=friend]")

    # The lobby chat.
    anna.fill("input[name=lobby-chat]", "Lust auf eine Runde Skat?")
    anna.locator(".lobby-chat button[type=submit]").click()
    bert.wait_for_selector(".lobby-chat li:has-text('Lust auf eine Runde Skat?')")
    # The side panel fits the phone: nothing to scroll sideways.
    assert bert.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Anna opens a private table, sits down, goes back to the lobby and invites Bert.
    anna.check("input[name=private]")
    anna.locator("button", has_text=DE["lobby.create"].format(game="Skat")).click()
    anna.wait_for_selector(".waiting-room")
    table = anna.evaluate("window.tischrunde.screen.model.id")
    bert.wait_for_function(
        "[...document.querySelectorAll('#people [data-friend=Anna]')]"
        f".some((e) => e.textContent.includes({json.dumps(DE['place.private'])}))"
    )
    anna.goto(live_server.url + "#/")
    anna.wait_for_selector("#people [data-friend=Bert] [data-social=invite]").click()

    # Bert is asked, accepts and sits at the table.
    bert.wait_for_selector(f".dialog:has-text({json.dumps(DE['people.invited_title'])})")
    browser.shot(bert, "people-invitation-phone")
    bert.locator(".dialog button", has_text=DE["people.accept"]).click()
    bert.wait_for_selector(".waiting-room")
    assert bert.evaluate("window.tischrunde.screen.model.id") == table
    bert.wait_for_function("window.tischrunde.screen.model.seat === 1")
    anna.goto(live_server.url + "#/")
    friend = anna.locator("#people [data-friend=Bert]")
    friend.wait_for()
    anna.wait_for_function(
        "document.querySelector('#people [data-friend=Bert]').textContent"
        f".includes({json.dumps(DE['place.private'])})"
    )
    assert table not in anna.inner_text("#people")  # a private table is never named
    browser.shot(anna, "people-panel-desktop")
