"""The source documents of the rules (shared/seeds), by name in words.

Pages list the documents an answer or a rule set comes from by what they are
(«статья о правилах ИграФан»), never by a file number the reader cannot open.
"""

from __future__ import annotations

from companion.core.errors import N_
from companion.i18n import gettext

SOURCE_NAMES = {
    "000": N_("an article on the IgraFan rules (Kubikoved)"),
    "001": N_("a second article on the IgraFan rules, with worked examples"),
    "002": N_("a page with the classic rules"),
    "003": N_("a second page with the classic rules and the older game Pharaoh"),
    "004": N_("a blog post on playing with elimination"),
}


def source_name(source: str) -> str:
    """The document's name in the current language; an unknown id stays as it is."""
    message = SOURCE_NAMES.get(source)
    return gettext(message) if message else source
