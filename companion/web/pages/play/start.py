"""Starting a series: the start page, creating it, playing again with the same table."""

from __future__ import annotations

from typing import Any

from flask import Response, request

from companion.core.errors import RuleError
from companion.core.rules import OPTION_SPECS, RULESETS, OptionSpec
from companion.i18n import gettext, translate_error
from companion.service import house_rules
from companion.service import series as series_service
from companion.storage.database import get_db
from companion.web.http.edit_rights import editable_or_403
from companion.web.http.pages import page, see_other
from companion.web.http.recent import recent_ids
from companion.web.pages.play import bp
from companion.web.pages.play.sharing import as_editor
from companion.web.pages.play.start_form import StartForm


def rulesets_view() -> list[dict[str, Any]]:
    return [{"id": rs.id, "name": gettext(rs.name), "differences": [gettext(line) for line in rs.differences]}
            for rs in RULESETS.values()]


def options_view(form: StartForm) -> list[dict[str, Any]]:
    return [
        {
            "key": s.key,
            "kind": s.kind,
            "label": gettext(s.label),
            "choices": [
                (str(c), gettext(s.choice_labels[i]) if s.choice_labels else str(c)) for i, c in enumerate(s.choices)
            ],
            "yes_no": (gettext(s.choice_labels[1]), gettext(s.choice_labels[0]))
            if s.kind == "bool" and s.choice_labels
            else (gettext("yes"), gettext("no")),
            "min": s.minimum,
            "max": s.maximum,
            "value": form.options.get(s.key, ""),
            "presets": presets(s),
            "preset": presets(s).get(form.ruleset, ""),
            "error": form.errors.get(f"opt-{s.key}"),
        }
        for s in OPTION_SPECS
    ]


def presets(spec: OptionSpec) -> dict[str, str]:
    """The option's value in every rule set, by rule-set id."""
    return {rs.id: preset_text(spec, rs.defaults.to_json()[spec.key]) for rs in RULESETS.values()}


def preset_text(spec: OptionSpec, value: Any) -> str:
    """An option's value in a rule set, as the house-rules form shows it («100 → 0», «нет», «20»)."""
    if spec.kind == "resets":
        return ", ".join(f"{old} → {new}" for old, new in value.items()) if value else str(gettext("no"))
    label = spec.value_label(value)
    if label is not None:
        return str(gettext(label))
    if spec.kind == "bool":
        return str(gettext("yes") if value else gettext("no"))
    return str(value)


def recent_view() -> list[dict[str, Any]]:
    db = get_db()
    found = []
    for series_id in recent_ids():
        series = series_service.load(db, series_id)
        if series is not None:
            found.append(
                {
                    "id": series.id,
                    "players": ", ".join(series.setup.players),
                    "rounds": len(series.entries),
                    "finished": series.standings.finished,
                    "updated": series.row.updated_at,
                }
            )
    return found


def first_error(form: StartForm) -> str | None:
    """The field a refused start page scrolls to and focuses: the first from the top."""
    keys = ["names", "ruleset", *(f"opt-{spec.key}" for spec in OPTION_SPECS)]
    return next((k for k in keys if form.errors.get(k)), None)


def name_to_fix(form: StartForm) -> int:
    """The name input a refusal of the names is about: a repeated name (any case), else the first empty one."""
    seen: set[str] = set()
    for i, name in enumerate(form.names):
        folded = " ".join(name.split()).casefold()
        if folded and folded in seen:
            return i
        seen.add(folded)
    return next((i for i, name in enumerate(form.names) if not name.strip()), 0)


def render_start(form: StartForm, status: int = 200, house_rules: dict[str, Any] | None = None) -> Response:
    return page(
        "start.html",
        status,
        form=form,
        rulesets=rulesets_view(),
        options=options_view(form),
        recent=recent_view(),
        fold_open=any(k.startswith("opt-") for k in form.errors),
        house_rules=house_rules,
        first_error=first_error(form),
        name_to_fix=name_to_fix(form),
    )


@bp.get("/")
def start() -> Response:
    form = StartForm()
    again = request.args.get("from")
    if again:
        series = series_service.load(get_db(), again)
        if series is not None:  # the same players and rules, house options included
            form = StartForm(
                list(series.setup.players),
                series.setup.ruleset.id,
                house_rules.form_options(series.setup.ruleset, series.setup.options),
            )
    return render_start(form)


@bp.post("/new")
def create() -> Response:
    form = StartForm.read(request.form)
    op = request.form.get("op")
    if op:
        form.apply(op)
        return render_start(form)
    names = form.filled_names()
    options = form.option_values()
    if len(names) < 2:
        form.errors["names"] = gettext("Write at least two names.")
    if form.errors:
        return render_start(form, 422)
    try:
        series, token = series_service.create(get_db(), names, form.ruleset, options or None, form.chosen_starter())
    except RuleError as error:
        form.refused(error, translate_error(error))
        return render_start(form, 422)
    return as_editor(see_other("play.share", series_id=series.id), series, token)


@bp.post("/series/<series_id>/again")
def again(series_id: str) -> Response:
    """New series, same players and rules; the first starter is drawn by lot."""
    old = editable_or_403(series_id)
    series, token = series_service.create(
        get_db(), list(old.setup.players), old.setup.ruleset.id, old.row.options or None, table_id=old.row.table_id
    )
    return as_editor(see_other("play.share", series_id=series.id), series, token)
