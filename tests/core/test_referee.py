"""The referee's rules one by one, with the exact next_draws and next_turn (RULES.md §2, §3)."""

from __future__ import annotations

import itertools

import pytest

from companion.core.cards import Card, Suit, deck, parse_card
from companion.core.errors import FormatError, PlayError
from companion.core.referee import PlayVerdict, check_play, playable
from companion.core.rules import RULESETS


def play(
    ruleset_id: str, players: int, top: str | None, card: str, ordered: str | None = None, **kw: object
) -> PlayVerdict:
    return check_play(
        RULESETS[ruleset_id],
        players,
        parse_card(top) if top else None,
        parse_card(card),
        Suit(ordered) if ordered else None,
        **kw,  # type: ignore[arg-type]
    )


def effect(v: PlayVerdict) -> tuple[bool, int, int]:
    return v.legal, v.next_draws, v.next_turn


# -- matching -----------------------------------------------------------------


@pytest.mark.parametrize("rs", list(RULESETS))
def test_queen_goes_on_any_card(rs: str) -> None:
    for top in deck():
        if top.rank.value == "Q" or top == parse_card("Q♣"):
            continue
        v = play(rs, 2, str(top), "Q♣", covering=False, penalty_pending=False)
        assert v.legal and v.faq == "queen-wild", top


def test_plain_matching() -> None:
    assert effect(play("igrafan", 3, "9♥", "J♥")) == (True, 0, 1)
    assert effect(play("igrafan", 3, "9♥", "9♣")) == (True, 0, 1)
    v = play("igrafan", 3, "9♥", "J♣")
    assert effect(v) == (False, 0, 0) and v.faq == "no-playable-card"
    assert "play a ♥ card, a 9 or a queen" in v.message


@pytest.mark.parametrize(("top", "card"), [("9♥", "J♦"), ("9♦", "K♥"), ("8♠", "10♣"), ("A♣", "7♠")])
def test_same_colour_does_not_match(top: str, card: str) -> None:
    v = play("igrafan", 4, top, card)
    assert not v.legal and v.faq == "same-colour"
    assert "same colour is not enough" in v.message


def test_after_a_queen_only_the_named_suit_or_a_queen() -> None:
    assert effect(play("igrafan", 3, "Q♥", "9♦", "♦")) == (True, 0, 1)
    v = play("igrafan", 3, "Q♥", "9♥", "♦")  # the queen's own suit no longer counts
    assert not v.legal and v.faq == "queen-wild" and "named was ♦" in v.message
    v = play("igrafan", 3, "Q♥", "Q♠", "♦")
    assert v.legal and v.faq == "queen-on-queen"


# -- special cards --------------------------------------------------------------


@pytest.mark.parametrize(
    ("rs", "players", "draws", "turn"),
    [
        ("igrafan", 2, 2, 0),
        ("igrafan", 3, 2, 2),
        ("igrafan", 4, 2, 2),
        ("classic", 3, 2, 2),
        ("pharaoh", 2, 2, 0),
        ("elimination", 3, 2, 1),
        ("elvista", 4, 2, 1),  # may be passed on: the next player still acts
    ],
)
def test_seven(rs: str, players: int, draws: int, turn: int) -> None:
    v = play(rs, players, "9♥", "7♥")
    assert effect(v) == (True, draws, turn)
    assert v.penalty_pending is (rs in ("elimination", "elvista"))
    assert v.faq == ("two-players" if players == 2 and not v.penalty_pending else "seven")


@pytest.mark.parametrize(
    ("rs", "players", "turn"),
    [
        ("igrafan", 2, 0),
        ("igrafan", 3, 2),
        ("igrafan", 4, 2),
        ("classic", 4, 2),
        ("elimination", 6, 2),
        ("pharaoh", 2, 0),
    ],
)
def test_ace_skips(rs: str, players: int, turn: int) -> None:
    v = play(rs, players, "9♥", "A♥")
    assert effect(v) == (True, 0, turn)
    assert v.faq == ("two-players" if players == 2 else "ace")


