"""The attnscope trace file (docs/trace-format.md): a safetensors file whose
header is written first, from shapes known in advance, so that the tensors can
then be written one layer at a time and no more than one layer is ever held.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any, Iterable, Optional, Sequence

import numpy as np

FORMAT = "attnscope-trace"
# The newest version this package knows. A file declares the oldest version that
# has what it holds: 1.1 for a vision trace (`patches` and the `image`), else 1.0.
FORMAT_VERSION = "1.1"
THUMBNAIL_MAX = 48
# Longest side of a vision trace's image a reader accepts.
MAX_IMAGE_SIDE = 4096
# Largest weight a reader accepts: a softmax gives at most 1, rounding a little more.
MAX_WEIGHT = 1.001

_DTYPES = {"float16": ("F16", np.dtype("<f2")), "float32": ("F32", np.dtype("<f4"))}
_LEVELS = ("U16", np.dtype("<u2"))
_PIXELS = ("U8", np.dtype("u1"))


def version_of(description: dict) -> str:
    """The oldest format version that has everything `description` holds."""
    return "1.1" if "patches" in description else "1.0"


def patch_grid(patches: Any, n_tokens: int) -> dict:
    """A vision trace's patch grid as the format writes it, checked against the
    token count: {"rows", "cols", "first_patch", "patch_size" (optional)}."""
    try:
        g = {k: int(patches[k]) for k in ("rows", "cols", "first_patch")}
        if patches.get("patch_size") is not None:
            g["patch_size"] = int(patches["patch_size"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ValueError("patches must be a dict with rows, cols and first_patch (and optionally patch_size)") from None
    if g["rows"] < 1 or g["cols"] < 1 or g["first_patch"] < 0:
        raise ValueError(f"a patch grid of {g['rows']} × {g['cols']} from token {g['first_patch']}: sides must be at least 1")
    if g["first_patch"] + g["rows"] * g["cols"] > n_tokens:
        raise ValueError(
            f"a patch grid of {g['rows']} × {g['cols']} from token {g['first_patch']} on needs "
            f"{g['first_patch'] + g['rows'] * g['cols']} tokens; the trace has {n_tokens}"
        )
    return g


def image_array(image: Any) -> np.ndarray:
    """A vision trace's image as uint8 [height, width, 3], checked."""
    a = np.asarray(image)
    if a.ndim != 3 or a.shape[2] != 3:
        raise ValueError(f"the image must be [height, width, 3] (red, green, blue), not {list(a.shape)}")
    if not (1 <= a.shape[0] <= MAX_IMAGE_SIDE and 1 <= a.shape[1] <= MAX_IMAGE_SIDE):
        raise ValueError(f"the image is {a.shape[1]} × {a.shape[0]} pixels; each side must be 1 to {MAX_IMAGE_SIDE}")
    if a.dtype != np.uint8:
        if not np.issubdtype(a.dtype, np.number) or not np.isfinite(a).all() or a.min() < 0 or a.max() > 255:
            raise ValueError("the image's values must be 0 to 255 (uint8)")
        a = np.rint(a).astype(np.uint8)
    return np.ascontiguousarray(a)


def mask_spec(mask: Any) -> dict:
    """A mask as the format writes it, from "none", "causal",
    ("sliding_window", W) or an already formed dict."""
    if isinstance(mask, dict):
        spec = dict(mask)
    elif mask in ("none", "causal"):
        spec = {"type": mask}
    elif isinstance(mask, (tuple, list)) and len(mask) == 2 and mask[0] == "sliding_window":
        spec = {"type": "sliding_window", "window": int(mask[1])}
    else:
        raise ValueError(f"unknown mask {mask!r}: use 'none', 'causal' or ('sliding_window', W)")
    kind = spec.get("type")
    if kind == "sliding_window":
        if int(spec.get("window", 0)) < 1:
            raise ValueError("a sliding_window mask needs a window of at least 1")
        spec["window"] = int(spec["window"])
    elif kind not in ("none", "causal"):
        raise ValueError(f"unknown mask type {kind!r}")
    return spec


def allowed(spec: dict, n: int) -> np.ndarray:
    """visible[i, j]: can query i see key j under this mask?"""
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    if spec["type"] == "none":
        return np.ones((n, n), dtype=bool)
    visible = j <= i
    if spec["type"] == "sliding_window":
        visible &= (i - j) < spec["window"]
    return visible


