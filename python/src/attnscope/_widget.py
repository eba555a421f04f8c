"""attnscope.show: the attnscope page in a notebook's output (anywidget).
Its files come from this package by the widget's messages, and the trace's
bytes as the page's views need them; no other host is asked for anything."""

from __future__ import annotations

import pathlib

import anywidget
import traitlets

from ._html import html_of
from ._page import STATIC, Shown, answer


class AttentionWidget(anywidget.AnyWidget):
    """The page of a trace file (`shown`), or the sentence of why it cannot be shown (`error`)."""

    _esm = pathlib.Path(STATIC) / "notebook.js"
    _css = pathlib.Path(STATIC) / "notebook.css"
    name = traitlets.Unicode("").tag(sync=True)
    size = traitlets.Int(0).tag(sync=True)
    query = traitlets.Unicode("").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    # The frame's height in pixels; 0 fits it to the notebook's window.
    height = traitlets.Int(0).tag(sync=True)

    def __init__(self, shown: Shown | None, error: str = "", height: int = 0, **kwargs):
        if shown is None:
            super().__init__(error=error, height=height, **kwargs)
        else:
            super().__init__(name=shown.name, size=shown.size, query=shown.query, height=height, **kwargs)
        self.shown = shown
        self.on_msg(self._on_message)

    def _on_message(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("kind") == "anywidget-command":
            return  # anywidget's own protocol, answered by anywidget
        if self.shown is None:
            return
        reply, buffers = answer(self.shown, content, to_html=lambda: html_of(self.shown))
        self.send(reply, buffers)