@pytest.mark.parametrize(
    ("rs", "players", "draws", "turn"),
    [
        ("igrafan", 2, 5, 0),
        ("igrafan", 3, 5, 2),
        ("classic", 3, 4, 2),
        ("elimination", 4, 4, 2),
        ("elvista", 3, 4, 2),
    ],
)
def test_spade_king(rs: str, players: int, draws: int, turn: int) -> None:
    v = play(rs, players, "9♠", "K♠")
    assert effect(v) == (True, draws, turn) and not v.penalty_pending
    assert v.faq == ("two-players" if players == 2 else "spade-king")
    assert effect(play(rs, players, "9♥", "K♥")) == (True, 0, 1)  # other kings are plain


@pytest.mark.parametrize(
    ("rs", "players", "draws", "turn", "cover"),
    [
        ("igrafan", 3, 0, 0, True),
        ("igrafan", 2, 0, 0, True),
        ("elimination", 4, 0, 0, True),
        ("classic", 3, 1, 2, False),
        ("classic", 2, 1, 0, False),
        ("elvista", 3, 1, 1, False),  # passes on: pending for the next player
    ],
)
def test_six(rs: str, players: int, draws: int, turn: int, cover: bool) -> None:
    v = play(rs, players, "9♥", "6♥")
    assert effect(v) == (True, draws, turn)
    assert v.must_cover is cover
    assert v.faq == ("two-players" if players == 2 and not cover else "six")


def test_six_is_covered_by_its_suit_or_a_queen_not_by_a_six() -> None:
    assert effect(play("igrafan", 3, "6♣", "J♣")) == (True, 0, 1)
    assert effect(play("igrafan", 3, "6♣", "Q♥")) == (True, 0, 1)
    v = play("igrafan", 3, "6♣", "6♥")
    assert not v.legal and v.faq == "six" and "another six does not cover it" in v.message
    assert not play("igrafan", 3, "6♣", "J♠").legal
    # The covering card acts as usual: a seven makes the next draw, an ace skips.
    assert effect(play("igrafan", 3, "6♣", "7♣")) == (True, 2, 2)
    assert effect(play("igrafan", 2, "6♣", "A♣")) == (True, 0, 0)
    # Left uncovered (its player drew and passed), a six is an ordinary card for the next player.
    assert effect(play("igrafan", 3, "6♣", "6♥", covering=False)) == (True, 0, 0)


def test_classic_nine_must_be_covered() -> None:
    v = play("classic", 3, "8♦", "9♦")
    assert effect(v) == (True, 0, 0) and v.must_cover
    assert effect(play("classic", 3, "9♦", "9♠")) == (True, 0, 0)  # a nine covers, and needs covering again
    assert effect(play("classic", 3, "9♦", "J♦")) == (True, 0, 1)
    v = play("classic", 3, "9♦", "J♠")
    assert not v.legal and v.faq == "other-rule-sets"
    assert effect(play("igrafan", 3, "8♦", "9♦")) == (True, 0, 1)  # a normal card elsewhere


def test_elvista_eight_must_be_followed_up() -> None:
    v = play("elvista", 3, "8♥", "8♦")
    assert effect(v) == (True, 0, 0) and v.must_cover and v.faq == "eight"
    assert effect(play("elvista", 3, "8♦", "J♦")) == (True, 0, 1)
    assert effect(play("elvista", 3, "8♦", "8♣")) == (True, 0, 0)
    v = play("elvista", 3, "8♦", "J♠")
    assert not v.legal and v.faq == "eight"
    assert effect(play("igrafan", 3, "9♦", "8♦")) == (True, 0, 1)


# -- direction ----------------------------------------------------------------


def test_ten_reverses_where_the_set_says_so() -> None:
    v = play("elimination", 4, "9♥", "10♥")
    assert effect(v) == (True, 0, 3) and v.clockwise is False and v.faq == "direction-of-play"
    v = play("elimination", 4, "9♥", "10♥", clockwise=False)
    assert effect(v) == (True, 0, 1) and v.clockwise is True
    assert effect(play("elvista", 2, "9♥", "10♥")) == (True, 0, 1)  # two players: the same opponent
    assert effect(play("elimination", 3, "9♥", "10♥")) == (True, 0, 2)
    v = play("igrafan", 4, "9♥", "10♥")
    assert effect(v) == (True, 0, 1) and v.clockwise and v.faq == "ten"


