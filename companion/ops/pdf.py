"""PDF rendering with WeasyPrint: fonts and styles from static/ only, a few renders at a time, cached.

A render takes up to a few seconds of CPU and tens of megabytes (300 rounds: ~1.7 s, ~50 MB), so:
- at most `PDF_RENDER_SLOTS` renders run at once; a request that finds no free
  slot within `PDF_QUEUE_SECONDS` gets 503 with Retry-After (`RenderBusy`);
- a finished PDF is kept by (series, version, language, address) — a version
  is never rewritten, so a hit is exactly what a new render would give — as a
  file in `pdf-cache` beside the database, which every worker process shares
  (`RenderCache`);
- WeasyPrint may read files of the app's static folder and the images handed
  to the render in memory (`render:` URLs, `image_url`), and nothing else: no
  network, no other file, no `data:` URL (`StaticOnlyFetcher`).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import json
import os
import re
import sys
import tempfile
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

RENDER_SLOTS = 2  # renders at once (config PDF_RENDER_SLOTS)
QUEUE_SECONDS = 1.0  # how long a request waits for a free slot (config PDF_QUEUE_SECONDS)
RETRY_AFTER_SECONDS = 3
STACK_ROOM_SLOTS = 16_500  # a frame of ~132 KB: CPython gives it a 256 KB stack chunk of its own (`with_stack_room`)
CACHE_BYTES = 64 * 1024 * 1024  # kept PDFs on disk, least recently used dropped first (config PDF_CACHE_BYTES)


class RenderBusy(Exception):
    """Every render slot is taken: the view answers 503 with Retry-After (RETRY_AFTER_SECONDS)."""


@functools.lru_cache(maxsize=16)
def _decompressed_font(path: Path, _mtime: int) -> bytes:
    """A WOFF2 font as plain TrueType: WeasyPrint would otherwise decompress it in every render."""
    from io import BytesIO

    from fontTools.ttLib import woff2  # type: ignore[import-untyped]

    out = BytesIO()
    woff2.decompress(BytesIO(path.read_bytes()), out)
    return out.getvalue()


def _static_fetcher_class() -> Any:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class StaticOnlyFetcher(URLFetcher):  # type: ignore[misc]
        """Answers file: URLs inside the static folder and the render's own images; refuses everything else."""

        def __init__(self, root: Path, images: Images) -> None:
            super().__init__(allowed_protocols=("file",))
            self.root = root
            self.images = images

        def fetch(self, url: str, headers: Any = None) -> Any:
            parts = urlsplit(url)
            if parts.scheme == IMAGE_SCHEME:  # the document's own images, in memory (`image_url`)
                if parts.path not in self.images:
                    raise ValueError(f"no such image in this render: {url}")
                mime, data = self.images[parts.path]
                return URLFetcherResponse(url, data, {"Content-Type": mime})
            if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
                raise ValueError(f"only the app's static files may be used: {url}")
            path = Path(unquote(parts.path)).resolve()
            if not path.is_relative_to(self.root) or not path.is_file():
                raise ValueError(f"not a static file of the app: {url}")
            if path.suffix == ".woff2":  # decompressed once per process, not in every render
                return URLFetcherResponse(path.as_uri(), _decompressed_font(path, path.stat().st_mtime_ns))
            return URLFetcherResponse(path.as_uri(), path.read_bytes())

    return StaticOnlyFetcher


# The document's own images (a chart, a QR code), handed to the render in memory: name → (MIME type, bytes).
Images = Mapping[str, tuple[str, bytes]]
IMAGE_SCHEME = "render"


def image_url(name: str) -> str:
    """The URL by which a document (or the print stylesheet) names one of the `images` of its render.

    In memory, not a `data:` URL in the text: WeasyPrint's HTML and CSS parsers would walk the base64
    text character by character (about 1 % of a 10-round sheet)."""
    return f"{IMAGE_SCHEME}:{name}"


