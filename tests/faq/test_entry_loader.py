"""The FAQ loader: every entry file loads, in both languages, frozen and cached; bad files are refused.

(companion/faq/entries.py)
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from companion.faq import entries as faq


def test_all_entry_files_load() -> None:
    files = sorted(p.stem for p in faq.FAQ_DIR.glob("*.toml"))
    assert files, "no FAQ files"
    assert [e.slug for e in faq.all_entries()] == files


@pytest.mark.parametrize("entry", faq.all_entries(), ids=lambda e: e.slug)
def test_entry_has_both_languages(entry: faq.FaqEntry) -> None:
    for lang in faq.LANGS:
        text = entry.text(lang)
        assert text.question and text.verdict and text.answer
    assert any("а" <= ch <= "я" for ch in entry.ru.question.lower())
    assert entry.en.question.isascii() or any("a" <= ch <= "z" for ch in entry.en.question.lower())
    assert set(entry.ru.by_ruleset) == set(entry.en.by_ruleset)
    for slug in entry.related:
        assert faq.get_entry(slug) is not None, f"{entry.slug}: related “{slug}” does not exist"


def test_entries_are_frozen_and_cached() -> None:
    entry = faq.all_entries()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.slug = "x"  # type: ignore[misc]
    assert faq.get_entry(entry.slug) is entry
    assert faq.get_entry("no-such-entry") is None


def test_full_answer_adds_the_rule_set_note() -> None:
    entry = next(e for e in faq.all_entries() if e.ru.by_ruleset)
    ruleset, note = next(iter(entry.ru.by_ruleset.items()))
    assert entry.ru.full_answer().startswith(entry.ru.verdict)
    assert note not in entry.ru.full_answer()
    assert entry.ru.full_answer(ruleset).endswith(note)


def test_loader_refuses_a_slug_that_is_not_the_file_name(tmp_path: Path) -> None:
    source = faq.FAQ_DIR / f"{faq.all_entries()[0].slug}.toml"
    (tmp_path / "other-name.toml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(faq.FaqFormatError, match="file name"):
        faq.load_entries(tmp_path)


def test_loader_refuses_a_missing_language(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text(
        'slug = "x"\n[ru]\nquestion = "В?"\nverdict = "Да."\nanswer = "Да."\n', encoding="utf-8"
    )
    with pytest.raises(faq.FaqFormatError, match=r"\[en\]"):
        faq.load_entries(tmp_path)

