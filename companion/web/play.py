"""The scorekeeper's pages: start a series, share it, enter and correct rounds.

Every form works without JavaScript (POST, then 303 to the page to show);
htmx upgrades the same URLs (boosted navigation, a live preview fragment).
Writes need the series' edit cookie, which only the edit link sets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from .. import series_service
from ..core.cards import Card, parse_card
from ..core.errors import CardError, OptionError, RuleError
from ..core.rules import OPTION_SPECS, RULESETS
from ..core.scoring import queen_finish_deduction, score_hand, settle_total
from ..core.series import RoundInput, Standings, round_problems
from ..i18n import current_language, translate_error
from ..storage import get_db
from . import ui
from .series import render_series

bp = Blueprint("play", __name__)

START_SEATS = 4


# -- errors as pages ----------------------------------------------------------


@bp.errorhandler(403)
@bp.errorhandler(404)
def error_page(error: HTTPException) -> Any:
    return render_template("error.html", code=error.code), error.code


def editable_or_403(series_id: str) -> series_service.Series:
    game = ui.load_or_404(series_id)
    if not ui.can_edit(game):
        abort(403)
    return game


def whole(text: str, default: Any = None) -> Any:
    """A whole number written in ASCII digits (an optional minus), else `default`."""
    digits = text.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        return default
    return int(text.strip())


def see_other(endpoint: str, **values: Any) -> Any:
    return redirect(url_for(endpoint, **values), code=303)


def as_editor(response: Any, game: series_service.Series, token: str) -> Any:
    """Give this phone the series' edit rights and list it among its recent series."""
    ui.grant_edit(response, game.id, token)
    ui.remember_recent(response, game.id)
    return response


# -- start ------------------------------------------------------------------


@dataclass
class StartForm:
    names: list[str] = field(default_factory=lambda: [""] * START_SEATS)
    ruleset: str = "igrafan"
    options: dict[str, str] = field(default_factory=dict)
    starter: str = "lot"
    errors: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, form: Any) -> "StartForm":
        names = [n[: 4 * 30] for n in form.getlist("name")][:12] or [""] * START_SEATS
        ruleset = form.get("ruleset", "igrafan")
        options = {spec.key: form.get(f"opt-{spec.key}", "").strip()[:40] for spec in OPTION_SPECS}
        return cls(names, ruleset if ruleset in RULESETS else "igrafan",
                   {k: v for k, v in options.items() if v}, form.get("starter", "lot"))

    def apply(self, op: str) -> None:
        """Seat edits without JavaScript: add, remove, move up."""
        what, _, index = op.partition("-")
        i = whole(index, -1)
        if what == "add" and len(self.names) < 12:
            self.names.append("")
        elif what == "remove" and 0 <= i < len(self.names) and len(self.names) > 2:
            del self.names[i]
        elif what == "up" and 0 < i < len(self.names):
            self.names[i - 1], self.names[i] = self.names[i], self.names[i - 1]
        self.starter = "lot"

    def chosen_starter(self) -> str | None:
        i = whole(self.starter, -1)
        if 0 <= i < len(self.names) and self.names[i].strip():
            return self.names[i]
        return None

    def option_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for spec in OPTION_SPECS:
            raw = self.options.get(spec.key)
            if not raw:
                continue
            key = f"opt-{spec.key}"
            if spec.kind == "bool":
                values[spec.key] = raw == "yes"
            elif spec.kind == "choice":
                match = [c for c in spec.choices if str(c) == raw]
                if not match:
                    self.errors[key] = gettext("Choose one of the listed values.")
                else:
                    values[spec.key] = match[0]
            elif spec.kind == "int":
                number = whole(raw)
                if number is not None:
                    values[spec.key] = number
                else:
                    self.errors[key] = gettext("Write a whole number, such as 20.")
            else:
                resets = parse_resets(raw)
                if resets is None:
                    self.errors[key] = gettext("Write pairs like “101 → 0, 100 → 50”, or “none”.")
                else:
                    values[spec.key] = resets
        return values