class PrintSheet:
    """A static stylesheet parsed once, with the fonts its @font-face rules name, for many renders.

    Parsing the sheet's CSS and registering its fonts with fontconfig took about 15 ms of every
    render. A prepared (fonts, CSS) pair serves one render at a time (pango's font map is not
    shared between threads); there are as many pairs as renders ever ran at once (the render
    slots bound them). A changed file (mtime) is parsed again.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.free: dict[tuple[str, int], list[tuple[Any, Any]]] = {}

    @contextmanager
    def prepared(self, root: Path, name: str, fetcher: Any) -> Iterator[tuple[Any, Any]]:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        path = (root / name).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise ValueError(f"not a stylesheet of the app's static folder: {name}")
        key = (str(path), path.stat().st_mtime_ns)
        with self.lock:
            free = self.free.setdefault(key, [])
            pair = free.pop() if free else None
        if pair is None:
            fonts = FontConfiguration()
            css = CSS(string=path.read_text(encoding="utf-8"), base_url=root.as_uri() + "/", url_fetcher=fetcher,
                      font_config=fonts)
            pair = (fonts, css)
        try:
            yield pair
        finally:
            with self.lock:
                self.free.setdefault(key, []).append(pair)


PRINT_SHEETS = PrintSheet()
# Dropped before the interpreter tears its modules down (a FontConfiguration cleans up after itself then).
atexit.register(PRINT_SHEETS.free.clear)


@contextmanager
def document(html: str, static_folder: str, stylesheet: str | None = None, images: Images | None = None
             ) -> Iterator[Any]:
    """The laid-out WeasyPrint document of `html` (pages, then `write_pdf()`), inside the `with` only.

    `stylesheet`: a CSS file of the static folder, parsed once per process (`PrintSheet`) and
    applied after the document's own <style>; without it, the document's own styles and fonts only.
    `images`: the document's own images, which it (and the stylesheet) names by `image_url(name)`.
    """
    # Imported here: WeasyPrint takes a while to import and only this export needs it.
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    root = Path(static_folder).resolve()
    fetcher = _static_fetcher_class()(root, images or {})
    page = HTML(string=html, base_url=root.as_uri() + "/", url_fetcher=fetcher)
    if stylesheet is None:
        fonts = FontConfiguration()
        yield page.render(font_config=fonts)
        return
    with PRINT_SHEETS.prepared(root, stylesheet, fetcher) as (fonts, css):
        yield page.render(stylesheets=[css], font_config=fonts)


T = TypeVar("T")


def with_stack_room(fn: Callable[[], T]) -> T:
    """`fn()`, with its calls' frames in a stack chunk of their own, larger than any of them needs.

    CPython (3.11) keeps a thread's frames in 16 KB chunks and frees a chunk as soon as the calls
    unwind out of it. WeasyPrint's layout recurses deeply, up and down: entered near a chunk's edge,
    a render crossed that edge thousands of times, and took up to a quarter longer than the same
    render entered a few frames higher or lower. Which it got depended only on how deep the caller's
    stack happened to be (`python benchmarks/pdf_bench.py --depths`). This function's frame declares
    a value stack of STACK_ROOM_SLOTS slots, which no chunk in use has room for: it gets a fresh
    256 KB chunk, and the frames of `fn` fit in the half it leaves free.
    """
    return fn()


if sys.implementation.name == "cpython":  # a frame's declared stack is what sizes its chunk there
    with_stack_room.__code__ = with_stack_room.__code__.replace(co_stacksize=STACK_ROOM_SLOTS)


def html_to_pdf(html: str, static_folder: str, stylesheet: str | None = None, images: Images | None = None
                ) -> bytes:
    """`html` as PDF bytes; fonts and images from the static folder and `images` only (see `document`), laid
    out with room on the stack (`with_stack_room`)."""
    return with_stack_room(lambda: pdf_bytes(html, static_folder, stylesheet, images))


def pdf_bytes(html: str, static_folder: str, stylesheet: str | None = None, images: Images | None = None) -> bytes:
    """`html` as PDF bytes, laid out on the caller's stack as it is (`html_to_pdf` is the one to use)."""
    with document(html, static_folder, stylesheet, images) as laid_out:
        pdf: bytes = laid_out.write_pdf()
    return pdf


