"""Reading what a form field holds."""

from __future__ import annotations

from typing import Any


def whole(text: str, default: Any = None) -> Any:
    """A whole number written in ASCII digits (an optional minus), else `default`."""
    digits = text.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        return default
    return int(text.strip())