def parse_resets(text: str) -> dict[str, int] | None:
    if text.strip().lower() in ("none", "нет", "-", "—"):
        return {}
    pairs: dict[str, int] = {}
    for part in text.replace(";", ",").split(","):
        for arrow in ("→", "->", "=", ":"):
            part = part.replace(arrow, " ")
        bits = part.split()
        if len(bits) != 2 or not all(whole(b) is not None for b in bits):
            return None
        pairs[str(int(bits[0]))] = int(bits[1])
    return pairs


def rulesets_view() -> list[dict[str, Any]]:
    lang = current_language()
    return [{"id": rs.id, "name": rs.name[lang], "differences": rs.differences[lang]} for rs in RULESETS.values()]


def options_view(form: StartForm) -> list[dict[str, Any]]:
    lang = current_language()
    return [{"key": s.key, "kind": s.kind, "label": s.label[lang], "choices": s.choices,
             "min": s.minimum, "max": s.maximum, "value": form.options.get(s.key, ""),
             "error": form.errors.get(f"opt-{s.key}")} for s in OPTION_SPECS]


def recent_view() -> list[dict[str, Any]]:
    db = get_db()
    found = []
    for series_id in ui.recent_ids():
        game = series_service.load(db, series_id)
        if game is not None:
            found.append({"id": game.id, "players": ", ".join(game.setup.players),
                          "rounds": len(game.entries), "finished": game.standings.finished,
                          "updated": game.row.updated_at})
    return found


def render_start(form: StartForm, status: int = 200) -> Any:
    return render_template("start.html", form=form, rulesets=rulesets_view(), options=options_view(form),
                           recent=recent_view(), fold_open=any(k.startswith("opt-") for k in form.errors)), status


@bp.get("/")
def start() -> Any:
    form = StartForm()
    again = request.args.get("from")
    if again:
        game = series_service.load(get_db(), again)
        if game is not None:
            form = StartForm(list(game.setup.players), game.setup.ruleset.id)
    return render_start(form)


@bp.post("/new")
def create() -> Any:
    form = StartForm.read(request.form)
    op = request.form.get("op")
    if op:
        form.apply(op)
        return render_start(form)
    names = [n for n in form.names if n.strip()]
    options = form.option_values()
    if len(names) < 2:
        form.errors["names"] = gettext("Write at least two names.")
    if form.errors:
        return render_start(form, 422)
    try:
        game, token = series_service.create(get_db(), names, form.ruleset, options or None, form.chosen_starter())
    except RuleError as error:
        message = translate_error(error)
        if isinstance(error, OptionError) and "key" in error.params:
            form.errors[f"opt-{error.params['key']}"] = message
        elif isinstance(error, OptionError):
            form.errors["ruleset"] = message
        else:
            form.errors["names"] = message
        return render_start(form, 422)
    return as_editor(see_other("play.share", series_id=game.id), game, token)


@bp.post("/series/<series_id>/again")
def again(series_id: str) -> Any:
    """New series, same players and rules; the first starter is drawn by lot."""
    old = editable_or_403(series_id)
    game, token = series_service.create(get_db(), list(old.setup.players), old.setup.ruleset.id, old.row.options or None)
    return as_editor(see_other("play.share", series_id=game.id), game, token)


# -- sharing ----------------------------------------------------------------


@bp.get("/series/<series_id>/edit")
def claim(series_id: str) -> Any:
    """The edit link: remember its token on this phone, then show the series."""
    game = ui.load_or_404(series_id)
    token = request.args.get("token", "")
    if not token or not game.row.token_matches(token):
        abort(403)
    return as_editor(see_other("series.show", series_id=game.id), game, token)


@bp.get("/series/<series_id>/share")
def share(series_id: str) -> Any:
    game = editable_or_403(series_id)
    token = request.cookies[ui.edit_cookie(game.id)]
    view_url = ui.public_url("series.show", series_id=game.id)
    edit_url = ui.public_url("play.claim", series_id=game.id, token=token)
    return render_template("share.html", game=game, view_url=view_url, edit_url=edit_url,
                           view_qr=ui.qr_svg(view_url), edit_qr=ui.qr_svg(edit_url))


# -- round entry ------------------------------------------------------------


