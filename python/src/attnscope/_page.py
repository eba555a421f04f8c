"""The attnscope page as the viewer of a trace in a notebook
(`attnscope.show`) and in a standalone file (`attnscope.to_html`): the
page's files, built from the same Rust as the site by the repository's web
build (scripts/notebook-assets.mjs copies them into static/page/, and the
wheel packs them), and the answers to what the page asks of its host.
Nothing here needs anywidget, so the tests run it directly."""

from __future__ import annotations

import functools
import hashlib
import html
import json
import os
from typing import Any, Optional
from urllib.parse import urlencode

from ._reader import TraceFile

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
PAGE_DIR = os.path.join(STATIC, "page")
FILES = ("page.js", "page_bg.wasm", "worker.js", "worker_bg.wasm", "style.css")
# The most bytes of the trace one request may ask for (the page asks for
# whole 256 KiB pages, joined where they follow each other).
MAX_READ = 64 << 20
VIEWS = ("head", "grid", "overview", "explain", "space", "catalog", "worked", "beyond", "image")


class PageMissing(RuntimeError):
    """This copy of the package has no page files (built from a checkout without the web build)."""


@functools.lru_cache(maxsize=2)
def _read_page(stamp: tuple) -> tuple:
    try:
        with open(os.path.join(PAGE_DIR, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        files = {}
        for name in FILES:
            with open(os.path.join(PAGE_DIR, name), "rb") as f:
                files[name] = f.read()
    except (OSError, ValueError) as e:
        raise PageMissing(
            f"this attnscope has no viewer files ({e}): install the built wheel, or build the page in the "
            "repository (trunk build --release, which copies them into python/src/attnscope/static/page)"
        ) from None
    for name, data in files.items():
        if hashlib.sha256(data).hexdigest() != manifest.get("files", {}).get(name):
            raise PageMissing(f"the viewer file {name} does not match its manifest: reinstall attnscope")
    return str(manifest.get("version", "")), files


def page_files() -> tuple:
    """(version, {name: bytes}) of the page's files, read and checked once."""
    try:
        stamp = tuple(os.stat(os.path.join(PAGE_DIR, n)).st_mtime_ns for n in ("manifest.json",) + FILES)
    except OSError:
        stamp = ()
    return _read_page(stamp)


def frame_html(title: str, inline: str = "") -> str:
    """The page's document (static/frame.html) with its style, and `inline`
    (a standalone file's data) where the template has room for it."""
    _, files = page_files()
    with open(os.path.join(STATIC, "frame.html"), encoding="utf-8") as f:
        template = f.read()
    return (
        template.replace("__TITLE__", html.escape(title))
        .replace("__STYLE__", files["style.css"].decode("utf-8"))
        .replace("__INLINE__", inline)
    )


def start_query(layer: int = 0, head: int = 0, view: Optional[str] = None) -> str:
    """The page's start as its address would give it."""
    for what, v in (("layer", layer), ("head", head)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError(f"{what} must be a whole number ≥ 0, not {v!r}")
    params = {"layer": layer, "head": head}
    if view is not None:
        if view not in VIEWS:
            raise ValueError(f"view must be one of {', '.join(VIEWS)}, not {view!r}")
        params["view"] = view
    return urlencode(params)


class Shown:
    """A trace the page is shown: its path, its size when shown, and the start."""

    def __init__(self, path: Any, layer: int = 0, head: int = 0, view: Optional[str] = None):
        self.path = os.fspath(path)
        trace = TraceFile(self.path)  # a missing or damaged file says why here
        for what, v, n in (("layer", layer, trace.n_layers), ("head", head, trace.n_heads)):
            if isinstance(v, int) and not isinstance(v, bool) and v >= n:
                raise ValueError(f"{what} {v} does not exist: the trace has {n}")
        self.query = start_query(layer, head, view)
        self.name = os.path.basename(self.path)
        self.size = os.path.getsize(self.path)
        self.title = f"attnscope · {trace.model_name}"

    def read(self, start: int, end: int) -> bytes:
        """Bytes start..end of the trace; a ValueError says why not."""
        for v in (start, end):
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"a read needs whole numbers, not {v!r}")
        if not 0 <= start < end <= self.size:
            raise ValueError(f"bytes {start}..{end} are not within the trace's {self.size}")
        if end - start > MAX_READ:
            raise ValueError(f"{end - start} bytes at once is over the limit of {MAX_READ}")
        try:
            if os.path.getsize(self.path) != self.size:
                raise ValueError(f"{self.path} changed on disk since it was shown: show it again")
            with open(self.path, "rb") as f:
                f.seek(start)
                data = f.read(end - start)
        except OSError as e:
            raise ValueError(f"cannot read {self.path}: {e.strerror or e}") from None
        if len(data) != end - start:
            raise ValueError(f"{self.path} changed on disk since it was shown: show it again")
        return data


def answer(shown: Shown, content: Any, to_html=None) -> tuple:
    """The reply to a message from the widget: (content, buffers). Every
    request carries an `id` the reply repeats; a bad one gets an `error`
    reply, never an exception."""
    if not isinstance(content, dict):
        return {"kind": "error", "id": None, "error": f"unknown request {content!r:.80}"}, []
    ask, rid = content.get("kind"), content.get("id")
    if not isinstance(rid, int) or isinstance(rid, bool):
        rid = None
    try:
        if ask == "files":
            version, files = page_files()
            return {"kind": "files", "id": rid, "version": version, "names": list(files),
                    "frame": frame_html(shown.title)}, list(files.values())
        if ask == "read":
            data = shown.read(content.get("start"), content.get("end"))
            return {"kind": "bytes", "id": rid, "start": content.get("start")}, [data]
        if ask == "html" and to_html is not None:
            return {"kind": "html", "id": rid}, [to_html().encode("utf-8")]
    except (ValueError, PageMissing) as e:
        return {"kind": "error", "id": rid, "error": str(e)}, []
    return {"kind": "error", "id": rid, "error": f"unknown request {str(ask)[:80]!r}"}, []
