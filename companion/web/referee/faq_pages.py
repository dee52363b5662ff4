"""The FAQ pages: the list grouped by topic, active search, one entry with its permalink and QR code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Response, abort, request

from ... import faq, faq_search
from ...core.rules import RULESETS
from ...faq import MAX_QUERY_LENGTH
from ...i18n import current_language, gettext
from ..links import faq_url, public_url, qr_svg
from ..pages import is_fragment, page
from . import bp
from .ruleset_choice import ruleset_arg

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
    """One line of the results: the verdict first, then the question."""

    slug: str
    url: str
    verdict: str
    question: str
    note: str  # the chosen rule set's note, when the entry has one

    @classmethod
    def of(cls, entry: faq.FaqEntry, ruleset: str | None) -> FaqItem:
        text = entry.text(current_language())
        return cls(entry.slug, faq_url(entry.slug, ruleset), text.verdict, text.question,
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
    results = [FaqItem.of(r.entry, ruleset) for r in faq_search.search(q, ruleset=ruleset)] if q else []
    context: dict[str, Any] = {"q": q, "ruleset": rs, "results": results,
               "groups": [] if q else grouped_entries(ruleset)}
    if is_fragment():
        return page("_faq_results.html", **context)
    return page("faq.html", **context)


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in text.split("\n\n") if p.strip()]


@bp.get("/faq/<slug>")
def faq_entry_page(slug: str) -> Response:
    entry = faq.get_entry(slug)
    if entry is None:
        abort(404)
    rs = ruleset_arg(request.args.get("ruleset"))
    text = entry.text(current_language())
    notes = [(RULESETS[rid], note, rs is not None and rid == rs.id)
             for rid, note in text.by_ruleset.items() if rid in RULESETS]
    notes.sort(key=lambda n: not n[2])  # the set in force first
    related = [FaqItem.of(e, rs.id if rs else None) for e in map(faq.get_entry, entry.related) if e]
    permalink = public_url("referee.faq_entry_page", slug=slug)
    return page(
        "faq_entry.html", entry=entry, text=text, paragraphs=paragraphs(text.answer), notes=notes,
        ruleset=rs, related=related, permalink=permalink, qr=qr_svg(permalink),
        applies=entry.applies_to(rs.id if rs else None),
    )