@dataclass
class RoundForm:
    n: int | None  # None: a new round
    version: int
    winner: int | None = None
    finish: str = ""
    hands: dict[int, list[str]] = field(default_factory=dict)
    points: dict[int, str] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, form: Any, game: series_service.Series, n: int | None) -> "RoundForm":
        count = len(game.setup.players)
        version = form.get("version", "")
        winner = form.get("winner", "")
        w = whole(winner)
        rf = cls(n, whole(version, game.version),
                 w if w is not None and 0 <= w < count else None,
                 form.get("finishing_card", "")[:4])
        for i in range(count):
            cards = [c[:4] for c in form.getlist(f"hand-{i}")][:60]
            if cards:
                rf.hands[i] = cards
            typed = form.get(f"points-{i}", "").strip()[:9]
            if typed:
                rf.points[i] = typed
        return rf

    @classmethod
    def of_entry(cls, game: series_service.Series, n: int) -> "RoundForm":
        entry = game.entries[n - 1]
        players = list(game.setup.players)
        return cls(
            n, game.version,
            players.index(entry.winner) if entry.winner else None,
            entry.finishing_card.code if entry.finishing_card else "",
            {players.index(p): [c.code for c in cards] for p, cards in entry.hands.items()},
            {players.index(p): str(v) for p, v in entry.typed_points.items()},
        )

    def error(self, key: str, message: str) -> None:
        messages = self.errors.setdefault(key, [])
        if message not in messages:
            messages.append(message)

    def data(self, game: series_service.Series, before: Standings) -> dict[str, Any]:
        """The round body for the series service: hands of everyone in play but the winner, or their typed points."""
        players = game.setup.players
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


def error_field(error: RuleError, game: series_service.Series) -> str:
    """Which field of the round form an error from the core is about."""
    if error.field == "winner":
        return "winner"
    if error.field == "finishing_card":
        return "finish"
    for key in ("second", "player"):
        name = error.params.get(key)
        if name in game.setup.players:
            return f"p{game.setup.players.index(name)}"
    if isinstance(error, CardError):
        return "finish"
    return "form"


def parse_code(code: str, game: series_service.Series) -> Card | None:
    try:
        return parse_card(code, game.setup.options.deck)
    except RuleError:
        return None


def preview(game: series_service.Series, before: Standings, form: RoundForm) -> dict[str, Any]:
    """Live points of the round being entered, and everything that would stop it being saved."""
    options = game.setup.options
    rows = []
    for i, player in enumerate(game.setup.players):
        if player not in before.in_play:
            continue
        prev = before.totals[player]
        parts: list[str] = []
        kind = "hand"
        if form.winner == i:
            kind = "winner"
            card = parse_code(form.finish, game)
            change = -queen_finish_deduction(card, options)
            if change:
                parts.append(gettext("went out on %(card)s", card=ui.card_text(card)))
        elif i in form.points:
            kind = "typed"
            change = whole(form.points[i], 0)
        else:
            cards = [c for c in (parse_code(code, game) for code in form.hands.get(i, [])) if c]
            score = score_hand(cards, options)
            change = score.points
            parts = [f"{ui.card_text(c)} {p}" for c, p in score.breakdown]
            if score.rule:
                parts.append(gettext("queens only"))
        final, resets = settle_total(prev, change, options)
        rows.append({"i": i, "name": player, "kind": kind, "change": change, "prev": prev, "total": prev + change,
                     "final": final, "reset": bool(resets), "lost": final > options.loss_above,
                     "parts": parts, "count": len(form.hands.get(i, [])) if kind == "hand" else 0})
    problems: list[str] = []
    body = form.data(game, before)
    try:
        entry = RoundInput.from_json(body, game.setup)
        problems = [translate_error(p) for p in round_problems(before, entry)]
        if not problems:
            series_service.check_round(game, body, form.n)
    except RuleError as error:
        problems.append(translate_error(error))
    for messages in form.errors.values():
        problems.extend(messages)
    return {"rows": rows, "problems": problems}


def used_cards(form: RoundForm) -> dict[str, str]:
    """Card code → where it is used ("p2" or "finish"), for greying it out elsewhere."""
    used = {code: f"p{i}" for i, codes in form.hands.items() for code in codes}
    if form.finish:
        used[form.finish] = "finish"
    return used


