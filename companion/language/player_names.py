"""Players as people name them: «Боря», «у Бори», «Борьке», «Борис» are all Борис (issue 21).

A word is matched to the players at the table in this order: the player's own
name in any case form («Бориса», via pymorphy3's dictionary forms or the usual
endings), then any name of the same person from the table of pet names
(pet_names.toml: «Катюха», «Катьки» → Екатерина or Катя) with a diminutive
suffix or a case ending («Олюшки»), a possessive («Борины карты»), then the same
one letter off («Бариса»). A pet name the table lacks is found by its root
(`by_root`: «Сёма» → Семён, «Сева» → Всеволод), gender agreeing. A word that fits
two players is returned with both, so the reader asks; a first name of nobody at
the table is `is_pet_name` or a name in the dictionary, and its cards go to nobody.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from companion.core.cards import card_word, fold
from companion.language.morphology import Morphology

PET_NAMES = Path(__file__).with_name("pet_names.toml")
_ENDINGS = frozenset(("", "а", "я", "у", "ю", "ы", "и", "е", "ой", "ей", "ом", "ем", "ею", "ою", "'s", "’s", "s"))
_MIN_TYPO_LENGTH = 4
_POSSESSIVE = re.compile(r"(.{2,}?)(ин|ын|ов|ев)(а|о|ы|у|ой|ых|ым|ыми|ого|ому|ую|ом|ых)?")  # Борин, Глебов
# What a pet name adds to the beginning of a full name, longest first: Сём|а (Семён), Рост|ик (Ростислав),
# Арка|ша (Аркадий), Ол|юшка (Ольга), Гавр|юша (Гавриил).
_PET_SUFFIXES = ("унчик", "юнчик", "усик", "юсик",
                 "юшка", "ушка", "очка", "ечка", "енька", "онька", "уля", "юля", "уся", "юся", "уша", "юша", "уха",
                 "юха", "ик", "ок", "ек", "ка", "ша", "ня", "ся", "я", "а")
# «у Миры», «Гаврюше», «у Робика», «с Робиком»: back to «Мира», «Гаврюша», «Робик»
_CASE_ENDINGS = ("ой", "ей", "ом", "ем", "ы", "и", "е", "у", "ю", "а", "я")


@lru_cache(maxsize=1)
def name_groups() -> tuple[frozenset[str], ...]:
    """Each full name with its pet names, folded («е» for «ё»)."""
    with PET_NAMES.open("rb") as f:
        table: dict[str, list[str]] = tomllib.load(f)["names"]
    return tuple(frozenset(fold(n) for n in (full, *forms)) for full, forms in table.items())


@lru_cache(maxsize=1)
def _table() -> dict[str, frozenset[str]]:
    """Each full name of the table → its pet names, folded."""
    with PET_NAMES.open("rb") as f:
        table: dict[str, list[str]] = tomllib.load(f)["names"]
    return {fold(full): frozenset(fold(n) for n in forms) for full, forms in table.items()}


def _kin_forms(own: str) -> frozenset[str]:
    """The pet names of a full name the table lacks, from the table's names it is a longer form of: Юлиана is a
    Юлия with more letters, so «Юля», «Юлька» may be hers too (Дарина: Дарья's «Даша»; Станислава: Станислав's
    «Слава»). The full name's stem, less its ending, must begin the name (so Марат takes nothing of Мария)."""
    if any(own in forms or own == full for full, forms in _table().items()):
        return frozenset()
    kin: set[str] = set()
    for full, forms in _table().items():
        stem = full[:-2] if full.endswith("ья") else full[:-1] if full[-1] in "аяйь" else full
        if len(stem) >= 3 and own.startswith(stem) and len(own) > len(full) - 1 and own != full:
            kin |= forms
    return frozenset(kin)


@lru_cache(maxsize=1)
def _all_names() -> frozenset[str]:
    return frozenset().union(*name_groups())


def _stem(name: str) -> str:
    return name[:-1] if len(name) > 2 and name[-1] in "аяоеыийь" else name


# Полинка, Олеська, Зоечка, Иришка; Генчик, Егорыч, Васюха, Нинуля
_DIMINUTIVE = ("к", "ьк", "ечк", "очк", "еньк", "оньк", "ушк", "юшк", "ишк", "чик", "ыч", "ух", "юх", "ул", "юл")
_PET_DIMINUTIVE = (*_DIMINUTIVE, "ик", "ок", "ун", "юн", "юш")  # of a pet name: Слав|ик, Слав|ун, Фед|юня


def _stems(form: str) -> list[tuple[str, tuple[str, ...]]]:
    """A name's stems and the suffixes each takes before a case ending: «полин» (nothing or «к»), «зой» («к»)."""
    stem = _stem(form)
    stems: list[tuple[str, tuple[str, ...]]] = [(stem, ("", *_DIMINUTIVE))]
    if len(form) > 2 and form[-1] == "я" and form[-2] in "аеиоуыэюя":  # Зоя → Зойка
        stems.append((form[:-1] + "й", ("к",)))
    if len(form) > 3 and form.endswith(("ек", "ик")):  # Олежек → у Олежика, Эдик → у Эдички
        stems += [(form[:-2] + "ик", ("",)), (form[:-1] + "ч", ("к",))]
    return stems


