"""The options of a rule set in words and as form values: the one place that says an option.

Nothing here decides a rule: every value is read from `core.rules` (the preset and the
options in force). This module says it in the reader's language (`value_text`), writes it
as a form or URL value and reads it back (`form_value`, `read_form_value`), and lists what
a table changed from its preset (`changed_options`, `house_rules`, `option_query`).
Pages, the start form, the share link and the API all use these.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.rules import OPTION_SPECS, SPECS_BY_KEY, Options, OptionSpec, RuleSet, get_ruleset
from companion.i18n import gettext, in_both_languages
from companion.service.house_rules import HouseRules, changed_options, code_of
from companion.service.series import Series


def whole(text: str) -> int | None:
    """A whole number written in ASCII digits (an optional minus), as the play forms read one."""
    from companion.web.pages.play.form_values import whole as read_whole  # late: the play pages import this module

    number: int | None = read_whole(text)
    return number


def both_languages(message: str) -> dict[str, str]:
    """A message id in every language of the app, e.g. for the JSON API (from the catalogs)."""
    return in_both_languages(message)


def option_spec_json(spec: OptionSpec) -> dict[str, Any]:
    data = spec.to_json()
    data["label"] = both_languages(spec.label)
    if spec.choice_labels:
        data["choice_labels"] = [both_languages(m) for m in spec.choice_labels]
    return data


def _pairs(value: Any) -> list[tuple[Any, Any]]:
    """Resets as (total, new total) pairs, from `Options` (pairs) or JSON (an object)."""
    return list(value.items()) if isinstance(value, Mapping) else list(value)


def value_text(spec: OptionSpec, value: Any) -> str:
    """An option's value as the reader says it ("draw one and pass", "4 cards", "101 → 0", "yes")."""
    label = spec.value_label(value)
    if label is not None:
        return gettext(label)
    if spec.kind == "resets":
        return ", ".join(f"{old} → {new}" for old, new in _pairs(value)) or gettext("none")
    if spec.kind == "bool":
        return gettext("yes") if value else gettext("no")
    return str(getattr(value, "value", value))


def form_value(spec: OptionSpec, value: Any) -> str:
    """An option's value as a form or URL writes it (“yes”, “next-draws-1”, “101 → 0, 100 → 50”, “none”)."""
    if spec.kind == "bool":
        return "yes" if value else "no"
    if spec.kind == "resets":
        return ", ".join(f"{old} → {new}" for old, new in _pairs(value)) or "none"
    return str(getattr(value, "value", value))


def read_form_value(spec: OptionSpec, raw: str) -> tuple[bool, Any]:
    """A form or URL value back as the option's JSON value: (read, value); (False, None) if unreadable."""
    if spec.kind == "bool":
        return (raw in ("yes", "no"), raw == "yes")
    if spec.kind == "choice":
        match = [c for c in spec.choices if str(c) == raw]
        return (True, match[0]) if match else (False, None)
    if spec.kind == "int":
        number = whole(raw)
        return (number is not None, number)
    resets = parse_resets(raw)
    return (resets is not None, resets)


def parse_resets(text: str) -> dict[str, int] | None:
    """“101 → 0, 100 → 50” (or “none”) as the `resets` option's JSON object."""
    if text.strip().lower() in ("none", "нет", "-", "—"):
        return {}
    pairs: dict[str, int] = {}
    for part in text.replace(";", ",").split(","):
        for arrow in ("→", "->", "=", ":"):
            part = part.replace(arrow, " ")
        bits = part.split()
        if len(bits) != 2 or not all(whole(b) is not None for b in bits):
            return None
        pairs[str(int(bits[0]))] = int(bits[1])
    return pairs


def form_options(ruleset: RuleSet, options: Options | None = None) -> dict[str, str]:
    """The start form's option fields for these rules: filled where they differ from the preset."""
    return {key: form_value(SPECS_BY_KEY[key], value) for key, value in changed_options(ruleset, options).items()}


def house_rules(ruleset: RuleSet) -> list[dict[str, Any]]:
    """The options in force that differ from the preset's defaults: label, value, the preset's value."""
    preset = get_ruleset(ruleset.id).defaults.to_json()
    return [{"key": key, "label": gettext(SPECS_BY_KEY[key].label), "value": value_text(SPECS_BY_KEY[key], value),
             "default": value_text(SPECS_BY_KEY[key], preset[key])}
            for key, value in changed_options(ruleset).items()]


def option_query(ruleset: RuleSet) -> dict[str, str]:
    """The options in force that differ from the preset, as `opt-<key>` URL parameters."""
    return {f"opt-{key}": form_value(SPECS_BY_KEY[key], value) for key, value in changed_options(ruleset).items()}


def rules_lines(rules: HouseRules) -> list[tuple[str, str]]:
    """(label, value) of every option the table changed, in the start form's words."""
    return [
        (str(gettext(spec.label)), value_text(spec, rules.changes[spec.key]))
        for spec in OPTION_SPECS
        if spec.key in rules.changes
    ]


def series_rules_lines(series: Series) -> list[tuple[str, str]]:
    """The options a series changed from its rule set, in words (nothing stored)."""
    ruleset = get_ruleset(series.setup.ruleset.id)
    changes = changed_options(ruleset, series.setup.options)
    return rules_lines(HouseRules(code_of(ruleset.id, changes), ruleset, changes))
