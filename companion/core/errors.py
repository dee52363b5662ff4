"""Precise exceptions of the rules core.

Every error carries a message *template* (English, ``%(name)s`` placeholders)
and its parameters, so the web layer can translate the template with gettext
and fill in the same parameters. ``str(error)`` is the English message.
"""

from __future__ import annotations

from typing import Any


class Msg(str):
    """A message template still to be translated (the web layer runs gettext on it)."""


def N_(message: str) -> Msg:
    """Mark a message for translation without translating it (read by pybabel)."""
    return Msg(message)


class RuleError(ValueError):
    """Input refused by the rules; the message says what was wrong and how to fix it."""

    code = "refused"
    field: str | None = None  # the input it concerns, where that is not a player: "winner", "finishing_card"

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class CardError(RuleError):
    code = "invalid-card"


class OptionError(RuleError):
    code = "invalid-option"


class SeriesSetupError(RuleError):
    code = "invalid-series"


class RoundError(RuleError):
    code = "invalid-round"

    def __init__(self, template: str, *, round_no: int | None = None, field: str | None = None,
                 **params: Any) -> None:
        self.round_no = round_no
        self.field = field
        super().__init__(template, **params)


class SeriesFinishedError(RoundError):
    code = "series-finished"


class PlayError(RuleError):
    code = "invalid-play"


class FormatError(RuleError):
    """The request is not of the expected shape (wrong type, missing field)."""

    code = "bad-request"
