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


def player_field(player: str) -> str:
    """The `field` of an error about one player's hand or points."""
    return f"player:{player}"


def option_field(key: str) -> str:
    """The `field` of an error about one option."""
    return f"option:{key}"


def field_player(field: str | None) -> str | None:
    """The player a `field` names, if it names one."""
    return field.removeprefix("player:") if field and field.startswith("player:") else None


class RuleError(ValueError):
    """Input refused by the rules; the message says what was wrong and how to fix it."""

    code = "refused"
    # The input it concerns: "winner", "finishing_card", "player:<name>" (that player's hand or points),
    # "option:<key>"; None when it is about the whole input. Forms place a message by this alone.
    field: str | None = None

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


class CardError(RuleError):
    code = "invalid-card"


class OptionError(RuleError):
    code = "invalid-option"

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template, **params)
        key = params.get("key")
        self.field = option_field(key) if isinstance(key, str) else "ruleset"


class SeriesSetupError(RuleError):
    code = "invalid-series"


class RoundError(RuleError):
    code = "invalid-round"

    def __init__(self, template: str, *, round_no: int | None = None, field: str | None = None,
                 **params: Any) -> None:
        self.round_no = round_no
        player = params.get("player")
        self.field = field if field is not None else player_field(player) if isinstance(player, str) else None
        super().__init__(template, **params)


class SeriesFinishedError(RoundError):
    code = "series-finished"


class PlayError(RuleError):
    code = "invalid-play"


class FormatError(RuleError):
    """The request is not of the expected shape (wrong type, missing field)."""

    code = "bad-request"
