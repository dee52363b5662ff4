"""The FAQ pages: the list grouped by topic, active search, one entry with its permalink and QR code."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, request, url_for
from markupsafe import Markup

from companion.core.rules import DEFAULT_RULESET, RULESETS, RuleSet
from companion.faq import entries as faq
from companion.faq import search as faq_search
from companion.faq.entries import MAX_QUERY_LENGTH
from companion.faq.sources import source_name
from companion.i18n import current_language, gettext
from companion.web.http.links import faq_url, public_url, qr_svg
from companion.web.http.pages import is_fragment, page
from companion.web.pages.referee import bp
from companion.web.pages.referee.rule_prose import points_table, rule_sections
from companion.web.pages.referee.ruleset_choice import ruleset_arg

# How the list without a query is grouped: by what a table argues about.
FAQ_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("basics", ("aim-of-the-game", "number-of-players", "two-players", "cards-dealt", "who-deals", "who-starts",
                "direction-of-play", "deck-52")),
    ("queens", ("queen-wild", "queen-on-queen", "queen-cancels-penalty", "queen-finish", "queens-among-cards",
                "queens-only-hand")),
    ("special", ("six", "finish-on-six", "seven", "eight", "ten", "ace", "spade-king", "penalty-transfer",
                 "cover-special-card", "first-card-special", "last-card-seven-or-king")),
    ("turn", ("same-colour", "several-cards-at-once", "no-playable-card", "drawn-card-play", "draw-pile-empty",
              "deadlock", "redeal", "four-of-a-kind-dealt", "last-card-call")),
    ("scoring", ("card-points", "nine-points", "spade-king-in-hand", "winner-points", "exactly-100-or-101",
                 "several-over-101", "negative-score", "series-end", "elimination-play")),
    ("about", ("official-rules", "other-rule-sets", "pharaoh", "uno-and-mau-mau")),
)


def group_title(key: str) -> str:
    return {
        "basics": gettext("Getting started"),
        "queens": gettext("Queens"),
        "special": gettext("Special cards"),
        "turn": gettext("Your turn"),
        "scoring": gettext("Points and the end"),
        "about": gettext("About the game"),
        "other": gettext("More questions"),
    }[key]


@dataclass(frozen=True)
class FaqItem:
    """One line of the results: the verdict first, then the question (matched words marked)."""

    slug: str
    url: str
    verdict: Markup
    question: Markup
    note: str  # the chosen rule set's note, when the entry has one

    @classmethod
    def of(cls, entry: faq.FaqEntry, ruleset: str | None, tokens: Sequence[str] = ()) -> FaqItem:
        text = entry.text(current_language(), ruleset)  # the numbers of that rule set

        def mark(t: str) -> Markup:
            return faq_search.highlight(t, tokens) if tokens else Markup.escape(t)

        return cls(entry.slug, faq_url(entry.slug, ruleset), mark(text.verdict), mark(text.question),
                   text.by_ruleset.get(ruleset, "") if ruleset else "")


def grouped_entries(ruleset: str | None) -> list[tuple[str, list[FaqItem]]]:
    entries = {e.slug: e for e in faq.all_entries()}
    groups = []
    for key, slugs in FAQ_GROUPS:
        items = [FaqItem.of(entries.pop(s), ruleset) for s in slugs if s in entries]
        if items:
            groups.append((group_title(key), items))
    if entries:  # entries added since this grouping was written
        groups.append((group_title("other"), [FaqItem.of(e, ruleset) for e in entries.values()]))
    return groups


@bp.get("/faq")
def faq_page() -> Response:
    q = request.args.get("q", "").strip()[:MAX_QUERY_LENGTH]
    rs = ruleset_arg(request.args.get("ruleset"))
    ruleset = rs.id if rs else None
    found = faq_search.answer(q, ruleset=ruleset) if q else None
    context: dict[str, Any] = {
        "q": q, "ruleset": rs,
        "results": [FaqItem.of(r.entry, ruleset, found.tokens) for r in found.results] if found else [],
        "maybe": [FaqItem.of(r.entry, ruleset, found.tokens) for r in found.maybe] if found else [],
        "searched_for": found.searched_for if found else None,
        "groups": [] if q else grouped_entries(ruleset),
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


def citation(entry: faq.FaqEntry, rs: RuleSet) -> Citation:
    """The first cited row the set's rule card has; without one, the rule card itself."""
    rows = {row.key: (row.label, row.text) for section in rule_sections(rs) for row in section.rows if row.on_card}
    rows["points"] = (gettext("Points for cards left in hand"),
                      ", ".join(f"{label}: {points}" for label, points in points_table(rs)))
    for key in entry.cites:
        if key in rows:
            label, text = rows[key]
            return Citation(label, text, url_for("referee.rule_card", ruleset_id=rs.id, _anchor=f"rule-{key}"))
    return Citation("", "", url_for("referee.rule_card", ruleset_id=rs.id))


@bp.get("/faq/<slug>")
def faq_entry_page(slug: str) -> Response:
    entry = faq.get_entry(slug)
    if entry is None:
        abort(404)
    chosen = ruleset_arg(request.args.get("ruleset"))
    rs = chosen or RULESETS[DEFAULT_RULESET]  # the answer is always for one set, and says which
    text = entry.text(current_language(), rs)  # every number from the rule set in force
    notes = [(RULESETS[rid], note, rid == rs.id)
             for rid, note in text.by_ruleset.items() if rid in RULESETS]
    notes.sort(key=lambda n: not n[2])  # the set in force first
    related = [FaqItem.of(e, chosen.id if chosen else None) for e in map(faq.get_entry, entry.related) if e]
    permalink = public_url("referee.faq_entry_page", slug=slug)
    return page(
        "faq_entry.html", entry=entry, text=text, paragraphs=paragraphs(text.answer), notes=notes,
        ruleset=chosen, answer_set=rs, cite=citation(entry, rs),
        sources=[source_name(s) for s in entry.sources],
        related=related, permalink=permalink, qr=qr_svg(permalink), applies=entry.applies_to(rs.id),
    )