def test_counter_clockwise_offsets() -> None:
    assert effect(play("elimination", 4, "9♥", "J♥", clockwise=False)) == (True, 0, 3)
    assert effect(play("elimination", 4, "9♥", "A♥", clockwise=False)) == (True, 0, 2)
    assert effect(play("elimination", 5, "9♥", "K♠", clockwise=False)) == (False, 0, 0)
    assert effect(play("elimination", 5, "9♠", "K♠", clockwise=False)) == (True, 4, 3)
    assert effect(play("elimination", 4, "9♥", "7♥", clockwise=False)) == (True, 2, 3)


# -- penalties -----------------------------------------------------------------


def test_queen_does_not_cancel_a_penalty() -> None:
    for rs, top in (("igrafan", "7♥"), ("igrafan", "K♠"), ("elimination", "7♥"), ("classic", "6♥")):
        v = play(rs, 3, top, "Q♥" if top != "Q♥" else "Q♠", pending_draw=2)
        assert effect(v) == (False, 0, 0) and v.faq == "queen-cancels-penalty", rs


def test_no_transfer_in_igrafan() -> None:
    v = play("igrafan", 3, "7♥", "7♣", pending_draw=2)
    assert not v.legal and v.faq == "penalty-transfer"
    v = play("igrafan", 3, "7♥", "8♥", pending_draw=2)
    assert not v.legal and v.faq == "seven"
    assert "first draw 2 and skip this turn" in v.message


def test_transfer_doubles_in_elimination_and_adds_up_in_elvista() -> None:
    v = play("elimination", 3, "7♥", "7♣", pending_draw=2)
    assert effect(v) == (True, 4, 1) and v.penalty_pending and v.faq == "penalty-transfer"
    assert effect(play("elimination", 3, "7♣", "7♠", pending_draw=4)) == (True, 8, 1)
    assert effect(play("elvista", 3, "7♣", "7♠", pending_draw=4)) == (True, 6, 1)
    assert effect(play("elvista", 3, "6♣", "6♠", pending_draw=1)) == (True, 2, 1)
    assert effect(play("elvista", 2, "6♣", "6♠", pending_draw=1)) == (True, 2, 1)
    v = play("elimination", 3, "7♥", "8♥", pending_draw=2)
    assert not v.legal and v.faq == "penalty-transfer"
    # K♠ is never passed on.
    assert not play("elvista", 3, "K♠", "K♥", pending_draw=4).legal


# -- the first card, two players, refusals --------------------------------------------


def test_first_card_acts_at_once() -> None:
    assert effect(play("igrafan", 3, None, "7♣")) == (True, 2, 2)
    assert effect(play("igrafan", 3, None, "6♣")) == (True, 0, 0)
    assert play("igrafan", 3, None, "J♣").faq == "first-card-special"


def test_two_players_same_player_again() -> None:
    for card in ("A♥", "7♥", "K♠"):
        top = "9♠" if card == "K♠" else "9♥"
        v = play("igrafan", 2, top, card)
        assert v.next_turn == 0 and v.faq == "two-players"
    assert play("igrafan", 2, "9♥", "J♥").next_turn == 1
    assert play("igrafan", 2, "9♥", "6♥").faq == "six"  # a six still needs your own cover


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"players": 1}, PlayError),
        ({"players": 5}, PlayError),
        ({"players": "3"}, FormatError),
        ({"players": True}, FormatError),
        ({"pending_draw": -1}, FormatError),
        ({"top": "Q♥"}, PlayError),  # no named suit after a queen
        ({"ordered": "♦"}, PlayError),  # a named suit without a queen
        ({"top": "9♥", "card": "9♥"}, PlayError),
        ({"pending_draw": 2}, PlayError),  # a nine makes nobody draw
        ({"covering": True}, PlayError),
    ],
)
def test_refused_questions(kwargs: dict[str, object], error: type[Exception]) -> None:
    args = {"rs": "igrafan", "players": 3, "top": "9♥", "card": "J♥", "ordered": None} | kwargs
    with pytest.raises(error):
        play(
            str(args.pop("rs")),
            args.pop("players"),
            args.pop("top"),
            str(args.pop("card")),  # type: ignore[arg-type]
            args.pop("ordered"),
            **args,
        )  # type: ignore[arg-type]


def test_pharaoh_is_for_two() -> None:
    assert play("pharaoh", 2, "9♥", "7♥").legal
    with pytest.raises(PlayError):
        play("pharaoh", 3, "9♥", "7♥")


