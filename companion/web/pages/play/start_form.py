"""The start form: seats, the rule set and its options, who starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core.errors import RuleError
from companion.core.rules import DEFAULT_RULESET, OPTION_SPECS, RULESETS
from companion.core.series import MAX_NAME_LENGTH
from companion.i18n import gettext
from companion.web.pages.play.form_values import whole

START_SEATS = 4
MAX_SEATS = 12  # more seats than any rule set allows, so the core's message about the count is the one shown
MAX_OPTION_LENGTH = 40


@dataclass
class StartForm:
    names: list[str] = field(default_factory=lambda: [""] * START_SEATS)
    ruleset: str = DEFAULT_RULESET
    options: dict[str, str] = field(default_factory=dict)
    starter: str = "lot"
    errors: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, form: Any) -> StartForm:
        # Names are cut well past the limit, so the core still sees (and refuses) one that is too long.
        names = [n[: 4 * MAX_NAME_LENGTH] for n in form.getlist("name")][:MAX_SEATS] or [""] * START_SEATS
        ruleset = form.get("ruleset", DEFAULT_RULESET)
        options = {spec.key: form.get(f"opt-{spec.key}", "").strip()[:MAX_OPTION_LENGTH] for spec in OPTION_SPECS}
        return cls(names, ruleset if ruleset in RULESETS else DEFAULT_RULESET,
                   {k: v for k, v in options.items() if v}, form.get("starter", "lot"))

    def apply(self, op: str) -> None:
        """Seat edits without JavaScript: add, remove, move up."""
        what, _, index = op.partition("-")
        i = whole(index, -1)
        if what == "add" and len(self.names) < MAX_SEATS:
            self.names.append("")
        elif what == "remove" and 0 <= i < len(self.names) and len(self.names) > 2:
            del self.names[i]
        elif what == "up" and 0 < i < len(self.names):
            self.names[i - 1], self.names[i] = self.names[i], self.names[i - 1]
        self.starter = "lot"

    def chosen_starter(self) -> str | None:
        i: int = whole(self.starter, -1)
        if 0 <= i < len(self.names) and self.names[i].strip():
            return self.names[i]
        return None

    def filled_names(self) -> list[str]:
        return [n for n in self.names if n.strip()]

    def option_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for spec in OPTION_SPECS:
            raw = self.options.get(spec.key)
            if not raw:
                continue
            key = f"opt-{spec.key}"
            if spec.kind == "bool":
                values[spec.key] = raw == "yes"
            elif spec.kind == "choice":
                match = [c for c in spec.choices if str(c) == raw]
                if not match:
                    self.errors[key] = gettext("Choose one of the listed values.")
                else:
                    values[spec.key] = match[0]
            elif spec.kind == "int":
                number = whole(raw)
                if number is not None:
                    values[spec.key] = number
                else:
                    self.errors[key] = gettext("Write a whole number, such as 20.")
            else:
                resets = parse_resets(raw)
                if resets is None:
                    self.errors[key] = gettext("Write pairs like “101 → 0, 100 → 50”, or “none”.")
                else:
                    values[spec.key] = resets
        return values

    def refused(self, error: RuleError, message: str) -> None:
        """Place a refusal of the core next to the field it concerns."""
        field = error.field or ""
        if field.startswith("option:"):
            # next to its field, whose label names the option: say what to write, not the option's key
            if "min" in error.params and "max" in error.params:
                message = gettext(
                    "Write a whole number from %(min)s to %(max)s.", min=error.params["min"], max=error.params["max"]
                )
            elif field == "option:resets":
                message = gettext("Write pairs like “101 → 0, 100 → 50”, or “none”.")
            elif "choices" in error.params or "true or false" in error.template:
                message = gettext("Choose one of the listed values.")
            self.errors["opt-" + field.removeprefix("option:")] = message
        elif field == "ruleset":
            self.errors["ruleset"] = message
        else:
            self.errors["names"] = message


def parse_resets(text: str) -> dict[str, int] | None:
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
