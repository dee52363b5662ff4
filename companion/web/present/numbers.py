"""Numbers, dates and times as the pages print them: the true minus sign (U+2212), not a hyphen; decimals and
dates in the page's language (Russian 17,4 and 02.12.2026, through Babel); times in the table's own time zone.

Data stays plain (JSON and CSV keep "-40", which every program reads); what a
person reads on a page or in a sentence uses these.

The table's time zone is the phone's: its pages send it in the `tz` cookie (an IANA name such as
Europe/Moscow, set by static/boot.js); a request without one (or with a name this server does not know) reads
UTC and says so.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date
from babel.numbers import format_decimal
from flask import Blueprint, has_request_context, request

from companion.i18n import current_language

bp = Blueprint("numbers", __name__)

MINUS = "\u2212"


@bp.app_template_filter("minus")
def minus(value: Any) -> str:
    """-40 → "−40"; anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return f"{MINUS}{-value}"
    return str(value)


@bp.app_template_filter("signed")
def signed(value: Any) -> str:
    """A change with its sign: +5, −40, +0."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{MINUS}{-value}" if value < 0 else f"+{value}"
    return str(value)


ZONE_COOKIE = "tz"
MAX_ZONE_NAME = 64


def table_zone() -> ZoneInfo | None:
    """The time zone the request's phone is in (its `tz` cookie), None when not sent or not known here."""
    name = request.cookies.get(ZONE_COOKIE, "") if has_request_context() else ""
    if not name or len(name) > MAX_ZONE_NAME:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


def zone_key() -> str:
    """What a cached rendering of times depends on: the zone's name, or UTC."""
    zone = table_zone()
    return zone.key if zone else "UTC"


def _moment(value: str | datetime) -> datetime:
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # stored times are UTC


@bp.app_template_filter("stamp")
def stamp(value: str | datetime) -> str:
    """A stored UTC time as the table reads it: date and time in its zone («02.12.2026 04:35»); "… UTC" if unknown."""
    zone = table_zone()
    moment = _moment(value).astimezone(zone or UTC)
    text = f"{day(moment)} {moment:%H:%M}"
    return text if zone else f"{text} UTC"


@bp.app_template_filter("day")
def day(value: str | date) -> str:
    """A date in the page's language: 02.12.2026 in Russian; a stored UTC time is first put in the table's zone."""
    if isinstance(value, str):
        value = _moment(value).astimezone(table_zone() or UTC) if "T" in value or " " in value else \
            date.fromisoformat(value)
    return str(format_date(value, format="short" if current_language() == "ru" else "medium",
                           locale=current_language()))


@bp.app_template_filter("decimal")
def decimal(value: Any) -> str:
    """A number with the page's decimal sign (17,4 in Russian), the minus sign true; anything else as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        text = str(format_decimal(abs(value), locale=current_language()))
        return f"{MINUS}{text}" if value < 0 else text
    return str(value)
