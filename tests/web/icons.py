"""The app icons' PNGs are drawn from `server/web/icons/icon.svg` by Chromium.

`python -m tests.web.icons` writes `icon-192.png` and `icon-512.png` beside the SVG (run it
after changing the SVG); tests/web/test_install.py renders them again and checks that the
stored files still match.
"""

import sys
from pathlib import Path
from typing import Any

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS

ICONS = Path(__file__).resolve().parents[2] / "server" / "web" / "icons"
SIZES = (192, 512)


def render(playwright: Any, size: int) -> bytes:
    """The SVG drawn at `size` x `size` pixels, as PNG bytes."""
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    try:
        page = browser.new_page(viewport={"width": size, "height": size})
        svg = (ICONS / "icon.svg").read_text()
        page.set_content(
            "<style>html,body{margin:0}svg{display:block;width:100vw;height:100vh}</style>" + svg
        )
        png: bytes = page.screenshot(clip={"x": 0, "y": 0, "width": size, "height": size})
        return png
    finally:
        browser.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        for size in SIZES:
            path = ICONS / f"icon-{size}.png"
            path.write_bytes(render(playwright, size))
            print(path, file=sys.stderr)


if __name__ == "__main__":
    main()
