#!/usr/bin/env python3
"""Reference maps for activation patching (src/analysis/patching.rs, issue
#60), from Hugging Face transformers in PyTorch, float32, eager attention, on
the real SmolLM2-135M GGUF in www/models/smollm2/.

Each patched run is a whole forward of the corrupted prompt with one hook
that copies the clean run's activation, as TransformerLens' patching
functions do (no reuse of the layers below):
- residual stream entering layer l at position p: a forward pre-hook on
  model.model.layers[l];
- head h's output of layer l (every position, or the last): a forward
  pre-hook on o_proj replacing the head's slice of its input;
- the attention block's output at p: a forward hook on o_proj;
- the feed-forward block's output at p: a forward hook on the layer's mlp.
Metric: d = logit[right] − logit[wrong] at the last position,
effect = (d − d_corrupt) / (d_clean − d_corrupt).

Writes tests/fixtures/analysis/smollm2_patching.json (checked by
tests/analysis_reference/main.rs) and prints the time of the residual and heads
maps on one thread (the peer of scripts/bench_analysis.mjs). Run:
    .tools/bench-venv/bin/python scripts/reference/patching_reference.py
"""
import json
import platform
import time
from pathlib import Path

import torch
import transformers
from tokenizers import pre_tokenizers
from transformers import AutoModelForCausalLM, AutoTokenizer

ROOT = Path(__file__).resolve().parents[2]
SMOLLM2 = ROOT / "www" / "models" / "smollm2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
OUT = ROOT / "tests" / "fixtures" / "analysis" / "smollm2_patching.json"
DIGITS = 5

CLEAN = "When Mary and John went to the store, John gave a drink to"
CORRUPT = "When Mary and John went to the store, Mary gave a drink to"
RIGHT, WRONG = " Mary", " John"


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    torch.set_num_threads(1)
    tok = AutoTokenizer.from_pretrained(SMOLLM2, gguf_file=GGUF)
    tok.backend_tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )
    model = AutoModelForCausalLM.from_pretrained(SMOLLM2, gguf_file=GGUF, dtype=torch.float32, attn_implementation="eager").eval()
    cfg = model.config
    n_layers, n_heads = cfg.num_hidden_layers, cfg.num_attention_heads
    d_head = cfg.hidden_size // n_heads
    layers = model.model.layers
    clean_ids, corrupt_ids = tok(CLEAN)["input_ids"], tok(CORRUPT)["input_ids"]
    assert len(clean_ids) == len(corrupt_ids)
    n = len(clean_ids)
    right, wrong = tok(RIGHT)["input_ids"][0], tok(WRONG)["input_ids"][0]

    # The clean run's activations, kept by hooks.
    resid, z, attn_out, mlp_out = {}, {}, {}, {}
    keep = []
    for l, layer in enumerate(layers):
        keep.append(layer.register_forward_pre_hook(lambda m, a, l=l: resid.__setitem__(l, a[0].detach().clone())))
        keep.append(layer.self_attn.o_proj.register_forward_pre_hook(lambda m, a, l=l: z.__setitem__(l, a[0].detach().clone())))
        keep.append(layer.self_attn.o_proj.register_forward_hook(lambda m, a, o, l=l: attn_out.__setitem__(l, o.detach().clone())))
        keep.append(layer.mlp.register_forward_hook(lambda m, a, o, l=l: mlp_out.__setitem__(l, o.detach().clone())))

    def diff(ids):
        with torch.no_grad():
            logits = model(torch.tensor([ids])).logits[0, -1]
        return float(logits[right] - logits[wrong])

    d_clean = diff(clean_ids)
    for h in keep:
        h.remove()
    d_corrupt = diff(corrupt_ids)

    def patched(module, pre, fn):
        if pre:
            handle = module.register_forward_pre_hook(lambda m, a: (fn(a[0].clone()),) + tuple(a[1:]))
        else:
            handle = module.register_forward_hook(lambda m, a, o: fn(o.clone()))
        try:
            return diff(corrupt_ids)
        finally:
            handle.remove()

    def put_rows(x, src, rows, cols=slice(None)):
        x[0, rows, cols] = src[0, rows, cols]
        return x

    def residual_map():
        return [[patched(layers[l], True, lambda x, l=l, p=p: put_rows(x, resid[l], p)) for p in range(n)] for l in range(n_layers)]

    def heads_map(rows):
        return [[patched(layers[l].self_attn.o_proj, True, lambda x, l=l, h=h: put_rows(x, z[l], rows, slice(h * d_head, (h + 1) * d_head))) for h in range(n_heads)] for l in range(n_layers)]

    t0 = time.perf_counter()
    residual = residual_map()
    t_residual = time.perf_counter() - t0
    t0 = time.perf_counter()
    heads = heads_map(slice(None))
    t_heads = time.perf_counter() - t0
    heads_last = heads_map(slice(n - 1, n))
    attention = [[patched(layers[l].self_attn.o_proj, False, lambda x, l=l, p=p: put_rows(x, attn_out[l], p)) for p in range(n)] for l in range(n_layers)]
    feed_forward = [[patched(layers[l].mlp, False, lambda x, l=l, p=p: put_rows(x, mlp_out[l], p)) for p in range(n)] for l in range(n_layers)]

    def r(m):
        return [[round(v, DIGITS) for v in row] for row in m]

    fixture = {
        "about": f"SmolLM2-135M GGUF dequantized in transformers {transformers.__version__}, torch {torch.__version__}, float32, eager; scripts/reference/patching_reference.py",
        "clean": CLEAN,
        "corrupt": CORRUPT,
        "right": RIGHT,
        "wrong": WRONG,
        "clean_ids": clean_ids,
        "corrupt_ids": corrupt_ids,
        "right_id": right,
        "wrong_id": wrong,
        "clean_logit_diff": round(d_clean, DIGITS),
        "corrupt_logit_diff": round(d_corrupt, DIGITS),
        # Raw logit differences d of each patched run.
        "residual": r(residual),
        "heads": r(heads),
        "heads_last": r(heads_last),
        "attention": r(attention),
        "feed_forward": r(feed_forward),
    }
    OUT.write_text(json.dumps(fixture, separators=(",", ":")) + "\n")
    print(f"{OUT.relative_to(ROOT)}: {OUT.stat().st_size // 1024} KB")
    print(f"PyTorch {torch.__version__}, one thread, {cpu_model()}: residual map ({n_layers}×{n}) {t_residual:.2f} s, heads map ({n_layers}×{n_heads}) {t_heads:.2f} s")


if __name__ == "__main__":
    main()
