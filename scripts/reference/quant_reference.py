#!/usr/bin/env python3
"""Write tests/fixtures/quant/: a few rows of every GGUF weight type attnscope
reads, as raw bytes, with their f32 values as the `gguf` package's reference
dequantizer (gguf.quants.dequantize) gives them.

Rows of the types the checkpoints hold (Q8_0, Q5_0, Q4_K, Q6_K from Gemma 3
270M and Qwen2.5 Coder 0.5B, Q4_1 from SmolLM2) are copied from the files as
they are. The types none of them holds are made from real weights (rows of
Qwen's Q8_0 output matrix, dequantized): Q4_0, F16 and BF16 by the `gguf`
package's own quantizers, Q5_K (which it cannot write) by the small
quantizer below; either way the expected values are the reference
dequantizer's output for the bytes written.

For each fixture NAME: NAME.bin (the raw rows), NAME.f32 (little-endian f32,
row after row) and a line in index.json (type, shape, source). Run after
scripts/fetch_models.py, from the repository root:

    /path/to/python scripts/reference/quant_reference.py
"""
import json
from pathlib import Path

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf import GGUFReader
from gguf.quants import dequantize, quantize

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "quant"
GEMMA = ROOT / "models-extra" / "gemma3-270m" / "gemma-3-270m-q4_k_m.gguf"
QWEN = ROOT / "models-extra" / "qwen2.5-0.5b" / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
SMOLLM2 = ROOT / "www" / "models" / "smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf"

ROWS = 2  # per fixture: the tensor's first row and the row holding its largest block scale


def tensor(reader: GGUFReader, name: str):
    for t in reader.tensors:
        if t.name == name:
            return t
    raise KeyError(name)


def raw_rows(t) -> np.ndarray:
    """The tensor's bytes as (rows, bytes per row) uint8."""
    data = np.asarray(t.data)
    return data.view(np.uint8).reshape(int(t.shape[-1]), -1)


def pick_rows(raw: np.ndarray, qtype: T) -> list[int]:
    """Row 0, and the row with the largest |d| of its blocks (f16 at each block's start, Q6_K's at its end)."""
    from gguf.constants import GGML_QUANT_SIZES

    _, size = GGML_QUANT_SIZES[qtype]
    blocks = raw.reshape(raw.shape[0], -1, size)
    d = blocks[..., size - 2:] if qtype == T.Q6_K else blocks[..., :2]
    d = np.abs(np.ascontiguousarray(d).view(np.float16).astype(np.float32)).max(axis=(1, 2))
    big = int(d.argmax())
    return [0, big] if big != 0 else [0, raw.shape[0] - 1]


def write(index: list, name: str, qtype: T, raw: np.ndarray, cols: int, source: str) -> None:
    raw = np.ascontiguousarray(raw, dtype=np.uint8)
    values = dequantize(raw, qtype).astype(np.float32).reshape(raw.shape[0], cols)
    (OUT / f"{name}.bin").write_bytes(raw.tobytes())
    (OUT / f"{name}.f32").write_bytes(values.astype("<f4").tobytes())
    index.append({"name": name, "type": qtype.name, "ggml_type": int(qtype), "rows": int(raw.shape[0]), "cols": cols, "source": source})
    print(f"{name}: {qtype.name} {raw.shape[0]}×{cols} from {source}")


def from_file(index: list, reader: GGUFReader, file_name: str, tensor_name: str, name: str) -> None:
    t = tensor(reader, tensor_name)
    assert name.endswith(t.tensor_type.name.lower()), f"{tensor_name} is {t.tensor_type.name}, not what {name} says"
    raw = raw_rows(t)
    rows = pick_rows(raw, t.tensor_type)
    write(index, name, t.tensor_type, raw[rows], int(t.shape[0]), f"{file_name} {tensor_name} rows {rows}")