def thumbnails_of(layer: np.ndarray, size: int) -> np.ndarray:
    """One layer's weights [H, T, T] pooled to [H, size, size] 16-bit levels:
    cell (p, q) is the mean of the weights of rows i with ⌊i·size/T⌋ = p and
    columns j with ⌊j·size/T⌋ = q (as attnscope's session::pool), rounded
    half up (as Rust's f32::round). Summed head by head (in float32, as
    attnscope does), so no copy of the whole layer is made."""
    n = layer.shape[-1]
    cells = (np.arange(n) * size) // n
    starts = np.searchsorted(cells, np.arange(size))
    counts = np.diff(np.append(starts, n)).astype(np.float64)
    out = np.empty((layer.shape[0], size, size), dtype="<u2")
    for h, head in enumerate(layer):
        rows = np.add.reduceat(head, starts, axis=0, dtype=np.float32)
        means = np.add.reduceat(rows, starts, axis=1, dtype=np.float64) / np.outer(counts, counts)
        out[h] = np.floor(np.clip(means, 0.0, 1.0) * 65535.0 + 0.5)
    return out


class TraceWriter:
    """Writes a trace file layer by layer.

    The header (with every tensor's place) is written on construction, from
    the shapes; `write_layer` is then called for layers 0, 1, … in order, each
    array converted and written at once; `close` adds the thumbnails and
    checks that every layer came. On any error the partial file is removed.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        description: dict,
        *,
        dtype: str = "float16",
        qk_dtype: str = "float32",
        d_head: Optional[int] = None,
        qk_layers: Optional[Sequence[int]] = None,
        thumbnails: bool = True,
        image: Any = None,
    ):
        if dtype not in _DTYPES or qk_dtype not in _DTYPES:
            raise ValueError(f"dtype must be 'float16' or 'float32', not {dtype!r} / {qk_dtype!r}")
        d = description
        self.n_layers, self.n_heads, self.n_kv_heads = int(d["n_layers"]), int(d["n_heads"]), int(d["n_kv_heads"])
        self.n_tokens = len(d["tokens"])
        if min(self.n_layers, self.n_heads, self.n_kv_heads, self.n_tokens) < 1:
            raise ValueError("a trace needs at least one layer, head, key/value head and token")
        if self.n_heads % self.n_kv_heads:
            raise ValueError(f"{self.n_heads} heads do not split evenly over {self.n_kv_heads} key/value heads")
        qk_layers = set(range(self.n_layers) if qk_layers is None else qk_layers) if d_head else set()
        if qk_layers and "queries_keys" not in d:
            raise ValueError("queries and keys need description['queries_keys'] (at least their scale)")
        self.path = os.fspath(path)
        self.dtype, self.qk_dtype = _DTYPES[dtype], _DTYPES[qk_dtype]
        self.d_head, self.qk_layers = d_head, qk_layers
        self.thumbnail_size = min(self.n_tokens, THUMBNAIL_MAX) if thumbnails else None
        self._thumbs: list = []
        self._next_layer = 0
        self._plan: list = []  # (name, dtype name, shape, nbytes), in file order
        h, kv, t = self.n_heads, self.n_kv_heads, self.n_tokens
        if "patches" in d:
            patch_grid(d["patches"], t)
            if image is None:
                raise ValueError("a vision trace (one with patches) needs its image")
            image = image_array(image)
            self._plan.append(("image", _PIXELS, image.shape))
        elif image is not None:
            raise ValueError("an image needs its patch grid (patches=...)")
        for layer in range(self.n_layers):
            self._plan.append((f"layers.{layer}.attention", self.dtype, (h, t, t)))
            if layer in qk_layers:
                self._plan.append((f"layers.{layer}.queries", self.qk_dtype, (h, t, d_head)))
                self._plan.append((f"layers.{layer}.keys", self.qk_dtype, (kv, t, d_head)))
        if self.thumbnail_size:
            s = self.thumbnail_size
            self._plan.append(("thumbnails", _LEVELS, (self.n_layers, h, s, s)))
        header: dict = {
            "__metadata__": {
                "format": FORMAT,
                "format_version": version_of(description),
                "trace": json.dumps(description, ensure_ascii=False, separators=(",", ":"), allow_nan=False),
            }
        }
        offset = 0
        for name, (code, np_dtype), shape in self._plan:
            n = int(np.prod(shape, dtype=np.int64)) * np_dtype.itemsize
            header[name] = {"dtype": code, "shape": list(shape), "data_offsets": [offset, offset + n]}
            offset += n
        self.data_len = offset
        text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        text += b" " * (-len(text) % 8)
        self._file = open(self.path, "wb")
        self._cursor = 0  # index into _plan of the next tensor to write
        try:
            self._file.write(struct.pack("<Q", len(text)))
            self._file.write(text)
            if image is not None:
                self._write("image", image)
        except BaseException:
            self._abort()
            raise

    def __enter__(self) -> "TraceWriter":
        return self

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.close()
        else:
            self._abort()

    def write_layer(self, attention: Any, queries: Any = None, keys: Any = None) -> None:
        """Writes the next layer: attention [H, T, T], and queries [H, T, D]
        and keys [KV, T, D] if this layer stores them. Arrays are anything
        numpy can read (numpy arrays, lists; torch CPU tensors through
        `.numpy()`)."""
        try:
            layer = self._next_layer
            if layer >= self.n_layers:
                raise ValueError(f"all {self.n_layers} layers are written already")
            a = self._write(f"layers.{layer}.attention", attention)
            if self.thumbnail_size:
                self._thumbs.append(thumbnails_of(a, self.thumbnail_size))
            del a
            if layer in self.qk_layers:
                if queries is None or keys is None:
                    raise ValueError(f"layer {layer} needs its queries and keys")
                self._write(f"layers.{layer}.queries", queries)
                self._write(f"layers.{layer}.keys", keys)
            elif queries is not None or keys is not None:
                raise ValueError(f"layer {layer} was not declared with queries and keys")
            self._next_layer += 1
        except BaseException:
            self._abort()
            raise

    def close(self) -> None:
        """Writes the thumbnails and closes the file; fails (and removes the
        file) unless every layer was written."""
        if self._file is None:
            return
        try:
            if self._next_layer != self.n_layers:
                raise ValueError(f"only {self._next_layer} of {self.n_layers} layers were written")
            if self.thumbnail_size:
                self._write("thumbnails", np.stack(self._thumbs))
                self._thumbs = []
            assert self._cursor == len(self._plan)
            self._file.close()
            self._file = None
        except BaseException:
            self._abort()
            raise

    def _write(self, name: str, array: Any) -> np.ndarray:
        """Converts `array` to the planned dtype and writes it; returns the
        array as written (for the thumbnails)."""
        planned, (_, np_dtype), shape = self._plan[self._cursor]
        assert planned == name, (planned, name)
        a = np.ascontiguousarray(array, dtype=np_dtype)
        if a.shape != shape:
            raise ValueError(f"{name} has shape {a.shape}, the file expects {shape}")
        if np_dtype.kind == "f" and a.size:
            low, high = a.min(), a.max()  # NaN, if any, comes out of both
            if not (np.isfinite(low) and np.isfinite(high)):
                hint = " (too large for float16? write it as float32)" if np_dtype.itemsize == 2 else ""
                raise ValueError(f"{name} holds a value that is not a finite number{hint}")
            if name.endswith(".attention") and not (low >= 0.0 and high <= MAX_WEIGHT):
                raise ValueError(f"{name} holds weights outside [0, 1] ({low} to {high}): is it the attention after the softmax?")
        self._file.write(memoryview(a).cast("B"))
        self._cursor += 1
        return a

    def _abort(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
            try:
                os.remove(self.path)
            except OSError:
                pass


def describe(
    *,
    model_name: str,
    architecture: str,
    n_layers: int,
    n_heads: int,
    tokens: Sequence[str],
    mask: Any,
    n_kv_heads: Optional[int] = None,
    model_type: Optional[str] = None,
    token_ids: Optional[Sequence[int]] = None,
    text: Optional[str] = None,
    top_next: Optional[Sequence[dict]] = None,
    queries_keys: Optional[dict] = None,
    writer: Optional[str] = None,
    patches: Optional[dict] = None,
) -> dict:
    """The description (`__metadata__["trace"]`) of a trace, checked.
    `mask` is one mask for every layer or a list of one per layer; `patches`
    a vision model's grid (rows, cols, first_patch, patch_size)."""
    masks = [mask_spec(m) for m in mask] if isinstance(mask, list) else None
    if masks is not None and len(masks) != n_layers:
        raise ValueError(f"{len(masks)} masks for {n_layers} layers")
    if masks is not None and all(m == masks[0] for m in masks):
        masks = masks[0]
    d: dict = {
        "model": {"name": str(model_name), "architecture": str(architecture)},
        "n_layers": int(n_layers),
        "n_heads": int(n_heads),
        "n_kv_heads": int(n_kv_heads if n_kv_heads is not None else n_heads),
        "mask": masks if masks is not None else mask_spec(mask),
        "tokens": [str(t) for t in tokens],
    }
    if model_type:
        d["model"]["model_type"] = str(model_type)
    if text is not None:
        d["text"] = str(text)
    if token_ids is not None:
        d["token_ids"] = [int(i) for i in token_ids]
        if len(d["token_ids"]) != len(d["tokens"]):
            raise ValueError(f"{len(d['tokens'])} tokens but {len(d['token_ids'])} token ids")
    if top_next is not None:
        d["top_next"] = [
            {k: v for k, v in (("token", str(t["token"])), ("id", t.get("id")), ("probability", float(t["probability"]))) if v is not None}
            for t in top_next
        ]
    if queries_keys is not None:
        qk = {"scale": float(queries_keys["scale"])}
        for key in ("positions", "max_abs_error"):
            if queries_keys.get(key) is not None:
                qk[key] = queries_keys[key] if key == "positions" else float(queries_keys[key])
        d["queries_keys"] = qk
    if writer:
        d["writer"] = str(writer)
    if patches is not None:
        d["patches"] = patch_grid(patches, len(d["tokens"]))
    return d


