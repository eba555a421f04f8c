"""attnscope.to_html: the notebook viewer as one self-contained HTML file,
its module and style inlined and every head embedded (float16, base64), with
a small stand-in for the notebook's model so it runs from the file alone."""

from __future__ import annotations

import base64
import html
import json
import os

import numpy as np

from ._reader import TraceFile
from ._view import STATIC, overview

DEFAULT_MAX_BYTES = 64 * 1024 * 1024

# The notebook model's get/set/on/off/send/save_changes, answering a head's
# request from the embedded data as the Python side would.
_SHIM = """
const data = JSON.parse(document.getElementById('attnscope-data').textContent);
const bytesOf = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const state = { info: data.info, thumbnails: new DataView(bytesOf(data.thumbnails).buffer), layer: data.layer, head: data.head };
const listeners = new Map();
const layers = new Map();
const emit = (event, ...args) => (listeners.get(event) || []).slice().forEach((f) => f(...args));
function answer(msg) {
  const { n_layers: L, n_heads: H, tokens } = data.info;
  const { layer, head } = msg;
  if (msg.type !== 'head' || !Number.isInteger(layer) || !Number.isInteger(head) || layer < 0 || layer >= L || head < 0 || head >= H) {
    emit('msg:custom', { type: 'error', layer, head, message: `layer ${layer} head ${head} does not exist` }, []);
    return;
  }
  if (!layers.has(layer)) layers.set(layer, bytesOf(data.layers[layer]));
  const size = tokens.length * tokens.length * 2;
  const view = new DataView(layers.get(layer).buffer, head * size, size);
  emit('msg:custom', { type: 'head', layer, head, dtype: 'F16' }, [view]);
}
const model = {
  get: (key) => state[key],
  set(key, value) {
    if (state[key] === value) return;
    state[key] = value;
    emit(`change:${key}`);
  },
  save_changes() {},
  on: (event, f) => listeners.set(event, [...(listeners.get(event) || []), f]),
  off: (event, f) => listeners.set(event, (listeners.get(event) || []).filter((g) => g !== f)),
  send: (msg) => setTimeout(() => answer(msg)),
};
render({ model, el: document.getElementById('attnscope') });
"""


def to_html(path, out_html, *, layer: int = 0, head: int = 0, max_bytes: int = DEFAULT_MAX_BYTES, title=None) -> str:
    """Writes `out_html`: the viewer of trace `path` in one file that needs
    nothing else (no request beyond itself). Every head is embedded as
    float16 (within 2.4e-4 of float32 weights; the viewer shows the embedded
    value); a trace whose weights exceed `max_bytes` in float16 is refused.
    Returns the path written."""
    tf = TraceFile(path)
    tf.check_head(layer, head)
    t = tf.n_tokens
    need = tf.n_layers * tf.n_heads * t * t * 2
    if need > max_bytes:
        raise ValueError(
            f"{tf.path} holds {need / 1e6:.1f} MB of weights in float16, over the standalone HTML's limit of "
            f"{max_bytes / 1e6:.1f} MB: pass a larger max_bytes=, or view it with attnscope.show in a notebook"
        )
    info, levels = overview(tf)
    layers = []
    for lyr in range(tf.n_layers):
        heads = [tf.head(lyr, h).astype("<f2") for h in range(tf.n_heads)]
        layers.append(base64.b64encode(np.stack(heads).tobytes()).decode("ascii"))
    payload = {
        "info": info,
        "thumbnails": base64.b64encode(levels).decode("ascii"),
        "layers": layers,
        "layer": layer,
        "head": head,
    }
    with open(os.path.join(STATIC, "widget.js"), encoding="utf-8") as f:
        module = f.read()
    with open(os.path.join(STATIC, "widget.css"), encoding="utf-8") as f:
        css = f.read()
    # Inside <script>, "</" could end the element early; JSON allows "<\/".
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    name = html.escape(title or f"attnscope · {tf.model_name}")
    page = (
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        # An empty icon, so the browser does not ask the server for /favicon.ico.
        "<link rel=\"icon\" href=\"data:,\">\n"
        f"<title>{name}</title>\n<style>\nbody {{ margin: 12px; background: #fff; }}\n{css}</style>\n</head>\n<body>\n"
        "<div id=\"attnscope\"></div>\n"
        f"<script type=\"application/json\" id=\"attnscope-data\">{data}</script>\n"
        f"<script type=\"module\">\n{module}\n{_SHIM}</script>\n</body>\n</html>\n"
    )
    with open(out_html, "w", encoding="utf-8") as f:
        f.write(page)
    return os.fspath(out_html)
