"""The message catalogs: every `.po` of a language (one per area) merged and compiled, in memory.

Only Babel is needed here, so the wheel build hook (`hatch_build.py`) compiles
the catalogs with the very same code the app uses in a checkout.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

CATALOGS = Path(__file__).parent.parent / "translations"
COMPILED = "messages.mo"  # what a wheel carries, compiled at build time


def merged_catalog(folder: Path) -> Catalog | None:
    """Every `*.po` of one `<lang>/LC_MESSAGES` folder (one per area) merged into one catalog."""
    merged: Catalog | None = None
    for po in sorted(folder.glob("*.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        if merged is None:
            merged = catalog
            continue
        for message in catalog:
            if message.id and message.string:
                merged[message.id] = message
    return merged


def compiled_catalog(folder: Path) -> bytes | None:
    """The `.mo` bytes of one language folder's merged `.po` files (what the wheel build writes)."""
    catalog = merged_catalog(folder)
    if catalog is None:
        return None
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def load_catalogs(source: Path = CATALOGS, *, compiled: bool = False) -> dict[str, Translations]:
    """Language → translations: an installed wheel's `messages.mo` (`compiled`), else the `.po` files
    compiled in memory (a checkout, where a stray `.mo` is ignored so an edited `.po` always counts)."""
    found: dict[str, Translations] = {}
    for folder in sorted(source.glob("*/LC_MESSAGES")):
        language = folder.parent.name
        mo = folder / COMPILED
        if compiled and mo.is_file():
            data: bytes | None = mo.read_bytes()
        else:
            data = compiled_catalog(folder)
        if data is not None:
            found[language] = Translations(io.BytesIO(data))
    return found
