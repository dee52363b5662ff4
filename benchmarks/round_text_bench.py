"""The round-from-text parser on the evaluation set (issue 10).

Prints the share of descriptions parsed exactly, for the tuning and the held-out
split and per language, and the taps a dictated round saves against the grid.
Exact: same winner, finishing card, hands (a card said without a suit where the
suit does not change the points may have any suit, but must be reported as
assumed; where it does, the parser must return rank + "?"), and the same
unrecognised words.

    python benchmarks/round_text_bench.py [--show-failures]
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.core.rules import get_ruleset  # noqa: E402
from companion.language.dictation import parse, parse_round_text  # noqa: E402

CASES = Path(__file__).parent / "round_text_eval" / "cases.toml"
GRID_TAPS = 17  # benchmarks/ui_taps.py: a 4-player round with 12 leftover cards
VOICE_TAPS = 3  # the field, the keyboard's microphone, save


def load() -> list[dict]:
    with CASES.open("rb") as f:
        return tomllib.load(f)["case"]


def got_card(slot) -> str:
    """What the parse says about one card, in the notation of the expectations."""
    if slot.suit is None:
        return f"{slot.rank.value}?"
    return slot.rank.value if slot.assumed else slot.text


def check(case: dict) -> list[str]:
    ruleset = get_ruleset(case.get("ruleset", "igrafan"))
    options = ruleset.options(case.get("options"))
    result = parse(case["text"], case["players"], options)
    problems = []
    if result.winner != case.get("winner"):
        problems.append(f"winner {result.winner!r} ≠ {case.get('winner')!r}")
    finish = got_card(result.finishing) if result.finishing else None
    if finish != case.get("finishing_card"):
        problems.append(f"finishing {finish!r} ≠ {case.get('finishing_card')!r}")
    want = {p: Counter(cards) for p, cards in case.get("hands", {}).items()}
    got = {p: Counter(got_card(s) for s in slots) for p, slots in result.hands.items() if slots}
    if got != want:
        problems.append(
            f"hands { {p: sorted(c.elements()) for p, c in got.items()} } ≠ "
            f"{ {p: sorted(c.elements()) for p, c in want.items()} }"
        )
    if sorted(result.unrecognised) != sorted(case.get("unrecognised", [])):
        problems.append(f"unrecognised {result.unrecognised} ≠ {case.get('unrecognised', [])}")
    cards = [
        s.card
        for s in result.assumed + [s for ss in result.hands.values() for s in ss if not s.assumed]
        if s.card is not None
    ]
    if result.finishing is not None and result.finishing.card is not None and not result.finishing.assumed:
        cards.append(result.finishing.card)
    if len(cards) != len(set(cards)):
        problems.append("the same card twice")
    return problems


def main() -> int:
    show = "--show-failures" in sys.argv
    cases = load()
    score: dict[str, list[int]] = {}
    for case in cases:
        problems = check(case)
        lang = case["id"][:2]
        for key in (case["split"], f"{case['split']} {lang}", "all"):
            score.setdefault(key, [0, 0])
            score[key][0] += not problems
            score[key][1] += 1
        if problems and show:
            print(f"✗ {case['id']} ({case['split']}): {case['text']}")
            for p in problems:
                print(f"    {p}")
    print(
        f"round-from-text evaluation set: {len(cases)} descriptions "
        f"({score['tune'][1]} tuning, {score['held'][1]} held out)"
    )
    for key in ("tune", "tune ru", "tune en", "held", "held ru", "held en", "all"):
        if key in score:
            ok, n = score[key]
            print(f"  {key:8} exact {ok:2}/{n:2} = {100 * ok / n:5.1f} %")
    global parse
    with_morphology = parse
    parse = lambda text, players, options: parse_round_text(text, players, options)  # noqa: E731
    plain = sum(not check(case) for case in cases)
    parse = with_morphology
    print(f"  without pymorphy3 (vocabulary and name endings only): exact {plain}/{len(cases)}")
    print(
        f"taps for a 4-player round with 12 leftover cards: grid {GRID_TAPS}, voice {VOICE_TAPS} "
        f"(saves {GRID_TAPS - VOICE_TAPS} taps) when the parse needs no question"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
