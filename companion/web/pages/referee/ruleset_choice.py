"""The rule set a referee page is about, named on its URL: a preset, a preset with house rules
(`opt-<key>=<value>`, as the start form writes them), or a series' own (`series=<id>`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.errors import RuleError
from companion.core.rules import DEFAULT_RULESET, OPTION_SPECS, RULESETS, RuleSet
from companion.i18n import gettext
from companion.service import series as series_service
from companion.service.series import Series
from companion.storage.database import get_db
from companion.web.present.rules_text import option_query


def ruleset_arg(value: str | None) -> RuleSet | None:
    """A rule set named on the URL; anything else is ignored (a page, not an API)."""
    return RULESETS.get(value or "")


def ruleset_name(rs: RuleSet) -> str:
    return gettext(rs.name)


def series_arg(value: str | None) -> Series | None:
    if not value or len(value) > 64:
        return None
    return series_service.load(get_db(), value)


def options_arg(values: Mapping[str, str]) -> dict[str, Any]:
    """House rules on the URL (`opt-six=next-draws-1`, `opt-ace_answer=yes`); unreadable values are ignored."""
    changes: dict[str, Any] = {}
    for spec in OPTION_SPECS:
        raw = values.get(f"opt-{spec.key}", "")
        if not raw or len(raw) > 40:
            continue
        if spec.kind == "bool" and raw in ("yes", "no"):
            changes[spec.key] = raw == "yes"
        elif spec.kind == "choice":
            match = [c for c in spec.choices if str(c) == raw]
            if match:
                changes[spec.key] = match[0]
        elif spec.kind == "int" and raw.isascii() and raw.isdigit() and len(raw) < 5:
            changes[spec.key] = int(raw)
    return changes


def ruleset_in_force(values: Mapping[str, str], ruleset_id: str | None = None) -> tuple[RuleSet, Series | None]:
    """The rules a page answers for: the series' own when `series` names one (of this preset, if one is
    named in the path), else the preset with the URL's house rules."""
    series = series_arg(values.get("series"))
    if series is not None and (ruleset_id is None or series.setup.ruleset.id == ruleset_id):
        return series.setup.ruleset, series
    preset = ruleset_arg(ruleset_id if ruleset_id is not None else values.get("ruleset")) or RULESETS[DEFAULT_RULESET]
    changes = options_arg(values)
    try:
        return preset.with_options(changes), None
    except RuleError:  # a value out of range for this preset: the preset as it is
        return preset, None


def rules_query(rs: RuleSet, series: Series | None) -> dict[str, str]:
    """The URL query that names these rules again (for links between the referee's pages)."""
    if series is not None:
        return {"series": series.id}
    return {"ruleset": rs.id, **option_query(rs)}
