"""Browser tests: Debian's Chromium driven by Playwright against a real server.

The server runs in a thread of this process (random port, SQLite in a temporary folder, bot
delay 0). Every page collects console errors and page errors; a test fails if any appeared.
Screenshots go to `tmp/web-artifacts/` in the repository (ignored by git).

Without Chromium (or without the playwright package) the tests skip with the reason, unless
CI=true: then they fail, so CI can never pass without running them.
"""

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import App, running
from tests.server.conftest import server_settings

CHROMIUM = Path(os.environ.get("TISCHRUNDE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "tmp" / "web-artifacts"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 360, "height": 740}
# How long one wait for the page may take (ms): generous, never a timing claim.
WAIT_MS = 20_000


def require_browser() -> None:
    """Skip when Chromium or playwright is missing; under CI=true fail instead."""
    reason = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        reason = "the playwright package is not installed (pip install -e '.[dev]')"
    if reason is None and not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing (apt-get install chromium)"
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}, and CI=true forbids skipping the browser tests")
        pytest.skip(reason)


class LiveServer:
    """A started App on its own event loop in a background thread."""

    def __init__(self, tmp_path: Path, **overrides: Any) -> None:
        tmp_path.mkdir(parents=True, exist_ok=True)
        self.settings = server_settings(tmp_path, **overrides)
        self.app: App | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="tischrunde-server", daemon=True)

    @property
    def url(self) -> str:
        assert self.app is not None
        return f"http://127.0.0.1:{self.app.port}/"

    def start(self) -> "LiveServer":
        self._thread.start()
        if not self._ready.wait(120):
            raise RuntimeError("the server did not start")
        if self._failed is not None:
            raise RuntimeError("the server failed to start") from self._failed
        return self

    def stop(self) -> None:
        if self.loop is not None and self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(60)

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as error:  # reported to the starting thread
            self._failed = error
            self._ready.set()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        async with running(self.settings) as app:
            self.app = app
            self.loop = asyncio.get_running_loop()
            self._ready.set()
            await self._stop.wait()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    require_browser()
    server = LiveServer(
        tmp_path_factory.mktemp("server"),
        bot_delay_seconds=0.0,
        grace_seconds=600.0,
        series_3=2,
        series_4=2,
    ).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def playwright_instance() -> Iterator[Any]:
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


class Browser:
    """Opens pages in fresh Chromium profiles and records what went wrong on them."""

    def __init__(self, playwright: Any, tmp_path: Path, name: str) -> None:
        self.playwright = playwright
        self.tmp_path = tmp_path
        self.name = name
        self.contexts: list[Any] = []
        self.problems: list[str] = []

    def page(self, viewport: dict[str, int] = DESKTOP, locale: str = "en-US") -> Any:
        """A page in a fresh profile; `locale` is the language the browser prefers."""
        profile = self.tmp_path / f"profile-{len(self.contexts)}"
        context = self.playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            headless=True,
            viewport=viewport,
            locale=locale,
        )
        context.set_default_timeout(WAIT_MS)
        self.contexts.append(context)
        page = context.pages[0] if context.pages else context.new_page()
        page.on("console", lambda m: self._console(m))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        return page

    def _console(self, message: Any) -> None:
        if message.type in ("error", "assert"):
            self.problems.append(f"console {message.type}: {message.text}")

    def shot(self, page: Any, label: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{label}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    def close_page(self, page: Any) -> None:
        """Close a page's browser (its profile stays on disk), as a player quitting would."""
        self.contexts.remove(page.context)
        page.context.close()

    def close(self) -> None:
        """Close every page (before stopping a server the pages talk to)."""
        for context in self.contexts:
            context.close()
        self.contexts.clear()


@pytest.fixture
def browser(
    playwright_instance: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Browser]:
    opened = Browser(playwright_instance, tmp_path, request.node.name)
    yield opened
    opened.close()
    assert opened.problems == [], "the browser reported errors"


ShotFn = Callable[[Any, str], Path]
