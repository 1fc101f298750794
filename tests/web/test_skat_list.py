"""The score boxes fit their panel (bug 1), and the Skat list as German players keep
it: one line per deal with running totals, the Seeger-Fabian totals, CSV and print.

The lists here are fed results the engine settled (`Result` rows as the server stores them),
so the layout is measured on the widest lines a list really holds: four-digit totals, a lost
grand with Kontra and Re, a Ramsch and a passed-in deal.
"""

from typing import Any

import msgspec
import pytest

from engine.skat.deal import parse_deal
from engine.skat.scoring import Result, seeger_fabian, standings
from engine.skat.state import new_game
from server.games import skat as skat_adapter
from tests.web.conftest import Browser, LiveServer
from tests.web.skat_ui import create_skat_table, fill_with_bots, open_lobby
from tests.web.tichu_ui import open_fake_table

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}

# Whatever sits in the side panel must end inside it: no box wider than its parent's content,
# nothing scrolled or cut sideways (an ellipsis counts as cut, except on a player's name).
OVERFLOW_JS = """() => {
  const side = document.querySelector('.side');
  const panel = side.querySelector('.tab-panel');
  const right = panel.getBoundingClientRect().right + 0.5;
  const wide = [];
  for (const el of panel.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > right) wide.push(`${el.tagName}.${el.className} ends right`);
    if (el.scrollWidth > el.clientWidth + 1 && !el.classList.contains('name'))
      wide.push(`${el.tagName}.${el.className} cut: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  for (const cell of panel.querySelectorAll('th, td')) {
    if (cell.querySelector('.name')) continue;
    const text = document.createRange();
    text.selectNodeContents(cell);
    const pad = parseFloat(getComputedStyle(cell).paddingRight);
    const inner = cell.getBoundingClientRect().right - pad + 0.5;
    if (text.getBoundingClientRect().right > inner) wide.push(`"${cell.textContent}" cut`);
  }
  if (panel.scrollWidth > panel.clientWidth) wide.push(`panel ${panel.scrollWidth}`);
  return wide;
}"""


def declared(
    declarer: int,
    game: str,
    value: int,
    won: bool,
    *,
    hand: bool = False,
    kontra: int = 0,
    bock: bool = False,
) -> dict[str, Any]:
    """A settled declared game as the server stores it (list value with the loss doubled)."""
    factor = 2**kontra * (2 if bock else 1)
    list_value = (value if won else -2 * value) * factor
    result = Result(
        declarer=declarer,
        game=game,  # type: ignore[arg-type]
        hand=hand,
        schneider_announced=False,
        schwarz_announced=False,
        ouvert=False,
        bid=18,
        won=won,
        game_value=value,
        list_value=list_value,
        matadors=2,
        overbid=False,
        declarer_points=75 if won else 40,
        declarer_tricks=6 if won else 3,
        schneider=False,
        schwarz=False,
        seeger_fabian=seeger_fabian(3, declarer, won, list_value),
        kontra=kontra,
        bock=bock,
    )
    row: dict[str, Any] = msgspec.to_builtins(result)
    return row


def passed_in() -> dict[str, Any]:
    row = declared(0, "clubs", 0, True)
    row.update(declarer=None, game=None, won=None, game_value=0, list_value=0, matadors=0)
    row.update(seeger_fabian=[0, 0, 0], passed_in=True)
    return row


def ramsch() -> dict[str, Any]:
    row = passed_in()
    row.update(passed_in=False, ramsch=True, seeger_fabian=[0, -124, 0])
    return row


LIST = [
    declared(0, "grand", 192, True, hand=True),
    declared(1, "grand", 240, False, kontra=2),
    passed_in(),
    declared(2, "clubs", 108, True),
    ramsch(),
    declared(0, "null", 59, False),
    declared(1, "grand", 264, True),
    declared(2, "spades", 77, False, kontra=1),
    declared(0, "hearts", 50, True, hand=True),
    declared(1, "diamonds", 27, False, bock=True),
]


def show_list(page: Any, results: list[dict[str, Any]]) -> None:
    """Give the open table these results and draw its side panel again."""
    page.evaluate(
        """(results) => {
          const screen = window.tischrunde.screen;
          screen.model.results = results.map((result, number) => ({ number, result }));
          screen.tab = 'list';
          screen.renderSide();
        }""",
        results,
    )


