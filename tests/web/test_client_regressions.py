"""Client-side bugs, one browser test each (each failed on the client before
its fix). Bugs 3, 4 (the name itself), 6 (the seat after a leave) and 7 need the server."""

from typing import Any

from tests.web.conftest import DESKTOP, Browser, LiveServer
from tests.web.skat_ui import create_skat_table, open_lobby
from tests.web.tichu_ui import (
    open_fake_table,
    play_selection,
    press,
    select,
    state,
    tap,
    wait_until,
)


def test_bug1_bots_at_once_leave_the_creator_his_seat(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    page.select_option("select[name=fill]", "0")
    page.select_option("select[name=bot]", "greedy")
    page.select_option("select[name=series]", "1")
    page.locator("button", has_text="Create Skat table").click()
    page.wait_for_selector(".felt.skat .hand .card:not(.back)")
    assert page.evaluate("window.tischrunde.screen.model.seat") == 0
    assert page.locator(".table-top .badge", has_text="watching").count() == 0
    bots = page.evaluate("window.tischrunde.screen.model.seats.map((s) => s.bot)")
    assert bots == [None, "greedy", "greedy"]


def to_our_first_lead(page: Any, url: str) -> None:
    """A Tichu table of the stand-in server, through Grand Tichu and the exchange."""
    open_fake_table(page, url)
    press(page, "No, deal my six cards")
    wait_until(page, "s.phase === 'exchange'")
    for card in ("Kj", "Qs", "Jp"):  # keep the Mah Jong: we lead
        tap(page, card)
    press(page, "Pass these cards")
    wait_until(page, "s.phase === 'play' && s.to_move === 0")


def test_bug2_a_trick_taken_gives_the_lead_and_leaves_the_felt(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    to_our_first_lead(page, live_server.url)
    select(page, "MahJong")
    play_selection(page, wish="none")
    # The bots pass: the trick is ours, and so is the lead.
    now = wait_until(page, "s.to_move === 0 && s.table.length === 1 && s.hand.length === 13")
    assert page.evaluate("window.tischrunde.screen.model.view.trick_closed")
    prompt = page.locator("#action-bar .prompt").first.inner_text()
    assert "Your lead" in prompt and "beat the table" not in prompt
    assert page.locator(".tichu-trick .combo.taken").count() == 1
    assert page.locator(".tichu-trick .combo:not(.taken)").count() == 0
    hint = select(page, now["hand"][0])
    assert "playable" in hint and "beats the table" not in hint


def test_bug4_a_failed_registration_keeps_the_dialog_and_the_password(
    live_server: LiveServer, browser: Browser
) -> None:
    first = browser.page()
    open_lobby(first, live_server.url)
    first.locator("#user-button").click()
    first.locator(".dialog button", has_text="Change name").click()
    first.fill(".dialog input[name=name]", "juergen")
    first.locator(".dialog button", has_text="Save").click()
    first.wait_for_function("document.querySelector('#user-name').textContent === 'juergen'")
    page = browser.page()  # another guest tries to register juergen's name
    open_lobby(page, live_server.url)
    page.locator("#user-button").click()
    page.locator(".dialog button", has_text="Register").click()
    page.fill(".dialog input[name=name]", "juergen")
    page.fill(".dialog input[name=password]", "correct horse")
    page.locator(".dialog button[type=submit]").click()
    page.wait_for_selector(".dialog .dialog-error:not([hidden])")
    assert page.locator(".dialog input[name=password]").input_value() == "correct horse"
    error = page.locator(".dialog .dialog-error").inner_text()
    assert error == "That name is taken. Choose another one."


def test_bug5_the_lobby_does_not_count_a_tichu_match_as_deal_1_of_1(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    page.check("input[name=game][value=tichu]")
    page.select_option("select[name=bot]", "random")
    page.locator("button", has_text="Create Tichu table").click()
    page.wait_for_selector(".waiting-room")
    table = page.evaluate("window.tischrunde.screen.model.id")
    page.locator("button", has_text="Fill free seats with bots").click()
    page.wait_for_selector(".felt.tichu")
    assert "deal" not in page.locator(".table-top .title").inner_text()
    lobby = browser.page()
    lobby.goto(live_server.url)
    row = lobby.locator(f".table-row[data-table='{table}'] .status")
    row.wait_for()
    assert row.inner_text() == "match running"


def test_bug6_the_bot_level_chosen_at_creation_is_the_tables(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    page.select_option("select[name=bot]", "greedy")
    create_skat_table(page, deals=1)
    assert page.locator("select[name=bot-level]").input_value() == "greedy"
    page.reload()
    page.wait_for_selector(".waiting-room")
    assert page.locator("select[name=bot-level]").input_value() == "greedy"


WORDS_JS = """(root) => {
  // Every word of every text in `root`: the number of line boxes it occupies (a word broken
  // over two lines, "Alleinspiel/er", occupies two).
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      out.push([match[0], lines.size]);
    }
  }
  return out;
}"""


def test_bug8_the_tichu_score_sidebar_neither_cuts_nor_breaks_team_names(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(DESKTOP)
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    page.check("input[name=game][value=tichu]")
    page.select_option("select[name=bot]", "random")
    page.locator("button", has_text="Create Tichu table").click()
    page.wait_for_selector(".waiting-room")
    page.locator("button", has_text="Fill free seats with bots").click()
    page.wait_for_selector(".side .list-table")
    heads = page.locator(".side .list-table thead th")
    assert heads.count() == 3
    for i in (1, 2):
        cut = heads.nth(i).evaluate("(th) => th.scrollWidth > th.clientWidth")
        assert not cut, heads.nth(i).inner_text()
    me = page.locator("#user-name").inner_text()
    assert me.startswith("guest-")  # a long name with a hyphen, where lines may break
    assert f"{me} & Bot 3" in page.locator(".side .list-table thead").inner_text().replace(
        "\n", " "
    )
    broken = [w for w, lines in page.locator(".side").evaluate(WORDS_JS) if lines > 1]
    assert broken == []


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_bug9_a_hovered_exchange_slot_stays_readable(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_fake_table(page, live_server.url)
    press(page, "No, deal my six cards")
    wait_until(page, "s.phase === 'exchange'")
    slot = page.locator(".exchange .slot[data-slot=partner]")
    slot.hover()
    colours = slot.evaluate(
        """(el) => {
          // The slot's background over the layers under it, down to the felt's green.
          const rgba = (text) => text.match(/[\\d.]+/g).map(Number);
          const layers = [];
          for (let node = el; node && !node.classList.contains('felt'); node = node.parentElement) {
            layers.unshift(rgba(getComputedStyle(node).backgroundColor));
          }
          let ground = [31, 107, 76];  // --felt
          for (const [r, g, b, a = 1] of layers) {
            ground = [r, g, b].map((c, i) => c * a + ground[i] * (1 - a));
          }
          return {text: rgba(getComputedStyle(el).color).slice(0, 3), ground};
        }"""
    )
    assert contrast(tuple(colours["text"]), tuple(colours["ground"])) >= 4.5, colours
    assert state(page)["phase"] == "exchange"
