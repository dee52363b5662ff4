"""Languages: Russian first, English second (Flask-Babel), one translation mechanism.

Message ids are the English text. The Russian lives in one `.po` file per area
of the app (`companion/translations/ru/LC_MESSAGES/<area>.po`). The catalogs
are held in memory, never written to disk at start-up: an installed wheel
carries one `messages.mo` per language, compiled when the wheel was built
(`hatch_build.py`, with `catalogs.py`); a checkout has only the `.po` files, which are merged and
compiled in memory when the app starts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from babel.support import NullTranslations, Translations
from flask import Flask, Request, request
from flask.globals import _cv_app
from flask_babel import Babel, Domain, get_locale
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from companion.core.cards import Card, Rank
from companion.core.errors import Msg, RuleError
from companion.core.languages import (
    DEFAULT_LANGUAGE as DEFAULT_LANGUAGE,  # re-exported: the web layer imports them from here
)
from companion.core.languages import LANGUAGES as LANGUAGES
from companion.i18n.catalogs import load_catalogs

# -- typed gettext (Flask-Babel is untyped) --------------------------------------


def gettext(message: str, **params: Any) -> str:
    """`message` in the request's language, `%(name)s` filled in from `params`."""
    text = str(translations().ugettext(message))
    return text % params if params else text


def ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    """The singular or plural form for `num` in the request's language (`%(num)s` is filled in)."""
    params.setdefault("num", num)
    return str(translations().ungettext(singular, plural, num)) % params


def current_language() -> str:
    """The request's language: Flask-Babel's choice, read where Flask-Babel keeps it.

    Flask-Babel's own lookup (`get_locale`, `get_translations`) passes through several context
    proxies at every message, and one standings fragment asks for hundreds of messages (a
    sixth of a save's time went there)."""
    ctx = _cv_app.get(None)
    state = ctx.g.__dict__.get("_flask_babel") if ctx is not None else None
    locale = getattr(state, "babel_locale", None)
    if locale is None:
        locale = get_locale()  # chooses it (select_language) and keeps it for the request
    return str(locale.language) if locale is not None else DEFAULT_LANGUAGE


def translations() -> NullTranslations:
    """The catalog of the request's language; outside the app the message ids themselves (English)."""
    if _cv_app.get(None) is None:
        return NO_TRANSLATIONS
    return catalogs().get(current_language()) or NO_TRANSLATIONS


# -- choosing the language ---------------------------------------------------------


def select_language(req: Request = request) -> str:
    """?lang= on the URL, then the `lang` cookie, then Accept-Language, then Russian.

    `req` is Flask's request, or one the idle-poll path (`web.http.fast_poll`) made before Flask."""
    for candidate in (req.args.get("lang"), req.cookies.get("lang")):
        if candidate in LANGUAGES:
            return candidate
    return accepted_language(req.headers.get("Accept-Language"))


@lru_cache(maxsize=256)
def accepted_language(header: str | None) -> str:
    """The best of LANGUAGES for an Accept-Language header (as `request.accept_languages` parses it),
    else Russian. Kept per header: a phone sends the same one with every poll."""
    return parse_accept_header(header, LanguageAccept).best_match(LANGUAGES) or DEFAULT_LANGUAGE


def lang_url(language: str) -> str:
    """This page in another language: the same path and query, with ?lang= set."""
    args = request.args.to_dict(flat=False)
    args["lang"] = [language]
    return f"{request.path}?{urlencode(args, doseq=True)}"


# -- the catalogs ------------------------------------------------------------------


class MemoryDomain(Domain):  # type: ignore[misc]  # Flask-Babel has no type information
    """Flask-Babel's message domain, answered from catalogs held in memory (never read from disk per request)."""

    def get_translations(self) -> NullTranslations:
        return translations()


_catalogs: dict[str, Translations] | None = None
NO_TRANSLATIONS = NullTranslations()


def catalogs() -> dict[str, Translations]:
    """The catalogs, read once per process (they are the same for every app built in it)."""
    global _catalogs
    if _catalogs is None:
        from companion import is_checkout

        _catalogs = load_catalogs(compiled=not is_checkout())
    return _catalogs


# -- messages with parameters (errors, the dictation reader's questions) -------------


def rank_letter(rank: Rank) -> str:
    """A rank in the reader's language: «Д», "Q"."""
    return rank.ru if current_language() == "ru" else rank.value


def card_text(card: Card | None) -> str:
    """A card in the reader's notation: «Д♥», "Q♥"."""
    if card is None:
        return ""
    return f"{rank_letter(card.rank)}{card.suit.value}"


def hand_text(cards: Iterable[Card | None]) -> str:
    """A hand in the reader's notation, its cards joined by spaces: «10♣ В♦ К♠»."""
    return " ".join(card_text(c) for c in cards)


def render(template: str, params: Mapping[str, Any]) -> str:
    """A message id with its parameters, in the request's language: THE way such messages are worded.

    A nested error or message id is rendered in turn, a card or a rank written in the reader's
    notation (Д♥, Q♥), a tuple or list joined with commas."""
    text = gettext(template)
    return text % {key: _param(value) for key, value in params.items()} if params else text


def _param(value: Any) -> Any:
    if isinstance(value, RuleError):
        return render(value.template, value.params)
    if isinstance(value, Msg):
        return gettext(value)
    if isinstance(value, Card):
        return card_text(value)
    if isinstance(value, Rank):
        return rank_letter(value)
    if isinstance(value, tuple | list):
        return ", ".join(str(_param(item)) for item in value)
    return value


def translate_error(error: RuleError) -> str:
    """The error's message in the request's language (nested messages too)."""
    return render(error.template, error.params)


def in_both_languages(message: str, **params: Any) -> dict[str, str]:
    """`{"ru": …, "en": …}` of one message id, from the catalogs (the API's two-language fields)."""
    out = {}
    for language in LANGUAGES:
        translations = catalogs().get(language) or NullTranslations()
        text = translations.ugettext(message)
        out[language] = text % params if params else text
    return out


def template_gettext(message: str, **params: Any) -> Markup:
    """`_()` in a template: `message` in the request's language as safe HTML, `%(name)s` filled in escaped."""
    text = Markup(translations().ugettext(message))
    return text % params if params else text


def template_ngettext(singular: str, plural: str, num: int, **params: Any) -> Markup:
    """`ngettext()` in a template: as `template_gettext`, the form for `num` (`%(num)s` is filled in)."""
    params.setdefault("num", num)
    return Markup(translations().ungettext(singular, plural, num)) % params


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    babel = Babel(app, locale_selector=select_language)
    babel.domain_instance = MemoryDomain()
    # Templates call `_()`, `gettext()` and `ngettext()` as Jinja's "newstyle" gettext does (the message is
    # safe HTML, its parameters are escaped), but directly: Jinja's own wrappers pass the template context
    # through three calls, 7.7 µs a message against 1 µs, and a standings fragment has 25 to 44 of them.
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext, ngettext=template_ngettext)
    app.context_processor(lambda: {"lang": current_language(), "languages": LANGUAGES, "lang_url": lang_url})