def render_round(game: series_service.Series, form: RoundForm, status: int = 200, conflict: bool = False) -> Any:
    before = ui.standings_before(game, form.n)
    players = list(game.setup.players)
    active = next((i for i, p in enumerate(players) if p in before.in_play and i != form.winner), 0)
    flagged = [i for i, p in enumerate(players) if f"p{i}" in form.errors and p in before.in_play]
    if "finish" in form.errors and form.winner is not None:
        active = form.winner  # the winner's tab shows the finishing card
    elif flagged:
        active = flagged[0]
    context = dict(
        game=game, form=form, before=before, players=players, grid_rows=ui.card_grid(game.setup.options.deck),
        preview=preview(game, before, form), used=used_cards(form), active=active, conflict=conflict,
        view=ui.standings_view(game), palette=ui.PALETTE,
        n=form.n or len(game.entries) + 1,
    )
    return render_template("round.html", **context), status


def save(game: series_service.Series, form: RoundForm) -> Any:
    """Add or edit the round; refused input comes back next to its field, nothing stored."""
    db = get_db()
    before = ui.standings_before(game, form.n)
    body = {"redeal": True} if request.form.get("redeal") else form.data(game, before)
    if form.errors:
        return render_round(game, form, 422)
    try:
        if form.n is None:
            series_service.add_round(db, game, body, if_match=form.version)
        else:
            series_service.edit_round(db, game, form.n, body, if_match=form.version)
    except series_service.VersionConflict as conflict:
        fresh = conflict.series
        form.version = fresh.version
        if form.n is not None and series_service.round_number(fresh, form.n) is None:
            form.n = None
        return render_round(fresh, form, 409, conflict=True)
    except RuleError as error:
        form.error(error_field(error, game), translate_error(error))
        return render_round(game, form, 422)
    return see_other("series.show", series_id=game.id)


@bp.get("/series/<series_id>/round")
def new_round(series_id: str) -> Any:
    game = editable_or_403(series_id)
    if game.standings.finished:
        return see_other("series.show", series_id=game.id)
    return render_round(game, RoundForm(None, game.version))


@bp.post("/series/<series_id>/round")
def add_round(series_id: str) -> Any:
    game = editable_or_403(series_id)
    return save(game, RoundForm.read(request.form, game, None))


@bp.get("/series/<series_id>/round/<int:n>")
def edit_round(series_id: str, n: int) -> Any:
    game = editable_or_403(series_id)
    if series_service.round_number(game, n) is None:
        abort(404)
    return render_round(game, RoundForm.of_entry(game, n))


@bp.post("/series/<series_id>/round/<int:n>")
def change_round(series_id: str, n: int) -> Any:
    game = editable_or_403(series_id)
    if series_service.round_number(game, n) is None:
        abort(404)
    return save(game, RoundForm.read(request.form, game, n))


@bp.post("/series/<series_id>/round/preview")
def round_preview(series_id: str) -> Any:
    game = editable_or_403(series_id)
    n_text = request.form.get("n", "")
    n = series_service.round_number(game, whole(n_text))
    form = RoundForm.read(request.form, game, n)
    before = ui.standings_before(game, n)
    return render_template("_preview.html", game=game, form=form, preview=preview(game, before, form), oob=True)


@bp.post("/series/<series_id>/round/<int:n>/delete")
def delete_round(series_id: str, n: int) -> Any:
    game = editable_or_403(series_id)
    if series_service.round_number(game, n) is None:
        abort(404)
    version = request.form.get("version", "")
    try:
        series_service.delete_round(get_db(), game, n, if_match=whole(version))
    except series_service.VersionConflict as conflict:
        return render_series(conflict.series, status=409,
                             message=gettext("Someone else saved first, so nothing was undone. Here is the fresh state; try again if you still want to."))
    except RuleError as error:
        return render_series(game, status=422, message=translate_error(error))
    return see_other("series.show", series_id=game.id)



# A page rendered after a POST links back to its own address (the language
# switch does): answer a GET there with the page it belongs to, not 405.


@bp.get("/new")
def new_get() -> Any:
    return see_other("play.start")


@bp.get("/series/<series_id>/again")
@bp.get("/series/<series_id>/round/<int:n>/delete")
def back_to_series(series_id: str, n: int | None = None) -> Any:
    return see_other("series.show", series_id=series_id)
