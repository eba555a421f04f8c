"""attnscope.show: the viewer as an anywidget, its ES module and CSS read
from this package (no other host is asked for anything)."""

from __future__ import annotations

import pathlib

import anywidget
import traitlets

from ._reader import TraceFile
from ._view import STATIC, answer, overview


class AttentionWidget(anywidget.AnyWidget):
    """Every head of a trace as thumbnails, one head as a heatmap; the
    front end asks for a head's weights when it is selected."""

    _esm = pathlib.Path(STATIC) / "widget.js"
    _css = pathlib.Path(STATIC) / "widget.css"
    info = traitlets.Dict().tag(sync=True)
    thumbnails = traitlets.Bytes().tag(sync=True)
    layer = traitlets.Int(0).tag(sync=True)
    head = traitlets.Int(0).tag(sync=True)

    def __init__(self, trace: TraceFile, layer: int = 0, head: int = 0, **kwargs):
        trace.check_head(layer, head)
        info, levels = overview(trace)
        super().__init__(info=info, thumbnails=levels, layer=layer, head=head, **kwargs)
        self.trace = trace
        self.on_msg(self._on_message)

    def _on_message(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("kind") == "anywidget-command":
            return  # anywidget's own protocol, answered by anywidget
        reply, buffers = answer(self.trace, content)
        self.send(reply, buffers)
