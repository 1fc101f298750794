"""The bot level menus name each Skat level with a line on what it is like (issue 25), in
English and German, strongest first with `expert` chosen, and fit on a phone; Tichu's levels
have their lines too, and its round limit counts one round in the singular."""

from typing import Any

from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.skat_ui import create_skat_table, open_lobby


def options(page: Any, select: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = page.eval_on_selector_all(
        f"select[name={select}] option", "(os) => os.map((o) => [o.value, o.textContent])"
    )
    return found


def test_the_lobby_says_what_each_level_is_like(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    shown = dict(options(page, "bot"))
    assert list(shown)[:4] == ["expert", "strong", "club", "beginner"]
    assert page.eval_on_selector("select[name=bot]", "(s) => s.value") == "expert"
    assert shown["beginner"] == "Beginner – learning the game: counts jacks, makes mistakes"
    assert shown["expert"].startswith("Expert – the strongest")
    assert all(" – " in text for text in shown.values())


def test_the_level_lines_are_german_for_a_german_browser(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(locale="de-DE")
    open_lobby(page, live_server.url)
    shown = dict(options(page, "bot"))
    assert shown["beginner"] == "Anfänger – lernt das Spiel: zählt Buben, macht Fehler"
    assert shown["club"] == "Vereinsspieler – reizt nach Faustregel, spielt die Karten gut"


def test_the_waiting_room_menu_has_the_lines_and_fits_a_phone(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(viewport=PHONE)
    open_lobby(page, live_server.url)
    box = page.locator("select[name=bot]").bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    create_skat_table(page)
    page.wait_for_selector("select[name=bot-level]")
    shown = dict(options(page, "bot-level"))
    assert shown["strong"] == "Strong – bids with care, plays its cards well"
    box = page.locator("select[name=bot-level]").bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]


def test_the_tichu_form_has_level_lines_and_one_round_in_the_singular(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page({"width": 390, "height": 844}, locale="de-DE")
    open_lobby(page, live_server.url)
    page.check("input[name=game][value=tichu]")
    rounds = dict(options(page, "max_rounds"))
    assert rounds["1"] == "1 Runde" and rounds["4"] == "4 Runden"
    shown = dict(options(page, "bot"))
    assert list(shown) == ["strong", "classic", "greedy", "random"]
    assert shown["greedy"] == "Faustregel – legt das Niedrigste, das sticht; sagt nie Tichu"
    assert all(" – " in text for text in shown.values()), shown
    page.locator("#user-button").click()
    page.locator(".dialog input[name=language][value=en]").click()
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.keyboard.press("Escape")
    assert dict(options(page, "max_rounds"))["1"] == "1 round"
    assert dict(options(page, "bot"))["random"].startswith("Random – any legal move, at random")
