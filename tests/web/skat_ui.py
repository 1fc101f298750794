"""Driving the Skat table through the page like a person: clicks and keys, nothing else.

The page's state is read (never changed) through `window.tischrunde` to know when the table
waits for us; every decision is then made by clicking what a player sees.
"""

from dataclasses import dataclass, field
from typing import Any

from tests.web.conftest import WAIT_MS

STATE_JS = """() => {
  const screen = window.tischrunde.screen;
  const model = screen && screen.model;
  if (!model || !model.view) return null;
  const view = model.view;
  return {seq: model.seq, seat: model.seat, phase: view.phase, to_move: view.to_move,
          hand: view.hand, status: model.status, deal: model.info.deal,
          results: model.results.length, busy: screen.busy,
          panel: !!document.querySelector('#result-ok'), final: !!document.querySelector('.final')};
}"""

# The table waits for us: our move, a result to acknowledge, or the end of the list.
OUR_TURN_JS = """() => {
  const screen = window.tischrunde.screen;
  const model = screen && screen.model;
  if (document.querySelector('.final') || document.querySelector('#result-ok')) return true;
  if (!model || !model.view || screen.busy) return false;
  return model.view.phase !== 'over' && model.view.to_move === model.seat
    && !!document.querySelector('#action-bar');
}"""


# The page's user plays the open table's list out with random legal moves, sent through the
# page's own connection.
PLAY_A_LIST = """async () => {
  const app = window.tischrunde;
  const model = app.screen.model;
  const id = model.id;
  for (let i = 0; i < 1200; i += 1) {
    const view = model.view;
    if (model.info?.status === "finished") return id;
    if (view && view.legal?.length && view.phase !== "over") {
      const action = view.legal[Math.floor(Math.random() * view.legal.length)];
      try {
        await app.net.request("act", { table: id, seq: model.seq, action });
      } catch { /* the table moved on meanwhile */ }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return id;
}"""


@dataclass
class Plan:
    """How our player behaves in one deal (by deal number)."""

    hand: bool = False  # play hand instead of taking the skat
    game: str = "Grand"  # the game button to press
    announce: str | None = None  # an announcement checkbox to tick (hand games)
    keyboard: bool = False  # bid and play with the keyboard


@dataclass
class Log:
    """What happened, for assertions: phases we acted in, screenshots taken and the replay
    links of the result panels."""

    phases: list[str] = field(default_factory=list)
    replays: list[str] = field(default_factory=list)
    shots: set[str] = field(default_factory=set)
    declared: list[str] = field(default_factory=list)
    overbid_warnings: int = 0


