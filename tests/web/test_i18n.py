"""The message catalogues (server/web/i18n/*.json) against the client's source: every key the
code names exists in German and English with the same placeholders, no key is dead, every
error code the server or the engines can send has a sentence, and German is not English."""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bench.fuzz_protocol import documented_codes

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "server" / "web"
LANGUAGES = ("de", "en")
# A string literal that names a catalogue entry: namespace.key(.more).
KEY = re.compile(r"""["']((?:[a-z]+)(?:\.[A-Za-z0-9_]+)+)["']""")
# A key built at run time: t(`prefix.${...}`) or a template given to t() later.
DYNAMIC = re.compile(r"`([a-z]+(?:\.[A-Za-z0-9_]+)*\.)\$\{")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# Words that read the same in both languages (game terms, names, abbreviations).
SAME_IN_BOTH = {
    "OK",
    "Schieberamsch",
    "Skat",
    "Tichu",
    "Grand",
    "Null",
    "Hand",
    "Ouvert",
    "Schneider",
    "Schwarz",
    "Kontra",
    "Kontra!",
    "Re!",
    "Kontra & Re",
    "Kontra/Re",
    "Ramsch",
    "Chat",
    "Chat ({n})",
    "Mah Jong",
    "Mah Jong (1)",
    "Jade",
    "Partner",
    "Deutsch",
    "English",
    "Tichu!",
    "H",
    "Name ",
    "Bot {n}",
    "{name} {deed}",
    "{a} & {b}",
    "Unter",
    "Ober",
    "Bot",
    "Ph",
    "Dr",
    "1",
    "J",
    "K",
    "A",
    "30 s",
    "1 min",
    "5 min",
    "◀",
    "▲",
    "▶",
    "Player",
    "Full house",
}


def catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text())
    return data


def sources() -> str:
    """The client's code, and the game modules whose create-form labels `list_games` sends."""
    return (
        "\n".join(p.read_text() for p in sorted(WEB.rglob("*.js")) if p.name != "sw.js")
        + (WEB / "index.html").read_text()
        + "\n".join(p.read_text() for p in sorted((ROOT / "server" / "games").glob("*.py")))
    )


def texts(value: Any) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def protocol_error_codes() -> set[str]:
    """The error codes docs/protocol.md lists (its Errors section)."""
    return documented_codes()


def engine_error_codes() -> set[str]:
    """Every IllegalAction code the engines can raise (the protocol passes them on)."""
    codes: set[str] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', path.read_text()))
    # Tichu keeps its codes and messages in one table, and two more codes as constants.
    legality = (ROOT / "engine" / "tichu" / "legality.py").read_text()
    codes |= set(re.findall(r'^[A-Z_]+: Final = "([a-z_]+)"$', legality, re.MULTILINE))
    table = legality.split("_MESSAGES", 1)[1].split("}", 1)[0]
    codes |= set(re.findall(r'^\s+"([a-z_]+)": "', table, re.MULTILINE))
    return codes


def test_both_languages_have_the_same_keys_placeholders_and_plurals() -> None:
    de, en = catalogue("de"), catalogue("en")
    assert set(de) == set(en)
    for key in en:
        assert type(de[key]) is type(en[key]), key
        if isinstance(en[key], dict):
            assert set(de[key]) == set(en[key]) == {"one", "other"}, key
        placeholders = {p for text in texts(en[key]) for p in PLACEHOLDER.findall(text)}
        german = {p for text in texts(de[key]) for p in PLACEHOLDER.findall(text)}
        assert german == placeholders, key


def test_every_key_the_client_names_exists() -> None:
    known = set(catalogue("en"))
    namespaces = {key.split(".")[0] for key in known}
    named = {key for key in KEY.findall(sources()) if key.split(".")[0] in namespaces}
    named = {key for key in named if not key.endswith((".js", ".json", ".png", ".svg"))}
    missing = sorted(named - known)
    assert missing == [], missing
    assert len(named) > 300


def test_no_key_is_dead() -> None:
    code = sources()
    named = set(KEY.findall(code))
    prefixes = (*DYNAMIC.findall(code), "error.")
    entries = catalogue("en")
    dead = sorted(key for key in entries if key not in named and not key.startswith(prefixes))
    assert dead == [], dead


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_server_and_engine_error_code_reads_as_a_sentence(lang: str) -> None:
    entries = catalogue(lang)
    codes = protocol_error_codes() | engine_error_codes()
    assert {"stale_seq", "must_follow_suit", "does_not_beat", "claim_open"} <= codes
    missing = sorted(code for code in codes if f"error.{code}" not in entries)
    assert missing == [], missing
    for code in codes:
        sentence = entries[f"error.{code}"]
        assert sentence[0].isupper() and sentence.rstrip().endswith((".", "…", "!")), code


def test_german_is_not_english() -> None:
    de, en = catalogue("de"), catalogue("en")

    def neutral(text: str) -> bool:
        return text in SAME_IN_BOTH or not re.search("[A-Za-z]{3}", text)

    same = sorted(
        key
        for key in en
        if texts(de[key]) == texts(en[key]) and not all(neutral(text) for text in texts(en[key]))
    )
    assert same == [], same


def test_german_skat_and_tichu_terms() -> None:
    de = catalogue("de")
    words = " ".join(text for value in de.values() for text in texts(value))
    for term in (
        "Reizen", "Hand", "Schneider", "Schwarz", "Ouvert", "Kontra", "Re!", "Grand", "Null",
        "Passe", "Skat aufnehmen", "Drücken", "Vorhand", "Alleinspieler", "Kreuz", "Pik", "Herz",
        "Karo", "Eichel", "Grün", "Rot", "Schellen", "Großes Tichu", "Drache", "Phönix", "Hund",
        "Mah Jong", "Bombe", "Straße", "schupf",
    ):  # fmt: skip
        assert term in words, term
