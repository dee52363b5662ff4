"""What this process keeps in memory.

- `BytesCache`: rendered bytes, least recently used first out, safe across threads. One mechanism for every
  in-process render cache (the standings fragments, the share images); each lives in `app.extensions` under its
  name, so every app (and every test's app) has its own.
- `RowMemo`: what the idle-poll path derived from a stored row, by the columns it follows from.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from flask import current_app


class BytesCache:
    """Bytes by key, at most `size` of them; `made` counts the renders `get_or_make` had to do."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[Hashable, bytes] = OrderedDict()
        self.lock = threading.Lock()
        self.made = 0

    def get(self, key: Hashable) -> bytes | None:
        with self.lock:
            body = self.entries.get(key)
            if body is not None:
                self.entries.move_to_end(key)
            return body

    def put(self, key: Hashable, body: bytes) -> None:
        with self.lock:
            self.entries[key] = body
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def get_or_make(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        found = self.get(key)
        if found is not None:
            return found
        body = make()
        with self.lock:
            self.made += 1
        self.put(key, body)
        return body


def app_cache(name: str, size: int) -> BytesCache:
    """The current app's cache called `name`, made on first use."""
    cache = current_app.extensions.get(name)
    if cache is None:
        cache = current_app.extensions.setdefault(name, BytesCache(size))
    assert isinstance(cache, BytesCache)
    return cache


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class RowMemo(Generic[K, V]):
    """Values derived from a stored row, by the columns of the row they follow from (a write changes those, so an
    entry is never stale, only unused); at most `size`, all dropped when full.

    Kept per process, not per app (`app_cache`): the idle-poll path answers before Flask, with no app context. A
    caller puts a value only when the row it loaded still has the columns of the key (nothing written between
    the two reads)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        return self.entries.get(key)

    def put(self, key: K, value: V) -> None:
        if len(self.entries) >= self.size:
            self.entries.clear()
        self.entries[key] = value
