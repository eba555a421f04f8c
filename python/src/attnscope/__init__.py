"""attnscope for Python: write the attention of any PyTorch / Hugging Face
transformers model to an attnscope trace file (docs/trace-format.md), to open
with attnscope (`attnscope attention --trace FILE`).

    import attnscope
    attnscope.trace(model, tokenizer, "The capital of France is", "capital.trace.safetensors")
    attnscope.trace_image(vit, processor, picture, "picture.trace.safetensors")

`write_trace` writes the same file from numpy arrays, with no torch at all.
"""

__version__ = "0.1.0"

import os  # noqa: E402

from ._format import FORMAT, FORMAT_VERSION, TraceWriter, describe, write_trace  # noqa: E402
from ._html import to_html  # noqa: E402
from ._reader import TraceError, TraceFile  # noqa: E402
# torch and transformers are imported when trace() or trace_image() runs, not here.
from ._torch import trace, trace_image  # noqa: E402


def show(path_or_outputs, tokens=None, *, layer: int = 0, head: int = 0, view=None, height: int = 0,
         mask=None, name: str = "model", dtype: str = "float32"):
    """The attnscope page in a notebook (JupyterLab, Notebook 7, VS Code,
    marimo; through anywidget): every view a trace supports, as on the
    site, opening at `layer`, `head` and `view` ("head", "grid", "overview",
    "explain", "catalog", "image"…). The page's files come from this
    package, the trace's bytes from the kernel as the views need them;
    nothing is fetched from any host. `height` in pixels (0: fitted to the
    window); the frame takes the output's width.

    `path_or_outputs` is a trace file's path, or a model's outputs with
    `attentions` (Hugging Face outputs of `output_attentions=True`, or a list
    of per-layer arrays [H, T, T]) with `tokens=`; those are written to a
    temporary trace file (`dtype`, float32 by default so the weights shown are
    the model's own; removed when Python exits), with `mask` ("none",
    "causal", ("sliding_window", W)) read from the weights when not given.
    A missing or damaged file shows why in the cell. Needs anywidget."""
    from ._page import Shown
    from ._reader import TraceError
    from ._view import trace_of_outputs

    try:
        from ._widget import AttentionWidget
    except ImportError as e:
        raise ImportError(f"attnscope.show needs anywidget (pip install anywidget): {e}") from None
    if isinstance(path_or_outputs, (str, os.PathLike)):
        path = path_or_outputs
    else:
        path = trace_of_outputs(path_or_outputs, tokens, mask, name, dtype)
    try:
        shown = Shown(path, layer, head, view)
    except TraceError as e:
        return AttentionWidget(None, error=f"attnscope cannot show this trace: {e}", height=height)
    return AttentionWidget(shown, height=height)


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "TraceError",
    "TraceFile",
    "TraceWriter",
    "describe",
    "show",
    "to_html",
    "trace",
    "trace_image",
    "write_trace",
    "__version__",
]
