"""What the tests of each tuning round's phrasings share (test_spoken_phrasings11/12/13): a four-player table under
igrafan, Борис's hand said between a fixed start and rest of the round, and the hands as the bench writes them."""

from __future__ import annotations

from companion.core.rules import get_ruleset
from companion.language.dictation import parse
from companion.language.settle import ParsedRound

IGRAFAN = get_ruleset("igrafan").defaults
TABLE = ["Аня", "Борис", "Света", "Кира"]
START = "аня вышла на тузе пик "
REST = " у светы девятка у киры валет"


def hands(r: ParsedRound) -> dict[str, list[str]]:
    """Each hand as the bench writes it: a card whose suit was assumed is its rank alone."""
    return {p: sorted(s.rank.value if s.assumed else s.text for s in slots) for p, slots in r.hands.items() if slots}


def read(boris: str) -> ParsedRound:
    """Борис's hand said between a fixed start and rest of the round."""
    return parse(START + boris + REST, TABLE, IGRAFAN)
