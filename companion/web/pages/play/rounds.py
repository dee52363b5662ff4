"""Entering, correcting and undoing rounds (edit rights needed)."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Response, abort, request

from companion.core.errors import RuleError
from companion.core.series import Standings
from companion.i18n import gettext, translate_error
from companion.service import series as series_service
from companion.service.series import Series
from companion.storage import database as storage
from companion.storage.database import get_db, round_history
from companion.web.api import idempotency
from companion.web.http.edit_rights import editable_or_403
from companion.web.http.pages import is_fragment, page, see_other
from companion.web.pages.play import bp
from companion.web.pages.play.form_values import whole
from companion.web.pages.play.round_form import RoundForm, error_field
from companion.web.pages.play.round_preview import preview, standings_before
from companion.web.pages.seat import draft_form_hands
from companion.web.pages.series import render_series
from companion.web.present import round_say
from companion.web.present.cards import card_grid
from companion.web.present.restore import restore_effect
from companion.web.present.series_view import PALETTE, restoration_of, round_summary, series_view

FIELD_ORDER = ("say", "winner", "finish")  # then the players' hands p0, p1, …, then "form"


def first_error(form: RoundForm, players: list[str]) -> str | None:
    """The field whose message the page scrolls to and focuses: the first one from the top."""
    for key in (*FIELD_ORDER, *(f"p{i}" for i in range(len(players))), "form"):
        if form.errors.get(key):
            return key
    return None


def render_round(series: Series, form: RoundForm, status: int = 200, conflict: bool = False,
                 said: dict[str, Any] | None = None, confirm_redeal: bool = False, checked: bool = False) -> Response:
    before = standings_before(series, form.n)
    players = list(series.setup.players)
    active = next((i for i, p in enumerate(players) if p in before.in_play and i != form.winner), 0)
    flagged = [i for i, p in enumerate(players) if f"p{i}" in form.errors and p in before.in_play]
    if "finish" in form.errors and form.winner is not None:
        active = form.winner  # the winner's tab shows the finishing card
    elif flagged:
        active = flagged[0]
    # A double tap or a resent form carries the same key: the round is recorded once (see web.idempotency).
    key = request.form.get(idempotency.FORM_FIELD) or secrets.token_urlsafe(16)
    return page(
        "round.html", status, idempotency_key=key,
        series=series, form=form, before=before, players=players, grid_rows=card_grid(series.setup.options.deck),
        preview=preview(series, before, form), used=form.used_cards(), active=active, conflict=conflict,
        view=series_view(series), palette=PALETTE, n=form.n or len(series.entries) + 1, said=said,
        confirm_redeal=confirm_redeal, first_error=first_error(form, players), show_problems=checked or status != 200,
    )


def save(series: Series, form: RoundForm) -> Response:
    """Add or edit the round; refused input comes back next to its field, nothing stored."""
    db = get_db()
    before = standings_before(series, form.n)
    op = request.form.get("op", "")
    if op.startswith("clear-"):  # the winner's hand still has ticked cards: clear them, in one tap
        i = whole(op.removeprefix("clear-"))
        if i is not None:
            form.hands.pop(i, None)
            form.points.pop(i, None)
        return render_round(series, form)
    if op == "check":  # without JavaScript: the preview and what stops saving, nothing stored
        form.data(series, before)
        return render_round(series, form, checked=True)
    redeal = request.form.get("redeal")
    if redeal and redeal != "confirmed" and (form.hands or form.finish or form.points):
        return render_round(series, form, confirm_redeal=True)  # a redeal would throw away what was tapped
    if op in ("say", "say-save"):
        answer = said_round(series, form, before, op)
        if answer is not None:
            return answer
    body = {"redeal": True} if redeal else form.data(series, before)
    if form.errors:
        return render_round(series, form, 422)
    key = idempotency.key_from(request.form.get(idempotency.FORM_FIELD))
    digest = idempotency.request_hash(body)
    if key and _saved_before(series.id, key, digest):
        return _answer_again(series.id, form.n is None)  # the same answer as the first tap got
    stamp = (key, digest) if key and storage.idempotent_answer(db, series.id, key) is None else None
    try:
        if form.n is None:
            saved = series_service.add_round(db, series, body, if_match=form.version, idempotency=stamp)
            # the standings offer to undo it for a few seconds, at the top, far from where «Save» was
            return see_other("series.show", series_id=series.id, saved=saved.version)
        else:
            series_service.edit_round(db, series, form.n, body, if_match=form.version, idempotency=stamp)
    except (series_service.VersionConflict, storage.DuplicateKey) as conflict:
        if key and _saved_before(series.id, key, digest):  # the other tap of a double tap won the race
            return _answer_again(series.id, form.n is None)
        if isinstance(conflict, storage.DuplicateKey):
            raise
        fresh = conflict.series
        form.version = fresh.version
        if form.n is not None and series_service.round_number(fresh, form.n) is None:
            form.n = None
        return render_round(fresh, form, 409, conflict=True)
    except RuleError as error:
        form.error(error_field(error, series), translate_error(error))
        return render_round(series, form, 422)
    return see_other("series.show", series_id=series.id)


def said_round(series: Series, form: RoundForm, before: Standings, op: str) -> Response | None:
    """The dictation field. «Fill the grid» (and htmx while the text is dictated) shows what was read;
    «Save as said» saves in one tap when the reader is sure or the grid was changed by hand since it was
    filled, else fills the grid and says what to check. None: go on and save the grid."""
    if not form.say.strip():
        if op == "say" and is_fragment():  # the field emptied while typing: nothing to fill, nothing to scold
            return Response(status=204)
        form.error("say", gettext("Say or type the round first: who went out on which card, then who holds what."))
        return render_round(series, form, 422)
    said = form.read_text(series, before)
    if op == "say":
        return render_round(series, form, said=form.fill_from_text(series, before, said))
    if form.said == form.say and (said["ready"] or not round_say.shown(said, form.winner, form.finish, form.hands)):
        return None  # the grid shows this text, as read or as corrected by hand since
    if form.said != form.say and said["ready"]:
        form.fill_from_text(series, before, said)
        return None
    view = form.fill_from_text(series, before, said)
    form.error("say", gettext("Not saved yet: the text leaves something open. Answer what is asked below, "
                              "in the text or in the grid, then save again."))
    return render_round(series, form, 422, said=view)


def _answer_again(series_id: str, added: bool) -> Response:
    """The redirect the first tap got: to the standings, with the undo offer after an added round."""
    if not added:
        return see_other("series.show", series_id=series_id)
    current = series_service.load(get_db(), series_id)
    version = current.version if current is not None else None
    return see_other("series.show", series_id=series_id, saved=version)


def _saved_before(series_id: str, key: str, digest: str) -> bool:
    found = storage.idempotent_answer(get_db(), series_id, key)
    return found is not None and found["request_hash"] == digest


def stored_round_or_404(series: Series, n: int) -> int:
    found = series_service.round_number(series, n)
    if found is None:
        abort(404)
    return found


@bp.get("/series/<series_id>/round")
def new_round(series_id: str) -> Response:
    series = editable_or_403(series_id)
    if series.standings.finished:
        return see_other("series.show", series_id=series.id)
    form = RoundForm(None, series.version)
    form.hands.update(draft_form_hands(series))  # the hands sent from the players' phones so far
    return render_round(series, form)


@bp.post("/series/<series_id>/round")
def add_round(series_id: str) -> Response:
    series = editable_or_403(series_id)
    return save(series, RoundForm.read(request.form, series, None))


@bp.get("/series/<series_id>/round/<int:n>")
def edit_round(series_id: str, n: int) -> Response:
    series = editable_or_403(series_id)
    return render_round(series, RoundForm.of_entry(series, stored_round_or_404(series, n)))


@bp.post("/series/<series_id>/round/<int:n>")
def change_round(series_id: str, n: int) -> Response:
    series = editable_or_403(series_id)
    return save(series, RoundForm.read(request.form, series, stored_round_or_404(series, n)))


@bp.post("/series/<series_id>/round/preview")
def round_preview(series_id: str) -> Response:
    series = editable_or_403(series_id)
    n = series_service.round_number(series, whole(request.form.get("n", "")))
    form = RoundForm.read(request.form, series, n)
    before = standings_before(series, n)
    return page("_preview.html", series=series, form=form, preview=preview(series, before, form), oob=True)


@bp.post("/series/<series_id>/round/<int:n>/delete")
def delete_round(series_id: str, n: int) -> Response:
    series = editable_or_403(series_id)
    stored_round_or_404(series, n)
    try:
        series_service.delete_round(get_db(), series, n, if_match=whole(request.form.get("version", "")))
    except series_service.VersionConflict as conflict:
        return render_series(
            conflict.series,
            status=409,
            message=gettext(
                "Someone else saved first, so nothing was undone. Here "
                "is the fresh state; try again if you still want to."
            ),
        )
    except RuleError as error:
        return render_series(series, status=422, message=translate_error(error))
    return see_other("series.show", series_id=series.id)


def removed_round_or_404(series: Series, change: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The whole history and its removal number `change` (1-based); 404 when that change is not a removal."""
    entries = round_history(get_db(), series.id)
    if not 1 <= change <= len(entries) or entries[change - 1]["action"] != "delete":
        abort(404)
    return entries, entries[change - 1]


