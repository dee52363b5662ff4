"""The referee's pages: the FAQ with active search, rule cards, and the play checker.

Every page works without JavaScript (plain links and GET forms; a POST to
/referee answers 303 to the same question as a GET, so the verdict has a URL
to share). htmx upgrades the same URLs: a request carrying `HX-Request` (and
not a boosted navigation or a history restore) gets only the fragment that
changes, and every answer says `Vary: HX-Request`.

Nothing here decides a rule: the search and the answers come from `faq` (via
the JSON API's helpers), verdicts from `core.referee.check_play`, and the rule
cards are written out from the same `RuleSet` data the scorer uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from flask import Blueprint, Response, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from werkzeug.exceptions import HTTPException

from .. import faq, faq_search
from ..core.cards import Card, Rank, Suit, parse_card
from ..core.errors import CardError, RuleError
from ..core.referee import PlayVerdict, check_play
from ..core.rules import DEFAULT_RULESET, RULESETS, OnLoss, RuleSet, SixRule
from ..core.scoring import card_points
from ..i18n import current_language, translate_error
from . import ui
from .faq_api import MAX_QUERY_LENGTH, faq_url
from .referee_api import parse_suit

bp = Blueprint("referee", __name__)

VARY = "HX-Request, Accept-Language, Cookie"


def page(template: str, status: int = 200, /, **context: Any) -> Response:
    response = make_response(render_template(template, **context), status)
    response.headers["Vary"] = VARY
    return response


@bp.errorhandler(404)
def not_found(error: HTTPException) -> Any:
    return page("error.html", 404, code=404)


def ruleset_arg(value: str | None) -> RuleSet | None:
    """A rule set named on the URL; anything else is ignored (a page, not an API)."""
    return RULESETS.get(value or "")


def ruleset_name(rs: RuleSet) -> str:
    return rs.name.get(current_language(), rs.name["en"])


# -- FAQ --------------------------------------------------------------------------

# How the list without a query is grouped: by what a table argues about.
FAQ_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("basics", ("aim-of-the-game", "number-of-players", "two-players", "cards-dealt", "who-deals", "who-starts",
                "direction-of-play", "deck-52")),
    ("queens", ("queen-wild", "queen-on-queen", "queen-cancels-penalty", "queen-finish", "queens-among-cards",
                "queens-only-hand")),
    ("special", ("six", "finish-on-six", "seven", "eight", "ten", "ace", "spade-king", "penalty-transfer",
                 "cover-special-card", "first-card-special", "last-card-seven-or-king")),
    ("turn", ("same-colour", "several-cards-at-once", "no-playable-card", "drawn-card-play", "draw-pile-empty",
              "deadlock", "redeal", "four-of-a-kind-dealt", "last-card-call")),
    ("scoring", ("card-points", "nine-points", "spade-king-in-hand", "winner-points", "exactly-100-or-101",
                 "several-over-101", "negative-score", "series-end", "elimination-play")),
    ("about", ("official-rules", "other-rule-sets", "pharaoh", "uno-and-mau-mau")),
)


def group_title(key: str) -> str:
    return {
        "basics": gettext("Getting started"),
        "queens": gettext("Queens"),
        "special": gettext("Special cards"),
        "turn": gettext("Your turn"),
        "scoring": gettext("Points and the end"),
        "about": gettext("About the game"),
        "other": gettext("More questions"),
    }[key]


@dataclass(frozen=True)
class FaqItem:
    """One line of the results: the verdict first, then the question."""

    slug: str
    url: str
    verdict: str
    question: str
    note: str  # the chosen rule set's note, when the entry has one

    @classmethod
    def of(cls, entry: faq.FaqEntry, ruleset: str | None) -> "FaqItem":
        text = entry.text(current_language())
        return cls(entry.slug, faq_url(entry.slug, ruleset), text.verdict, text.question,
                   text.by_ruleset.get(ruleset, "") if ruleset else "")


def grouped_entries(ruleset: str | None) -> list[tuple[str, list[FaqItem]]]:
    entries = {e.slug: e for e in faq.all_entries()}
    groups = []
    for key, slugs in FAQ_GROUPS:
        items = [FaqItem.of(entries.pop(s), ruleset) for s in slugs if s in entries]
        if items:
            groups.append((group_title(key), items))
    if entries:  # entries added since this grouping was written
        groups.append((group_title("other"), [FaqItem.of(e, ruleset) for e in entries.values()]))
    return groups


@bp.get("/faq")
def faq_page() -> Response:
    q = request.args.get("q", "").strip()[:MAX_QUERY_LENGTH]
    rs = ruleset_arg(request.args.get("ruleset"))
    ruleset = rs.id if rs else None
    results = [FaqItem.of(r.entry, ruleset) for r in faq_search.search(q, ruleset=ruleset)] if q else []
    context = {"q": q, "ruleset": rs, "results": results,
               "groups": [] if q else grouped_entries(ruleset)}
    if ui.is_fragment():
        return page("_faq_results.html", **context)
    return page("faq.html", **context)


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in text.split("\n\n") if p.strip()]


@bp.get("/faq/<slug>")
def faq_entry_page(slug: str) -> Response:
    entry = faq.get_entry(slug)
    if entry is None:
        abort(404)
    rs = ruleset_arg(request.args.get("ruleset"))
    text = entry.text(current_language())
    notes = [(RULESETS[rid], note, rs is not None and rid == rs.id)
             for rid, note in text.by_ruleset.items() if rid in RULESETS]
    notes.sort(key=lambda n: not n[2])  # the set in force first
    related = [FaqItem.of(e, rs.id if rs else None) for e in map(faq.get_entry, entry.related) if e]
    permalink = ui.public_url("referee.faq_entry_page", slug=slug)
    return page(
        "faq_entry.html", entry=entry, text=text, paragraphs=paragraphs(text.answer), notes=notes,
        ruleset=rs, related=related, permalink=permalink, qr=ui.qr_svg(permalink),
        applies=entry.applies_to(rs.id if rs else None),
    )


# -- rule cards -------------------------------------------------------------------


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


def card_label(rank: Rank, suit: Suit | None = None) -> str:
    return ui.rank_letter(rank) + (suit.value if suit else "")


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
    hand = ngettext("Each player is dealt %(num)s card.", "Each player is dealt %(num)s cards.", play.hand_size)
    if play.table_card:
        hand += " " + gettext("The dealer keeps one card fewer and turns the last one face up to start the pile.")
    table = RuleSection(gettext("The table"), (
        RuleRow("players", gettext("Players"), players, players_short),
        RuleRow("deck", gettext("Deck"), cards_text(opt.deck), str(opt.deck)),
        RuleRow("hand-size", gettext("Hand"), hand, str(play.hand_size) + (" + 1" if play.table_card else "")),
    ))

    if play.six is SixRule.SELF_COVER:
        six = gettext("The player who played it covers it at once with the same suit or a queen; "
                      "a round never ends on a six.")
        six_short = gettext("cover it yourself")
    else:
        six, six_short = draws_text(play.six_draw), f"+{play.six_draw}"
    skip = gettext("skip")
    effects = [
        RuleRow("six", card_label(Rank.SIX), six, six_short),
        RuleRow("seven", card_label(Rank.SEVEN), draws_text(play.seven_draw), f"+{play.seven_draw}, {skip}"),
        RuleRow("eight", card_label(Rank.EIGHT),
                gettext("Its player must play again on it.") if play.eight_continue else gettext("No effect."),
                gettext("play again") if play.eight_continue else NO_EFFECT),
        RuleRow("nine", card_label(Rank.NINE),
                gettext("Its player must cover it: the same suit, a nine or a queen.") if play.nine_cover
                else gettext("No effect."),
                gettext("cover it") if play.nine_cover else NO_EFFECT),
        RuleRow("ten", card_label(Rank.TEN),
                gettext("Reverses the direction of play.") if play.ten_reverses else gettext("No effect."),
                gettext("reverse") if play.ten_reverses else NO_EFFECT),
        RuleRow("ace", card_label(Rank.ACE),
                gettext("The next player skips a turn.") if play.ace_skips else gettext("No effect."),
                skip if play.ace_skips else NO_EFFECT),
        RuleRow("spade-king", card_label(Rank.KING, Suit.SPADES), draws_text(play.spade_king_draw),
                f"+{play.spade_king_draw}, {skip}"),
        RuleRow("queen", card_label(Rank.QUEEN),
                gettext("Goes on any card; its player names the suit to follow. It does not cancel a penalty."),
                gettext("any card")),
    ]
    if play.penalty_transfer:
        transfer = (gettext("A six or seven penalty may be passed on with a card of the same rank; it doubles.")
                    if play.transfer_doubles else
                    gettext("A six or seven penalty may be passed on with a card of the same rank; they add up."))
        transfer_short = "×2" if play.transfer_doubles else "+"
    else:
        transfer, transfer_short = gettext("A penalty cannot be passed on: draw it and skip."), NO_EFFECT
    effects.append(RuleRow("penalty-transfer", gettext("Passing on"), transfer, transfer_short))
    if play.draw_until_fits:
        stuck, stuck_short = gettext("Draw until a card fits, then play it."), gettext("draw until it fits")
    elif play.drawn_card_playable:
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
                         points=opt.queens_only_points, card=ui.card_text(special),
                         special=opt.queens_only_special_points)
        queens_short = f"{opt.queens_only_points} / {ui.card_text(special)} {opt.queens_only_special_points}"
    else:
        queens = gettext("A hand of queens only scores like any other hand.")
        queens_short = NO_EFFECT
    finish = gettext("Going out on a queen: −%(points)s, on %(card)s −%(special)s.",
                     points=opt.queen_finish_points, card=ui.card_text(special),
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
                f"−{opt.queen_finish_points} / {ui.card_text(special)} −{opt.queen_finish_special_points}"),
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


@bp.get("/rules")
def rules_comparison() -> Response:
    sets = list(RULESETS.values())
    by_set = [rule_sections(rs) for rs in sets]
    rows = []  # (section title, [(label, [short per set])])
    for s, section in enumerate(by_set[0]):
        keys: list[str] = []
        for sections in by_set:
            keys += [r.key for r in sections[s].rows if r.key not in keys]
        lines = []
        for key in keys:
            cells = []
            label = ""
            for sections in by_set:
                row = next((r for r in sections[s].rows if r.key == key), None)
                label = label or (row.label if row else "")
                cells.append(row.short if row else NO_EFFECT)
            lines.append((key, label, cells))
        if lines:
            rows.append((section.title, lines))
    return page("rules.html", ruleset=None, sets=sets, comparison=rows, names=ruleset_name)


@bp.get("/rules/<ruleset_id>")
def rule_card(ruleset_id: str) -> Response:
    rs = RULESETS.get(ruleset_id)
    if rs is None:
        abort(404)
    lang = current_language()
    return page("rules.html", ruleset=rs, sets=list(RULESETS.values()), sections=rule_sections(rs), card_keys=CARD_KEYS,
                points=points_table(rs), names=ruleset_name,
                description=rs.description.get(lang, ""), differences=rs.differences.get(lang, ()))


# -- the play checker -------------------------------------------------------------


@dataclass
class RefereeQuestion:
    """What the form asks: may `card` go on `top` (after a queen, with the suit named) in this rule set."""

    ruleset: RuleSet
    players: int
    top: Card | None = None
    suit: Suit | None = None
    card: Card | None = None
    problems: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, values: Mapping[str, str]) -> "RefereeQuestion":
        rs = ruleset_arg(values.get("ruleset")) or RULESETS[DEFAULT_RULESET]
        most = rs.max_players_for(rs.defaults)
        raw = values.get("players", "")
        players = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 3 else min(3, most)
        players = max(rs.min_players, min(most, players))
        deck_size = rs.defaults.deck
        return cls(rs, players, _card(values.get("top"), deck_size), _suit(values.get("suit")),
                   _card(values.get("card"), deck_size))

    @property
    def needs_suit(self) -> bool:
        return self.top is not None and self.top.rank is Rank.QUEEN

    def query(self) -> dict[str, str]:
        data = {"ruleset": self.ruleset.id, "players": str(self.players)}
        if self.top:
            data["top"] = self.top.code
        if self.suit and self.needs_suit:
            data["suit"] = self.suit.letter
        if self.card:
            data["card"] = self.card.code
        return data

    def check(self) -> tuple[PlayVerdict | None, str]:
        """The verdict, or what is still missing or wrong (a sentence), when the question is not complete."""
        if self.top is None:
            return None, gettext("Tap the top card of the pile.")
        if self.needs_suit and self.suit is None:
            return None, gettext("Which suit was named with the queen?")
        if self.card is None:
            return None, gettext("Now tap the card to be played.")
        try:
            return check_play(self.ruleset, self.players, self.top, self.card,
                              self.suit if self.needs_suit else None), ""
        except RuleError as error:
            return None, _message(error.template, error.params)


def _card(text: str | None, deck_size: int) -> Card | None:
    if not text:
        return None
    try:
        return parse_card(text, deck_size)
    except CardError:
        return None


def _suit(text: str | None) -> Suit | None:
    if not text:
        return None
    try:
        return parse_suit(text)
    except RuleError:
        return None


def _local_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Cards and ranks written as the reader writes them (Д♣, not Q♣)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Card):
            value = ui.card_text(value)
        elif key == "rank" and isinstance(value, str) and value in Rank._value2member_map_:
            value = ui.rank_letter(Rank(value))
        out[key] = value
    return out


def _message(template: str, params: Mapping[str, Any]) -> str:
    return translate_error(RuleError(template, **_local_params(params)))


def next_player_text(offset: int, players: int, clockwise: bool = True) -> str:
    """Who plays next, from the seat offset counted clockwise from the player who played."""
    if offset == 0:
        return gettext("The same player plays again.")
    if players == 2:
        return gettext("The opponent plays next.")
    if not clockwise and offset == players - 1:
        return gettext("The previous player (on the right) plays.")
    if offset == 1:
        return gettext("The next player (on the left) plays.")
    if offset == 2:
        return gettext("The player after next plays: one is skipped.")
    return gettext("The player %(num)s seats to the left plays.", num=offset)


def verdict_view(q: RefereeQuestion, verdict: PlayVerdict) -> dict[str, Any]:
    entry = faq.get_entry(verdict.faq)
    view: dict[str, Any] = {
        "legal": verdict.legal,
        "reason": _message(verdict.reason, verdict.params),
        "effect": _message(verdict.effect, verdict.effect_params) if verdict.effect else "",
        "next_turn": verdict.next_turn,
        "next_draws": verdict.next_draws,
        "faq_url": faq_url(verdict.faq, q.ruleset.id),
        "faq_question": entry.text(current_language()).question if entry else verdict.faq,
    }
    if verdict.legal:
        view["who"] = next_player_text(verdict.next_turn, q.players, verdict.clockwise)
        if verdict.next_draws:
            drawer = gettext("The opponent") if q.players == 2 else gettext("The next player")
            view["draws"] = ngettext("%(who)s draws %(num)s card", "%(who)s draws %(num)s cards",
                                     verdict.next_draws, who=drawer)
            if verdict.penalty_pending:
                view["draws"] += " " + gettext("unless they pass it on")
    else:
        view["who"] = gettext("Take the card back: it is still the same player's turn.")
    return view


@bp.route("/referee", methods=["GET", "POST"])
def referee_page() -> Any:
    if request.method == "POST":  # a form posted without JavaScript: the same question as a shareable GET
        q = RefereeQuestion.read(request.form)
        response = redirect(url_for("referee.referee_page", **q.query()), code=303)
        response.headers["Vary"] = VARY
        return response
    q = RefereeQuestion.read(request.args)
    verdict, prompt = q.check()
    context = {
        "q": q, "verdict": verdict_view(q, verdict) if verdict else None, "prompt": prompt,
        "sets": list(RULESETS.values()), "names": ruleset_name,
        "player_counts": range(q.ruleset.min_players, q.ruleset.max_players_for(q.ruleset.defaults) + 1),
        "grid_rows": ui.card_grid(q.ruleset.defaults.deck), "suits": _suit_choices(),
        "top_code": q.top.code if q.top else "", "card_code": q.card.code if q.card else "",
    }
    if ui.is_fragment():
        return page("_verdict.html", oob=True, **context)
    return page("referee.html", **context)


def _suit_choices() -> Iterable[tuple[str, str, bool, str]]:
    names = {Suit.SPADES: gettext("spades"), Suit.HEARTS: gettext("hearts"),
             Suit.CLUBS: gettext("clubs"), Suit.DIAMONDS: gettext("diamonds")}
    return [(s.letter, s.value, s.is_red, names[s]) for s in ui.GRID_SUITS]
