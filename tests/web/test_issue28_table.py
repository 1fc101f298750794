"""Issue 28's bugs of the table, one browser test each (each failed before its fix): the
Tichu trick taken and the lead note apart (bug 6), no sideways scrolling on a phone (bug 7),
the own hand in view at 1280x800 (bug 8), a refused claim said at the table (bug 11)."""

from typing import Any

from tests.web.conftest import Browser, LiveServer
from tests.web.test_issue18_bugs import to_our_first_lead
from tests.web.tichu_ui import play_selection, select, wait_until

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
        assert not overlap(box(page, ".tichu-trick .combo.taken"), box(page, ".tichu-trick .lead-note"))
