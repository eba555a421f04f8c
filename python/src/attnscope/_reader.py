"""Reading a trace file lazily (docs/trace-format.md): the header at once and
checked against the file's length, then only the bytes of the head asked for,
so a file larger than memory can be viewed.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Optional

import numpy as np

from ._format import FORMAT, FORMAT_VERSION, MAX_IMAGE_SIDE, MAX_WEIGHT, THUMBNAIL_MAX, patch_grid, thumbnails_of

MAX_HEADER = 100_000_000
_ITEMSIZE = {"F16": 2, "F32": 4, "U16": 2, "BF16": 2, "F64": 8, "I64": 8, "I32": 4, "U8": 1, "I8": 1, "BOOL": 1}
_NUMPY = {"F16": np.dtype("<f2"), "F32": np.dtype("<f4"), "U16": np.dtype("<u2")}
_F16_MAX_BITS = int(np.array(MAX_WEIGHT, dtype="<f2").view("<u2"))
if float(np.array(_F16_MAX_BITS, dtype="<u2").view("<f2")) > MAX_WEIGHT:
    _F16_MAX_BITS -= 1


class TraceError(ValueError):
    """A file that is not a trace attnscope can read, with the reason."""


class TraceFile:
    """An open trace file: `description`, `masks` (one per layer), the
    dtype of the weights, and the bytes of one head on demand."""

    def __init__(self, path: str | os.PathLike):
        self.path = os.fspath(path)
        try:
            size = os.path.getsize(self.path)
            with open(self.path, "rb") as f:
                head = f.read(8)
                if len(head) < 8 or size < 9:
                    raise TraceError(f"{self.path} is not a safetensors file: only {size} bytes")
                (n,) = struct.unpack("<Q", head)
                if n > MAX_HEADER:
                    raise TraceError(f"{self.path} is not a safetensors file: its header would be {n} bytes")
                if 8 + n > size:
                    raise TraceError(f"{self.path} is cut short: its header runs past the end of the file ({size} bytes)")
                text = f.read(n)
        except OSError as e:
            raise TraceError(f"cannot read {self.path}: {e.strerror or e}") from None
        if not text.lstrip(b" ").startswith(b"{"):
            raise TraceError(f"{self.path} is not a safetensors file: its header is not JSON")
        try:
            header = json.loads(text.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise TraceError(f"{self.path} is not a safetensors file: its header is not JSON") from None
        if not isinstance(header, dict):
            raise TraceError(f"{self.path} is not a safetensors file: its header is not a JSON object")
        meta = header.pop("__metadata__", None) or {}
        self.data_start = 8 + n
        self._check_layout(header, size - self.data_start)
        if meta.get("format") != FORMAT:
            raise TraceError(f"{self.path} is not an attnscope trace (a safetensors file without format = {FORMAT})")
        version = str(meta.get("format_version", ""))
        major = version.split(".")[0]
        if not major.isdigit():
            raise TraceError(f"{self.path} is damaged: format_version {version!r} is not MAJOR.MINOR")
        if int(major) > int(FORMAT_VERSION.split(".")[0]):
            raise TraceError(
                f"{self.path} is a trace of format version {version}, newer than this attnscope reads "
                f"({FORMAT_VERSION.split('.')[0]}.x): update attnscope"
            )
        try:
            d = json.loads(meta.get("trace", ""))
        except json.JSONDecodeError:
            raise TraceError(f"{self.path} is damaged: its description is not JSON") from None
        self.description = d
        self._check_description(d, header)

    def _check_layout(self, header: dict, data_len: int) -> None:
        spans = []
        for name, t in header.items():
            try:
                dtype, shape, (begin, end) = t["dtype"], [int(x) for x in t["shape"]], t["data_offsets"]
                count = int(np.prod(shape, dtype=object)) if shape else 1
                nbytes = count * _ITEMSIZE[dtype]
            except (KeyError, TypeError, ValueError):
                raise TraceError(f"{self.path} is not a safetensors file: tensor {name!r} is described wrongly") from None
            if not (isinstance(begin, int) and isinstance(end, int) and 0 <= begin <= end and end - begin == nbytes):
                raise TraceError(f"{self.path} is not a safetensors file: tensor {name!r}'s bytes do not match its shape")
            spans.append((begin, end))
        spans.sort()
        cursor = 0
        for begin, end in spans:
            if begin != cursor:
                raise TraceError(f"{self.path} is not a safetensors file: its tensors are not contiguous")
            cursor = end
        if cursor > data_len:
            raise TraceError(f"{self.path} is cut short: its tensors run past the end of the file")
        if cursor < data_len:
            raise TraceError(f"{self.path} is damaged: {data_len - cursor} extra bytes after the last tensor")
        self.tensors = header

    def _check_description(self, d, header: dict) -> None:
        def damaged(why: str) -> TraceError:
            return TraceError(f"{self.path} is damaged: {why}")

        if not isinstance(d, dict):
            raise damaged("its description is not a JSON object")
        try:
            self.n_layers, self.n_heads, self.n_kv_heads = int(d["n_layers"]), int(d["n_heads"]), int(d["n_kv_heads"])
            self.tokens = [str(t) for t in d["tokens"]]
            name = str(d["model"]["name"])
        except (KeyError, TypeError, ValueError):
            raise damaged("its description lacks the model, n_layers, n_heads, n_kv_heads or tokens") from None
        self.model_name = name
        self.n_tokens = len(self.tokens)
        if min(self.n_layers, self.n_heads, self.n_kv_heads, self.n_tokens) < 1:
            raise damaged("it needs at least one layer, head and token")
        mask = d.get("mask")
        masks = mask if isinstance(mask, list) else [mask] * self.n_layers
        if len(masks) != self.n_layers or not all(isinstance(m, dict) for m in masks):
            raise damaged(f"its mask is not one mask or a list of {self.n_layers}")
        self.masks = [self._mask(m) for m in masks]
        h, t = self.n_heads, self.n_tokens
        dtypes = set()
        for layer in range(self.n_layers):
            a = header.get(f"layers.{layer}.attention")
            if a is None:
                raise damaged(f"layers.{layer}.attention is missing")
            if a["dtype"] not in ("F16", "F32") or list(a["shape"]) != [h, t, t]:
                raise damaged(f"layers.{layer}.attention is {a['dtype']} {a['shape']}, not F16/F32 {[h, t, t]}")
            dtypes.add(a["dtype"])
        thumbs = header.get("thumbnails")
        self.thumbnail_size: Optional[int] = None
        if thumbs is not None:
            shape = list(thumbs["shape"])
            if thumbs["dtype"] != "U16" or len(shape) != 4 or shape[:2] != [self.n_layers, h] or shape[2] != shape[3] or not 1 <= shape[2] <= t:
                raise damaged(f"thumbnails are {thumbs['dtype']} {shape}, not U16 [{self.n_layers}, {h}, S, S]")
            self.thumbnail_size = shape[2]
        # A vision trace (format 1.1): the patch grid fits the tokens, and the image is there.
        self.patches: Optional[dict] = None
        if "patches" in d:
            try:
                self.patches = patch_grid(d["patches"], t)
            except ValueError as e:
                raise damaged(str(e)) from None
            image = header.get("image")
            if image is None:
                raise damaged("it has a patch grid but no image")
            shape = list(image["shape"])
            if image["dtype"] != "U8" or len(shape) != 3 or shape[2] != 3 or not all(1 <= x <= MAX_IMAGE_SIDE for x in shape[:2]):
                raise damaged(f"its image is {image['dtype']} {shape}, not U8 [height, width, 3]")

    def image(self) -> Optional[np.ndarray]:
        """A vision trace's image, uint8 [height, width, 3]; None for other traces."""
        if self.patches is None:
            return None
        t = self.tensors["image"]
        with open(self.path, "rb") as f:
            f.seek(self.data_start + t["data_offsets"][0])
            data = f.read(t["data_offsets"][1] - t["data_offsets"][0])
        if len(data) != t["data_offsets"][1] - t["data_offsets"][0]:
            raise TraceError(f"{self.path} is cut short: its image ends early (was the file changed?)")
        return np.frombuffer(data, dtype=np.uint8).reshape(t["shape"])

    @staticmethod
    def _mask(m: dict) -> dict:
        kind = m.get("type")
        if kind == "sliding_window":
            window = m.get("window")
            return {"type": kind, "window": int(window)} if isinstance(window, int) and window >= 1 else {"type": "unknown"}
        return {"type": kind} if kind in ("none", "causal") else {"type": "unknown"}

    def attention_dtype(self, layer: int) -> str:
        return self.tensors[f"layers.{layer}.attention"]["dtype"]

    def check_head(self, layer, head) -> tuple:
        """(layer, head) as ints, or a ValueError saying what is wrong."""
        if isinstance(layer, bool) or isinstance(head, bool) or not isinstance(layer, int) or not isinstance(head, int):
            raise ValueError(f"layer and head must be whole numbers, not {layer!r} and {head!r}")
        if not 0 <= layer < self.n_layers:
            raise ValueError(f"layer {layer} does not exist: the trace has layers 0 to {self.n_layers - 1}")
        if not 0 <= head < self.n_heads:
            raise ValueError(f"head {head} does not exist: the trace has heads 0 to {self.n_heads - 1}")
        return layer, head

    def head_bytes(self, layer: int, head: int) -> bytes:
        """Head `head` of layer `layer` as stored (T × T little-endian F16 or
        F32, row = query); only these bytes are read, and checked."""
        layer, head = self.check_head(layer, head)
        t = self.tensors[f"layers.{layer}.attention"]
        size = self.n_tokens * self.n_tokens * _ITEMSIZE[t["dtype"]]
        with open(self.path, "rb") as f:
            f.seek(self.data_start + t["data_offsets"][0] + head * size)
            data = f.read(size)
        if len(data) != size:
            raise TraceError(f"{self.path} is cut short: layer {layer} ends early (was the file changed?)")
        if t["dtype"] == "F16":
            # On the bits, as numpy has no native f16 arithmetic: +0 … 1.0009766 (the last f16 ≤ MAX_WEIGHT), or −0.
            bits = np.frombuffer(data, dtype="<u2")
            ok = bits.max() <= _F16_MAX_BITS or bool(((bits <= _F16_MAX_BITS) | (bits == 0x8000)).all())
        else:
            w = np.frombuffer(data, dtype="<f4")
            ok = bool(np.isfinite(w).all() and w.min() >= 0.0 and w.max() <= MAX_WEIGHT)
        if data and not ok:
            raise TraceError(f"{self.path} is damaged: layer {layer} head {head} holds a weight that is not in [0, 1]")
        return data

    def head(self, layer: int, head: int) -> np.ndarray:
        """Head `head` of layer `layer` as float32 [T, T]."""
        data = self.head_bytes(layer, head)
        return np.frombuffer(data, dtype=_NUMPY[self.attention_dtype(layer)]).astype(np.float32).reshape(self.n_tokens, self.n_tokens)

    def thumbnails(self) -> tuple:
        """(S, levels [L, H, S, S] as u16): the file's, or pooled here one head
        at a time when it has none."""
        if self.thumbnail_size is not None:
            t = self.tensors["thumbnails"]
            with open(self.path, "rb") as f:
                f.seek(self.data_start + t["data_offsets"][0])
                data = f.read(t["data_offsets"][1] - t["data_offsets"][0])
            s = self.thumbnail_size
            return s, np.frombuffer(data, dtype="<u2").reshape(self.n_layers, self.n_heads, s, s)
        s = min(self.n_tokens, THUMBNAIL_MAX)
        out = np.empty((self.n_layers, self.n_heads, s, s), dtype="<u2")
        for layer in range(self.n_layers):
            for h in range(self.n_heads):
                out[layer, h] = thumbnails_of(self.head(layer, h)[None], s)[0]
        return s, out