def render_restore(series: Series, change: int, removed: dict[str, Any], status: int = 200,
                   changed: bool = False) -> Response:
    """The question «bring it back?» as a page: what it changes, and the buttons to do it or not."""
    return page("restore.html", status, series=series, change=change, effect=restore_effect(series, removed),
                summary=round_summary(removed["before"]), changed=changed)


@bp.post("/series/<series_id>/history/<int:change>/restore")
def restore_round(series_id: str, change: int) -> Response:
    """Bring a removed round back where it was, once the table has seen what that changes."""
    series = editable_or_403(series_id)
    entries, removed = removed_round_or_404(series, change)
    if restoration_of(entries, change) is not None:  # already back (a double tap): the same answer
        return see_other("series.show", series_id=series.id)
    if request.form.get("confirmed") != "1":  # without JavaScript the question is a page of its own
        return render_restore(series, change, removed)
    seen = whole(request.form.get("version", ""))
    if seen is not None and seen != series.version:  # the series changed since the question was asked
        return render_restore(series, change, removed, 409, changed=True)
    once = (f"restore-{change}", "restore")  # two taps racing each other restore it once
    try:
        idempotency.apply(series, lambda s, _v, k: series_service.restore_round(get_db(), s, removed["n"],
                                                                                removed["before"], k),
                          expected=None, key=once)
    except storage.DuplicateKey:
        pass  # the other tap restored it a moment ago
    except RuleError as error:
        return render_series(series, status=422, message=translate_error(error))
    return see_other("series.show", series_id=series.id)


@bp.get("/series/<series_id>/history/<int:change>/restore")
def restore_get(series_id: str, change: int) -> Response:
    """The question as a page (also where the language switch of that page leads); once restored, the series."""
    series = editable_or_403(series_id)
    entries, removed = removed_round_or_404(series, change)
    if restoration_of(entries, change) is not None:
        return see_other("series.show", series_id=series.id)
    return render_restore(series, change, removed)
