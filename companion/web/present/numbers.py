"""Numbers as the pages print them: the true minus sign (U+2212), not a hyphen.

Data stays plain (JSON and CSV keep "-40", which every program reads); what a
person reads on a page or in a sentence uses these.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("numbers", __name__)

MINUS = "\u2212"


@bp.app_template_filter("minus")
def minus(value: Any) -> str:
    """-40 → "−40"; anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return f"{MINUS}{-value}"
    return str(value)


@bp.app_template_filter("signed")
def signed(value: Any) -> str:
    """A change with its sign: +5, −40, +0."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{MINUS}{-value}" if value < 0 else f"+{value}"
    return str(value)