class RenderCache:
    """PDFs by key, as files of one folder that every worker process of the app shares.

    Under `companion serve --workers N` a PDF rendered by one worker is answered from this
    folder by the others (`pdf-cache/<build>` beside the database, see `cache_folder`). A file is written whole under
    a temporary name and renamed into place, so a reader sees a finished PDF or none. Bounded
    in bytes: past `max_bytes`, the files least recently used (by their modification time,
    which a hit renews) are removed first.
    """

    def __init__(self, folder: str | Path, max_bytes: int = CACHE_BYTES) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.max_bytes = max_bytes
        self.renders = 0  # how many times this process had to render (for tests and benchmarks)

    def path(self, key: tuple[Any, ...]) -> Path:
        digest = hashlib.sha256(json.dumps(key, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()
        return self.folder / f"{digest}.pdf"

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        path = self.path(key)
        try:
            data = path.read_bytes()
            now = time.time_ns()
            os.utime(path, ns=(now, now))  # recently used: removed last
        except OSError:  # not rendered yet, just removed to make room, or the folder is gone
            return None
        return data

    def put(self, key: tuple[Any, ...], data: bytes) -> None:
        """Keep `data`; a cache that cannot write (disk full, folder removed) only means a later render."""
        path = self.path(key)
        try:
            with tempfile.NamedTemporaryFile(dir=self.folder, prefix=".render-", suffix=".tmp", delete=False) as out:
                try:
                    out.write(data)
                except OSError:
                    os.remove(out.name)
                    raise
            os.replace(out.name, path)
            self.trim(keep=path)
        except OSError:
            return

    @contextmanager
    def rendering(self, key: tuple[Any, ...]) -> Iterator[None]:
        """Held while `key` is rendered: a worker wanting the same PDF meanwhile waits, then finds it here."""
        try:
            import fcntl
        except ImportError:  # not POSIX: two workers may render the same PDF at once, nothing worse
            yield
            return
        with open(self.path(key).with_suffix(".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def files(self) -> list[os.DirEntry[str]]:
        return [entry for entry in os.scandir(self.folder) if entry.name.endswith(".pdf")]

    @property
    def size(self) -> int:
        return sum(entry.stat().st_size for entry in self.files())

    def trim(self, keep: Path) -> None:
        """Remove the least recently used files until the folder holds at most `max_bytes` (`keep` stays)."""
        entries = []
        for entry in self.files():
            with contextlib.suppress(FileNotFoundError):  # another worker removed it meanwhile
                entries.append((entry.stat().st_mtime_ns, entry.stat().st_size, entry.path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            if path != str(keep):
                for stale in (path, path.removesuffix(".pdf") + ".lock"):
                    with contextlib.suppress(FileNotFoundError):
                        os.remove(stale)
                total -= size

    def clear(self) -> None:
        for entry in self.files():
            with contextlib.suppress(FileNotFoundError):
                os.remove(entry.path)


class Renderer:
    """The app's PDF renders: a bounded number at once, each result cached."""

    def __init__(self, cache_folder: str | Path, slots: int = RENDER_SLOTS, queue_seconds: float = QUEUE_SECONDS,
                 cache_bytes: int = CACHE_BYTES) -> None:
        self.slots = threading.BoundedSemaphore(slots)
        self.queue_seconds = queue_seconds
        self.cache = RenderCache(cache_folder, cache_bytes)

    def get_or_render(self, key: tuple[Any, ...], render: Callable[[], bytes]) -> bytes:
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        if not self.slots.acquire(timeout=self.queue_seconds):
            raise RenderBusy()
        try:
            with self.cache.rendering(key):
                cached = self.cache.get(key)  # another request (or worker) may have rendered it meanwhile
                if cached is not None:
                    return cached
                data = render()
                self.cache.renders += 1
                self.cache.put(key, data)
        finally:
            self.slots.release()
        return data


def build_stamp(folders: Sequence[str | Path]) -> str:
    """A name for this build of the app: its code, templates, styles, fonts and translations (paths, sizes, times).

    Kept PDFs outlive a restart; under a new stamp (an upgrade, an edited template) none is reused."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                info = path.stat()
                digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:16]


def cache_folder(app: Any) -> Path:
    """`pdf-cache/<build stamp>` beside the database (`PDF_CACHE_FOLDER` overrides `pdf-cache`); the folders
    of other builds are removed (best effort)."""
    import shutil

    from companion import PACKAGE
    from companion.storage.database import shared_folder

    base = Path(app.config.get("PDF_CACHE_FOLDER") or shared_folder(app) / "pdf-cache")
    stamp = build_stamp([PACKAGE, app.template_folder, app.static_folder])
    if base.is_dir():
        for other in base.iterdir():
            if other.is_dir() and other.name != stamp:
                shutil.rmtree(other, ignore_errors=True)
    return base / stamp


def init_app(app: Any) -> None:
    app.extensions["companion.pdf"] = Renderer(
        cache_folder(app),
        app.config.get("PDF_RENDER_SLOTS", RENDER_SLOTS),
        app.config.get("PDF_QUEUE_SECONDS", QUEUE_SECONDS),
        app.config.get("PDF_CACHE_BYTES", CACHE_BYTES),
    )


# -- file names ---------------------------------------------------------------------

_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєў",
    ["a", "b", "v", "g", "d", "e", "yo", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t",
     "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya", "i", "yi", "ye", "u"],
    strict=True,
))


def transliterate(name: str) -> str:
    """A name in plain Latin letters for a file name: «Аня» → anya, «Борис» → boris, «Zoë» → zoe."""
    out = []
    for char in name.casefold():
        if char in _CYRILLIC:
            out.append(_CYRILLIC[char])
        else:
            out.append(unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode())
    slug = re.sub(r"[^a-z0-9]+", "-", "".join(out)).strip("-")
    return slug


def sheet_filename(created_at: str, players: Sequence[str], extension: str) -> str:
    """`sto-odno-2026-11-29-anya-boris-vera.pdf`: the series' date and its players."""
    names = [s for s in (transliterate(p) for p in players) if s]
    stem = "-".join(["sto-odno", created_at[:10], *names])[:120].rstrip("-")
    return f"{stem}.{extension}"
