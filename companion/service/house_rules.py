"""House rules as a short link («Наши правила»): a rule set and the options a table changed.

The code is derived from the rules themselves (a hash), so the same house
rules always give the same short link, and storing it twice is harmless.
Only the options that differ from the rule set's own are kept: a link made
today still means the same table's rules if a preset is corrected later only
where the table did not change it.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from companion.core.rules import Options, RuleSet, get_ruleset
from companion.storage import database as storage


@dataclass(frozen=True)
class HouseRules:
    code: str
    ruleset: RuleSet
    changes: dict[str, Any]  # option key → value as JSON, only those the table changed

    @property
    def options(self) -> Options:
        return self.ruleset.options(self.changes)


def changed_options(ruleset: RuleSet, options: Options | None = None) -> dict[str, Any]:
    """The options (as JSON, in the specs' order) where `options` (default: those in force in `ruleset`)
    differ from the preset's own. A series' rule set is configured with its options, so the preset is
    looked up again by id."""
    return (options if options is not None else ruleset.defaults).changes_from(get_ruleset(ruleset.id).defaults)


def code_of(ruleset_id: str, changes: Mapping[str, Any]) -> str:
    canonical = json.dumps({"ruleset": ruleset_id, "options": changes}, sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(canonical.encode()).digest()
    return base64.b32encode(digest[:5]).decode().lower()  # 8 letters and digits, 40 bits


def share(db: sqlite_utils.Database, ruleset: RuleSet, options: Options) -> HouseRules:
    """The short code of these rules, stored if new."""
    ruleset = get_ruleset(ruleset.id)
    changes = changed_options(ruleset, options)
    code = code_of(ruleset.id, changes)
    db.execute(
        "insert into shared_rules (id, ruleset, options, created_at) values (?, ?, ?, ?) on conflict (id) do nothing",
        [code, ruleset.id, json.dumps(changes, ensure_ascii=False), storage.now()],
    )
    return HouseRules(code, ruleset, changes)


def load(db: sqlite_utils.Database, code: str) -> HouseRules | None:
    rows = list(db.query("select ruleset, options from shared_rules where id = ?", [code.lower()]))
    if not rows:
        return None
    ruleset = get_ruleset(rows[0]["ruleset"])
    changes = json.loads(rows[0]["options"])
    ruleset.options(changes)  # still valid
    return HouseRules(code.lower(), ruleset, changes)
