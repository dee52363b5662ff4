"""Languages: Russian first, English second (Flask-Babel).

The catalogs are kept as `.po` files only, one per area of the app
(`companion/translations/ru/LC_MESSAGES/<area>.po`); they are merged and
compiled into the instance folder when the app starts, whenever a `.po` is
newer than the compiled `.mo`. Message ids are the English text.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, request
from flask_babel import Babel, get_locale, gettext

from .core.errors import Msg, RuleError

LANGUAGES = ("ru", "en")
DEFAULT_LANGUAGE = "ru"
CATALOGS = Path(__file__).parent / "translations"


def select_language() -> str:
    """?lang= on the URL, then the `lang` cookie, then Accept-Language, then Russian."""
    for candidate in (request.args.get("lang"), request.cookies.get("lang")):
        if candidate in LANGUAGES:
            return candidate
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE


def lang_url(language: str) -> str:
    """This page in another language: the same path and query, with ?lang= set."""
    args = request.args.to_dict(flat=False)
    args["lang"] = [language]
    return f"{request.path}?{urlencode(args, doseq=True)}"


def current_language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def compile_catalogs(source: Path, target: Path) -> None:
    """Merge every `<lang>/LC_MESSAGES/*.po` (one per area) into one `messages.mo` per language."""
    for folder in sorted(source.glob("*/LC_MESSAGES")):
        sources = sorted(folder.glob("*.po"))
        mo = target / folder.relative_to(source) / "messages.mo"
        if not sources or (mo.exists() and mo.stat().st_mtime >= max(p.stat().st_mtime for p in sources)):
            continue
        merged = None
        for po in sources:
            with po.open("rb") as f:
                catalog = read_po(f)
            if merged is None:
                merged = catalog
                continue
            for message in catalog:
                if message.id and message.string:
                    merged[message.id] = message
        mo.parent.mkdir(parents=True, exist_ok=True)
        partial = mo.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as f:
            write_mo(f, merged)
        os.replace(partial, mo)


def translate_error(error: RuleError) -> str:
    """The error's message in the request's language (nested messages too)."""
    params: dict[str, Any] = {}
    for key, value in error.params.items():
        if isinstance(value, RuleError):
            params[key] = translate_error(value)
        elif isinstance(value, Msg):
            params[key] = gettext(value)
        else:
            params[key] = value
    text: str = gettext(error.template)
    return text % params if params else text


def init_app(app: Flask) -> None:
    compiled = Path(app.instance_path) / "translations"
    compile_catalogs(CATALOGS, compiled)
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(compiled)
    Babel(app, locale_selector=select_language)
    app.context_processor(lambda: {"lang": current_language(), "languages": LANGUAGES, "lang_url": lang_url})
