"""Display names: the one check of a name players choose (register, rename) and its skeleton.

A name is taken as its NFKC normal form with the outer spaces stripped (so a name typed
with a decomposed "u" + diaeresis, or in full-width letters, is the same name; what is
stored and shown is this form). It then has 2 to 24 characters, counted as Unicode code
points of the normal form (NFKC composes "ü" into one). It holds letters and digits of any
language, combining marks that follow a letter, and the separators space `_` `.` `-`; it
begins and ends with a letter or digit and has no two separators in a row. Control, format
and other invisible characters (categories Cc, Cf, Co, Cs, Cn, Zl, Zp) are refused, and so
is a name mixing letters of Latin, Greek and Cyrillic, the scripts whose letters look
alike. The web client's `js/names.js` makes the same check; `tests/name_cases.json` runs
one table of cases through both.

Two names are the same for uniqueness when their *skeletons* are equal (`skeleton`):
accents dropped, case folded, Greek and Cyrillic look-alikes and `0`/`1` mapped to the
Latin letters they resemble, `i` and `l` taken as one, separators dropped. So 'Jurgen' is
refused once 'Jürgen' exists: in a lobby list the two read as the same player, and the
second player can still choose 'Juergen'. The skeleton is stored per user
(`users.name_key`, unique).
"""

import itertools
import unicodedata

__all__ = [
    "GUEST_PREFIXES",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "BadName",
    "check",
    "guest_prefix",
    "is_reserved",
    "normalize",
    "problem",
    "skeleton",
]

MIN_LENGTH = 2
MAX_LENGTH = 24
SEPARATORS = frozenset(" _.-")
INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
LOOK_ALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")
# The start of a guest's server-chosen name, by the language his browser prefers (the
# `language` of his `hello`); English for any other.
GUEST_PREFIXES = {"en": "guest-", "de": "Gast-"}
RESERVED_PREFIXES = (
    *(p.casefold() for p in GUEST_PREFIXES.values()),
    "bot",
)  # guests', bots' names

# Greek and Cyrillic capitals that look like a Latin capital (taken before case folding,
# which would turn the Greek N into a letter like v), then the small letters and digits
# that look like a Latin small letter.
CONFUSABLE_CAPITALS = str.maketrans(
    {
        **dict.fromkeys("ΑА", "A"),
        **dict.fromkeys("ΒВ", "B"),
        "С": "C",
        **dict.fromkeys("ΕЕ", "E"),
        **dict.fromkeys("ΗН", "H"),
        **dict.fromkeys("ΙІ", "I"),
        "Ј": "J",
        **dict.fromkeys("ΚК", "K"),
        **dict.fromkeys("ΜМ", "M"),
        "Ν": "N",
        **dict.fromkeys("ΟО", "O"),
        **dict.fromkeys("ΡР", "P"),
        "Ѕ": "S",
        **dict.fromkeys("ΤТ", "T"),
        **dict.fromkeys("ΧХ", "X"),
        **dict.fromkeys("ΥУ", "Y"),
        "Ζ": "Z",
    }
)
CONFUSABLE = str.maketrans(
    {
        **dict.fromkeys("аα", "a"),
        **dict.fromkeys("вβ", "b"),
        **dict.fromkeys("сϲ", "c"),
        "ԁ": "d",
        **dict.fromkeys("еεэ", "e"),
        **dict.fromkeys("һн", "h"),
        **dict.fromkeys("іιӏ1", "l"),
        "i": "l",
        "ј": "j",
        **dict.fromkeys("кκ", "k"),
        **dict.fromkeys("мμ", "m"),
        "η": "n",
        **dict.fromkeys("оο0", "o"),
        **dict.fromkeys("рρ", "p"),
        "ԛ": "q",
        "ѕ": "s",
        **dict.fromkeys("тτ", "t"),
        "υ": "u",
        "ν": "v",
        "ԝ": "w",
        **dict.fromkeys("хχ", "x"),
        **dict.fromkeys("уγ", "y"),
        "ζ": "z",
    }
)


class BadName(ValueError):
    """A name that is not acceptable; `reason` is a stable word the client translates."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def normalize(name: str) -> str:
    """The form of `name` that is checked, stored and shown: NFKC, outer spaces stripped."""
    return unicodedata.normalize("NFKC", name).strip(" ")


def _script(char: str) -> str | None:
    """Which of the look-alike scripts a letter belongs to (by its Unicode name), if any."""
    word = unicodedata.name(char, "").split(" ", 1)[0]
    return word if word in LOOK_ALIKE_SCRIPTS else None


def problem(name: str) -> str | None:
    """Why the normalised `name` is not acceptable (a reason word), or None if it is.

    Reasons, in the order they are checked: `too_short`, `too_long`, `invisible`,
    `mark_alone` (a combining mark after no letter), `character` (a symbol, emoji or
    punctuation other than the separators), `separators` (at either end or two in a row),
    `scripts` (Latin, Greek and Cyrillic letters mixed)."""
    if len(name) < MIN_LENGTH:
        return "too_short"
    if len(name) > MAX_LENGTH:
        return "too_long"
    categories = [unicodedata.category(c) for c in name]
    if any(c in INVISIBLE for c in categories):
        return "invisible"
    for i, category in enumerate(categories):
        if category.startswith("M") and (i == 0 or categories[i - 1][0] not in "LM"):
            return "mark_alone"
    for char, category in zip(name, categories, strict=True):
        if category[0] not in "LM" and category != "Nd" and char not in SEPARATORS:
            return "character"
    if name[0] in SEPARATORS or name[-1] in SEPARATORS:
        return "separators"
    if any(a in SEPARATORS and b in SEPARATORS for a, b in itertools.pairwise(name)):
        return "separators"
    letters = [c for c, category in zip(name, categories, strict=True) if category[0] == "L"]
    if len({_script(c) for c in letters} - {None}) > 1:
        return "scripts"
    return None


def check(name: str) -> str:
    """The normal form of `name` if it is acceptable; raises BadName otherwise."""
    normal = normalize(name)
    reason = problem(normal)
    if reason is not None:
        raise BadName(reason)
    return normal


def skeleton(name: str) -> str:
    """What `name` looks like, for uniqueness: two names with the same skeleton would be
    mistaken for each other (accents, case, separators and look-alike letters ignored)."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    latin = unicodedata.normalize("NFKC", bare).translate(CONFUSABLE_CAPITALS)
    folded = latin.casefold().translate(CONFUSABLE)
    return "".join(c for c in folded if c not in SEPARATORS)


def is_reserved(name: str) -> bool:
    """Names of the forms the server gives guests and bots (`guest-...`, `Gast-...`,
    `bot...`)."""
    return name.casefold().startswith(RESERVED_PREFIXES)


def guest_prefix(language: str | None) -> str:
    """How a new guest's name begins for a player whose browser prefers `language`."""
    return GUEST_PREFIXES.get(language or "en", GUEST_PREFIXES["en"])
