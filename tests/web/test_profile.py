"""The profile page in the browser (issue 18): after a list, a player's rating as a number
people read, its history as a chart, and his latest list with a link to its replay."""

import re
from typing import Any

from tests.web.conftest import Browser, LiveServer
from tests.web.skat_ui import PLAY_A_LIST, create_skat_table, open_lobby
from tests.web.test_replay import wait_for_record


def play_a_list(page: Any, live_server: LiveServer) -> str:
    """A Skat list of one deal with two bots of two levels (a level on two seats of one list
    keeps its rating, server/ratings.py: the board shows a rated bot); its table id."""
    create_skat_table(page, deals=1)
    for level in ("random", "greedy"):
        page.select_option("select[name=bot-level]", level)
        page.locator(".wait-seat.free button", has_text="Add bot").first.click()
    page.wait_for_selector(".felt.skat")
    table: str = page.evaluate(PLAY_A_LIST)
    wait_for_record(live_server, table)
    return table


def test_the_profile_shows_rating_chart_and_replays(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    table = play_a_list(page, live_server)
    name = page.evaluate("window.tischrunde.user.name")
    # From the menu to the profile.
    page.locator("#user-button").click()
    page.locator("#my-profile").click()
    page.wait_for_selector(".profile-screen .rating-box")
    assert page.locator(".profile-screen h1").inner_text() == name
    box = page.locator(".rating-box[data-game=skat]")
    rating = int(box.locator(".rating").inner_text())
    assert 1400 < rating < 1700  # the ordinal on the 1500 scale, never the raw ordinal
    assert "after 1 rated list" in box.inner_text()
    assert box.locator("svg.rating-chart circle").count() == 1
    rows = page.locator(".recent-table tbody tr")
    assert rows.count() == 1 and re.search(r"\b[123]\.", rows.first.inner_text())
    # The Skat statistics: one list, its deal, and the player's games in it.
    stats = page.evaluate(
        "window.tischrunde.net.request('profile', { name: window.tischrunde.user.name })"
    )
    panel = page.locator(".skat-stats")
    assert stats["skat"]["lists"] == 1 and "Lists played\t1" in panel.inner_text()
    declared = sum(kind["played"] for kind in stats["skat"]["declared"].values())
    games = panel.locator(".games tbody tr")
    assert games.count() == 4 + (stats["skat"]["ramsch"]["played"] > 0)
    assert declared + stats["skat"]["defence"]["played"] <= 1  # one deal
    browser.shot(page, "profile")
    # Its replay link opens the deal's replay.
    rows.first.locator("a.replay-link").first.click()
    page.wait_for_selector(".replay-controls")
    assert table in page.url and page.locator(".replay-step").inner_text().startswith("Move 0 of")


def test_the_leaderboard_shows_people_names_its_scale_and_links_to_profiles_in_german(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(locale="de-DE")
    open_lobby(page, live_server.url)
    # The list of the test above was rated: a guest's and two bots', so the board of people
    # is empty until bots and guests are asked for.
    page.wait_for_selector(".board .empty")
    assert "Noch hat kein Spieler mit Konto" in page.locator(".board .empty").inner_text()
    assert "Wertungsskala: 1500 + 24 × (μ − 3σ)" in page.locator(".board-scale").inner_text()
    page.locator("input[name=board-everyone]").check()
    page.wait_for_selector(".board-table a.player-link")
    assert page.locator(".board-table tr.bot").count() >= 1
    assert page.locator(".board-table tr.guest .badge").first.inner_text() == "Gast"
    page.locator(".board-table a.player-link").first.click()
    page.wait_for_selector(".profile-screen .rating-box")
    assert "gewerteten Liste" in page.locator(".rating-box").first.inner_text()
    assert page.locator(".recent-table th").first.inner_text() == "Beendet"


def test_the_chart_draws_higher_ratings_higher(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    points = page.evaluate(
        """async () => {
          const { ratingChart } = await import('/js/profile.js');
          const chart = ratingChart([{ ordinal: 0 }, { ordinal: 2 }, { ordinal: 1 }], 'x',
            'profile.point');
          const ticks = [...chart.querySelectorAll('text.tick')].map((el) => el.textContent);
          return { line: chart.querySelector('polyline').getAttribute('points'), ticks };
        }"""
    )
    xs, ys = zip(*(map(float, p.split(",")) for p in points["line"].split()), strict=True)
    assert xs[0] < xs[1] < xs[2]  # lists in order, left to right
    assert ys[1] < ys[2] < ys[0]  # SVG's y grows downwards: the best rating is the highest
    assert points["ticks"] == ["1548", "1500"]  # 1500 + 24 * ordinal, as the leaderboard shows


def test_the_skat_statistics_read_as_shares_in_german(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(locale="de-DE")
    open_lobby(page, live_server.url)
    rows = page.evaluate(
        """async () => {
          const { skatStatistics } = await import('/js/profile.js');
          const played = (p, w) => ({ played: p, won: w });
          const declared = { suit: played(20, 15), grand: played(8, 7), null: played(0, 0) };
          const panel = skatStatistics({ lists: 3, deals: 108, points: 2436, per_list: 812,
            per_36: 812, declared, defence: played(62, 40), ramsch: { played: 5, lost: 2 } });
          const text = (tr) => [...tr.cells].map((cell) => cell.textContent).join(' ');
          return [...panel.querySelectorAll('tr')].map(text);
        }"""
    )
    assert rows == [
        "Gespielte Listen 3",
        "Spiele darin 108",
        "Listenpunkte je Liste (Seeger-Fabian) 812,0",
        "Listenpunkte je 36 Spiele 812,0",
        "Spiele gewonnen",
        "Farbspiele als Alleinspieler 15 von 20 (75 %)",
        "Grand als Alleinspieler 7 von 8 (88 %)",
        "Null als Alleinspieler –",
        "Spiele im Gegenspiel 40 von 62 (65 %)",
        "Ramsch 5 gespielt, 2 verloren",
    ]


# Per statistic cell: on how many lines its text lies.
LINES_JS = """() => [...document.querySelectorAll('.skat-stats td')].map((td) => {
  const range = document.createRange();
  range.selectNodeContents(td);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
})"""


def test_the_profile_fits_a_phone_in_german(live_server: LiveServer, browser: Browser) -> None:
    page = browser.page({"width": 390, "height": 844})
    open_lobby(page, live_server.url)
    play_a_list(page, live_server)
    page.locator("#user-button").click()
    page.locator(".dialog input[name=language][value=de]").click()
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.keyboard.press("Escape")
    page.locator("#user-button").click()
    page.locator("#my-profile").click()
    page.wait_for_selector(".profile-screen .recent-table tbody tr")
    browser.shot(page, "phone-profile-de")
    width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    assert set(page.evaluate(LINES_JS)) == {1}  # "1 von 1 (100 %)" stays on one line
