"""The round form: who went out and on which card, everyone's leftover cards or typed points."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core.errors import RuleError, field_player
from companion.core.series import Standings
from companion.i18n import gettext
from companion.service.series import Series
from companion.web.pages.play.form_values import whole
from companion.web.present import round_say

MAX_CARD_TEXT = 4  # "10♣️" and the like: longer is not a card
MAX_HAND = 60
MAX_POINTS_TEXT = 9


@dataclass
class RoundForm:
    n: int | None  # None: a new round
    version: int
    winner: int | None = None
    finish: str = ""
    hands: dict[int, list[str]] = field(default_factory=dict)
    points: dict[int, str] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    say: str = ""  # the round as said or typed in the text field
    said: str = ""  # the text the grid was last filled from (by the page's script)

    @classmethod
    def read(cls, form: Any, series: Series, n: int | None) -> RoundForm:
        count = len(series.setup.players)
        w = whole(form.get("winner", ""))
        rf = cls(n, whole(form.get("version", ""), series.version),
                 w if w is not None and 0 <= w < count else None,
                 form.get("finishing_card", "")[:MAX_CARD_TEXT])
        for i in range(count):
            cards = [c[:MAX_CARD_TEXT] for c in form.getlist(f"hand-{i}")][:MAX_HAND]
            if cards:
                rf.hands[i] = cards
            typed = form.get(f"points-{i}", "").strip()[:MAX_POINTS_TEXT]
            if typed:
                rf.points[i] = typed
        rf.say, rf.said = form.get("say", "")[:round_say.MAX_SAY], form.get("said", "")[:round_say.MAX_SAY]
        return rf

    def read_text(self, series: Series, before: Standings) -> dict[str, Any]:
        """The text field as the reader understands it (round_say.fill), the grid untouched."""
        return round_say.fill(self.say, series.setup.players, before.in_play, series.setup.options)

    def fill_from_text(self, series: Series, before: Standings, said: dict[str, Any] | None = None) -> dict[str, Any]:
        """Tick the grid from the text field; what was not understood or must be asked comes back."""
        said = said or self.read_text(series, before)
        if said["winner"] is not None:
            self.winner = said["winner"]
        if said["finish"]:
            self.finish = said["finish"]
        for i, codes in said["hands"].items():
            self.hands[i] = codes
            self.points.pop(i, None)
        self.said = self.say
        return dict(said["view"])

    @classmethod
    def of_entry(cls, series: Series, n: int) -> RoundForm:
        entry = series.entries[n - 1]
        players = list(series.setup.players)
        return cls(
            n, series.version,
            players.index(entry.winner) if entry.winner else None,
            entry.finishing_card.code if entry.finishing_card else "",
            {players.index(p): [c.code for c in cards] for p, cards in entry.hands.items()},
            {players.index(p): str(v) for p, v in entry.typed_points.items()},
        )

    def error(self, key: str, message: str) -> None:
        messages = self.errors.setdefault(key, [])
        if message not in messages:
            messages.append(message)

    def data(self, series: Series, before: Standings) -> dict[str, Any]:
        """The round body for the series service: hands of everyone in play but the winner, or their typed points."""
        players = series.setup.players
        body: dict[str, Any] = {"winner": players[self.winner] if self.winner is not None else None,
                                "finishing_card": self.finish or None, "hands": {}, "typed_points": {}}
        for i, player in enumerate(players):
            typed = self.points.get(i)
            if typed is not None:
                value = whole(typed)
                if value is not None:
                    body["typed_points"][player] = value
                else:
                    self.error(f"p{i}", gettext("Write the points as a whole number, such as 27."))
            in_play = player in before.in_play
            if i in self.hands or (in_play and i != self.winner and typed is None):
                body["hands"][player] = list(self.hands.get(i, []))
        return body

    def used_cards(self) -> dict[str, str]:
        """Card code → where it is used ("p2" or "finish"), for greying it out elsewhere."""
        used = {code: f"p{i}" for i, codes in self.hands.items() for code in codes}
        if self.finish:
            used[self.finish] = "finish"
        return used


def error_field(error: RuleError, series: Series) -> str:
    """Which field of the round form an error from the core is about: by the error's `field` alone."""
    if error.field == "winner":
        return "winner"
    if error.field == "finishing_card":
        return "finish"
    player = field_player(error.field)
    if player in series.setup.players:
        return f"p{series.setup.players.index(player)}"
    return "form"