def quantize_q5_k(x: np.ndarray) -> np.ndarray:
    """A plain Q5_K quantizer (no search for the best scales): per block of
    32 a scale and a min from its range, both as 6-bit multiples of the
    super-block's d and dmin, weights rounded to 0..31."""
    out = []
    for sb in x.astype(np.float32).reshape(-1, 256):
        blocks = sb.reshape(8, 32)
        mins = np.maximum(0.0, -blocks.min(axis=1))
        scales = (blocks.max(axis=1) + mins) / 31.0
        d = np.float16(scales.max() / 63.0)
        dmin = np.float16(mins.max() / 63.0)
        sc = np.clip(np.rint(scales / np.float32(d)), 0, 63).astype(np.uint8) if d > 0 else np.zeros(8, np.uint8)
        mn = np.clip(np.rint(mins / np.float32(dmin)), 0, 63).astype(np.uint8) if dmin > 0 else np.zeros(8, np.uint8)
        step = np.float32(d) * sc.astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.where(step[:, None] > 0, np.rint((blocks + np.float32(dmin) * mn[:, None]) / step[:, None]), 0)
        q = np.clip(q, 0, 31).astype(np.uint8)
        packed = np.zeros(12, np.uint8)
        packed[0:4] = (sc[0:4] & 63) | ((sc[4:8] >> 4) << 6)
        packed[4:8] = (mn[0:4] & 63) | ((mn[4:8] >> 4) << 6)
        packed[8:12] = (sc[4:8] & 15) | ((mn[4:8] & 15) << 4)
        qh = np.zeros(32, np.uint8)
        for b in range(8):
            qh |= ((q[b] >> 4) & 1) << b
        qs = np.concatenate([(q[2 * c] & 15) | ((q[2 * c + 1] & 15) << 4) for c in range(4)])
        out.append(np.concatenate([np.array([d, dmin], np.float16).view(np.uint8), packed, qh, qs]))
    return np.concatenate(out)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    index: list = []
    gemma, qwen, smollm2 = GGUFReader(GEMMA), GGUFReader(QWEN), GGUFReader(SMOLLM2)
    for reader, file_name, picks in [
        (gemma, GEMMA.name, [("token_embd.weight", "gemma_q8_0"), ("blk.0.attn_q.weight", "gemma_q5_0"),
                             ("blk.2.ffn_down.weight", "gemma_q4_k"), ("blk.17.ffn_down.weight", "gemma_q6_k")]),
        (qwen, QWEN.name, [("output.weight", "qwen_q8_0"), ("token_embd.weight", "qwen_q5_0"),
                           ("blk.11.ffn_down.weight", "qwen_q4_k"), ("blk.0.ffn_down.weight", "qwen_q6_k")]),
        (smollm2, SMOLLM2.name, [("blk.0.ffn_up.weight", "smollm2_q4_1")]),
    ]:
        for tensor_name, name in picks:
            from_file(index, reader, file_name, tensor_name, name)
    # Real weights for the types no checkpoint holds: two rows of Qwen's
    # output matrix (896 values, Q8_0), four times over (3584, a multiple of 256).
    t = tensor(qwen, "output.weight")
    rows = [3, 150000]
    x = dequantize(raw_rows(t)[rows], T.Q8_0).reshape(2, -1)
    x = np.concatenate([x, -x[:, ::-1], 0.5 * x, x[:, ::-1] * 2.0], axis=1).astype(np.float32)
    source = f"{QWEN.name} output.weight rows {rows} (dequantized, tiled to {x.shape[1]} values), quantized by"
    for qtype, name in [(T.Q4_0, "made_q4_0"), (T.F16, "made_f16"), (T.BF16, "made_bf16")]:
        raw = np.stack([quantize(r, qtype).view(np.uint8).reshape(-1) for r in x])
        write(index, name, qtype, raw, x.shape[1], f"{source} gguf.quants.quantize")
    raw = np.stack([quantize_q5_k(r) for r in x])
    write(index, "made_q5_k", T.Q5_K, raw, x.shape[1], f"{source} this script's Q5_K quantizer")
    (OUT / "index.json").write_text(json.dumps(index, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
