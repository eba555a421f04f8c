"""A model's outputs (attentions) shown without a trace file of the user's:
written to a temporary one for attnscope.show."""

from __future__ import annotations

import os
import tempfile
import atexit
from typing import Any, Optional, Sequence

import numpy as np

from ._format import write_trace


def attentions_of(outputs: Any) -> Sequence:
    """The per-layer attentions in Hugging Face outputs (`.attentions` or
    ["attentions"]) or a sequence of arrays, each [H, T, T] or [1, H, T, T]."""
    a = getattr(outputs, "attentions", None)
    if a is None and isinstance(outputs, dict):
        a = outputs.get("attentions")
    if a is None and isinstance(outputs, (list, tuple)) and outputs and not isinstance(outputs[0], str):
        a = outputs
    if a is None:
        raise ValueError(
            "attnscope.show needs a trace file's path, or outputs with attentions "
            "(run the model with output_attentions=True and attn_implementation='eager')"
        )
    if any(x is None for x in a):
        raise ValueError("the outputs' attentions are None: load the model with attn_implementation='eager'")
    return a


def _host(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):  # a torch tensor, on any device and dtype
        x = x.detach().float().cpu().numpy()
    a = np.asarray(x, dtype=np.float32)
    if a.ndim == 4:
        if a.shape[0] != 1:
            raise ValueError(f"attentions have a batch of {a.shape[0]}: show one text at a time (outputs of a batch of 1)")
        a = a[0]
    if a.ndim != 3:
        raise ValueError(f"a layer's attention should be [H, T, T] or [1, H, T, T], not {list(a.shape)}")
    return a


def trace_of_outputs(outputs: Any, tokens: Optional[Sequence[str]], mask: Any, name: str, dtype: str) -> str:
    """Writes outputs' attentions to a temporary trace file (removed when the
    process ends) and returns its path."""
    layers = attentions_of(outputs)
    first = _host(layers[0])
    n_heads, n, _ = first.shape
    if tokens is None:
        raise ValueError("attnscope.show(outputs) needs tokens=[...] (e.g. tokenizer.convert_ids_to_tokens(ids))")
    tokens = [str(t) for t in tokens]
    if len(tokens) != n:
        raise ValueError(f"{len(tokens)} tokens given but the attentions are over {n} tokens")
    if mask is None:
        # Causal when every layer gives no weight above the diagonal, else none.
        upper = np.triu(np.ones((n, n), dtype=bool), 1)
        mask = "causal" if n > 1 and all(not _host(x)[:, upper].any() for x in layers) else "none"
    fd, path = tempfile.mkstemp(prefix="attnscope-", suffix=".trace.safetensors")
    os.close(fd)
    _REMOVE.append(path)
    write_trace(
        path,
        (_host(x) for x in layers),
        model_name=name,
        architecture="unknown",
        tokens=tokens,
        mask=mask,
        n_layers=len(layers),
        n_heads=n_heads,
        dtype=dtype,
        writer="attnscope.show",
    )
    return path


_REMOVE: list = []


def _cleanup() -> None:
    for p in _REMOVE:
        try:
            os.remove(p)
        except OSError:
            pass


atexit.register(_cleanup)
