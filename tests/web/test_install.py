"""Installable on a phone (issue 18): Chromium's own installability check passes, the service
worker keeps the client shell for a start without network, and the icons are the SVG's."""

import io
import json
import re
from pathlib import Path

from PIL import Image, ImageChops

from tests.web.conftest import PHONE, Browser, LiveServer
from tests.web.icons import ICONS, SIZES, render

WEB = Path(__file__).resolve().parents[2] / "server" / "web"


def test_chromium_finds_nothing_that_stops_the_install(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE)
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    page.wait_for_function(
        "navigator.serviceWorker.getRegistration().then((r) => !!(r && r.active))"
    )
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.json") and not manifest.get("errors")


def test_the_shell_starts_offline_from_the_service_workers_cache(
    live_server: LiveServer, browser: Browser
) -> None:
    page = browser.page(PHONE)
    page.goto(live_server.url)
    page.wait_for_selector(".create-form")
    # The worker claims the open page once active (clients.claim), so no reload is needed.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.reload()
    # The page and its scripts come from the cache; the game itself needs the network.
    page.wait_for_selector("#status.offline, #status.connecting")
    assert page.locator(".brand").inner_text().endswith("Tischrunde")
    assert page.evaluate("typeof window.tischrunde") == "object"
    page.context.set_offline(False)
    page.wait_for_selector(".create-form")
    browser.problems.clear()  # the failed connection attempts while offline are expected


def test_the_service_worker_caches_every_file_of_the_client() -> None:
    listed = set(re.findall(r'"(/[^"]*)"', (WEB / "sw.js").read_text()))
    files = {"/" + p.relative_to(WEB).as_posix() for p in WEB.rglob("*") if p.is_file()}
    assert listed == (files - {"/sw.js"}) | {"/"}


def test_the_manifest_names_the_icons_that_exist() -> None:
    manifest = json.loads((WEB / "manifest.json").read_text())
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        path = WEB / icon["src"].lstrip("/")
        assert path.exists(), icon["src"]
        if icon["type"] == "image/png":
            width, height = Image.open(path).size
            assert f"{width}x{height}" == icon["sizes"]


def test_the_icons_are_the_svg_drawn_by_chromium(playwright_instance: object) -> None:
    for size in SIZES:
        fresh = Image.open(io.BytesIO(render(playwright_instance, size))).convert("RGB")
        stored = Image.open(ICONS / f"icon-{size}.png").convert("RGB")
        difference = ImageChops.difference(fresh, stored)
        worst = max(high for _, high in difference.getextrema())
        assert worst <= 16, f"icon-{size}.png is stale: run python -m tests.web.icons"
