"""The rule pages: all rule sets side by side, and one rule set's card."""

from __future__ import annotations

from flask import Response, abort, request

from companion.core.rules import DEFAULT_RULESET, RULESETS
from companion.web.http.pages import page
from companion.web.pages.referee import bp
from companion.web.pages.referee.rule_prose import CARD_KEYS, NO_EFFECT, differences, points_table, rule_sections
from companion.web.pages.referee.ruleset_choice import rules_query, ruleset_in_force, ruleset_name
from companion.web.present.rules_text import house_rules


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
    """One rule set's card; with `series=<id>` (or `opt-<key>=<value>`) the card of a table's house rules."""
    if ruleset_id not in RULESETS:
        abort(404)
    rs, series = ruleset_in_force(request.args, ruleset_id)
    base = RULESETS[DEFAULT_RULESET]
    return page("rules.html", ruleset=rs, sets=list(RULESETS.values()), sections=rule_sections(rs), card_keys=CARD_KEYS,
                points=points_table(rs), names=ruleset_name, series=series, house=house_rules(rs),
                rules_query=rules_query(rs, series),
                differences=differences(rs, base) if rs.id != base.id else [])