def test_playable_is_check_play_for_each_card() -> None:
    """`playable` (the simulator's filter) agrees with `check_play` on every pair of cards and context."""
    cards = deck()
    for rs in RULESETS.values():
        for players in range(2, min(3, rs.max_players) + 1):
            for top, card in itertools.permutations(cards, 2):
                contexts: list[dict[str, object]] = [{"covering": False}]
                if top.rank.value == "Q":
                    contexts = [{"ordered_suit": s} for s in Suit]
                elif top.rank.value in rs.must_be_covered:
                    contexts.append({"covering": True})
                for ctx in contexts:
                    expected = check_play(rs, players, top, card, **ctx).legal  # type: ignore[arg-type]
                    assert (playable(rs, players, top, [card], **ctx) == [card]) is expected  # type: ignore[arg-type]


def test_messages_read_well() -> None:
    v = play("igrafan", 3, "9♥", "7♥")
    assert str(v) == "7♥ matches 9♥ by suit. The next player draws 2 and skips their turn."
    assert v.to_json()["reason"] == "7♥ matches 9♥ by suit."
    assert isinstance(v.params["card"], Card)


def test_every_faq_slug_exists() -> None:
    """Every FAQ entry a verdict can point to is in companion/data/faq."""
    from pathlib import Path

    import companion

    folder = Path(companion.__file__).parent / "data" / "faq"
    slugs = set()
    for rs in RULESETS.values():
        for players in range(2, min(3, rs.max_players) + 1):
            for top, card in itertools.permutations(deck(), 2):
                contexts: list[dict[str, object]] = [{"covering": False}, {"clockwise": False}]
                if top.rank.value == "Q":
                    contexts = [{"ordered_suit": top.suit}]
                elif top.rank.value in rs.must_be_covered:
                    contexts.append({"covering": True})
                if check_play(rs, players, None, top).next_draws:
                    contexts.append({"pending_draw": 2})
                for ctx in contexts:
                    slugs.add(check_play(rs, players, top, card, **ctx).faq)  # type: ignore[arg-type]
            slugs.add(check_play(rs, players, None, deck()[0]).faq)
    assert {
        "queen-wild",
        "same-colour",
        "seven",
        "ace",
        "spade-king",
        "six",
        "two-players",
        "queen-cancels-penalty",
        "penalty-transfer",
        "direction-of-play",
        "eight",
    } <= slugs
    assert not {s for s in slugs if not (folder / f"{s}.toml").exists()}


# -- fixes of issue 8, each with its source ----------------------------------------------


def test_elimination_own_six_is_covered_by_any_card_that_fits() -> None:
    """Seed 004 l.57, RULES.md §7: in elimination the player covers their own six with any card that
    fits: the same suit, another six (by rank), or a queen."""
    assert effect(play("elimination", 3, "6♣", "6♥")) == (True, 0, 0)  # another six: covers, and needs a cover
    assert effect(play("elimination", 3, "6♣", "J♣")) == (True, 0, 1)
    assert play("elimination", 3, "6♣", "Q♥").legal
    v = play("elimination", 3, "6♣", "J♥")
    assert not v.legal and "another six or a queen" in v.message
    # igrafan keeps "same suit or a queen" (seeds 000, 001).
    assert not play("igrafan", 3, "6♣", "6♥").legal
    # The option, on any set: any card at all covers.
    anything = RULESETS["igrafan"].with_options({"six_cover": "any-card"})
    assert check_play(anything, 3, parse_card("6♣"), parse_card("J♥")).legal


@pytest.mark.parametrize(
    ("rs", "top", "card", "count"),
    [
        ("igrafan", "7♣", "Q♥", 2),
        ("igrafan", "K♠", "K♥", 5),
        ("igrafan", "7♣", "7♥", 2),
        ("classic", "K♠", "Q♠", 4),
        ("elimination", "K♠", "K♥", 4),
        ("igrafan", "K♠", "Q♠", 5),
    ],
)
def test_a_pending_penalty_is_drawn_first(rs: str, top: str, card: str, count: int) -> None:
    """RULES.md §2 and §7: a queen does not cancel a seven's or K♠'s penalty, and it cannot be passed
    on where the set has no transfer; by default the card on top was just played (penalty pending)."""
    v = play(rs, 3, top, card)
    assert not v.legal and f"first draw {count} and skip this turn" in v.message
    if card.startswith("Q"):
        assert v.faq == "queen-cancels-penalty"
    # Once the penalty was taken, the next player plays on the card as on any other.
    assert play(rs, 3, top, card, penalty_pending=False).legal


