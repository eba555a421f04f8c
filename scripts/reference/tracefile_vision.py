#!/usr/bin/env python3
"""attnscope.trace_image on tiny random vision transformers, on CPU: the
file's attentions must equal the model's own `output_attentions` exactly, its
patch grid and special tokens must be the model's, and its image must be the
model's input with the processor's normalization undone.

Models, built from configs with a fixed seed (no download): ViT (a class
token, then 4 × 4 patches of 8 pixels) and DINOv2 with registers (a class
token and two registers, then 4 × 4 patches of 8 pixels); each sees the same
32 × 32 picture (a drawn scene: sky, ground, a sun), through a
ViTImageProcessor that resizes it from 48 × 40 and normalizes it.

Writes, into tests/fixtures/tracefile/:
- tiny_vit.safetensors, tiny_dinov2_registers.safetensors: float32 vision
  traces (format 1.1) with queries and keys (tests/tracefile/vision.rs
  recomputes the weights from them with attnscope's formula);
- vision_roundtrip.json: what was checked.
Fails (exit 1) if any check fails. Needs torch and transformers (not run by
the test command):
    .tools/bench-venv/bin/python scripts/reference/tracefile_vision.py
"""
import json
import sys
from pathlib import Path

import numpy as np
import torch
import transformers
from safetensors import safe_open

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "src"))
import attnscope  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "tracefile"


def picture() -> np.ndarray:
    """A 40 × 48 scene drawn from integers: blue sky above green ground, a yellow sun."""
    h, w = 40, 48
    y, x = np.mgrid[0:h, 0:w]
    img = np.zeros((h, w, 3), dtype=np.uint8)
    img[y < 24] = (90, 150, 230)
    img[y >= 24] = (60, 140, 60)
    img[(y - 10) ** 2 + (x - 34) ** 2 < 36] = (250, 220, 40)
    return img


def tiny_models():
    """(name, model, processor, special tokens); random weights, fixed seed."""
    from transformers import Dinov2WithRegistersConfig, Dinov2WithRegistersModel, ViTConfig, ViTImageProcessor, ViTModel

    torch.manual_seed(0)
    common = dict(image_size=32, patch_size=8, hidden_size=32, num_hidden_layers=3, num_attention_heads=4, intermediate_size=48)
    vit = ViTModel(ViTConfig(**common), add_pooling_layer=False)
    dino = Dinov2WithRegistersModel(Dinov2WithRegistersConfig(num_register_tokens=2, **common))
    processor = ViTImageProcessor(size={"height": 32, "width": 32}, image_mean=[0.5, 0.4, 0.3], image_std=[0.25, 0.2, 0.3])
    return [
        ("tiny_vit", vit.eval(), processor, ["[CLS]"]),
        ("tiny_dinov2_registers", dino.eval(), processor, ["[CLS]", "[REG0]", "[REG1]"]),
    ]


def reference(model, pixels):
    """The model's own attentions, from a separate eager forward."""
    before = model.config._attn_implementation
    model.set_attn_implementation("eager")
    try:
        with torch.inference_mode():
            out = model(pixel_values=pixels, output_attentions=True)
        return [a[0].numpy().copy() for a in out.attentions]
    finally:
        model.set_attn_implementation(before)


def tensors(path):
    with safe_open(str(path), "np") as f:
        return json.loads(f.metadata()["trace"]), {k: f.get_tensor(k) for k in f.keys()}, f.metadata()


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    image = picture()
    report = {
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "picture": "40 × 48, resized to 32 × 32 by ViTImageProcessor",
        "models": {},
    }
    ok = True
    for name, model, processor, specials in tiny_models():
        path = OUT / f"{name}.safetensors"
        d = attnscope.trace_image(model, processor, image, path, dtype="float32", queries_keys=True, name=name)
        pixels = processor(images=image, return_tensors="pt")["pixel_values"]
        want = reference(model, pixels)
        got, arrays, meta = tensors(path)
        # What the model saw: its input, the normalization undone, to the nearest level.
        seen = pixels[0].numpy().transpose(1, 2, 0) * np.asarray(processor.image_std) + np.asarray(processor.image_mean)
        seen = np.rint(np.clip(seen * 255.0, 0, 255)).astype(np.uint8)
        checks = {
            "version 1.1": meta["format_version"] == "1.1",
            "grid": got["patches"] == {"rows": 4, "cols": 4, "first_patch": len(specials), "patch_size": 8},
            "tokens": got["tokens"] == specials + [f"{r},{c}" for r in range(4) for c in range(4)],
            "mask none": got["mask"] == {"type": "none"},
            "weights equal output_attentions": all(
                np.array_equal(arrays[f"layers.{l}.attention"], w) for l, w in enumerate(want)
            ),
            "image is the input": np.array_equal(arrays["image"], seen),
            "queries and keys": all(f"layers.{l}.queries" in arrays for l in range(len(want))),
        }
        report["models"][name] = {
            "tokens": got["tokens"],
            "max_abs_error": got["queries_keys"]["max_abs_error"],
            "checks": checks,
        }
        print(f"{name}: {path.stat().st_size} bytes; {checks}")
        ok &= all(checks.values())
        assert d == got
    (OUT / "vision_roundtrip.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
