"""Edit distance and trigrams, for spelling correction and transliteration lookups."""

from __future__ import annotations


def trigrams(word: str) -> set[str]:
    """The letter trigrams of a word padded with ^ and $."""
    padded = f"^{word}$"
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Damerau–Levenshtein (optimal string alignment), stopping early past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]
