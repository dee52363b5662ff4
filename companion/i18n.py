"""Languages: Russian first, English second (Flask-Babel).

The catalogs are kept as `.po` files only; they are compiled into the
instance folder when the app starts, whenever a `.po` is newer than its `.mo`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

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


def current_language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def compile_catalogs(source: Path, target: Path) -> None:
    for po in source.glob("*/LC_MESSAGES/*.po"):
        mo = target / po.relative_to(source).with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as f:
            catalog = read_po(f)
        partial = mo.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as f:
            write_mo(f, catalog)
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
    app.context_processor(lambda: {"lang": current_language(), "languages": LANGUAGES})
