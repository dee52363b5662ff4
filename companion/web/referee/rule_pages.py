"""The rule pages: all rule sets side by side, and one rule set's card."""

from __future__ import annotations

from flask import Response, abort

from ...core.rules import RULESETS
from ...i18n import current_language
from ..pages import page
from . import bp
from .rule_prose import CARD_KEYS, NO_EFFECT, points_table, rule_sections
from .ruleset_choice import ruleset_name


@bp.get("/rules")
def rules_comparison() -> Response:
    sets = list(RULESETS.values())
    by_set = [rule_sections(rs) for rs in sets]
    rows = []  # (section title, [(label, [short per set])])
    for s, section in enumerate(by_set[0]):
        keys: list[str] = []
        for sections in by_set:
            keys += [r.key for r in sections[s].rows if r.key not in keys]
        lines = []
        for key in keys:
            cells = []
            label = ""
            for sections in by_set:
                row = next((r for r in sections[s].rows if r.key == key), None)
                label = label or (row.label if row else "")
                cells.append(row.short if row else NO_EFFECT)
            lines.append((key, label, cells))
        if lines:
            rows.append((section.title, lines))
    return page("rules.html", ruleset=None, sets=sets, comparison=rows, names=ruleset_name)


@bp.get("/rules/<ruleset_id>")
def rule_card(ruleset_id: str) -> Response:
    rs = RULESETS.get(ruleset_id)
    if rs is None:
        abort(404)
    lang = current_language()
    return page("rules.html", ruleset=rs, sets=list(RULESETS.values()), sections=rule_sections(rs), card_keys=CARD_KEYS,
                points=points_table(rs), names=ruleset_name,
                description=rs.description.get(lang, ""), differences=rs.differences.get(lang, ()))
