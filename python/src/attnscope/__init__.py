"""attnscope for Python: write the attention of any PyTorch / Hugging Face
transformers model to an attnscope trace file (docs/trace-format.md), to open
with attnscope (`attnscope attention --trace FILE`).

    import attnscope
    attnscope.trace(model, tokenizer, "The capital of France is", "capital.trace.safetensors")

`write_trace` writes the same file from numpy arrays, with no torch at all.
"""

__version__ = "0.1.0"

from ._format import FORMAT, FORMAT_VERSION, TraceWriter, describe, write_trace  # noqa: E402
# torch and transformers are imported when trace() runs, not here.
from ._torch import trace  # noqa: E402


def show(*_args, **_kwargs):
    """Not available yet: the Jupyter viewer comes in a later version. Until
    then, open a trace with the attnscope command-line tool:
    `attnscope attention --trace FILE --png head.png`."""
    raise NotImplementedError(
        "attnscope.show is not available in this version; open the trace with "
        "`attnscope attention --trace FILE --png head.png` (or --svg, --json)"
    )


__all__ = ["FORMAT", "FORMAT_VERSION", "TraceWriter", "describe", "show", "trace", "write_trace", "__version__"]
