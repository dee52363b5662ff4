"""The languages of the app, named once: Russian first (the default), English second."""

from __future__ import annotations

RU, EN = "ru", "en"
LANGUAGES = (RU, EN)
DEFAULT_LANGUAGE = RU
