"""The rule set a referee page is about, named on its URL."""

from __future__ import annotations

from ...core.rules import RULESETS, RuleSet
from ...i18n import current_language


def ruleset_arg(value: str | None) -> RuleSet | None:
    """A rule set named on the URL; anything else is ignored (a page, not an API)."""
    return RULESETS.get(value or "")


def ruleset_name(rs: RuleSet) -> str:
    return rs.name.get(current_language(), rs.name["en"])
