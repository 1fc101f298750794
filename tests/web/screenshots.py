"""The README's screenshots: pictures the browser tests took, as JPEGs in docs/screenshots.

Run the browser tests first (they write `tmp/web-artifacts/*.png`), then
`python -m tests.web.screenshots` to refresh docs/screenshots/, or
`python -m tests.web.screenshots NAME...` to refresh only those (e.g. after running only the
tests that take them).
"""

import sys
from pathlib import Path

from PIL import Image

from tests.web.conftest import ARTIFACTS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
# docs/screenshots/<name>.jpg <- tmp/web-artifacts/<picture>.png (the test that takes it)
PICTURES = {
    "skat-play": "play",  # test_skat.py, English
    "skat-declare": "skat-declare-help",  # test_skat_claims.py: values against the bid
    "skat-claim": "skat-claim-accepted",  # test_skat_claims.py
    "skat-result": "result",  # test_skat.py
    "skat-german": "german-deck",  # test_skat.py: the German-suited deck
    "tichu-exchange": "tichu-exchange",  # test_tichu.py
    "tichu-wish": "tichu-wish",  # test_tichu.py: the wish asked when the Mah Jong is played
    "tichu-bomb": "tichu-bomb",  # test_tichu.py
    "de-skat-declare": "de-skat-declare",  # test_german.py: the same screens in German
    "de-skat-play": "de-skat-play",
    "de-tichu-play": "de-tichu-play",
    "phone-skat": "phone-play",  # test_skat.py, 360 x 740
    "phone-skat-result": "phone-skat-result-and-bidding",  # test_client_comfort.py
    "phone-tichu": "phone-tichu-exchange-fold",  # test_client_comfort.py
}
MAX_WIDTH = 1280


def main(names: list[str]) -> None:
    unknown = set(names) - set(PICTURES)
    if unknown:
        raise SystemExit(f"no such screenshot: {', '.join(sorted(unknown))}")
    DOCS.mkdir(parents=True, exist_ok=True)
    for name in names or PICTURES:
        picture = PICTURES[name]
        image = Image.open(ARTIFACTS / f"{picture}.png").convert("RGB")
        if image.width > MAX_WIDTH:
            image = image.resize((MAX_WIDTH, image.height * MAX_WIDTH // image.width))
        target = DOCS / f"{name}.jpg"
        image.save(target, quality=82, optimize=True)
        print(target, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
