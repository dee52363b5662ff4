"""Rule cards in words: every rule of a set written out from its data (`RuleSet`), never from its name."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.cards import Card, Rank, Suit
from companion.core.rules import SPECS_BY_KEY, EightRule, NoMatch, OnLoss, RuleSet, SixRule, StarterRule
from companion.core.scoring import card_points
from companion.i18n import card_text, gettext, ngettext
from companion.web.present.cards import card_label
from companion.web.present.rules_text import value_text


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

    # Who starts, and with what.
    if play.next_starter is StarterRule.ROTATE:
        starts = gettext("The first dealer is chosen by lot; then the deal passes to the left each round, "
                         "and the player left of the dealer starts. A redeal keeps the starter.")
        starts_short = gettext("in turn")
    else:
        starts = gettext("The first starter is chosen by lot; then the winner of the last round starts. "
                         "A redeal keeps the starter.")
        starts_short = gettext("the winner")
    first = (gettext("The starter covers the card the dealer turned up.") if play.table_card
             else gettext("The starter opens with any card; a special card acts at once."))
    table = RuleSection(table.title, table.rows + (
        RuleRow("who-starts", gettext("Who starts"), starts, starts_short),
        RuleRow("first-card", gettext("First card"), first,
                gettext("the table card") if play.table_card else gettext("any card")),
    ))

    def last_card(rank: str, text: str) -> str:
        """A card's rule, and whether a round may end on it (from `cannot_finish_on`)."""
        if rank in rs.cannot_finish_on:
            return text + " " + gettext("A round cannot end on it.")
        return text

    if opt.six is SixRule.SELF_COVER:
        six = gettext("Its player covers it at once with %(what)s; if they cannot, they draw.",
                      what=value_text(SPECS_BY_KEY["six_cover"], opt.six_cover))
        six_short = gettext("cover it yourself")
    else:
        six, six_short = draws_text(opt.six.draw), f"+{opt.six.draw}"
    skip = gettext("skip")
    seven_spade, seven_other = opt.seven_draw_for(True), opt.seven_draw_for(False)
    if seven_spade == seven_other:
        seven, seven_short = draws_text(seven_other), f"+{seven_other}, {skip}"
    else:
        seven = gettext("The seven of spades makes the next player draw %(spade)s, the other sevens %(other)s; "
                        "the next player skips a turn.", spade=seven_spade, other=seven_other)
        seven_short = f"+{seven_other} (7♠ +{seven_spade}), {skip}"
    ace = gettext("The next player skips a turn.") if play.ace_skips else gettext("No effect.")
    if play.ace_skips and opt.ace_answer:
        ace += " " + gettext("They may answer with an ace: then the skip passes on.")
    queen = gettext("Goes on any card; its player names the suit to follow. It does not cancel a penalty.")
    effects = [
        RuleRow("six", card_label(Rank.SIX), last_card("6", six), six_short),
        RuleRow("seven", card_label(Rank.SEVEN), seven, seven_short),
        RuleRow("eight", card_label(Rank.EIGHT), sentence(value_text(SPECS_BY_KEY["eight"], opt.eight)),
                {EightRule.NORMAL: NO_EFFECT, EightRule.PLAY_AGAIN: gettext("play again"),
                 EightRule.MUST_COVER: gettext("cover it")}[opt.eight]),
        RuleRow("nine", card_label(Rank.NINE),
                last_card("9", gettext("Its player must cover it: the same suit, a nine or a queen.")
                          if play.nine_cover else gettext("No effect.")),
                gettext("cover it") if play.nine_cover else NO_EFFECT),
        RuleRow("ten", card_label(Rank.TEN), sentence(value_text(SPECS_BY_KEY["ten_reverses"], opt.ten_reverses)),
                gettext("reverse") if opt.ten_reverses else NO_EFFECT),
        RuleRow("ace", card_label(Rank.ACE), ace,
                (skip + (" / " + card_label(Rank.ACE) if opt.ace_answer else "")) if play.ace_skips else NO_EFFECT),
        RuleRow("spade-king", card_label(Rank.KING, Suit.SPADES), draws_text(opt.spade_king_draw),
                f"+{opt.spade_king_draw}, {skip}"),
        RuleRow("queen", card_label(Rank.QUEEN), last_card("Q", queen), gettext("any card")),
    ]
    playing = RuleSection(gettext("Cards when played"), tuple(effects))

    turn = []
    if opt.penalty_transfer:
        transfer = (gettext("A six or seven penalty may be passed on with a card of the same rank; it doubles.")
                    if play.transfer_doubles else
                    gettext("A six or seven penalty may be passed on with a card of the same rank; they add up."))
        transfer_short = "×2" if play.transfer_doubles else "+"
    else:
        transfer, transfer_short = gettext("A penalty cannot be passed on: draw it and skip."), NO_EFFECT
    turn.append(RuleRow("penalty-transfer", gettext("Passing on"), transfer, transfer_short))
    short_stuck = {NoMatch.DRAW_PASS: gettext("draw 1, pass"), NoMatch.DRAW_PLAY: gettext("draw 1, may play it"),
                   NoMatch.DRAW_UNTIL: gettext("draw until it fits")}
    turn.append(RuleRow("no-playable-card", gettext("Nothing to play"),
                        sentence(value_text(SPECS_BY_KEY["no_match"], opt.no_match)), short_stuck[opt.no_match]))
    turn.append(RuleRow("draw-pile-empty", gettext("Pile runs out"),
                        sentence(value_text(SPECS_BY_KEY["shuffle_pile"], opt.shuffle_pile)),
                        gettext("shuffle") if opt.shuffle_pile else gettext("turn over")))
    turn.append(RuleRow("several-cards-at-once", gettext("Several at once"),
                        gettext("Several cards of one rank may be laid in one turn; the last one acts.")
                        if opt.several_at_once else gettext("One card per turn."),
                        gettext("allowed") if opt.several_at_once else NO_EFFECT))
    turn.append(RuleRow("four-of-a-kind", gettext("Four of a kind"),
                        gettext("Four of a kind in a dealt hand: redeal.") if play.four_of_a_kind_redeal
                        else gettext("Four of a kind in a dealt hand changes nothing: play on."),
                        gettext("redeal") if play.four_of_a_kind_redeal else NO_EFFECT))
    turning = RuleSection(gettext("Your turn"), tuple(turn))

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
    return [table, playing, turning, scoring]


def sentence(text: str) -> str:
    """An option's value label as a sentence of the card ("draw one and pass" → "Draw one and pass.")."""
    return text[:1].upper() + text[1:] + "."


def differences(rs: RuleSet, base: RuleSet) -> list[tuple[str, str, str]]:
    """Where `rs` differs from `base`, row by row of their cards: (label, this set's value, base's value)."""
    mine = {r.key: r for section in rule_sections(rs) for r in section.rows}
    theirs = {r.key: r for section in rule_sections(base) for r in section.rows}
    return [(row.label, row.short, theirs[key].short if key in theirs else NO_EFFECT)
            for key, row in mine.items() if key not in theirs or theirs[key].short != row.short]


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
