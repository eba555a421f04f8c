"""attnscope.to_html: the attnscope page and a trace in one self-contained
HTML file: the page's files and the trace's bytes inlined (base64), so it
opens from a disk, a mail or a course site with no request beyond itself."""

from __future__ import annotations

import base64
import json
import os
from typing import Optional

from ._page import Shown, frame_html, page_files

DEFAULT_MAX_BYTES = 64 * 1024 * 1024


def html_of(shown: Shown, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The standalone document of `shown`; a trace over `max_bytes` is refused."""
    if shown.size > max_bytes:
        raise ValueError(
            f"{shown.path} is {shown.size / 1e6:.1f} MB, over the standalone HTML's limit of "
            f"{max_bytes / 1e6:.1f} MB: pass a larger max_bytes=, or view it with attnscope.show in a notebook"
        )
    _, files = page_files()
    b64 = lambda data: base64.b64encode(data).decode("ascii")  # noqa: E731
    payload = {
        "files": {name: b64(data) for name, data in files.items()},
        "trace": {"name": shown.name, "bytes": b64(shown.read(0, shown.size)) if shown.size else ""},
        "query": shown.query,
    }
    # Inside <script>, "</" could end the element early; JSON allows "<\/".
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    inline = f'<script type="application/json" id="attnscope-inline">{data}</script>'
    return frame_html(shown.title, inline)


def to_html(path, out_html, *, layer: int = 0, head: int = 0, view: Optional[str] = None,
            max_bytes: int = DEFAULT_MAX_BYTES, title: Optional[str] = None) -> str:
    """Writes `out_html`: the attnscope page showing trace `path` (every
    view the trace supports, as on the site), in one file that needs nothing
    else. It opens at `layer`, `head` and `view` ("head", "grid", "overview",
    "explain", "catalog", "image"…). A trace file over `max_bytes` is refused.
    Returns the path written."""
    shown = Shown(path, layer, head, view)
    if title is not None:
        shown.title = str(title)
    page = html_of(shown, max_bytes)
    with open(out_html, "w", encoding="utf-8") as f:
        f.write(page)
    return os.fspath(out_html)