@pytest.mark.parametrize("size", sorted(SIZES))
def test_bug1_the_skat_list_fits_its_box(
    live_server: LiveServer, browser: Browser, size: str
) -> None:
    page = browser.page(SIZES[size])
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=36)
    fill_with_bots(page)
    show_list(page, LIST)
    page.wait_for_selector(".side .list-table tbody tr:nth-child(9)")
    browser.shot(page, f"issue28-list-{size}")
    assert page.evaluate(OVERFLOW_JS) == []
    assert page.locator(".side .list-table tfoot").is_visible()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_bug1_the_tichu_score_table_fits_its_box(
    live_server: LiveServer, browser: Browser, size: str
) -> None:
    page = browser.page(SIZES[size])
    open_fake_table(page, live_server.url)
    rounds = [
        {"points": [-100, 300], "call_points": [0, -200], "double_victory": False},
        {"points": [400, -200], "call_points": [200, -200], "double_victory": True},
        {"points": [-135, 35], "call_points": [-200, 0], "double_victory": False},
    ]
    page.evaluate(
        """(rounds) => {
          const screen = window.tischrunde.screen;
          screen.model.view.rounds = rounds;
          screen.model.view.totals = [165, 135];
          screen.model.info.seats[0].name = 'guest-3f9a1c0b';  // the server's guest names
          screen.tab = 'list';
          screen.renderSide();
        }""",
        rounds,
    )
    page.wait_for_selector(".side .score-table tbody tr:nth-child(3)")
    browser.shot(page, f"issue28-tichu-scores-{size}")
    assert page.evaluate(OVERFLOW_JS) == []


def footer(page: Any) -> dict[str, list[str]]:
    rows = page.locator(".side .skat-list tfoot tr")
    table = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("th, td").all_inner_texts()
        table[cells[0].replace("\n", " ")] = cells[1:]
    return table


def test_the_list_has_running_totals_and_the_engines_seeger_fabian_totals(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(SIZES["desktop"])
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=36)
    fill_with_bots(page)
    show_list(page, LIST)
    lines = page.locator(".side .skat-list tbody tr")
    assert lines.count() == len(LIST)
    # Line 2: Bot 2's grand lost with Kontra and Re, -1920, his running total -1920.
    second = lines.nth(1).locator("td").all_inner_texts()
    assert second[2:] == ["-1920", "192", "-1920", "0"]
    assert "Re" in second[1]
    assert "Kontra & Re" in lines.nth(1).locator(".list-game").get_attribute("title")
    assert "lost" in lines.nth(1).locator(".list-game").get_attribute("title")
    assert lines.nth(2).inner_text().split()[1:3] == ["passed", "in"]
    # The totals below are the engine's (SkWO 6.3.1), not the client's own arithmetic.
    results = [msgspec.convert(row, Result) for row in LIST]
    by_seat = {s.seat: s for s in standings(3, results)}
    totals = footer(page)
    assert totals["Game points"] == [str(by_seat[s].game_points) for s in range(3)]
    assert totals["Won/lost"] == [f"{by_seat[s].won}/{by_seat[s].lost}" for s in range(3)]
    assert totals["Opponents' losses"] == [f"+{by_seat[s].fabian}" for s in range(3)]
    assert totals["Standings"] == [str(by_seat[s].performance) for s in range(3)]
    lead = page.locator(".side .skat-list tfoot td.lead")
    assert lead.count() == 1 and lead.inner_text() == str(
        max(b.performance for b in by_seat.values())
    )