def state(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(STATE_JS)
    return found


def wait_our_turn(page: Any) -> dict[str, Any]:
    page.wait_for_function(OUR_TURN_JS, timeout=WAIT_MS)
    return state(page)


def wait_after(page: Any, seq: int) -> None:
    """Wait until the table moved past `seq` (our action arrived back as an event)."""
    page.wait_for_function(
        "(seq) => { const m = window.tischrunde.screen.model; "
        "return m.seq > seq || !!document.querySelector('#result-ok'); }",
        arg=seq,
        timeout=WAIT_MS,
    )


def bar_button(page: Any, text: str) -> Any:
    return page.locator("#action-bar button", has_text=text).first


def act_click(page: Any, locator: Any) -> None:
    seq = state(page)["seq"]
    locator.click()
    wait_after(page, seq)


def tap_card(card: Any) -> None:
    """Tap a card where a person would on an overlapping fan: its top left corner."""
    card.click(position={"x": 6, "y": 14})


def bid(page: Any, plan: Plan) -> None:
    """Hold or bid the next value (we always want to play): `1` is the first button."""
    if plan.keyboard:
        seq = state(page)["seq"]
        page.keyboard.press("1")
        wait_after(page, seq)
        return
    hold = bar_button(page, "Yes,")
    act_click(page, hold if hold.count() else bar_button(page, "Bid "))


def discard(page: Any) -> None:
    """Lay away the two lowest cards: tap them, then Discard."""
    cards = page.locator(".hand .card")
    tap_card(cards.nth(cards.count() - 1))
    tap_card(cards.nth(cards.count() - 2))
    assert page.locator(".hand .card.selected").count() == 2
    act_click(page, bar_button(page, "Discard"))


def declare(page: Any, plan: Plan, log: Log) -> None:
    page.locator(".game-buttons button", has_text=plan.game).first.click()
    if plan.announce:
        box = page.locator(f".announce input[name={plan.announce.lower()}]")
        if box.is_enabled():
            box.check()
    button = page.locator("#action-bar button.primary", has_text="Play ")
    log.declared.append(button.inner_text().split("\n")[-1])
    seq = state(page)["seq"]
    button.click()
    # A game worth less than the bid asks first ("Below your bid?"): play it anyway.
    page.wait_for_function(
        "(seq) => window.tischrunde.screen.model.seq > seq || !!document.querySelector('.dialog')",
        arg=seq,
        timeout=WAIT_MS,
    )
    if page.locator(".dialog button[data-choice=confirm]").count():
        log.overbid_warnings += 1
        page.locator(".dialog button[data-choice=confirm]").click()
    wait_after(page, seq)


def play_card(page: Any, plan: Plan) -> None:
    """Play the first legal card: by click, or focus the hand and press Enter."""
    playable = page.locator(".hand .card.playable")
    assert playable.count() >= 1
    unplayable = page.locator(".hand .card.unplayable")
    for i in range(unplayable.count()):
        assert unplayable.nth(i).get_attribute("aria-disabled") == "true"
    if not plan.keyboard:
        seq = state(page)["seq"]
        tap_card(playable.first)
        wait_after(page, seq)
        return
    seq = state(page)["seq"]
    playable.first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    wait_after(page, seq)


def play_deals(
    page: Any,
    browser: Any,
    plans: dict[int, Plan],
    *,
    deals: int,
    stop: Any = None,
    log: Log | None = None,
    prefix: str = "",
) -> Log:
    """Play until `deals` deals have ended (acknowledging each result), or `stop(state)`."""
    log = log or Log()
    while True:
        now = wait_our_turn(page)
        if stop is not None and stop(now):
            return log
        if now["panel"]:
            shoot(page, browser, log, f"{prefix}result")
            log.replays.append(page.locator(".result-panel a.replay-link").get_attribute("href"))
            page.locator("#result-ok").click()
            if now["results"] >= deals:
                return log
            continue
        if now["final"]:
            return log
        plan = plans.get(now["deal"], Plan())
        phase = now["phase"]
        log.phases.append(phase)
        if phase == "bidding":
            shoot(page, browser, log, f"{prefix}bidding")
            bid(page, plan)
        elif phase == "skat":
            if plan.hand:
                bar_button(page, "Play hand").click()
                shoot(page, browser, log, f"{prefix}hand-declare")
                declare(page, plan, log)
            else:
                act_click(page, bar_button(page, "Take the skat"))
        elif phase == "discard":
            shoot(page, browser, log, f"{prefix}discard")
            discard(page)
        elif phase == "declare":
            page.locator(".game-buttons button", has_text=plan.game).first.click()
            shoot(page, browser, log, f"{prefix}declare")
            declare(page, plan, log)
        elif phase == "play":
            if page.locator(".trick-card:not(.taken)").count() >= 2:
                shoot(page, browser, log, f"{prefix}play")
            play_card(page, plan)


def shoot(page: Any, browser: Any, log: Log, label: str) -> None:
    if label not in log.shots:
        log.shots.add(label)
        browser.shot(page, label)


def open_lobby(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".create-form")
    page.wait_for_selector("#user-name")


def create_skat_table(
    page: Any, *, deals: int = 2, players: int = 3, private: bool = False, clock: int | None = None
) -> str:
    """Fill in the lobby's form and create the table (`clock`: seconds per move); returns its
    id."""
    page.check(f"input[name=players][value='{players}']")
    page.select_option("select[name=series]", str(deals))
    if clock is not None:
        page.select_option("select[name=clock]", str(clock))
    if private:
        page.check("input[name=private]")
    page.locator("button", has_text="Create Skat table").click()
    page.wait_for_selector(".waiting-room")
    table: str = page.evaluate("window.tischrunde.screen.model.id")
    return table


def fill_with_bots(page: Any, level: str = "greedy") -> None:
    page.select_option("select[name=bot-level]", level)
    page.locator("button", has_text="Fill free seats with bots").click()
    page.wait_for_selector(".felt.skat")