def test_penalty_pending_refusals() -> None:
    with pytest.raises(PlayError):
        play("igrafan", 3, "9♥", "J♥", penalty_pending=True)  # a nine has no penalty
    with pytest.raises(PlayError):
        play("igrafan", 3, "7♥", "J♥", penalty_pending=False, pending_draw=2)
    with pytest.raises(FormatError):
        play("igrafan", 3, "7♥", "J♥", penalty_pending="yes")


def test_options_change_the_play() -> None:
    """Each play option of RULES.md §7 reaches the referee (seeds 000, 002, 004)."""

    def with_(rs: str, **options: object) -> object:
        return RULESETS[rs].with_options(options)

    def ask(ruleset: object, top: str | None, card: str, **kw: object) -> PlayVerdict:
        return check_play(ruleset, 3, parse_card(top) if top else None, parse_card(card), **kw)  # type: ignore[arg-type]

    assert ask(with_("igrafan", spade_king_draw=4), "9♠", "K♠").next_draws == 4
    assert ask(with_("classic", spade_king_draw=5), "9♠", "K♠").next_draws == 5
    assert ask(with_("igrafan", seven_draw=4), "9♥", "7♥").next_draws == 4
    spade_seven = with_("elimination", seven_draw="spade-4")
    assert ask(spade_seven, "9♠", "7♠").next_draws == 4 and ask(spade_seven, "9♥", "7♥").next_draws == 2
    six2 = with_("igrafan", six="next-draws-2")
    v = ask(six2, "9♥", "6♥")
    assert (v.next_draws, v.next_turn, v.must_cover) == (2, 2, False)
    assert ask(with_("igrafan", ten_reverses=True), "9♥", "10♥").clockwise is False
    eight = ask(with_("igrafan", eight="must-cover"), "9♥", "8♥")
    assert eight.must_cover and eight.next_turn == 0
    # Penalty transfer as an option: a seven passed on with a seven (igrafan adds up).
    transfer = with_("igrafan", penalty_transfer=True)
    v = ask(transfer, "7♣", "7♥")
    assert v.legal and v.next_draws == 4 and v.penalty_pending
    assert not ask(with_("elimination", penalty_transfer=False), "7♣", "7♥").legal


def test_ace_answered_by_an_ace() -> None:
    """Seed 004 (option): the player an ace would skip may answer with an ace, passing the skip on."""
    rs = RULESETS["elimination"].with_options({"ace_answer": True})
    v = check_play(rs, 4, parse_card("9♥"), parse_card("A♥"))
    assert v.legal and v.penalty_pending and v.next_turn == 1 and v.faq != ""
    v = check_play(rs, 4, parse_card("A♥"), parse_card("A♣"))
    assert v.legal and v.penalty_pending
    v = check_play(rs, 4, parse_card("A♥"), parse_card("9♥"))
    assert not v.legal and "skip this turn" in v.message and v.faq == "ace"
    # Without the option the ace just skips (nothing pending), as before.
    assert not check_play(RULESETS["elimination"], 4, parse_card("9♥"), parse_card("A♥")).penalty_pending


def test_several_equal_cards_at_once() -> None:
    """Seed 000 (house option): several cards of one rank in one turn; the last one laid acts."""
    rs = RULESETS["igrafan"].with_options({"several_at_once": True})
    v = check_play(rs, 3, parse_card("9♥"), parse_card("8♥"), also=[parse_card("8♣"), parse_card("8♠")])
    assert v.legal and v.next_turn == 1
    v = check_play(rs, 3, parse_card("9♥"), parse_card("A♥"), also=[parse_card("A♣")])
    assert v.legal and v.next_turn == 2
    with pytest.raises(PlayError, match="one rank"):
        check_play(rs, 3, parse_card("9♥"), parse_card("8♥"), also=[parse_card("9♣")])
    with pytest.raises(PlayError, match="one card is played per turn"):
        check_play(RULESETS["igrafan"], 3, parse_card("9♥"), parse_card("8♥"), also=[parse_card("8♣")])