def _soft(form: str) -> bool:
    """A name in a vowel and «я» (Фая, Рая, Зоя): its short stem takes the case endings («у фаи», «зое»)."""
    return len(form) > 2 and form[-1] == "я" and form[-2] in "аеиоуыэюя"


def _nominatives(low: str) -> list[str]:
    """A word the dictionary does not know as a name, back in the nominative by its case ending («миры» → «мира»)."""
    forms = [low]
    for ending in _CASE_ENDINGS:
        base = low[: -len(ending)]
        if low.endswith(ending) and len(base) > 2:
            forms += [base, base + "а", base + "я"]
    return forms


def _fits(pet: str, name: str, strict: bool) -> bool:
    """Whether `pet` can be a pet name of the full name `name` by its root (see PlayerNames.by_root)."""
    if pet == name or len(pet) < 3:
        return False
    roots = [pet[: -len(s)] for s in _PET_SUFFIXES if pet.endswith(s) and len(pet) - len(s) >= min(len(s) + 1, 3)]
    if len(pet) >= 4 and name.endswith(pet):  # Ника: Вероника, Доминика
        return True
    if strict:
        return any(len(r) >= 3 and name.startswith(r) for r in roots)
    return any(name.startswith(r) or (len(r) >= 3 and name.find(r) in (1, 2)) for r in roots)


_BARE = frozenset({"чик", "ыч"})  # suffixes that end a nominative without an ending: Генчик, Егорыч (not «Зойк»)


def _suffixed(rest: str, suffixes: tuple[str, ...]) -> bool:
    return any(rest.startswith(suffix) and rest[len(suffix):] in _ENDINGS
               and (suffix == "" or rest != suffix or suffix in _BARE) for suffix in suffixes)


_INITIAL = re.compile(r"(\S+) \w{1,2}\.?")  # «Дамир С.», «Зарина Р»: a first name and an initial


def _first_name(player: str) -> str:
    """«Дамир С.» → «Дамир»: the name said alone fits every player of that first name (then asked)."""
    found = _INITIAL.fullmatch(player)
    return found.group(1) if found else player


