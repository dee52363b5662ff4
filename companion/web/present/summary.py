"""«Поделиться итогом»: a series told in a few lines of 101, for the group chat.

Made from the same replay as the series page (`series_view`): who lost and with how
much, who won where the rule set names a winner, the exact resets and the queen
finishes in the order they happened, the totals, and the view link. The words are
in the request's language (`?lang=`); no gendered verb forms in Russian (the app
does not know who is who), so «проигрыш — Борис (104)», not «проиграл».
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.cards import Rank, Suit
from companion.core.errors import N_
from companion.i18n import card_text, current_language, gettext
from companion.service import tables
from companion.service.series import Series
from companion.storage.database import get_db
from companion.web.http.links import public_url
from companion.web.present.cards import card_or_none
from companion.web.present.numbers import minus

HIGHLIGHTS_MAX = 4  # events told before "…": the text stays short enough for a chat preview

QUEEN_FINISH = {
    Suit.HEARTS: N_("%(name)s went out on the queen of hearts (%(points)s)"),
    Suit.SPADES: N_("%(name)s went out on the queen of spades (%(points)s)"),
    Suit.CLUBS: N_("%(name)s went out on the queen of clubs (%(points)s)"),
    Suit.DIAMONDS: N_("%(name)s went out on the queen of diamonds (%(points)s)"),
}


@dataclass(frozen=True)
class Summary:
    headline: str  # «Серия 7: проигрыш — Борис (104).»
    highlights: tuple[str, ...]  # exact resets and queen finishes, in order
    more: bool  # there were more highlights than told
    totals: str  # «Счёт: Аня 12 · Вера 40 · Борис 104.»
    url: str

    @property
    def text(self) -> str:
        lines = [self.headline]
        if self.highlights:
            lines.append(", ".join(self.highlights) + ("…" if self.more else "."))
        lines += [self.totals, self.url]
        return "\n".join(lines)


def series_number(series: Series, table_series_ids: list[str]) -> int:
    """The series' number at its table (1 for the first), as the table page counts them."""
    return table_series_ids.index(series.id) + 1 if series.id in table_series_ids else 1


def headline(series: Series, n: int) -> str:
    st = series.standings
    totals = st.totals
    lost = ", ".join(f"{p} ({minus(totals[p])})" for p in st.losers)
    if st.finished and st.winner and lost:
        return gettext("Series %(n)s: %(winner)s won, %(names)s lost.", n=n, winner=st.winner, names=lost)
    if st.finished and lost:
        return gettext("Series %(n)s: %(names)s lost.", n=n, names=lost)
    if lost:
        return gettext("Series %(n)s, after round %(round)s: %(names)s lost, the others play on.", n=n,
                       round=len(st.rounds), names=lost)
    return gettext("Series %(n)s, after round %(round)s.", n=n, round=len(st.rounds))


def highlights(series: Series) -> list[str]:
    """The rounds' moments a table talks about: exact resets and queen finishes, in the order they happened."""
    exact = {old for old, _ in series.setup.options.resets}
    told = []
    for r in series.standings.rounds:
        for e in r.events:
            if e.get("type") == "reset" and e.get("from") in exact:
                told.append(gettext("%(name)s hit %(old)s exactly: back to %(new)s", name=e["player"],
                                    old=e["from"], new=minus(e["to"])))
            elif e.get("type") == "queen-finish":
                card = card_or_none(e["card"])
                if card is not None and card.rank is Rank.QUEEN:
                    told.append(gettext(QUEEN_FINISH[card.suit], name=e["player"], points=minus(e["points"])))
                else:
                    told.append(gettext("%(player)s went out on %(card)s: %(points)s", player=e["player"],
                                        card=card_text(card), points=minus(e["points"])))
    return told


def summary(series: Series, n: int, url: str) -> Summary:
    """The series in a few lines; `n` its number at the table, `url` its view link."""
    told = highlights(series)
    st = series.standings
    order = sorted(series.setup.players, key=lambda p: (p in st.losers, st.totals[p]))
    totals = gettext("Totals: %(totals)s.", totals=" · ".join(f"{p} {minus(st.totals[p])}" for p in order))
    return Summary(headline(series, n), tuple(told[:HIGHLIGHTS_MAX]), len(told) > HIGHLIGHTS_MAX, totals, url)


def share_summary(series: Series) -> tuple[Summary, str]:
    """The summary of a stored series in the request's language, numbered as its table counts its
    series, with its view link; and the URL of its chart image (naming the version and language)."""
    n = series_number(series, tables.series_ids(get_db(), series.row.table_id))
    told = summary(series, n, public_url("series.show", series_id=series.id))
    image = public_url("summary_api.summary_png", series_id=series.id, lang=current_language(), v=series.version)
    return told, image
