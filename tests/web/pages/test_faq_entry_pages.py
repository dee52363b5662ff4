"""The FAQ entry page: its rule set, the rule-card row it cites, the citation file.

(companion/web/pages/referee/faq_pages.py, companion/data/faq_citations.toml)
"""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from companion.core.rules import RULESETS
from companion.faq import entries as faq


def test_entry_says_its_rule_set_and_cites_the_rule_card_row(client: FlaskClient) -> None:
    text = html.unescape(client.get("/faq/seven?lang=ru").get_data(as_text=True))
    assert "Ответ для правил «ИграФан (по умолчанию)»" in text
    assert 'href="/rules/igrafan#rule-seven"' in text
    text = html.unescape(client.get("/faq/seven?lang=en&ruleset=elimination").get_data(as_text=True))
    assert "The answer for the rule set “Elimination”" in text
    assert 'href="/rules/elimination#rule-seven"' in text
    assert "seed 0" not in text and "документ" not in text


@pytest.mark.parametrize("entry", faq.all_entries(), ids=lambda e: e.slug)
def test_every_citation_points_at_a_row_the_rule_card_has(client: FlaskClient, entry: faq.FaqEntry) -> None:
    for rs in RULESETS.values():
        if not entry.applies_to(rs.id):
            continue
        page = client.get(f"/faq/{entry.slug}?ruleset={rs.id}&lang=en").get_data(as_text=True)
        link = re.search(r'class="cite"><a href="(/rules/[a-z]+)(?:#([a-z0-9-]+))?"', page)
        assert link, (entry.slug, rs.id)
        assert link.group(1) == f"/rules/{rs.id}"
        if link.group(2):
            card = client.get(link.group(1)).get_data(as_text=True)
            assert f'id="{link.group(2)}"' in card, (entry.slug, rs.id, link.group(2))


def test_citation_file_names_only_entries_and_known_rows() -> None:
    slugs = {e.slug for e in faq.all_entries()}
    cited = faq.citations()
    assert set(cited) <= slugs
    assert len(cited) >= 30


# The entries whose verdict no row of the rule card states (data/faq_citations.toml says why):
# they cite the rule card as a whole. Any other entry must cite a row.
WHOLE_CARD = {"deadlock", "last-card-call", "official-rules", "other-rule-sets", "pharaoh", "same-colour",
              "uno-and-mau-mau", "who-deals"}


def test_every_entry_cites_a_row_unless_no_row_states_its_verdict() -> None:
    uncited = {e.slug for e in faq.all_entries() if not e.cites}
    assert uncited == WHOLE_CARD


@pytest.mark.parametrize(("slug", "row"), [
    ("draw-pile-empty", "draw-pile-empty"), ("first-card-special", "first-card"), ("redeal", "who-starts"),
    ("several-cards-at-once", "several-cards-at-once"), ("who-starts", "who-starts"),
])
def test_rules_of_the_table_cite_their_row(client: FlaskClient, slug: str, row: str) -> None:
    page = client.get(f"/faq/{slug}?lang=en&ruleset=classic").get_data(as_text=True)
    assert f'href="/rules/classic#rule-{row}"' in page

