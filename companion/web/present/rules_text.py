"""The rule-set data in words: option labels in both languages, the options a table chose.

Nothing here decides a rule: every value is read from `core.rules` (the preset and
the options in force); this module only says it in the reader's language.
"""

from __future__ import annotations

from typing import Any

from companion.core.rules import OPTION_SPECS, OptionSpec, RuleSet, get_ruleset
from companion.i18n import gettext, in_both_languages


def both_languages(message: str) -> dict[str, str]:
    """A message id in every language of the app, e.g. for the JSON API (from the catalogs)."""
    return in_both_languages(message)


def option_spec_json(spec: OptionSpec) -> dict[str, Any]:
    data = spec.to_json()
    data["label"] = both_languages(spec.label)
    if spec.choice_labels:
        data["choice_labels"] = [both_languages(m) for m in spec.choice_labels]
    return data


def value_text(spec: OptionSpec, value: Any) -> str:
    """An option's value as the reader says it ("draw one and pass", "4 cards", "101 → 0")."""
    label = spec.value_label(value)
    if label is not None:
        return gettext(label)
    if spec.kind == "resets":
        return ", ".join(f"{old} → {new}" for old, new in value) or gettext("none")
    return str(value)


def house_rules(ruleset: RuleSet) -> list[dict[str, Any]]:
    """The options in force that differ from the preset's defaults: label, value, the preset's value."""
    preset = get_ruleset(ruleset.id)
    rows = []
    for spec in OPTION_SPECS:
        mine, theirs = getattr(ruleset.defaults, spec.key), getattr(preset.defaults, spec.key)
        if mine != theirs:
            rows.append({"key": spec.key, "label": gettext(spec.label), "value": value_text(spec, mine),
                         "default": value_text(spec, theirs)})
    return rows


def option_query(ruleset: RuleSet) -> dict[str, str]:
    """The options in force that differ from the preset, as `opt-<key>` URL parameters (resets left out)."""
    preset = get_ruleset(ruleset.id)
    query = {}
    for spec in OPTION_SPECS:
        mine, theirs = getattr(ruleset.defaults, spec.key), getattr(preset.defaults, spec.key)
        if mine == theirs or spec.kind == "resets":
            continue
        if spec.kind == "bool":
            query[f"opt-{spec.key}"] = "yes" if mine else "no"
        else:
            query[f"opt-{spec.key}"] = str(_plain_value(mine))
    return query


def _plain_value(value: Any) -> Any:
    return value.value if hasattr(value, "value") else value
