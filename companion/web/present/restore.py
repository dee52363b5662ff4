"""What bringing a removed round back would change, said before it is done (issue 21).

Restoring re-inserts the round where it was: the rounds after it move up by one and every later total is
re-derived, so the question names the number it comes back as, each total that changes, a newer round that
took its number, and a series that is over. Nothing is stored here: the rounds are replayed with it back in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.core.errors import RuleError
from companion.core.series import RoundInput, replay
from companion.i18n import gettext, translate_error
from companion.service.series import Series, check_room
from companion.web.present.numbers import minus


@dataclass(frozen=True)
class RestoreEffect:
    n: int  # the number the round had when it was removed
    position: int  # the number it comes back as
    changes: tuple[tuple[str, int, int], ...]  # (player, total now, total with it back), only those that change
    taken: bool  # a round entered since holds that number: it moves up by one
    over_now: bool  # the series is over as it stands
    over_after: bool  # the series is over with the round back
    refused: str | None  # why it cannot come back (then nothing else applies)

    @property
    def question(self) -> str:
        """The whole question in one text (the confirmation dialog's)."""
        return " ".join([self.headline, *self.notes])

    @property
    def headline(self) -> str:
        if self.refused:
            return gettext("Round %(n)s cannot be brought back: %(why)s", n=self.n, why=self.refused)
        if not self.changes:
            return gettext("Bring removed round %(n)s back? It comes back as round %(m)s; no total changes.",
                           n=self.n, m=self.position)
        changes = ", ".join(f"{name} {minus(old)} → {minus(new)}" for name, old, new in self.changes)
        return gettext("Bring removed round %(n)s back? Then the round comes back as round %(m)s, the totals "
                       "change: %(changes)s.", n=self.n, m=self.position, changes=changes)

    @property
    def notes(self) -> list[str]:
        if self.refused:
            return []
        notes = []
        if self.taken:
            notes.append(gettext("A newer round %(m)s was entered since; it becomes round %(next)s.",
                                 m=self.position, next=self.position + 1))
        if self.over_now and self.over_after:
            notes.append(gettext("The series is already over; its final totals change."))
        elif self.over_now:
            notes.append(gettext("The series is over now; with this round back it goes on."))
        elif self.over_after:
            notes.append(gettext("With this round back the series is over."))
        return notes


def restore_effect(series: Series, removed: Mapping[str, Any]) -> RestoreEffect:
    """What restoring the removed round (a `round_history` entry of action "delete") would do now."""
    n = int(removed["n"])
    entries = list(series.entries)
    position = min(n, len(entries) + 1)
    now = series.standings
    try:
        check_room(series)
        entries.insert(position - 1, RoundInput.from_json(removed["before"], series.setup))
        after = replay(series.setup, entries)
    except RuleError as error:
        return RestoreEffect(n, position, (), False, now.finished, now.finished, translate_error(error))
    changes = tuple((p, now.totals[p], after.totals[p]) for p in series.setup.players
                    if now.totals[p] != after.totals[p])
    return RestoreEffect(n, position, changes, position <= len(series.entries), now.finished, after.finished, None)
