"""The FAQ pages: the list grouped by topic, active search, one entry with its permalink and QR code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, request, url_for
from markupsafe import Markup

from companion.core.rules import RuleSet
from companion.faq import entries as faq
from companion.faq import search as faq_search
from companion.faq.entries import MAX_QUERY_LENGTH
from companion.faq.sources import source_name
from companion.i18n import current_language, gettext
from companion.service.series import Series
from companion.web.http.links import public_url, qr_svg
from companion.web.http.pages import is_fragment, page
from companion.web.pages.referee import bp
from companion.web.pages.referee.rule_prose import points_table, rule_sections
from companion.web.pages.referee.ruleset_choice import rules_query, ruleset_arg, ruleset_in_force
from companion.web.present.rules_text import house_rules


def group_title(key: str) -> str:
    return {
        "basics": gettext("Getting started"),
        "queens": gettext("Queens"),
        "special": gettext("Special cards"),
        "turn": gettext("Your turn"),
        "scoring": gettext("Points and the end"),
        "about": gettext("About the game"),
    }[key]


@dataclass(frozen=True)
class FaqItem:
    """One line of the results: the verdict first, then the question (matched words marked)."""

    slug: str
    url: str
    verdict: Markup
    question: Markup
    note: str  # what the rules in force add (the entry's notes), when a table's rules were chosen

    @classmethod
    def of(cls, entry: faq.FaqEntry, rules: Rules, tokens: Sequence[str] = (), notes: bool = True) -> FaqItem:
        text = entry.text(current_language(), rules.ruleset)  # the verdict of the rules in force

        def mark(t: str) -> Markup:
            return faq_search.highlight(t, tokens) if tokens else Markup.escape(t)

        url = url_for("referee.faq_entry_page", slug=entry.slug, **rules.query)
        note = " ".join(text.notes) if rules.chosen and notes else ""
        return cls(entry.slug, url, mark(text.verdict), mark(text.question), note)


@dataclass(frozen=True)
class Rules:
    """The rules the FAQ answers for: a preset, a preset with house options, or a series' own."""

    ruleset: RuleSet
    series: Series | None
    chosen: bool  # named on the URL (else the default set, said as such)

    @classmethod
    def from_request(cls) -> Rules:
        rs, series = ruleset_in_force(request.args)
        chosen = series is not None or ruleset_arg(request.args.get("ruleset")) is not None
        return cls(rs, series, chosen)

    @property
    def query(self) -> dict[str, Any]:
        return rules_query(self.ruleset, self.series) if self.chosen else {}


def grouped_entries(rules: Rules) -> list[tuple[str, list[FaqItem]]]:
    """Every entry under its group (the `group` of its file), groups in `faq.GROUPS` order."""
    entries = faq.all_entries()
    return [(group_title(key), [FaqItem.of(e, rules, notes=False) for e in entries if e.group == key])
            for key in faq.GROUPS
            if any(e.group == key for e in entries)]


@bp.get("/faq")
def faq_page() -> Response:
    q = request.args.get("q", "").strip()[:MAX_QUERY_LENGTH]
    rules = Rules.from_request()
    found = faq_search.answer(q, ruleset=rules.ruleset.id if rules.chosen else None) if q else None
    context: dict[str, Any] = {
        "q": q, "ruleset": rules.ruleset if rules.chosen else None, "series": rules.series,
        "rules_query": rules.query, "house": house_rules(rules.ruleset) if rules.chosen else [],
        "results": [FaqItem.of(r.entry, rules, found.tokens) for r in found.results] if found else [],
        "maybe": [FaqItem.of(r.entry, rules, found.tokens) for r in found.maybe] if found else [],
        "searched_for": found.searched_for if found else None,
        "groups": [] if q else grouped_entries(rules),
    }
    if is_fragment():
        return page("_faq_results.html", **context)
    return page("faq.html", **context)


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in text.split("\n\n") if p.strip()]


@dataclass(frozen=True)
class Citation:
    """The rule a verdict rests on: a row of the rule card of the set in force."""

    label: str  # the row's label ("Seven"); empty: the rule card as a whole
    text: str   # what the row says
    url: str


def citation(entry: faq.FaqEntry, rs: RuleSet, query: Mapping[str, Any] | None = None) -> Citation:
    """The first cited row the rule card of `rs` has (the table's own card when `query` names its rules);
    without one, the rule card itself."""
    query = dict(query or {})
    query.pop("ruleset", None)
    rows = {row.key: (row.label, row.text) for section in rule_sections(rs) for row in section.rows if row.on_card}
    rows["points"] = (gettext("Points for cards left in hand"),
                      ", ".join(f"{label}: {points}" for label, points in points_table(rs)))
    for key in entry.cites:
        if key in rows:
            label, text = rows[key]
            return Citation(label, text, url_for("referee.rule_card", ruleset_id=rs.id, _anchor=f"rule-{key}", **query))
    return Citation("", "", url_for("referee.rule_card", ruleset_id=rs.id, **query))


@bp.get("/faq/<slug>")
def faq_entry_page(slug: str) -> Response:
    entry = faq.get_entry(slug)
    if entry is None:
        abort(404)
    rules = Rules.from_request()
    rs = rules.ruleset  # the answer is always for one set of rules, and says which
    text = entry.text(current_language(), rs)
    related = [FaqItem.of(e, rules, notes=False) for e in map(faq.get_entry, entry.related) if e]
    permalink = public_url("referee.faq_entry_page", slug=slug, **rules.query)
    return page(
        "faq_entry.html", entry=entry, text=text, paragraphs=[*paragraphs(text.answer), *text.notes],
        ruleset=rs if rules.chosen else None, answer_set=rs, series=rules.series, house=house_rules(rs),
        rules_query=rules.query, cite=citation(entry, rs, rules.query),
        sources=[(source_name(s), text.source_lines.get(s, "")) for s in entry.sources],
        related=related, permalink=permalink, qr=qr_svg(permalink), applies=entry.applies_to(rs.id),
    )