def test_the_list_downloads_as_csv_and_prints_alone(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(SIZES["desktop"])
    open_lobby(page, live_server.url)
    create_skat_table(page, deals=36)
    fill_with_bots(page)
    page.evaluate(
        "async () => { const i18n = await import('/js/i18n.js'); await i18n.setLanguage('de'); }"
    )
    show_list(page, LIST)
    assert page.locator(".side .skat-list thead").inner_text().split()[:3] == ["#", "Spiel", "Wert"]
    with page.expect_download() as download:
        page.locator("#list-csv").click()
    assert download.value.suggested_filename.endswith("-liste.csv")
    text = download.value.path().read_text(encoding="utf-8-sig")
    rows = [line.split(";") for line in text.strip().splitlines()]
    assert rows[0][:3] == ["Spiel-Nr.", "Alleinspieler", "Spiel"]
    assert len(rows) == 1 + len(LIST) + 5
    assert rows[2][:3] == ["2", "Bot 2", "Grand"] and rows[2][8:10] == ["-1920", "Kontra & Re"]
    assert rows[3][2] == "eingepasst"
    results = [msgspec.convert(row, Result) for row in LIST]
    final = {s.seat: s.performance for s in standings(3, results)}
    assert rows[-1][0] == "Stand" and rows[-1][-3:] == [str(final[s]) for s in range(3)]
    page.emulate_media(media="print")
    assert page.locator(".side .skat-list").is_visible()
    assert page.locator(".list-heading").is_visible()
    assert not page.locator(".felt .hand").is_visible()
    assert not page.locator("#list-print").is_visible()
    browser.shot(page, "issue28-list-print")


def test_bock_rounds_are_a_switch_of_the_create_form_and_marked_in_the_list(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(SIZES["phone"])
    open_lobby(page, live_server.url)
    page.check("input[name=bock]")
    create_skat_table(page, deals=36)
    assert page.evaluate("window.tischrunde.screen.model.info.rules.bock") is True
    assert "Bock rounds" in page.locator(".table-top .title").inner_text()
    fill_with_bots(page)
    show_list(page, LIST)
    bock = page.locator(".side .skat-list tbody tr.bock")
    assert bock.count() == 1
    assert bock.locator(".mark-bock").inner_text() == "B"
    assert bock.locator("td").all_inner_texts()[2] == "-108"
    assert "Bock" in bock.locator(".list-game").get_attribute("title")


# Neither bot holds a game worth a bid, so all pass and the skat is pushed: a Schieberamsch.
WEAK_DEAL = parse_deal(
    [
        ["JC", "JS", "AC", "TC", "KC", "AS", "TS", "AH", "TH", "7D"],
        ["7C", "8C", "9C", "7S", "8S", "9S", "7H", "8H", "9H", "8D"],
        ["QC", "QS", "QH", "KS", "KH", "9D", "TD", "AD", "KD", "QD"],
    ],
    ["JH", "JD"],
)


def test_a_schieberamsch_is_pushed_through_the_page(
    live_server: LiveServer, browser: Browser
) -> None:
    assert live_server.app is not None
    game: Any = live_server.app.lobby.games["skat"]
    game.deal = lambda rules, seed, number, results=(): game._dealt(
        new_game(rules, deal=WEAK_DEAL, dealer=(rules.players - 1 + number) % rules.players)
    )
    try:
        page = browser.page(SIZES["phone"])
        open_lobby(page, live_server.url)
        page.check("input[name=all_pass][value=schieberamsch]")
        create_skat_table(page, deals=2)
        assert "Schieberamsch" in page.locator(".table-top .title").inner_text()
        fill_with_bots(page, "greedy")
        page.locator("#action-bar button", has_text="Pass").first.click()
        page.locator("#action-bar button", has_text="Pick up the skat").click()
        page.wait_for_function("window.tischrunde.screen.model.view.hand.length === 12")
        assert page.locator("#action-bar button", has_text="Push these two").is_disabled()
        for card in ("AC", "TC"):
            page.locator(f".hand .card[data-card={card}]").click(position={"x": 6, "y": 14})
        browser.shot(page, "issue28-schieberamsch-push")
        page.locator("#action-bar button", has_text="Push these two").click()
        # Middlehand (no points) passes the skat on unseen; rearhand (45 card points) picks
        # it up and pushes as well (the greedy rule): two pushes, x4. We lead the Ramsch.
        page.wait_for_function("window.tischrunde.screen.model.view.phase === 'play'")
        assert "pushed 2 times: ×4" in page.locator(".contract-line").inner_text()
        assert page.locator(".hand .card.playable").count() >= 1
        assert page.evaluate("window.tischrunde.screen.model.view.hand.length") == 10
    finally:
        del game.deal


def test_the_list_shows_the_bock_deals_still_owed(
    live_server: LiveServer, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every deal is the weak one, so all pass and the first deal, passed in, earns a round
    of Bock deals; the server counts them (its own Bock rule untouched) and the list says so."""
    dealt = skat_adapter.new_game
    monkeypatch.setattr(
        skat_adapter,
        "new_game",
        lambda rules, *, seed, **options: dealt(rules, deal=WEAK_DEAL, **options),
    )
    page = browser.page(SIZES["desktop"])
    open_lobby(page, live_server.url)
    page.check("input[name=bock]")
    create_skat_table(page, deals=6)
    fill_with_bots(page, "greedy")
    assert page.locator("#bock-due").count() == 0  # nothing owed yet
    page.locator("#action-bar button", has_text="Pass").first.click()
    page.wait_for_function("window.tischrunde.screen.model.results.length === 1")
    assert page.evaluate("window.tischrunde.screen.model.results[0].result.bock_due") == 3
    page.locator(".tab[data-tab=list]").click()
    owed = page.locator(".side #bock-due")
    assert owed.inner_text() == "Bock: 3 more deals count double"
