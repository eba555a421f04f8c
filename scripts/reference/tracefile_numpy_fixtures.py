#!/usr/bin/env python3
"""Trace files written by the attnscope Python package from numpy arrays, and
the same arrays saved by the safetensors library itself, for
tests/tracefile/python.rs (which reads both and compares).

The arrays are made from integers by exactly rounded divisions, so every
machine writes the same bytes: python/tests/test_writer.py checks that the
committed files are what the current writer writes. They test storage, not
meaning: these weights are not the softmax of these queries and keys.

Needs numpy and safetensors (the test venv has both):
    python3 scripts/reference/tracefile_numpy_fixtures.py
"""
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "src"))

import attnscope  # noqa: E402
from attnscope._format import allowed, mask_spec  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "tracefile"


def integers(shape, seed: int) -> np.ndarray:
    """1 … 999 from a multiplicative hash of the index: no random generator
    whose stream could change between numpy versions."""
    i = np.arange(int(np.prod(shape)), dtype=np.uint64) + np.uint64(seed * 7919)
    return ((i * np.uint64(2654435761)) % np.uint64(1 << 32) % np.uint64(999) + np.uint64(1)).reshape(shape)


def weights(heads: int, n: int, mask, seed: int) -> np.ndarray:
    """[heads, n, n] rows of positive weights summing to 1, 0 where the mask hides a key."""
    w = integers((heads, n, n), seed).astype(np.float64) * allowed(mask_spec(mask), n)
    return (w / w.sum(axis=-1, keepdims=True)).astype(np.float32)


def vectors(heads: int, n: int, d: int, seed: int) -> np.ndarray:
    return ((integers((heads, n, d), seed).astype(np.float64) - 500.0) / 64.0).astype(np.float32)


def cases():
    """(file name, write_trace keywords, arrays by name)."""
    masks = ["causal", ("sliding_window", 2), "causal"]
    att = [weights(4, 5, m, seed=l) for l, m in enumerate(masks)]
    q = [vectors(4, 5, 3, seed=10 + l) for l in range(3)]
    k = [vectors(2, 5, 3, seed=20 + l) for l in range(3)]
    f32 = dict(
        model_name="numpy fixture f32",
        architecture="NumpyArrays",
        model_type="none",
        tokens=["<s>", "The", " café", " 🐟", "<0xF0>"],
        token_ids=[1, 504, 40213, 9, 242],
        text="The café 🐟",
        mask=masks,
        n_layers=3,
        n_heads=4,
        n_kv_heads=2,
        attentions=att,
        queries=q,
        keys=k,
        d_head=3,
        queries_keys={"scale": 1 / np.sqrt(3.0), "positions": "rope"},
        top_next=[{"token": " Paris", "id": 7042, "probability": 0.75}, {"token": " a", "probability": 0.125}],
        dtype="float32",
        qk_dtype="float32",
        writer="scripts/reference/tracefile_numpy_fixtures.py",
    )
    arrays = {f"f32/layers.{l}.attention": a for l, a in enumerate(att)}
    arrays.update({f"f32/layers.{l}.queries": x for l, x in enumerate(q)})
    arrays.update({f"f32/layers.{l}.keys": x for l, x in enumerate(k)})

    n = 53  # more tokens than a thumbnail's 48 cells: they are pooled
    att16 = [weights(3, n, "none", seed=30 + l) for l in range(2)]
    f16 = dict(
        model_name="numpy fixture f16",
        architecture="NumpyArrays",
        tokens=[f"t{i}" for i in range(n)],
        mask="none",
        n_layers=2,
        n_heads=3,
        n_kv_heads=1,
        attentions=att16,
        dtype="float16",
    )
    arrays.update({f"f16/layers.{l}.attention": a for l, a in enumerate(att16)})

    bare = dict(
        model_name="numpy fixture bare",
        architecture="NumpyArrays",
        tokens=["only"],
        mask="causal",
        n_layers=1,
        n_heads=1,
        attentions=[np.ones((1, 1, 1), dtype=np.float32)],
        dtype="float32",
        thumbnails=False,
    )

    # A vision trace (format 1.1): a class token and a register before a 3 × 4 grid of patches,
    # over a 24 × 32 picture (8-pixel patches).
    rows, cols = 3, 4
    vision_tokens = ["[CLS]", "[REG]"] + [f"{r},{c}" for r in range(rows) for c in range(cols)]
    att_vision = [weights(2, len(vision_tokens), "none", seed=40 + l) for l in range(2)]
    picture = (integers((rows * 8, cols * 8, 3), seed=50) % 256).astype(np.uint8)
    vision = dict(
        model_name="numpy fixture vision",
        architecture="NumpyViT",
        tokens=vision_tokens,
        mask="none",
        n_layers=2,
        n_heads=2,
        attentions=att_vision,
        patches={"rows": rows, "cols": cols, "first_patch": 2, "patch_size": 8},
        image=picture,
        dtype="float32",
    )
    arrays.update({f"vision/layers.{l}.attention": a for l, a in enumerate(att_vision)})
    arrays["vision/image"] = picture
    files = [("numpy_f32.safetensors", f32), ("numpy_f16.safetensors", f16), ("numpy_bare.safetensors", bare)]
    return files + [("numpy_vision.safetensors", vision)], arrays


def write(out: Path) -> list:
    """Writes every fixture into `out`; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    files, arrays = cases()
    for name, kw in files:
        kw = dict(kw)
        attentions = kw.pop("attentions")
        attnscope.write_trace(out / name, iter(attentions), **kw)
        written.append(out / name)
    save_file(arrays, str(out / "numpy_expected.safetensors"), metadata={"about": "the arrays of the numpy_*.safetensors traces"})
    written.append(out / "numpy_expected.safetensors")
    return written


if __name__ == "__main__":
    for path in write(OUT):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")
