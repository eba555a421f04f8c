#!/usr/bin/env python3
"""The trace of SmolLM2-135M written by the attnscope Python package, with
transformers loading the very GGUF file the app loads (dequantized to
float32, eager attention), for tests/tracefile/smollm2.rs, which checks it
against the attention attnscope computes for the same text (within 1e-3).

The tokenizer gets SmolLM2's own digit splitting, as in
scripts/reference/smollm2_reference.py.

Writes tests/fixtures/tracefile/smollm2_capital.safetensors (weights in
float32, queries and keys in float16 to keep it small). Needs torch,
transformers, gguf and accelerate (transformers loads a GGUF only with
accelerate); not run by the test command:
    /work/venv/bin/python scripts/reference/tracefile_smollm2.py
"""
import sys
from pathlib import Path

import torch
from tokenizers import pre_tokenizers
from transformers import AutoModelForCausalLM, AutoTokenizer

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "src"))
import attnscope  # noqa: E402

MODEL_DIR = ROOT / "www" / "models" / "smollm2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
OUT = ROOT / "tests" / "fixtures" / "tracefile" / "smollm2_capital.safetensors"
TEXT = "The capital of France is"


def load():
    """SmolLM2's tokenizer and model from the GGUF, as transformers reads it."""
    if not (MODEL_DIR / GGUF).is_file():
        sys.exit(f"{MODEL_DIR / GGUF} is missing: run python3 scripts/fetch_models.py")
    tok = AutoTokenizer.from_pretrained(MODEL_DIR, gguf_file=GGUF)
    tok.backend_tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )
    model = AutoModelForCausalLM.from_pretrained(MODEL_DIR, gguf_file=GGUF, dtype=torch.float32, attn_implementation="eager")
    return tok, model.eval()


def main():
    tok, model = load()
    d = attnscope.trace(model, tok, TEXT, OUT, dtype="float32", queries_keys=True, qk_dtype="float16", name=GGUF)
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size} bytes, tokens {d['tokens']}, mask {d['mask']}, "
          f"queries/keys {d['queries_keys']}, next {d['top_next'][0]}")


if __name__ == "__main__":
    main()
