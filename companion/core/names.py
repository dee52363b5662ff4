"""Player names: one normal form, nothing invisible, and one key for telling two names apart.

A name is NFC-normalised and its white space collapsed. Control characters,
bidi overrides and isolates, zero-width characters and other invisible format
characters are refused: they make one name look like another, or turn the
text around it backwards. Two names are the same player when their keys
match: compatibility forms folded (NFKC), case folded, and Latin letters
that look exactly like Cyrillic ones read as Cyrillic, so «Аня» typed with a
Latin «A» is a duplicate of «Аня».
"""

from __future__ import annotations

import unicodedata

from companion.core.errors import N_, SeriesSetupError

# Latin letters drawn exactly like a Cyrillic one, in the case where they look alike.
_LOOKALIKES = str.maketrans({
    "a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у",
    "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т",
    "X": "Х", "Y": "У",
})
_REFUSED_CATEGORIES = {
    "Cc",
    "Cf",
    "Co",
    "Cs",
    "Cn",
}  # control, format (bidi, zero-width), private, surrogate, unassigned


def refused_character(text: str) -> str | None:
    """The first character a name may not hold, as "U+XXXX", or None."""
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            return f"U+{ord(char):04X}"
    return None


def clean_name(raw: str) -> str:
    """The name as stored: NFC, single spaces; raises SeriesSetupError for an invisible or control character."""
    char = refused_character(raw.replace("\t", " ").replace("\n", " ").replace("\r", " "))
    if char is not None:
        raise SeriesSetupError(
            N_(
                "A player's name contains an invisible or control character (%(char)s); "
                "type the name again with letters, digits and spaces."
            ),
            char=char,
        )
    return " ".join(unicodedata.normalize("NFC", raw).split())


def name_key(name: str) -> str:
    """What two names must differ in to be two players."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).translate(_LOOKALIKES).casefold()