class PlayerNames:
    """Finds the players a word names: «Бориса», «Ане», «у федора», "Anna's", «Катюхе»."""

    def __init__(self, players: Sequence[str], morphology: Morphology) -> None:
        self.players = list(players)
        self.morphology = morphology
        self.own = {fold(p): p for p in players}
        self.forms: dict[str, set[str]] = {}  # every name of each player → the players it can be
        for player in players:
            for own in {fold(player), _first_name(fold(player))}:
                for group in [g for g in name_groups() if own in g] or [_kin_forms(own)]:
                    for form in group | {own}:
                        self.forms.setdefault(form, set()).add(player)
        self.multi = sorted((tuple(fold(p).split()), p) for p in players if len(p.split()) > 1)

    def _candidates(self, word: str) -> list[str]:
        low = fold(word)
        for suffix in ("'s", "’s"):
            low = low.removesuffix(suffix)
        return [low, *(fold(lemma) for lemma in self.morphology.lemmas(low))]

    def _ordered(self, found: set[str]) -> tuple[str, ...]:
        return tuple(p for p in self.players if p in found)

    def match(self, word: str) -> tuple[str, ...]:
        """The players `word` can name: one, two or more (then ask), or none."""
        candidates = self._candidates(word)
        own = [self.own[form] for form in candidates if form in self.own]
        if own and candidates[0] in self.own:  # «Валентина»: Валентина, or Валентин's genitive: ask
            return self._ordered(set(own))
        if own:  # the player's own name first: «Саши» is Саша even beside Александр; «Станиславы»: whose? (after
            return self._ordered(set(own))  # «у», the genitive says: Станислава's)
        found = set().union(*(self.forms.get(form, set()) for form in candidates))
        said = self._said_genders(candidates[0])  # «Киры»: Кира, femn
        if found:  # «Славик» is in the table for Вячеслав; as a diminutive of «Слава» it may be Ярослав's too
            kin = [p for p in self._diminutive_of_pet(candidates[0]) if not said or said & set(self.genders(p))]
            return self._ordered(found | set(kin))
        by_ending = [p for p in self._by_ending(candidates[0]) if not said or said & set(self.genders(p))]
        if by_ending:  # …so not Киря's (Кирилл)
            return tuple(by_ending)
        pets = self._diminutive_of_pet(candidates[0])  # «Федюне» of «Федя», whatever gender the dictionary reads
        return self._ordered(pets) or self._possessive(candidates[0])

    def _said_genders(self, low: str) -> set[str | None]:
        """The genders the dictionary reads a case form with («Киры»: Кира, femn). A reading that takes the word
        for a name of its own («груни»: a masculine «Груни», not Аграфена's «у Груни») says nothing of gender."""
        return {gender for name, gender in self.morphology.name_readings(low) if fold(name) != low}

    def _by_ending(self, low: str) -> tuple[str, ...]:
        """«Катюхе», «Бориса» where the dictionary does not know the form: a name's stem and a case ending; or
        the stem, a diminutive suffix and an ending («Полинки», «Зойке», «Олеськи»). Two players: both."""
        if card_word(low) is not None:  # «семи» is a seven's case, not Сёма's
            return ()
        best, found = 0, set()
        for form, players in self.forms.items():
            if " " in form:
                continue
            for stem, suffixes in _stems(form):
                if len(stem) < 3:  # «Оли» for the player Оля; «Олюшки»: a short stem takes only a long suffix,
                    bare = form in self.own or _soft(form)  # «у Фаи»; or the soft «-ьк» («Яська» of Яся)
                    suffixes = tuple(x for x in suffixes if len(x) >= 3 or x == "ьк" or (x == "" and bare))
                if len(stem) < 2 or not low.startswith(stem) or not _suffixed(low[len(stem):], suffixes):
                    continue
                if len(stem) > best:
                    best, found = len(stem), set(players)
                elif len(stem) == best:
                    found |= players
        return self._ordered(found)

    def _diminutive_of_pet(self, low: str) -> set[str]:
        """The players one of whose pet names the word is a diminutive of: «Славику» of «Слава», «Юльке» of «Юля»."""
        found: set[str] = set()
        for form, players in self.forms.items():
            stem = _stem(form)
            if " " not in form and len(stem) >= 3 and low.startswith(stem) and stem != form:
                rest = low[len(stem):]
                if any(rest.startswith(x) and rest[len(x):] in _ENDINGS for x in _PET_DIMINUTIVE):
                    found |= players
        return found

    def _possessive(self, low: str) -> tuple[str, ...]:
        """«Борины карты», «Димина дама», «Глебовы»: a possessive adjective of a player's name (never a dictionary
        word like «машина»)."""
        found = _POSSESSIVE.fullmatch(low)
        if found is None or (self.morphology.common_word(low) and not self.morphology.possessive(low)):
            return ()
        base = found.group(1)
        forms = (base + "а", base + "я") if found.group(2) in ("ин", "ын") else (base,)
        return self._ordered(set().union(*(self.forms.get(form, set()) for form in forms)))

    def by_root(self, word: str) -> tuple[str, ...]:
        """A pet name the table lacks, by its root: «Сёма» is Семён, «Ростик» Ростислав, «Гаврюша» Гавриил (the
        root begins the name); «Сева» Всеволод, «Фрося» Ефросинья (after its first letters); «Ника» Вероника (the
        name ends with it). A pet name the table gives to someone else counts only by a root of 3 letters that
        begins the name («Веня» for Венедикт; not «Санька» for Оксана). The gender must agree where the
        dictionary knows it («Ника» is not Никита); a root of two letters only from a name of three («Аля»). The
        players found, in table order (two or more: ask)."""
        low = fold(word)
        strict = self.is_pet_name(word)
        said = self.morphology.name_readings(low)  # «доси»: Дося masc; «дося» itself is femn too
        readings = [(fold(n), g) for name, _ in said for n, g in (*said, *self.morphology.name_readings(name))
                    if n == name]
        readings = readings or [(n, None) for n in _nominatives(low)]
        found: set[str] = set()
        for nominative, gender in readings:
            for player, name in self.own_names():
                if _fits(nominative, name, strict) and gender in (None, *self.genders(player)):
                    found.add(player)
        return self._ordered(found)

    def own_names(self) -> list[tuple[str, str]]:
        return [(p, _first_name(fold(p))) for p in self.players if " " not in _first_name(p)]

    def genders(self, player: str) -> tuple[str | None, ...]:
        """The genders of the player's name read as itself («Станислава»: femn, not Станислав's genitive)."""
        own = fold(player)
        found = tuple(g for n, g in self.morphology.name_readings(own) if fold(n) == own)
        return found or (None, "masc", "femn")

    def match_typo(self, word: str) -> tuple[str, ...]:
        """The one player whose name is one letter away («Бариса» → Борис); none if it is not one player."""
        found: set[str] = set()
        for candidate in self._candidates(word):
            if len(candidate) < _MIN_TYPO_LENGTH:
                continue
            for form, players in self.forms.items():
                if len(form) >= _MIN_TYPO_LENGTH and Levenshtein.distance(candidate, form, score_cutoff=1) <= 1:
                    found |= players
        return self._ordered(found) if len(found) == 1 else ()

    def is_pet_name(self, word: str) -> bool:
        """A first name of somebody (at this table or not) from the table of pet names."""
        return any(form in _all_names() for form in self._candidates(word))

    def multi_word(self, words: Sequence[str]) -> tuple[str, int] | None:
        """A player's name of several words at the start of `words` («Анна Мария»), and how many words it took."""
        for parts, player in self.multi:
            n = len(parts)
            if len(words) >= n and tuple(fold(w) for w in words[:n]) == parts:
                return player, n
        return None
