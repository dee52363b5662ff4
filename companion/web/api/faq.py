"""JSON API v1 for the FAQ: search, the whole list, one entry in full.

Every answer is for one set of rules: `ruleset=<id>` (a preset), or `series=<id>` (that series'
own rules, its house options included); without either, the default set.

Errors use the API's usual `{"error": {"code", "message"}}` shape (see api.py).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from companion.core.errors import N_
from companion.core.rules import DEFAULT_RULESET, RULESETS, RuleSet, get_ruleset
from companion.faq import entries as faq
from companion.faq import search as faq_search
from companion.faq.entries import MAX_QUERY_LENGTH
from companion.i18n import LANGUAGES, current_language
from companion.ops.hardening import ascii_int
from companion.service import series as series_service
from companion.service.house_rules import changed_options
from companion.service.series import Series
from companion.storage.database import get_db
from companion.web.errors import ApiError
from companion.web.pages.referee.faq_pages import citation

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


def requested_rules() -> tuple[RuleSet | None, Series | None]:
    """The rules named on the URL: a series' own (`series`), a preset (`ruleset`), or neither."""
    series_id, ruleset = request.args.get("series"), request.args.get("ruleset")
    if series_id:
        if ruleset:
            raise ApiError(400, "bad-request", N_("Give either “series” or “ruleset”: a series has its own rules."))
        series = series_service.load(get_db(), series_id) if len(series_id) <= 64 else None
        if series is None:
            raise ApiError(404, "not-found", N_("There is no series “%(id)s”. Check the link."), id=series_id)
        return series.setup.ruleset, series
    if not ruleset:
        return None, None
    return get_ruleset(ruleset), None  # unknown → OptionError → 422


def rules_query(rs: RuleSet | None, series: Series | None) -> dict[str, Any]:
    if series is not None:
        return {"series": series.id}
    return {"ruleset": rs.id} if rs is not None else {}


def rules_json(rs: RuleSet, series: Series | None) -> dict[str, Any]:
    """The rules an answer is for: the set and the options that differ from it."""
    data: dict[str, Any] = {"ruleset": rs.id, "options": changed_options(rs)}
    if series is not None:
        data["series"] = series.id
    return data


def requested_limit() -> int:
    value = request.args.get("limit")
    if value is None or value == "":
        return 10
    number = ascii_int(value)  # None for 5,000 digits too (int() refuses over 4,300)
    if number is None or not 1 <= number <= MAX_LIMIT:
        raise ApiError(400, "bad-request", N_("“limit” must be a whole number from 1 to %(max)s."), max=MAX_LIMIT)
    return number


def result_json(entry: faq.FaqEntry, lang: str, rs: RuleSet | None, query: dict[str, Any],
                score: float | None) -> dict[str, Any]:
    text = entry.text(lang, rs)
    return {
        "slug": entry.slug,
        "question": text.question,
        "answer": text.full_answer(),
        "url": url_for("referee.faq_entry_page", slug=entry.slug, **query),
        "score": score,
    }


def entry_json(entry: faq.FaqEntry, rs: RuleSet, series: Series | None, query: dict[str, Any]) -> dict[str, Any]:
    """One entry for these rules in both languages, with the rule-card row its verdict rests on."""
    cite = citation(entry, rs, query)
    return {
        "slug": entry.slug,
        "url": url_for("referee.faq_entry_page", slug=entry.slug, **query),
        "rules": rules_json(rs, series),
        "rule_card": {"row": cite.label, "text": cite.text, "url": cite.url},
        "sources": list(entry.sources),
        "related": list(entry.related),
        "rulesets": list(entry.rulesets),
        **{lang: entry.text(lang, rs).to_json() for lang in faq.LANGS},
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
    rs, series = requested_rules()
    query = rules_query(rs, series)
    limit = requested_limit()
    q = request.args.get("q", "").strip()[:MAX_QUERY_LENGTH]
    if not q:
        return _json({"results": [result_json(e, lang, rs, query, None) for e in faq.all_entries()], "maybe": []})
    found = faq_search.answer(q, ruleset=rs.id if rs else None, limit=limit)  # the query language is detected
    body: dict[str, Any] = {
        "results": [result_json(r.entry, lang, rs, query, r.score) for r in found.results],
        "maybe": [result_json(r.entry, lang, rs, query, r.score) for r in found.maybe],
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
    rs, series = requested_rules()
    return _json(entry_json(entry, rs or RULESETS[DEFAULT_RULESET], series, rules_query(rs, series)))
