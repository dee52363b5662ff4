"""Rule cards in words: every rule of a set written out from its data (`RuleSet`), never from its name."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import Card, Rank, Suit
from ...core.rules import EightRule, OnLoss, RuleSet, SixRule
from ...core.scoring import card_points
from ...i18n import gettext, ngettext
from ..cards import card_label, card_text


@dataclass(frozen=True)
class RuleRow:
    """One rule of a set, in a sentence for its card and in a word or two for the comparison."""

    key: str
    label: str
    text: str
    short: str
    on_card: bool = True  # False: the rule card shows it elsewhere (the points table)


@dataclass(frozen=True)
class RuleSection:
    title: str
    rows: tuple[RuleRow, ...]


def cards_text(n: int) -> str:
    return ngettext("%(num)s card", "%(num)s cards", n)


def draws_text(n: int) -> str:
    return ngettext("The next player draws %(num)s card and skips a turn.",
                    "The next player draws %(num)s cards and skips a turn.", n)


NO_EFFECT = "—"
CARD_KEYS = ("six", "seven", "eight", "nine", "ten", "ace", "spade-king", "queen")  # shown as tiles on the card


def rule_sections(rs: RuleSet) -> list[RuleSection]:
    """Everything a table needs to know about a rule set, written out from its data."""
    play, opt = rs.play, rs.defaults
    with_52 = rs.max_players_for(rs.options({"deck": 52}))
    most = rs.max_players_for(opt)

    if rs.min_players == most:
        players = ngettext("%(num)s player only", "%(num)s players only", most)
        players_short = str(most)
    else:
        players = gettext("%(min)s to %(max)s players", min=rs.min_players, max=most)
        players_short = f"{rs.min_players}–{most}"
    if with_52 > most:
        players += " " + gettext("(up to %(num)s with a 52-card deck)", num=with_52)
        players_short += f" ({with_52})"
    hand = ngettext("Each player is dealt %(num)s card.", "Each player is dealt %(num)s cards.", opt.hand_size)
    if play.table_card:
        hand += " " + gettext("The dealer keeps one card fewer and turns the last one face up to start the pile.")
    table = RuleSection(gettext("The table"), (
        RuleRow("players", gettext("Players"), players, players_short),
        RuleRow("deck", gettext("Deck"), cards_text(opt.deck), str(opt.deck)),
        RuleRow("hand-size", gettext("Hand"), hand, str(opt.hand_size) + (" + 1" if play.table_card else "")),
    ))

    if opt.six is SixRule.SELF_COVER:
        six = gettext("The player who played it covers it at once with the same suit or a queen; "
                      "a round never ends on a six.")
        six_short = gettext("cover it yourself")
    else:
        six, six_short = draws_text(opt.six.draw), f"+{opt.six.draw}"
    skip = gettext("skip")
    effects = [
        RuleRow("six", card_label(Rank.SIX), six, six_short),
        RuleRow("seven", card_label(Rank.SEVEN), draws_text(opt.seven_draw_for(False)),
                f"+{opt.seven_draw_for(False)}, {skip}"),
        RuleRow("eight", card_label(Rank.EIGHT),
                gettext("Its player must play again on it.") if opt.eight is not EightRule.NORMAL
                else gettext("No effect."),
                gettext("play again") if opt.eight is not EightRule.NORMAL else NO_EFFECT),
        RuleRow("nine", card_label(Rank.NINE),
                gettext("Its player must cover it: the same suit, a nine or a queen.") if play.nine_cover
                else gettext("No effect."),
                gettext("cover it") if play.nine_cover else NO_EFFECT),
        RuleRow("ten", card_label(Rank.TEN),
                gettext("Reverses the direction of play.") if opt.ten_reverses else gettext("No effect."),
                gettext("reverse") if opt.ten_reverses else NO_EFFECT),
        RuleRow("ace", card_label(Rank.ACE),
                gettext("The next player skips a turn.") if play.ace_skips else gettext("No effect."),
                skip if play.ace_skips else NO_EFFECT),
        RuleRow("spade-king", card_label(Rank.KING, Suit.SPADES), draws_text(opt.spade_king_draw),
                f"+{opt.spade_king_draw}, {skip}"),
        RuleRow("queen", card_label(Rank.QUEEN),
                gettext("Goes on any card; its player names the suit to follow. It does not cancel a penalty."),
                gettext("any card")),
    ]
    if opt.penalty_transfer:
        transfer = (gettext("A six or seven penalty may be passed on with a card of the same rank; it doubles.")
                    if play.transfer_doubles else
                    gettext("A six or seven penalty may be passed on with a card of the same rank; they add up."))
        transfer_short = "×2" if play.transfer_doubles else "+"
    else:
        transfer, transfer_short = gettext("A penalty cannot be passed on: draw it and skip."), NO_EFFECT
    effects.append(RuleRow("penalty-transfer", gettext("Passing on"), transfer, transfer_short))
    if opt.draw_until_fits:
        stuck, stuck_short = gettext("Draw until a card fits, then play it."), gettext("draw until it fits")
    elif opt.drawn_card_playable:
        stuck = gettext("Draw one card; if it fits, you may play it at once.")
        stuck_short = gettext("draw 1, may play it")
    else:
        stuck, stuck_short = gettext("Draw one card and pass."), gettext("draw 1, pass")
    effects.append(RuleRow("no-playable-card", gettext("Nothing to play"), stuck, stuck_short))
    if play.four_of_a_kind_redeal:
        effects.append(RuleRow("four-of-a-kind", gettext("Four of a kind"),
                               gettext("Four of a kind in a dealt hand: redeal."), gettext("redeal")))
    playing = RuleSection(gettext("Cards when played"), tuple(effects))

    special = Card(Rank.QUEEN, Suit(opt.special_queen))
    if opt.queens_only:
        queens = gettext("A hand of queens only: %(points)s per queen, %(card)s %(special)s.",
                         points=opt.queens_only_points, card=card_text(special),
                         special=opt.queens_only_special_points)
        queens_short = f"{opt.queens_only_points} / {card_text(special)} {opt.queens_only_special_points}"
    else:
        queens = gettext("A hand of queens only scores like any other hand.")
        queens_short = NO_EFFECT
    finish = gettext("Going out on a queen: −%(points)s, on %(card)s −%(special)s.",
                     points=opt.queen_finish_points, card=card_text(special),
                     special=opt.queen_finish_special_points)
    resets = ", ".join(gettext("exactly %(old)s → %(new)s", old=old, new=new) for old, new in opt.resets)
    loss = (gettext("A total over %(line)s loses, and the series ends.", line=opt.loss_above)
            if opt.on_loss is OnLoss.SERIES_ENDS else
            gettext("A total over %(line)s: that player is out; the last one left wins.", line=opt.loss_above))
    scoring = RuleSection(gettext("Scoring"), (
        RuleRow("winner", gettext("Who goes out"), gettext("The player who goes out scores 0."), "0", False),
        RuleRow("nine-points", gettext("A nine in hand"), ngettext("%(num)s point", "%(num)s points",
                                                                    opt.nine_points), str(opt.nine_points), False),
        RuleRow("spade-king-points", gettext("%(card)s in hand", card=card_label(Rank.KING, Suit.SPADES)),
                ngettext("%(num)s point", "%(num)s points", opt.spade_king_points), str(opt.spade_king_points),
                False),
        RuleRow("queens-only", gettext("Only queens"), queens, queens_short),
        RuleRow("queen-finish", gettext("Queen finish"), finish,
                f"−{opt.queen_finish_points} / {card_text(special)} −{opt.queen_finish_special_points}"),
        RuleRow("resets", gettext("Resets"), resets + "." if resets else gettext("No resets."),
                ", ".join(f"{old}→{new}" for old, new in opt.resets) or NO_EFFECT),
        RuleRow("negative", gettext("Below zero"),
                gettext("A total below zero becomes zero.") if opt.negative_to_zero
                else gettext("A total may go below zero."),
                "0" if opt.negative_to_zero else gettext("allowed")),
        RuleRow("loss", gettext("Loss line"), loss,
                f">{opt.loss_above}, " + (gettext("series ends") if opt.on_loss is OnLoss.SERIES_ENDS
                                         else gettext("player is out"))),
    ))
    return [table, playing, scoring]


def points_table(rs: RuleSet) -> list[tuple[str, int]]:
    """What each card left in hand is worth (the scorer's own `card_points`), K♠ on its own."""
    opt = rs.defaults
    ranks = [r for r in Rank if r.order >= Rank.SIX.order] if opt.deck == 36 else list(Rank)
    cells = []
    for r in ranks:
        cells.append((card_label(r), card_points(Card(r, Suit.HEARTS), opt)))
        if r is Rank.KING:
            cells.append((card_label(Rank.KING, Suit.SPADES), card_points(Card(Rank.KING, Suit.SPADES), opt)))
    return cells
