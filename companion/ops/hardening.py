"""The parse layer in front of the core: hostile input is refused with a clear 400, never a 500.

- JSON bodies: nested at most MAX_DEPTH levels (a 2 KB body of 1,000 brackets
  used to overflow Python's recursion), no lone surrogates ("\\ud800" is not
  text and cannot be stored), no NaN/Infinity, integers within ±MAX_INT
  (points, options and versions are small; a 30-digit reset value used to be
  stored as is).
- Numbers in headers and query strings: ASCII digits only (`"²".isdigit()` is
  true in Python, but int("²") fails).
"""

from __future__ import annotations

import json
import math
from typing import Any

from flask import Flask, Response

from companion.core.errors import N_, Msg
from companion.i18n import gettext

MAX_DEPTH = 32
MAX_INT = 1_000_000


class InputRefused(Exception):
    """Input no field of the app could hold; answered 400 with the message (not a ValueError, so
    `get_json(silent=True)` does not swallow it into a vaguer message)."""

    def __init__(self, template: Msg, **params: Any) -> None:
        super().__init__(template % params if params else template)
        self.template, self.params = template, params


def _refuse_constant(name: str) -> Any:
    raise InputRefused(N_("The JSON holds %(value)s, which is not a number; send a plain number."), value=name)


def check_value(data: Any) -> None:
    """Walk a parsed JSON value without recursion; raise InputRefused for what no field can hold."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                raise InputRefused(N_("The JSON is nested too deeply: at most %(max)s levels."), max=MAX_DEPTH)
            if isinstance(value, dict):
                for key, item in value.items():
                    _check_text(key)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            _check_text(value)
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            if not -MAX_INT <= value <= MAX_INT:
                raise InputRefused(N_("The number %(number)s is far too large; numbers here lie between "
                                      "−%(max)s and %(max)s."), number=_short(value), max=MAX_INT)
        elif isinstance(value, float) and not math.isfinite(value):
            raise InputRefused(N_("The JSON holds %(value)s, which is not a number; send a plain number."),
                               value=str(value))


def _short(number: int) -> str:
    digits = str(abs(number))
    sign = "−" if number < 0 else ""
    return f"{sign}{digits}" if len(digits) <= 12 else f"{sign}{digits[:6]}…({len(digits)} digits)"


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputRefused(N_("A text in the request holds a lone surrogate (such as \\ud800), which is not a "
                              "character; send the text as plain UTF-8.")) from None


class _StrictJSON:
    """What `Request.get_json` parses request bodies with: json.loads plus the checks above."""

    @staticmethod
    def loads(s: str | bytes, **kwargs: Any) -> Any:
        try:
            data = json.loads(s, parse_constant=_refuse_constant, **kwargs)
        except RecursionError:
            raise InputRefused(N_("The JSON is nested too deeply: at most %(max)s levels."), max=MAX_DEPTH) from None
        check_value(data)
        return data


def strict_loads(text: str | bytes) -> Any:
    """A JSON document parsed as request bodies are (an uploaded import file too): InputRefused for what
    no field can hold (too deep, a lone surrogate, NaN, a huge number), ValueError for what is not JSON."""
    return _StrictJSON.loads(text)




def ascii_int(text: str | None) -> int | None:
    """A whole number written in ASCII digits (an optional minus sign), else None."""
    if text is None:
        return None
    digits = text.strip()
    body = digits.removeprefix("-")
    if not body or not body.isascii() or not body.isdigit() or len(body) > 15:
        return None
    return int(digits)


def refused(error: InputRefused) -> Response:
    params = {k: gettext(v) if isinstance(v, Msg) else v for k, v in error.params.items()}
    message = gettext(error.template) % params if params else gettext(error.template)
    from companion.web.errors import answer

    return answer(400, "bad-request", message, title=gettext("Refused"))


def init_app(app: Flask) -> None:
    """Parse request bodies strictly, and answer refused input with a clear 400.

    Call after the extensions that set their own request class (htmx-flask): this subclasses it, so
    only request bodies are parsed strictly (responses and sessions keep Flask's own JSON)."""
    # Flask's request context sets `request.json_module = app.json` on each request: keep ours.
    strict = property(lambda self: _StrictJSON, lambda self, value: None)
    app.request_class = type("StrictRequest", (app.request_class,), {"json_module": strict})
    app.register_error_handler(InputRefused, refused)
