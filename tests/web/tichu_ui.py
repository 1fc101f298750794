"""Driving the Tichu table through the page: taps, drags and the action bar's buttons."""

from typing import Any

from tests.web.conftest import WAIT_MS
from tests.web.fake_tichu import FakeTichuServer

STATE_JS = """() => {
  const screen = window.tischrunde.screen;
  const model = screen && screen.model;
  if (!model || !model.view) return null;
  const v = model.view;
  return {seq: model.seq, phase: v.phase, to_move: v.to_move, hand: v.hand, table: v.table,
          wish: v.wish, hand_sizes: v.hand_sizes, calls: v.calls, finish: v.finish,
          rounds: v.rounds.length, totals: v.totals, busy: screen.busy,
          legal: model.legal.map((a) => a.type)};
}"""


def state(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(STATE_JS)
    return found


def open_fake_table(page: Any, url: str) -> FakeTichuServer:
    """A Tichu table of the stand-in server (its WebSocket routed to a `FakeTichuServer`),
    created from the lobby and filled with its bots, at our Grand Tichu decision."""
    fake = FakeTichuServer()
    fake.attach(page)
    create_table(page, url)
    page.locator(".waiting-room button.primary").click()  # fill the free seats with bots
    wait_until(page, "s.phase === 'grand_tichu' && s.legal.includes('decline_grand_tichu')")
    return fake


def create_table(page: Any, url: str, *, bot: str | None = None, rounds: int | None = None) -> None:
    """From the lobby at `url`: create a Tichu table (with the form's `bot` level and most
    `rounds` if given), at its waiting room."""
    page.goto(url)
    page.wait_for_selector(".create-form")
    page.check("input[name=game][value=tichu]")
    if bot is not None:
        page.select_option("select[name=bot]", bot)
    if rounds is not None:
        page.select_option("select[name=max_rounds]", str(rounds))
    page.locator(".create-form button[type=submit]").click()
    page.wait_for_selector(".waiting-room")


def exchange_after_declining(page: Any, *codes: str) -> None:
    """Decline Grand Tichu, then pass `codes` (left, partner, right in the order tapped)."""
    wait_until(page, "s.phase === 'grand_tichu' && s.legal.includes('decline_grand_tichu')")
    press_act(page, "decline_grand_tichu")
    wait_until(page, "s.phase === 'exchange'")
    for code in codes:
        tap(page, code)
    press_act(page, "exchange")


def wait_until(page: Any, predicate_js: str) -> dict[str, Any]:
    """Wait for a JS predicate over the state (`s`), then return the state."""
    page.wait_for_function(
        f"() => {{ const s = ({STATE_JS})(); return !!s && !s.busy && ({predicate_js}); }}",
        timeout=WAIT_MS,
    )
    return state(page)


def wait_after(page: Any, seq: int) -> None:
    page.wait_for_function(
        "(seq) => window.tischrunde.screen.model.seq > seq", arg=seq, timeout=WAIT_MS
    )


def button(page: Any, text: str) -> Any:
    return page.locator("#action-bar button", has_text=text).first


def press(page: Any, text: str) -> None:
    """Press an action bar button and wait until the table has moved on."""
    seq = state(page)["seq"]
    button(page, text).click()
    wait_after(page, seq)


def press_act(page: Any, act: str) -> None:
    """Press the action bar's button for the action type `act` (any language)."""
    seq = state(page)["seq"]
    page.locator(f"#action-bar button[data-act={act}]").first.click()
    wait_after(page, seq)


def play_selection(page: Any, wish: str | None = None) -> None:
    """Press Play; when the Mah Jong asks for a wish, choose `wish` ("8", "none"), or the
    first rank offered."""
    seq = state(page)["seq"]
    page.locator("#action-bar button[data-act=play]").click()
    page.wait_for_function(
        "(seq) => window.tischrunde.screen.model.seq > seq"
        " || !!document.querySelector('.wish-dialog')",
        arg=seq,
        timeout=WAIT_MS,
    )
    if page.locator(".wish-dialog").count():
        choice = f"[data-choice=wish-{wish}]" if wish else "[data-choice^=wish-]"
        page.locator(f".dialog button{choice}").first.click()
    wait_after(page, seq)


def card(page: Any, code: str) -> Any:
    return page.locator(f'.hand [data-card="{code}"]')


def tap(page: Any, code: str) -> None:
    """Tap a card of our hand where it shows on an overlapping fan: the top left corner."""
    card(page, code).click(position={"x": 5, "y": 12})


def select(page: Any, *codes: str) -> str:
    """Select exactly `codes` in the hand; returns the live hint under the selection."""
    clear = page.locator("#action-bar button", has_text="Clear")
    if clear.count():
        clear.click()
    for code in codes:
        tap(page, code)
    selected = page.locator(".hand .card.selected")
    assert selected.count() == len(codes)
    hint: str = page.locator(".combo-hint").inner_text()
    return hint


def first_legal_lead(page: Any) -> list[str]:
    """The cards of the first legal play the server offers (lowest first): a pending wish
    may forbid the lowest single, so the simple player follows the server's list."""
    cards: list[str] = page.evaluate(
        """() => window.tischrunde.screen.model.view.legal
            .filter((a) => a.type === 'play')[0].cards"""
    )
    return cards


def lowest_card(page: Any) -> str:
    code: str = page.locator(".hand .card").first.get_attribute("data-card")
    return code


# Our decision is wanted: the match is over, a round result waits, or we have a move to make.
DECISION_JS = """(() => {
  const model = window.tischrunde.screen.model;
  const ours = s.to_move === model.seat;
  const acts = ['decline_grand_tichu', 'give_dragon', 'pass', 'play'];
  return s.phase === 'over' || !!document.querySelector('#result-ok')
    || (s.phase === 'grand_tichu' && s.legal.length > 0)
    || (s.phase === 'exchange' && model.view.must_exchange)
    || (ours && s.legal.some((type) => acts.includes(type)));
})()"""


def play_round_simply(page: Any, on_turn: Any = None, passing: Any = None) -> None:
    """Play until the round (or match) is over with the simplest legal choices: decline
    Grand Tichu, pass the three lowest cards, pass when possible, else make the first legal
    play the server lists, give the Dragon to the right. For servers whose bots we cannot script.
    `passing(page)`, if given, passes for us where we may, and ends the play with True."""
    while True:
        now = wait_until(page, DECISION_JS)
        if on_turn is not None:
            on_turn(now)
        if now["phase"] == "over":
            return
        if page.locator("#result-ok").count():
            page.locator("#result-ok").click()
            return
        if now["phase"] == "grand_tichu":
            press_act(page, "decline_grand_tichu")
        elif now["phase"] == "exchange":
            for _ in range(3):
                tap(page, lowest_card(page))
            press_act(page, "exchange")
        elif now["phase"] == "dragon":
            press_act(page, "give_dragon")
        elif "pass" in now["legal"]:
            if passing is None:
                press_act(page, "pass")
            elif passing(page):
                return
        else:
            select(page, *first_legal_lead(page))
            play_selection(page)
