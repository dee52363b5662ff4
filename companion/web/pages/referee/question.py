"""The play checker's form: may `card` go on `top` (after a queen, with the suit named) in this rule set."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.core.cards import Card, Rank, Suit
from companion.core.errors import RuleError
from companion.core.referee import PlayVerdict, carries_penalty, check_play
from companion.core.rules import RuleSet
from companion.i18n import gettext
from companion.service.series import Series
from companion.web.pages.referee.ruleset_choice import rules_query, ruleset_in_force
from companion.web.pages.referee.verdict import rule_message
from companion.web.present.cards import card_or_none, suit_or_none


@dataclass
class RefereeQuestion:
    """What the form asks: may `card` go on `top` (after a queen, with the suit named) in this rule set."""

    ruleset: RuleSet
    players: int
    top: Card | None = None
    suit: Suit | None = None
    card: Card | None = None
    pending: bool = True  # the top card was just played: its penalty is still to be taken
    series: Series | None = None  # asked from a series: its rule set, options and deck
    problems: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, values: Mapping[str, str]) -> RefereeQuestion:
        rs, series = ruleset_in_force(values)
        most = rs.most_players
        raw = values.get("players", "")
        seated = len(series.standings.in_play) if series is not None else min(3, most)
        players = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 3 else seated
        players = max(rs.min_players, min(most, players))
        deck_size = rs.defaults.deck
        return cls(rs, players, card_or_none(values.get("top"), deck_size), suit_or_none(values.get("suit")),
                   card_or_none(values.get("card"), deck_size), values.get("pending") != "0", series)

    @property
    def asks_pending(self) -> bool:
        """Whether the top card leaves a penalty (or an ace's skip) that may still be pending."""
        return self.top is not None and carries_penalty(self.ruleset, self.top)

    @property
    def needs_suit(self) -> bool:
        return self.top is not None and self.top.rank is Rank.QUEEN

    def query(self) -> dict[str, str]:
        data = {**rules_query(self.ruleset, self.series), "players": str(self.players)}
        if self.top:
            data["top"] = self.top.code
        if self.suit and self.needs_suit:
            data["suit"] = self.suit.letter
        if self.card:
            data["card"] = self.card.code
        if self.asks_pending and not self.pending:
            data["pending"] = "0"
        return data

    def check(self) -> tuple[PlayVerdict | None, str]:
        """The verdict, or what is still missing or wrong (a sentence), when the question is not complete."""
        if self.top is None:
            return None, gettext("Tap the top card of the pile.")
        pending = self.asks_pending and self.pending
        if self.needs_suit and self.suit is None and not pending:
            return None, gettext("Which suit was named with the queen?")
        if self.card is None:
            return None, gettext("Now tap the card to be played.")
        try:
            return check_play(self.ruleset, self.players, self.top, self.card,
                              self.suit if self.needs_suit and not pending else None,
                              penalty_pending=pending), ""
        except RuleError as error:
            return None, rule_message(error.template, error.params)
