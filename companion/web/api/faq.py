"""JSON API v1 for the FAQ: search, the whole list, one entry in full.

Errors use the API's usual `{"error": {"code", "message"}}` shape (see api.py).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from companion.core.errors import N_
from companion.core.rules import get_ruleset
from companion.faq import entries as faq
from companion.faq import search as faq_search
from companion.faq.entries import MAX_QUERY_LENGTH
from companion.i18n import LANGUAGES, current_language
from companion.web.errors import ApiError
from companion.web.http.links import faq_url

bp = Blueprint("faq_api", __name__, url_prefix="/api/v1")

MAX_LIMIT = 50


def requested_language() -> str:
    lang = request.args.get("lang")
    if lang is None or lang == "":
        return current_language()
    if lang not in LANGUAGES:
        raise ApiError(400, "bad-request", N_("Unknown language “%(lang)s”. Choose one of: %(known)s."),
                       lang=lang, known=", ".join(LANGUAGES))
    return lang


def requested_ruleset() -> str | None:
    value = request.args.get("ruleset")
    if not value:
        return None
    return get_ruleset(value).id  # unknown → OptionError → 422


def requested_limit() -> int:
    value = request.args.get("limit")
    if value is None or value == "":
        return 10
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= MAX_LIMIT:
        raise ApiError(400, "bad-request", N_("“limit” must be a whole number from 1 to %(max)s."), max=MAX_LIMIT)
    return int(value)


def result_json(entry: faq.FaqEntry, lang: str, ruleset: str | None, score: float | None) -> dict[str, Any]:
    text = entry.text(lang, ruleset)
    return {
        "slug": entry.slug,
        "question": text.question,
        "answer": text.full_answer(ruleset),
        "url": faq_url(entry.slug, ruleset),
        "score": score,
    }


def entry_json(entry: faq.FaqEntry) -> dict[str, Any]:
    return {
        "slug": entry.slug,
        "url": faq_url(entry.slug),
        "sources": list(entry.sources),
        "related": list(entry.related),
        "rulesets": list(entry.rulesets),
        **{lang: entry.text(lang).to_json() for lang in faq.LANGS},
    }


def _json(body: dict[str, Any]) -> Response:
    response = jsonify(body)
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@bp.get("/faq")
def search_faq() -> Response:
    """Search: `results` best first; with no answer, `results` is empty and `maybe` holds up to
    three closest entries; `searched_for` is the query as read when a word was corrected or
    transliterated. Without `q`: every entry."""
    lang = requested_language()
    ruleset = requested_ruleset()
    limit = requested_limit()
    q = request.args.get("q", "").strip()[:MAX_QUERY_LENGTH]
    if not q:
        return _json({"results": [result_json(e, lang, ruleset, None) for e in faq.all_entries()], "maybe": []})
    found = faq_search.answer(q, ruleset=ruleset, limit=limit)  # the query language is detected
    body: dict[str, Any] = {
        "results": [result_json(r.entry, lang, ruleset, r.score) for r in found.results],
        "maybe": [result_json(r.entry, lang, ruleset, r.score) for r in found.maybe],
    }
    if found.searched_for:
        body["searched_for"] = found.searched_for
    return _json(body)


@bp.get("/faq/<slug>")
def faq_entry(slug: str) -> Response:
    entry = faq.get_entry(slug)
    if entry is None:
        raise ApiError(
            404, "not-found", N_("There is no FAQ entry “%(slug)s”. GET /api/v1/faq lists them all."), slug=slug
        )
    return _json(entry_json(entry))
