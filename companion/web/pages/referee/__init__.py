"""The referee's pages: the FAQ with active search, rule cards, and the play checker.

Every page works without JavaScript (plain links and GET forms; a POST to
/referee answers 303 to the same question as a GET, so the verdict has a URL
to share). htmx upgrades the same URLs: a request carrying `HX-Request` (and
not a boosted navigation or a history restore) gets only the fragment that
changes, and every answer says `Vary: HX-Request`.

Nothing here decides a rule: the search and the answers come from `faq` and
`faq_search`, verdicts from `core.referee.check_play`, and the rule cards are
written out from the same `RuleSet` data the scorer uses.

Views: `faq_pages`, `rule_pages` (prose in `rule_prose`), `checker` (its form
in `question`, its sentences in `verdict`).
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("referee", __name__)

from companion.web.pages.referee import checker, faq_pages, rule_pages  # noqa: E402,F401  (the views register themselves on bp)
