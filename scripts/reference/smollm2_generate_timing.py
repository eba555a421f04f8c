#!/usr/bin/env python3
"""Time SmolLM2-135M's greedy writing in PyTorch natively on this CPU, one
thread: the peer of attnscope's `cargo bench --bench generate` (issue 56; a
report, nothing passes or fails).

transformers loads the very GGUF file the page loads, dequantized to
float32, with eager attention, and writes 64 tokens after the bench's
10-token prompt with its key/value cache, two ways:

- `model.generate(max_new_tokens=64, min_new_tokens=64, do_sample=False)`:
  PyTorch's own greedy loop, attention weights not asked for;
- a manual loop, `model(token, cache=cache, output_attentions=True)`
  then argmax: each new token's attention row kept, as attnscope keeps it.

Each is run WARMUP times not counted, then ROUNDS timed (the prompt's
forward included, as in attnscope's); the median is printed in tokens per
second with the CPU model, and as JSON on the last line.

Run from the repository root (scripts/bench.sh generate does):

    .tools/bench-venv/bin/python scripts/reference/smollm2_generate_timing.py

Env: ROUNDS (default 5), WARMUP (default 1), THREADS (default 1).
"""
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TQDM_DISABLE", "1")

import torch  # noqa: E402
import transformers  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smollm2_torch_timing import cpu  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = ROOT / "www" / "models" / "smollm2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
# benches/generate.rs's PROMPT and its token count.
PROMPT = "Once upon a time, there was a little girl"
PROMPT_TOKENS = 10
WRITE = 64
ROUNDS = int(os.environ.get("ROUNDS", 5))
WARMUP = int(os.environ.get("WARMUP", 1))
THREADS = int(os.environ.get("THREADS", 1))


def generate(model, ids):
    out = model.generate(
        ids, attention_mask=torch.ones_like(ids), max_new_tokens=WRITE, min_new_tokens=WRITE,
        do_sample=False, pad_token_id=0,
    )
    return out[0, ids.shape[1]:].tolist()


def manual(model, ids):
    out = model(ids, use_cache=True)
    cache, logits, written = out.cache, out.logits[0, -1], []
    for _ in range(WRITE):
        chosen = int(torch.argmax(logits))
        written.append(chosen)
        out = model(torch.tensor([[chosen]]), cache=cache, use_cache=True, output_attentions=True)
        cache, logits = out.cache, out.logits[0, -1]
    return written


def timed(loop, model, ids):
    for _ in range(WARMUP):
        written = loop(model, ids)
    times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        written = loop(model, ids)
        times.append(time.perf_counter() - t0)
    assert len(written) == WRITE
    return WRITE / statistics.median(times), written


def main() -> None:
    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    if not (MODEL_DIR / GGUF).is_file():
        sys.exit(f"{MODEL_DIR / GGUF} is missing: run python3 scripts/fetch_models.py")
    torch.set_num_threads(THREADS)
    tok = AutoTokenizer.from_pretrained(MODEL_DIR, gguf_file=GGUF)
    model = AutoModelForCausalLM.from_pretrained(
        MODEL_DIR, gguf_file=GGUF, dtype=torch.float32, attn_implementation="eager"
    ).eval()
    ids = tok(PROMPT, add_special_tokens=False, return_tensors="pt")["input_ids"]
    if ids.shape[1] != PROMPT_TOKENS:
        sys.exit(f"the prompt is {ids.shape[1]} tokens for SmolLM2, not {PROMPT_TOKENS}")
    print(
        f"PyTorch {torch.__version__}, transformers {transformers.__version__}, {THREADS} thread"
        f"{'s' if THREADS > 1 else ''}: SmolLM2-135M from the Q4_1 GGUF dequantized to float32, eager attention, "
        f"{WRITE} greedy tokens after {PROMPT_TOKENS} with the key/value cache; CPU: {cpu()}; "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    with torch.inference_mode():
        plain, a = timed(generate, model, ids)
        kept, b = timed(manual, model, ids)
    assert a == b, f"model.generate wrote {a}, the manual loop {b}"
    print(f"  model.generate, do_sample=False:                 {plain:6.1f} tokens/s (median of {ROUNDS})")
    print(f"  manual loop, output_attentions=True (as attnscope): {kept:6.1f} tokens/s (median of {ROUNDS})")
    print(f"  text: {tok.decode(a)!r}")
    print(json.dumps({"torch_generate_tokens_per_s": round(plain, 2), "torch_manual_attn_tokens_per_s": round(kept, 2)}))


if __name__ == "__main__":
    main()
