"""Properties of the simulator: cards are conserved, every play is the referee's, every round is a valid round."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.cards import deck
from companion.core.referee import check_play
from companion.core.rules import PLAY_OPTION_KEYS, RULESETS, SPECS_BY_KEY, RuleSet
from companion.core.series import RoundInput, SeriesSetup, replay
from companion.core.simulator import Draw, Pass, Play, RoundOutcome, Table, simulate_round


@st.composite
def house_rules(draw: st.DrawFn, preset: RuleSet) -> RuleSet:
    """The preset with a random choice of play options (RULES.md §7), as a table may set them."""
    keys = draw(st.lists(st.sampled_from(PLAY_OPTION_KEYS), unique=True, max_size=6))
    changes = {}
    for key in keys:
        spec = SPECS_BY_KEY[key]
        changes[key] = draw(st.sampled_from(spec.choices if spec.kind == "choice" else (False, True)))
    return preset.with_options(changes)


@st.composite
def tables(draw: st.DrawFn) -> tuple[RuleSet, int, int, int]:
    ruleset = draw(house_rules(RULESETS[draw(st.sampled_from(sorted(RULESETS)))]))
    players = draw(st.integers(ruleset.min_players, min(6 if ruleset.defaults.deck == 52 else 4,
                                                        ruleset.most_players)))
    seed = draw(st.integers(0, 2**32 - 1))
    starter = draw(st.integers(0, players - 1))
    return ruleset, players, seed, starter


FAST = settings(max_examples=60, deadline=None)


@FAST
@given(tables())
def test_no_card_is_lost_or_duplicated_at_any_step(table: tuple[RuleSet, int, int, int]) -> None:
    ruleset, players, seed, starter = table
    full = Counter(deck(ruleset.defaults.deck))
    steps = 0

    def conserve(t: Table) -> None:
        nonlocal steps
        steps += 1
        assert Counter(t.cards()) == full  # every card exactly once: in a hand, the pile or the discards

    outcome = simulate_round(ruleset, players, seed, starter, observe=conserve)
    assert steps > len(outcome.plays)  # the deal, then at least every play


@FAST
@given(tables())
def test_every_play_is_legal_and_its_verdict_is_applied(table: tuple[RuleSet, int, int, int]) -> None:
    ruleset, players, seed, starter = table
    outcome = simulate_round(ruleset, players, seed, starter)
    log = list(outcome.log)
    for i, event in enumerate(log):
        if not isinstance(event, Play):
            continue
        again = check_play(ruleset, players, event.top, event.card, event.ordered_suit,
                           covering=event.covering, pending_draw=event.pending_draw, clockwise=event.clockwise,
                           penalty_pending=event.penalty_pending, also=event.also)
        assert again.legal, again.message
        assert (again.next_draws, again.next_turn, again.penalty_pending, again.must_cover, again.clockwise) == (
            event.verdict.next_draws, event.verdict.next_turn, event.verdict.penalty_pending,
            event.verdict.must_cover, event.verdict.clockwise)
        rest = log[i + 1:]
        step = 1 if again.clockwise else -1
        if again.next_draws and not again.penalty_pending:
            # The next player in the direction of play draws at once (only what exists).
            assert rest, "a penalty is never skipped, not even after the last card"
            penalty = rest.pop(0)
            assert isinstance(penalty, Draw) and penalty.penalty
            assert penalty.seat == (event.seat + step) % players
            assert penalty.count <= again.next_draws
        laid = event.also[-1] if event.also else event.card  # several at once: the last one laid is on top
        if (rest and isinstance(rest[0], Draw) and rest[0].seat == event.seat and not rest[0].penalty
                and laid.rank.value in ruleset.cannot_finish_on and not again.must_cover):
            rest.pop(0)  # a last card the round may not end on (a queen without finish_on_queen): draw one
        if not rest:  # the last card, or a redeal called at the next turn
            assert outcome.redeal or outcome.finishing_card == laid
            continue
        # Whoever acts next sits at next_turn (clockwise) from the player who played.
        assert rest[0].seat == (event.seat + again.next_turn) % players
        if again.penalty_pending:
            taken = rest[0]  # passed on with the same rank, or drawn
            if isinstance(taken, Play):
                assert taken.card.rank is event.card.rank and taken.pending_draw == again.next_draws
            elif again.next_draws == 0:  # an ace that may be answered: not answered, the turn is skipped
                assert isinstance(taken, Pass) and laid.rank.value == "A"
            else:
                assert isinstance(taken, Draw) and taken.penalty and taken.count <= again.next_draws


@FAST
@given(tables())
def test_every_round_is_a_valid_round_for_the_series(table: tuple[RuleSet, int, int, int]) -> None:
    ruleset, players, seed, starter = table
    outcome = simulate_round(ruleset, players, seed, starter)
    options = ruleset.defaults.changes_from(RULESETS[ruleset.id].defaults)  # the same house rules
    setup = SeriesSetup.create(list(outcome.players), ruleset.id, options or None)
    entry = RoundInput.from_json(outcome.to_round_json(), setup)
    standings = replay(setup, [entry])
    assert len(standings.rounds) == 1
    if outcome.redeal:
        assert outcome.redeal_reason in ("four-of-a-kind", "deadlock", "last-card-uncovered", "repetition")
        assert all(v == 0 for v in standings.totals.values())
        return
    assert outcome.winner is not None and outcome.finishing_card is not None
    assert outcome.hands[outcome.winner] == ()
    last = outcome.plays[-1]
    assert outcome.finishing_card == (last.also[-1] if last.also else last.card)
    assert outcome.finishing_card.rank.value not in ruleset.cannot_finish_on
    points = outcome.leftover_points(setup.options)
    result = standings.rounds[0]
    for player, value in points.items():
        assert result.points[player] == value


def test_same_seed_same_round() -> None:
    for ruleset in RULESETS.values():
        players = min(3, ruleset.max_players)
        a, b = (simulate_round(ruleset, players, 1234) for _ in range(2))
        assert (a.to_round_json(), a.turns, a.log) == (b.to_round_json(), b.turns, b.log)


def test_dealing() -> None:
    """Hand sizes after the deal; a classic table card lies face up and the dealer keeps one fewer."""
    for ruleset in RULESETS.values():
        sizes: list[list[int]] = []

        def first(t: Table, sizes: list[list[int]] = sizes) -> None:
            if not sizes:
                sizes.append([len(h) for h in t.hands] + [len(t.discard)])

        simulate_round(ruleset, 2, 7, starter=1, observe=first)
        size = ruleset.defaults.hand_size
        if ruleset.play.table_card:
            assert sizes[0] == [size - 1, size, 1]  # seat 0 dealt, seat 1 covers the table card
        else:
            assert sizes[0] == [size, size, 0]


def test_redeal_reasons_occur_and_rounds_end() -> None:
    """A few hundred seeded rounds per set: all end, the usual way, with the odd redeal."""
    for ruleset in RULESETS.values():
        outcomes: list[RoundOutcome] = [
            simulate_round(ruleset, 2 + seed % (min(4, ruleset.max_players) - 1), seed) for seed in range(150)
        ]
        assert sum(not o.redeal for o in outcomes) > 100
        for o in outcomes:
            assert o.redeal or sum(len(h) for h in o.hands.values()) <= ruleset.defaults.deck - 1
            assert all(isinstance(e, (Play, Draw, Pass)) for e in o.log)
