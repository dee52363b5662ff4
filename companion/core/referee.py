"""The referee: is this card a legal play on that one, and what happens next (RULES.md §2, §3).

`check_play()` answers one question a table asks: "may I put this card on that
one?" It needs the rule set, the number of players, the top card of the
discard pile, the suit named with a queen (only when the top card is a queen)
and the card. It returns a `PlayVerdict`: legal or not, why (a message template
with its parameters, translated by the web layer; ``verdict.message`` is the
English text), what the play does (``effect``), the FAQ entry that explains it,
and two numbers the simulator applies as they are:

``next_draws``
    How many cards the *next player* (the one right after the player who
    played, in the direction of play; with two players, the opponent) must
    draw because of this card: 2 for a seven, 5 or 4 for K♠, the six's draw
    where a six makes the next draw. 0 otherwise.

``next_turn``
    Who plays next, as a seat offset counted *clockwise* from the player who
    just played: 0 = the same player again (a six or nine they must cover, an
    eight they must follow up; an ace, seven or K♠ with two players), 1 = the
    player on their left, 2 = the one after (an ace, seven or K♠ with 3+
    players skips one), ``players - 1`` = the player on their right.

Direction. Play runs clockwise; where a ten reverses (``Options.ten_reverses``)
the caller says which way play runs *before* the card (``clockwise``) and the
verdict says which way it runs *after* (``verdict.clockwise``). Offsets stay
clockwise: with 3+ players a reversing ten gives ``next_turn = players - 1``
(the previous player), with two players it gives 1 (the same opponent: turning
round at a table of two changes nothing). Counter-clockwise, an ace with four
players gives ``next_turn = 2`` and a plain card ``players - 1``.

Pending penalties. After a seven (or K♠, or a six that makes the next draw)
the next player draws and skips; they never play on that card. Where
penalties cannot be passed on, ``next_turn`` already skips them (a seven with
three players: ``next_draws = 2, next_turn = 2``). Where they can
(``Options.penalty_transfer``: sixes and sevens), the next player still has
a choice, so the verdict says ``penalty_pending = True`` and ``next_turn``
points at that player (1 clockwise, or ``players - 1`` counter-clockwise):
they either pass it on with a card of the same rank (the penalty doubles where
``transfer_doubles``, else it adds up) or draw ``next_draws`` and skip.
Asking about a card for the player who has to take a penalty is done with
``pending_draw=n``: a queen does not cancel it, and no other card can be
played, except the same rank where penalties pass on.

Covering. In self-cover sets the player who played a six plays again and must
cover it with the same suit or a queen (another six does not cover it); a
nine in ``nine_cover`` sets takes the same suit, a nine or a queen; an eight
in ``eight_continue`` sets takes any matching card. ``covering`` says whether
the player is covering: by default (None) a top card of such a rank is taken
to be covered by its own player; pass ``covering=False`` when that player
could not cover it, drew and passed, and the next player now plays on it as
on any card. A covering card that is itself special acts as usual.

An illegal verdict changes nothing: ``next_draws = 0`` and ``next_turn = 0``
(the same player is still to act).

``top=None`` asks about the first card of a round: any card opens it, and a
special first card takes effect at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.core.cards import Card, Rank, Suit
from companion.core.errors import N_, FormatError, Msg, PlayError
from companion.core.rules import EightRule, RuleSet, SixCover


@dataclass(frozen=True, slots=True)
class PlayVerdict:
    legal: bool
    reason: Msg
    params: Mapping[str, Any]
    faq: str
    next_draws: int = 0
    next_turn: int = 0
    effect: Msg | None = None  # what the play does, a template with `effect_params`
    effect_params: Mapping[str, Any] = field(default_factory=dict)
    penalty_pending: bool = False  # next_draws is open: the next player may still pass it on
    must_cover: bool = False  # the player who played must now cover or follow up this card
    clockwise: bool = True  # the direction of play after this card

    @property
    def message(self) -> str:
        """The reason in English."""
        return self.reason % dict(self.params) if self.params else str(self.reason)

    @property
    def effect_message(self) -> str:
        if self.effect is None:
            return ""
        return self.effect % dict(self.effect_params) if self.effect_params else str(self.effect)

    def __str__(self) -> str:
        return " ".join(m for m in (self.message, self.effect_message) if m)

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "reason": self.message,
            "effect": self.effect_message,
            "next_draws": self.next_draws,
            "next_turn": self.next_turn,
            "penalty_pending": self.penalty_pending,
            "must_cover": self.must_cover,
            "clockwise": self.clockwise,
            "faq": self.faq,
        }


# Why a card may be played.
_OPENS = N_("%(card)s opens the round: the first card may be any card.")
_BY_SUIT = N_("%(card)s matches %(top)s by suit.")
_BY_RANK = N_("%(card)s matches %(top)s by rank.")
_QUEEN = N_("%(card)s: a queen may be played on any card.")
_NAMED_SUIT = N_("%(card)s is of the suit named with the queen (%(suit)s).")
_COVERS = N_("%(card)s covers %(top)s.")
_PASSES_ON = N_("%(card)s passes the penalty of %(top)s on to the next player.")
# Why it may not.
_SAME_COLOUR = N_(
    "%(card)s does not go on %(top)s: the same colour is not enough, a card must match by suit or by rank."
)
_NO_MATCH = N_("%(card)s does not go on %(top)s: play a %(suit)s card, a %(rank)s or a queen.")
_NOT_NAMED = N_(
    "%(card)s does not go on the queen %(top)s: the suit named was %(suit)s; play a %(suit)s card or another queen."
)
_SIX_COVER = N_(
    "%(card)s does not cover the six %(top)s: cover it with a %(suit)s card or a queen (another six does not cover it)."
)
_SIX_COVER_FIT = N_("%(card)s does not cover the six %(top)s: cover it with a %(suit)s card, another six or a queen.")
_NINE_COVER = N_("%(card)s does not cover the nine %(top)s: cover it with a %(suit)s card, a nine or a queen.")
_EIGHT_FOLLOW = N_("%(card)s does not follow up the eight %(top)s: play a %(suit)s card, an eight or a queen.")
_PENALTY = N_("%(card)s cannot be played now: first draw %(count)s and skip this turn.")
_PENALTY_QUEEN = N_("A queen does not cancel the penalty of %(top)s: first draw %(count)s and skip this turn.")
_PENALTY_NO_TRANSFER = N_(
    "In this rule set a penalty cannot be passed on with a card "
    "of the same rank: first draw %(count)s and skip this turn."
)
_PENALTY_TRANSFER_ONLY = N_(
    "%(card)s cannot be played now: pass the penalty on with a %(rank)s, or first draw %(count)s and skip this turn."
)
_ACE_PENDING = N_(
    "%(card)s cannot be played now: the ace %(top)s makes you skip this turn, unless you answer with an ace."
)
_ONE_AT_A_TIME = N_("In this rule set one card is played per turn; several cards of one rank at once are not allowed.")
_ALSO_SAME_RANK = N_("Cards laid together must all be of one rank: %(other)s is not a %(rank)s.")
_ALSO_TWICE = N_("%(other)s is named twice; a deck has one of each card.")
# What a legal play does.
_NEXT_PLAYS = N_("The next player plays.")
_NAMES_SUIT = N_("Its player names a suit: the next player must play that suit or a queen.")
_COVER_SIX = N_("The same player must now cover the six with a %(suit)s card or a queen.")
_COVER_SIX_FIT = N_("The same player must now cover the six with a %(suit)s card, another six or a queen.")
_COVER_SIX_ANY = N_("The same player must now cover the six with any card.")
_COVER_NINE = N_("The same player must now cover the nine with a %(suit)s card, a nine or a queen.")
_FOLLOW_EIGHT = N_("The same player must now play again on the eight.")
_FOLLOW_EIGHT_LAST = N_("The same player plays again on the eight; if it was their last card, the round is over.")
_SKIP_OR_ANSWER = N_("The next player skips their turn, unless they answer with an ace.")
_DRAW_SKIP = N_("The next player draws %(count)s and skips their turn.")
_DRAW_SKIP_TWO = N_("The opponent draws %(count)s and skips; the same player plays again.")
_DRAW_OR_PASS = N_("The next player draws %(count)s and skips, unless they pass it on with a %(rank)s.")
_SKIP = N_("The next player skips their turn.")
_SKIP_TWO = N_("The opponent skips; the same player plays again.")
_REVERSE = N_("The direction of play reverses: the previous player plays next.")
_REVERSE_TWO = N_("The direction of play reverses; with two players the opponent plays next.")

# Speed, for the simulator's loop: enum members as module constants (a lookup on the class
# is slow), and `_value_` rather than the `value` property.
_SIX, _SEVEN, _EIGHT, _NINE, _TEN = Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN
_Q, _K, _A = Rank.QUEEN, Rank.KING, Rank.ACE
_SPADES, _HEARTS, _DIAMONDS = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS

Decision = tuple[bool, Msg, str | None]  # legal, reason, FAQ slug (None: the one about the card)


def penalty_of(ruleset: RuleSet, card: Card) -> int:
    """How many cards the next player draws when this card is played (0: none)."""
    opt = ruleset.defaults
    if card.rank is _K and card.suit is _SPADES:
        return opt.spade_king_draw
    if card.rank is _SEVEN:
        return opt.seven_draw_for(card.suit is _SPADES)
    if card.rank is _SIX:
        return opt.six.draw
    return 0


def answers_ace(ruleset: RuleSet, card: Card) -> bool:
    """Whether the player this ace skips may answer it with an ace (the `ace_answer` option)."""
    return card.rank is _A and ruleset.play.ace_skips and ruleset.defaults.ace_answer


def can_pass_on(ruleset: RuleSet, card: Card) -> bool:
    """Whether this card's effect may be passed on with a card of the same rank
    (a six's or seven's penalty where transfer is on; an ace where it may be answered)."""
    if card.rank is _A:
        return answers_ace(ruleset, card)
    return ruleset.defaults.penalty_transfer and card.rank in (_SIX, _SEVEN) and penalty_of(ruleset, card) > 0


def carries_penalty(ruleset: RuleSet, card: Card) -> bool:
    """Whether this card, just played, leaves something pending for the next player."""
    return penalty_of(ruleset, card) > 0 or answers_ace(ruleset, card)


def needs_cover(ruleset: RuleSet, card: Card) -> bool:
    """Whether the player who played this card must play again on it (cover or follow up)."""
    return card.rank._value_ in ruleset.must_be_covered


def check_play(
    ruleset: RuleSet,
    players: int,
    top: Card | None,
    card: Card,
    ordered_suit: Suit | None = None,
    *,
    covering: bool | None = None,
    pending_draw: int = 0,
    clockwise: bool = True,
    penalty_pending: bool | None = None,
    also: Sequence[Card] = (),
) -> PlayVerdict:
    """May `card` be played on `top`, and who draws and plays next (see the module docstring).

    `penalty_pending`: whether the top card's penalty (a seven, K♠, a six that makes the next
    draw, an ace that may be answered) is still to be taken by the player asking; by default
    it is when the top card carries one (it was just played). `pending_draw` gives the count
    when it grew by passing on. `also`: more cards of the same rank laid in the same turn
    (the `several_at_once` option); the last one laid acts.
    """
    covering, pending, count = _check_request(
        ruleset, players, top, ordered_suit, covering, pending_draw, penalty_pending
    )
    _check_card(top, card)
    last = _check_also(ruleset, top, card, also)
    decision = _decide(ruleset, top, card, ordered_suit, covering, pending)
    return _verdict(ruleset, players, top, card, ordered_suit, count, clockwise, decision, last)


def playable(
    ruleset: RuleSet,
    players: int,
    top: Card | None,
    hand: Sequence[Card],
    ordered_suit: Suit | None = None,
    *,
    covering: bool | None = None,
    pending_draw: int = 0,
    clockwise: bool = True,
    penalty_pending: bool | None = None,
) -> list[Card]:
    """The cards of a hand that `check_play` allows now (the same decision, without building verdicts)."""
    covering, pending, _ = _check_request(ruleset, players, top, ordered_suit, covering, pending_draw, penalty_pending)
    cards = []
    for card in hand:
        _check_card(top, card)
        if _decide(ruleset, top, card, ordered_suit, covering, pending)[0]:
            cards.append(card)
    return cards


def _check_request(
    ruleset: RuleSet,
    players: int,
    top: Card | None,
    ordered_suit: Suit | None,
    covering: bool | None,
    pending_draw: int,
    penalty_pending: bool | None,
) -> tuple[bool, bool, int]:
    """Refuse a question that cannot arise at a table; return whether the player is covering,
    whether a penalty is pending on them, and how many cards it makes them draw."""
    if type(players) is not int:  # a bool is not a number of players
        raise FormatError(N_("“players” must be a whole number."))
    most = ruleset.most_players
    if not ruleset.min_players <= players <= most:
        raise PlayError(
            N_("This rule set is for exactly %(max)s players; you gave %(count)s.")
            if ruleset.min_players == most
            else N_("This rule set is for %(min)s to %(max)s players; you gave %(count)s."),
            min=ruleset.min_players,
            max=most,
            count=players,
        )
    if type(pending_draw) is not int or pending_draw < 0:
        raise FormatError(N_("“pending_draw” must be a whole number, 0 or more."))
    if penalty_pending is not None and type(penalty_pending) is not bool:
        raise FormatError(N_("“%(field)s” must be true or false."), field="penalty_pending")
    if top is None:
        if ordered_suit is not None or pending_draw or covering or penalty_pending:
            raise PlayError(
                N_("Without a top card (the first card of a round) there is no named suit, penalty or cover.")
            )
        return False, False, 0
    carries = carries_penalty(ruleset, top)
    if penalty_pending is None:
        pending = bool(pending_draw) or (carries and not covering)
    elif penalty_pending:
        pending = True
    else:
        if pending_draw:
            raise PlayError(N_("“pending_draw” counts a pending penalty; with “penalty_pending”: false leave it out."))
        pending = False
    if pending and not carries:
        raise PlayError(N_("%(top)s makes nobody draw in this rule set, so there is no penalty to take."), top=str(top))
    if top.rank is _Q and ordered_suit is None and not pending:
        raise PlayError(N_("Say which suit was named with the queen %(top)s (“ordered_suit”)."), top=str(top))
    if ordered_suit is not None and top.rank is not _Q:
        raise PlayError(N_("A suit is named only with a queen, and the top card %(top)s is not a queen."), top=str(top))
    count = pending_draw or (penalty_of(ruleset, top) if pending else 0)
    if covering is None:
        return not pending and needs_cover(ruleset, top), pending, count
    if covering and not needs_cover(ruleset, top):
        raise PlayError(N_("%(top)s does not need to be covered in this rule set."), top=str(top))
    if covering and pending:
        raise PlayError(N_("A card cannot need a cover and carry a penalty at the same time."))
    return covering, pending, count


def _check_card(top: Card | None, card: Card) -> None:
    if top is not None and card.rank is top.rank and card.suit is top.suit:
        raise PlayError(N_("%(card)s cannot be played on itself; a deck has one of each card."), card=str(card))


def _check_also(ruleset: RuleSet, top: Card | None, card: Card, also: Sequence[Card]) -> Card:
    """Refuse cards laid together that the rules do not allow; return the card laid last."""
    if not also:
        return card
    if not ruleset.defaults.several_at_once:
        raise PlayError(_ONE_AT_A_TIME)
    seen = {card}
    for other in also:
        if other.rank is not card.rank:
            raise PlayError(_ALSO_SAME_RANK, other=str(other), rank=card.rank._value_)
        if other in seen or other == top:
            raise PlayError(_ALSO_TWICE, other=str(other))
        seen.add(other)
    return also[-1]


def _decide(
    ruleset: RuleSet,
    top: Card | None,
    card: Card,
    ordered: Suit | None,
    covering: bool,
    pending: bool,
) -> Decision:
    """Legal or not, and why: the whole of the matching rules, in the order a table applies them."""
    rank, suit = card.rank, card.suit
    if top is None:
        return True, _OPENS, "first-card-special"
    if pending:  # this player has to take a penalty
        if rank is top.rank and can_pass_on(ruleset, top):
            return True, _PASSES_ON, "ace" if rank is _A else "penalty-transfer"
        if top.rank is _A:
            return False, _ACE_PENDING, "ace"
        if rank is _Q:
            return False, _PENALTY_QUEEN, "queen-cancels-penalty"
        if rank is top.rank:
            return False, _PENALTY_NO_TRANSFER, "penalty-transfer"
        if can_pass_on(ruleset, top):
            return False, _PENALTY_TRANSFER_ONLY, "penalty-transfer"
        return False, _PENALTY, None
    if ordered is not None:  # after a queen
        if rank is _Q:
            return True, _QUEEN, "queen-on-queen"
        if suit is ordered:
            return True, _NAMED_SUIT, None
        return False, _NOT_NAMED, "queen-wild"
    if covering and top.rank is not _EIGHT:  # one's own six (by the `six_cover` option) or nine
        six_cover = ruleset.defaults.six_cover
        if top.rank is _SIX and six_cover is SixCover.ANY_CARD:
            return True, _COVERS, "six"
        if rank is _Q:
            return True, _QUEEN, "queen-wild"
        if suit is top.suit or (rank is top.rank and (top.rank is _NINE or six_cover is SixCover.ANY_FIT)):
            return True, _COVERS, None
        if top.rank is _NINE:
            return False, _NINE_COVER, "other-rule-sets"
        return False, _SIX_COVER_FIT if six_cover is SixCover.ANY_FIT else _SIX_COVER, "six"
    # An ordinary play; following up one's own eight is one too.
    if rank is _Q:
        return True, _QUEEN, "queen-wild"
    if suit is top.suit:
        return True, _BY_SUIT, None
    if rank is top.rank:
        return True, _BY_RANK, None
    if covering:
        return False, _EIGHT_FOLLOW, "eight"
    if (suit is _HEARTS or suit is _DIAMONDS) == (top.suit is _HEARTS or top.suit is _DIAMONDS):
        return False, _SAME_COLOUR, "same-colour"
    return False, _NO_MATCH, "no-playable-card"  # nothing matches: draw one and pass


def _verdict(
    ruleset: RuleSet,
    players: int,
    top: Card | None,
    card: Card,
    ordered: Suit | None,
    pending: int,
    clockwise: bool,
    decision: Decision,
    last: Card | None = None,
) -> PlayVerdict:
    legal, reason, faq = decision
    # One set of parameters serves every template; the cards are written out by str() when formatted.
    params: dict[str, Any] = {"card": card, "top": top, "count": pending}
    if top is not None:
        params["suit"] = (ordered or top.suit)._value_
        params["rank"] = top.rank._value_
    if not legal:
        assert top is not None
        return PlayVerdict(False, reason, params, faq or _card_faq(ruleset, top, players), clockwise=clockwise)
    verdict = _effect(ruleset, players, last or card, clockwise, reason, params, faq)
    if pending:  # the penalty is passed on and grows
        grown = pending * 2 if ruleset.play.transfer_doubles else pending + verdict.next_draws
        verdict = replace(verdict, next_draws=grown, effect_params={**verdict.effect_params, "count": grown})
    return verdict


def _card_faq(ruleset: RuleSet, card: Card, players: int) -> str:
    """The FAQ entry about what this card does when played."""
    play = ruleset.play
    rank = card.rank
    if rank is _Q:
        return "queen-wild"
    if (
        players == 2
        and (penalty_of(ruleset, card) or (rank is _A and play.ace_skips))
        and not can_pass_on(ruleset, card)
    ):
        return "two-players"
    if rank is _K and card.suit is _SPADES:
        return "spade-king"
    if rank is _SEVEN:
        return "seven"
    if rank is _SIX:
        return "six"
    if rank is _A:
        return "ace"
    if rank is _TEN:
        return "direction-of-play" if ruleset.defaults.ten_reverses else "ten"
    if rank is _EIGHT:
        return "eight"
    if rank is _NINE and play.nine_cover:
        return "other-rule-sets"
    return "same-colour"  # the entry on what matches what


def _effect(
    ruleset: RuleSet,
    players: int,
    card: Card,
    clockwise: bool,
    reason: Msg,
    params: dict[str, Any],
    faq: str | None,
) -> PlayVerdict:
    """A legal play: what the card does, as seats advanced in the direction of play."""
    play, opt = ruleset.play, ruleset.defaults
    rank = card.rank
    step = 1 if clockwise else -1
    reverses = rank is _TEN and opt.ten_reverses
    if reverses:
        step = -step
    draws = penalty_of(ruleset, card)
    pending = False
    cover = needs_cover(ruleset, card)
    if cover:
        seats = 0
        if rank is _EIGHT:
            effect = _FOLLOW_EIGHT_LAST if opt.eight is EightRule.PLAY_AGAIN else _FOLLOW_EIGHT
        elif rank is _NINE:
            effect = _COVER_NINE
        else:
            effect = {
                SixCover.SUIT_OR_QUEEN: _COVER_SIX,
                SixCover.ANY_FIT: _COVER_SIX_FIT,
                SixCover.ANY_CARD: _COVER_SIX_ANY,
            }[opt.six_cover]
    elif draws and can_pass_on(ruleset, card):
        seats, pending, effect = 1, True, _DRAW_OR_PASS
    elif answers_ace(ruleset, card):
        seats, pending, effect = 1, True, _SKIP_OR_ANSWER
    elif draws:
        seats, effect = 2, _DRAW_SKIP_TWO if players == 2 else _DRAW_SKIP
    elif rank is _A and play.ace_skips:
        seats, effect = 2, _SKIP_TWO if players == 2 else _SKIP
    elif rank is _Q:
        seats, effect = 1, _NAMES_SUIT
    elif reverses:
        seats, effect = 1, _REVERSE_TWO if players == 2 else _REVERSE
    else:
        seats, effect = 1, _NEXT_PLAYS
    return PlayVerdict(
        legal=True,
        reason=reason,
        params=params,
        faq=faq or _card_faq(ruleset, card, players),
        next_draws=draws,
        next_turn=(seats * step) % players,
        effect=effect,
        effect_params={"count": draws, "suit": card.suit._value_, "rank": rank._value_},
        penalty_pending=pending,
        must_cover=cover,
        clockwise=step == 1,
    )
