"""Names of any script in the browser (issue 18, bug 3, and the rest of bug 4): the client's
check (js/names.js) says of every case of tests/name_cases.json what the server's says, a
name with an umlaut is taken, a refused one is told as a sentence in the player's language,
and a guest registers under the name he plays as."""

import json
from pathlib import Path
from typing import Any

from tests.web.conftest import Browser, LiveServer
from tests.web.skat_ui import open_lobby

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "name_cases.json").read_text(encoding="utf-8")
)["cases"]

JUDGE_JS = """async (cases) => {
  const names = await import('/js/names.js');
  return cases.map((c) => {
    const name = names.normalize(c.input);
    return {name, problem: names.problem(name)};
  });
}"""


def test_the_client_judges_every_name_case_as_the_server_does(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    judged = page.evaluate(JUDGE_JS, CASES)
    wrong = [
        (case["why"], got)
        for case, got in zip(CASES, judged, strict=True)
        if got != {"name": case["name"], "problem": case["problem"]}
    ]
    assert wrong == []


def rename(page: Any, name: str) -> None:
    """Choose `name` in the menu's rename dialog (in English or German)."""
    page.locator("#user-button").click()
    page.locator(".dialog button", has_text="Namen ändern").or_(
        page.locator(".dialog button", has_text="Change name")
    ).click()
    page.fill(".dialog input[name=name]", name)
    page.locator(".dialog button[type=submit]").click()


def dialog_error(page: Any) -> str:
    page.wait_for_selector(".dialog .dialog-error:not([hidden])")
    return str(page.locator(".dialog .dialog-error").inner_text())


def test_bug3_a_name_with_an_umlaut_is_taken_and_a_refusal_reads_as_a_sentence(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    rename(page, "Jürgen")
    page.wait_for_function("document.querySelector('#user-name').textContent === 'Jürgen'")
    # Another player: a look-alike is taken (the server's answer), a Cyrillic e among Latin
    # letters is refused before asking (the client's check), each said in words.
    other = browser.page()
    open_lobby(other, live_server.url)
    rename(other, "Jurgen")
    assert dialog_error(other) == "That name is taken. Choose another one."
    other.fill(".dialog input[name=name]", "Jürgеn")
    other.locator(".dialog button[type=submit]").click()
    other.wait_for_function(
        "document.querySelector('.dialog .dialog-error').textContent.includes('Cyrillic')"
    )
    assert "[" not in dialog_error(other)  # no pattern, no raw server message
    german = browser.page(locale="de-DE")
    open_lobby(german, live_server.url)
    rename(german, "an\u200bna")
    assert dialog_error(german) == (
        "Der Name enthält ein unsichtbares oder ein Steuerzeichen. Tippe ihn ohne es neu."
    )


def test_bug3_the_server_says_why_a_name_is_refused_in_the_players_language(
    live_server: LiveServer, browser: Browser
) -> None:
    """The server's `bad_name` reason, not only the client's check, reads as a sentence."""
    page = browser.page(locale="de-DE")
    open_lobby(page, live_server.url)
    text = page.evaluate(
        """async () => {
          const { errorText } = await import('/js/i18n.js');
          try {
            await window.tischrunde.net.request('rename', { name: 'anna😀' });
            return 'accepted';
          } catch (error) {
            return errorText(error);
          }
        }"""
    )
    assert text.startswith("Ein Name besteht aus Buchstaben und Ziffern jeder Sprache")


def test_bug4_a_guest_registers_under_his_own_name(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page()
    open_lobby(page, live_server.url)
    rename(page, "Zoë Åsa")
    page.wait_for_function("document.querySelector('#user-name').textContent === 'Zoë Åsa'")
    guest_id = page.evaluate("window.tischrunde.user.id")
    page.locator("#user-button").click()
    page.locator(".dialog button", has_text="Register").click()
    assert page.locator(".dialog input[name=name]").input_value() == "Zoë Åsa"
    page.fill(".dialog input[name=password]", "correct horse")
    page.locator(".dialog button[type=submit]").click()
    page.wait_for_function("window.tischrunde.user && !window.tischrunde.user.guest")
    assert page.evaluate("window.tischrunde.user") == {
        "id": guest_id,
        "name": "Zoë Åsa",
        "guest": False,
    }