def write_trace(
    path: str | os.PathLike,
    attentions: Iterable[Any],
    *,
    model_name: str,
    architecture: str,
    tokens: Sequence[str],
    mask: Any,
    n_layers: int,
    n_heads: int,
    n_kv_heads: Optional[int] = None,
    queries: Optional[Iterable[Any]] = None,
    keys: Optional[Iterable[Any]] = None,
    d_head: Optional[int] = None,
    queries_keys: Optional[dict] = None,
    dtype: str = "float16",
    qk_dtype: str = "float32",
    thumbnails: bool = True,
    image: Any = None,
    **description: Any,
) -> dict:
    """Writes a trace file from per-layer arrays: `attentions` yields each
    layer's weights [H, T, T] (a generator is read one layer at a time, so
    only one layer need exist at once); `queries` and `keys`, if given, yield
    [H, T, D] and [KV, T, D] per layer, with `queries_keys={"scale": …}`.
    A vision model's trace gives `patches={"rows", "cols", "first_patch",
    "patch_size"}` (patch tokens row by row from `first_patch` on, the other
    tokens special) and `image`, uint8 [height, width, 3] as the model saw it
    (downscaled). Other keywords go to the description (model_type,
    token_ids, text, top_next, writer). Returns the description written."""
    if (queries is None) != (keys is None):
        raise ValueError("give both queries and keys, or neither")
    if queries is not None and not d_head:
        raise ValueError("queries and keys need d_head")
    if queries is not None and queries_keys is None:
        raise ValueError("queries and keys need queries_keys={'scale': ...}")
    d = describe(
        model_name=model_name,
        architecture=architecture,
        n_layers=n_layers,
        n_heads=n_heads,
        n_kv_heads=n_kv_heads,
        tokens=tokens,
        mask=mask,
        queries_keys=queries_keys if queries is not None else None,
        **description,
    )
    with TraceWriter(
        path,
        d,
        dtype=dtype,
        qk_dtype=qk_dtype,
        d_head=d_head if queries is not None else None,
        thumbnails=thumbnails,
        image=image,
    ) as w:
        layers = iter(attentions)
        qs = iter(queries) if queries is not None else None
        ks = iter(keys) if keys is not None else None
        for _ in range(n_layers):
            a = next(layers, None)
            if a is None:
                raise ValueError(f"attentions ended before layer {w._next_layer} of {n_layers}")
            w.write_layer(a, next(qs) if qs is not None else None, next(ks) if ks is not None else None)
            del a
        if next(layers, None) is not None:
            raise ValueError(f"attentions has more than {n_layers} layers")
    return d
