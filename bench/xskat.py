"""XSkat's own self-play as a picture of how a competent program bids.

Run: `python -m bench.xskat --games 3000 --seed 1` (needs the Debian package xskat, binary
/usr/games/xskat). Plays `xskat -auto N -game FILE -log LOG -unfmt` headless, the deals seeded
by a `random_seed S 0 2` line in FILE, and parses the log into the statistics that
`bench.skat_strength --report` prints: declare rate (per seat and game, as ours), declarer win
rate, share of grand / suit / null / hand / ouvert among declarations, mean final bid and
passed-in deals. Schneider and schwarz announcements are not in XSkat's log.
"""

import argparse
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Final

XSKAT: Final = "/usr/games/xskat"
SEPARATOR: Final = "=" * 40
PLAYED: Final = re.compile(r"^Computer(\d) played (\w+)$", re.MULTILINE)
SEED_LINE: Final = re.compile(r"^---- random_seed \d+ \d+ (\d)", re.MULTILINE)
CARD: Final = re.compile(r"(club|spade|heart|diamond)[ _](10|[789jqka])\b", re.IGNORECASE)
SKAT: Final = re.compile(r"^Skat (is|was): (.*)$", re.MULTILINE)
RANKS: Final = {"10": "T"}
BID: Final = re.compile(r"^Last bid: (\d+)$", re.MULTILINE)
SUITS: Final = ("Club", "Spade", "Heart", "Diamond")
SEATS: Final = 3


def _cards(text: str) -> list[str]:
    """Our card names ("JC", "TS") of XSkat's ("Club J", "SPADE 10", "Diamond_A")."""
    return [RANKS.get(r, r.upper()) + s[0].upper() for s, r in CARD.findall(text)]


def dealt_hands(block: str) -> tuple[list[list[str]], dict[str, list[str]], int] | None:
    """The three hands as the deal left them after the skat (the table after the seed line,
    by column), the skat before ("was") and after ("is") the discard, and the dealer's
    number (1-3)."""
    seed = SEED_LINE.search(block)
    if seed is None:
        return None
    rows = block[seed.end() :].splitlines()[1:11]
    hands: list[list[str]] = [[], [], []]
    for row in rows:
        for column, card in enumerate(_cards(row)[:SEATS]):
            hands[column].append(card)
    skat = {kind: _cards(text) for kind, text in SKAT.findall(block)}
    return hands, skat, int(seed.group(1))


def parse_game(block: str) -> dict[str, Any]:
    """One game of the log: declarer (None if passed in), game, hand, ouvert, won, bid."""
    played = PLAYED.search(block)
    if played is None:
        return {"declarer": None}
    bid = BID.search(block)
    lines = block.splitlines()
    return {
        "declarer": int(played.group(1)),
        "game": played.group(2),
        "hand": any(line.startswith("Played") and "Hand" in line for line in lines),
        "ouvert": any(line.startswith("Played ouvert") for line in lines),
        "won": any(line.startswith("Won") for line in lines),
        "bid": int(bid.group(1)) if bid else 0,
    }


def parse_log(text: str) -> list[dict[str, Any]]:
    return [parse_game(b) for b in text.split(SEPARATOR) if "random_seed" in b]


def summarize(games: list[dict[str, Any]]) -> dict[str, float]:
    declared = [g for g in games if g["declarer"] is not None]
    n = len(declared) or 1
    return {
        "games": len(games),
        "declare_rate": len(declared) / (SEATS * max(len(games), 1)),
        "win_rate": sum(g["won"] for g in declared) / n,
        "grand": sum(g["game"] == "Grand" for g in declared) / n,
        "suit": sum(g["game"] in SUITS for g in declared) / n,
        "null": sum(g["game"] == "Null" for g in declared) / n,
        "hand": sum(g["hand"] for g in declared) / n,
        "ouvert": sum(g["ouvert"] for g in declared) / n,
        "mean_bid": sum(g["bid"] for g in declared) / n,
        "passed_in": (len(games) - len(declared)) / max(len(games), 1),
    }


def play(games: int, seed: int, log: Path) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".game") as game_file:
        game_file.write(f"random_seed {seed} 0 2\n")
        game_file.flush()
        command = [XSKAT, "-auto", str(games), "-game", game_file.name, "-log", str(log)]
        subprocess.run([*command, "-unfmt"], check=True, capture_output=True, timeout=3600)
    return log.read_text()


def main() -> None:
    parser = argparse.ArgumentParser(description="XSkat self-play statistics")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", type=Path, help="keep the XSkat log here (else a temp file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = args.log or Path(tmp) / "xskat.log"
        log.unlink(missing_ok=True)
        s = summarize(parse_log(play(args.games, args.seed, log)))
    print(
        f"xskat: {s['games']:.0f} games, declares {s['declare_rate']:.1%},"
        f" wins {s['win_rate']:.1%},"
        f" grand {s['grand']:.1%}, suit {s['suit']:.1%}, null {s['null']:.1%},"
        f" hand {s['hand']:.1%}, ouvert {s['ouvert']:.1%}, mean bid {s['mean_bid']:.1f},"
        f" passed in {s['passed_in']:.1%}"
    )


if __name__ == "__main__":
    main()
