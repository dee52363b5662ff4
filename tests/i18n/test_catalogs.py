"""Every user-visible string has a Russian translation; catalogs are valid."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from flask import Flask

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "companion" / "translations" / "ru" / "LC_MESSAGES"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "lazy_gettext": None}
METHOD_MAP = [("companion/**.py", "python"), ("templates/**.html", "jinja2")]


def russian() -> dict[str, object]:
    merged: dict[str, object] = {}
    for po in sorted(CATALOGS.glob("*.po")):
        with po.open("rb") as f:
            for message in read_po(f):
                if message.id and message.string and not message.fuzzy:
                    key = message.id if isinstance(message.id, str) else message.id[0]
                    merged[key] = message.string
    return merged


def test_every_message_is_translated_to_russian() -> None:
    translated = russian()
    missing = []
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), METHOD_MAP, keywords=KEYWORDS, comment_tags=()
    ):
        msgid = message if isinstance(message, str) else message[0]
        if msgid and msgid not in translated:
            missing.append(f"{filename}: {msgid}")
    assert not missing, "untranslated:\n" + "\n".join(sorted(set(missing)))


def test_plural_forms_have_three_russian_forms() -> None:
    for po in CATALOGS.glob("*.po"):
        with po.open("rb") as f:
            catalog = read_po(f)
        assert catalog.num_plurals == 3, po.name
        for message in catalog:
            if message.pluralizable and message.string:
                assert len([s for s in message.string if s]) == 3, (po.name, message.id)


def test_app_answers_in_russian_by_default_and_english_on_request(app: Flask) -> None:
    client = app.test_client()
    ru = client.get("/api/v1/series/nope").get_json()["error"]["message"]
    en = client.get("/api/v1/series/nope", headers={"Accept-Language": "en"}).get_json()["error"]["message"]
    assert ru.startswith("Серии") and en.startswith("There is no series")
