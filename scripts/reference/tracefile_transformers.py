#!/usr/bin/env python3
"""attnscope.trace on tiny random transformers checkpoints, on CPU: the file's
attentions must equal the model's own `output_attentions` exactly, and the
host must never hold more than one layer beyond the model's output.

Models, built from configs with a fixed seed (no download): BERT (with
MiniLM's WordPiece tokenizer), Llama with grouped-query attention (with
SmolLM2's tokenizer), and Gemma 3 (sliding-window layers between global
ones, its own query_pre_attn_scalar scale; SmolLM2's tokenizer again).

Writes, into tests/fixtures/tracefile/:
- tiny_bert.safetensors, tiny_llama.safetensors, tiny_gemma3.safetensors:
  float32 traces with queries and keys (tests/tracefile/python.rs recomputes
  the weights from them with attnscope's formula);
- transformers_roundtrip.json: what was checked and measured.
Fails (exit 1) if any check fails. Needs torch and transformers (not run by
the test command; the model files must be fetched first):
    /work/venv/bin/python scripts/reference/tracefile_transformers.py
"""
import json
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import torch
import transformers
from safetensors import safe_open
from tokenizers import pre_tokenizers
from transformers import AutoTokenizer

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "src"))
import attnscope  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "tracefile"
MODELS = ROOT / "www" / "models"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
TEXT = "The capital of France is Paris, and the capital of Italy is Rome."
# A long text, for the memory measure: each layer's weights are 1.4 MB in float32.
LONG = " ".join(["attention moves information between the tokens of a text"] * 30)


def tokenizers():
    bert = AutoTokenizer.from_pretrained(MODELS / "minilm")
    smol = AutoTokenizer.from_pretrained(MODELS / "smollm2", gguf_file=GGUF)
    # SmolLM2 splits every digit off (see scripts/reference/smollm2_reference.py).
    smol.backend_tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )
    return bert, smol


def tiny_models(bert_tok, smol_tok):
    """(name, model, tokenizer, expected masks); random weights, fixed seed."""
    from transformers import BertConfig, BertModel, Gemma3ForCausalLM, Gemma3TextConfig, LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    bert = BertModel(
        BertConfig(
            vocab_size=len(bert_tok), hidden_size=32, num_hidden_layers=6, num_attention_heads=4, intermediate_size=48, max_position_embeddings=512
        )
    )
    llama = LlamaForCausalLM(
        LlamaConfig(
            vocab_size=len(smol_tok),
            hidden_size=64,
            intermediate_size=96,
            num_hidden_layers=6,
            num_attention_heads=4,
            num_key_value_heads=2,
            max_position_embeddings=1024,
            tie_word_embeddings=True,
        )
    )
    gemma = Gemma3ForCausalLM(
        Gemma3TextConfig(
            vocab_size=len(smol_tok),
            hidden_size=64,
            intermediate_size=96,
            num_hidden_layers=6,
            num_attention_heads=4,
            num_key_value_heads=1,
            head_dim=16,
            query_pre_attn_scalar=24,
            sliding_window=4,
            layer_types=["sliding_attention"] * 5 + ["full_attention"],
            max_position_embeddings=1024,
        )
    )
    window = {"type": "sliding_window", "window": 4}
    return [
        ("tiny_bert", bert.eval(), bert_tok, [{"type": "none"}] * 6),
        ("tiny_llama", llama.eval(), smol_tok, [{"type": "causal"}] * 6),
        ("tiny_gemma3", gemma.eval(), smol_tok, [window] * 5 + [{"type": "causal"}]),
    ]


def reference(model, tokenizer, text):
    """The model's own attentions, from a separate eager forward."""
    before = model.config._attn_implementation
    model.set_attn_implementation("eager")
    try:
        enc = tokenizer(text, return_tensors="pt")
        with torch.inference_mode():
            out = model(input_ids=enc["input_ids"], output_attentions=True)
        return [a[0].numpy().copy() for a in out.attentions], enc["input_ids"][0].tolist()
    finally:
        model.set_attn_implementation(before)


def tensors(path):
    with safe_open(str(path), "np") as f:
        return json.loads(f.metadata()["trace"]), {k: f.get_tensor(k) for k in f.keys()}


def memory_peak(model, tokenizer, path):
    """tracemalloc's peak during attnscope.trace in float16, in layers of
    float32 weights (numpy's allocations are traced; torch's are not, and on
    CPU the model's output is the only torch copy of the weights)."""
    n = len(tokenizer(LONG)["input_ids"])
    heads = model.config.num_attention_heads
    layer = heads * n * n * 4
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        attnscope.trace(model, tokenizer, LONG, path, dtype="float16")
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return {"tokens": n, "layers": model.config.num_hidden_layers, "layer_bytes_f32": layer, "peak_bytes": peak, "peak_layers": round(peak / layer, 3)}


def main():
    if not (MODELS / "smollm2" / GGUF).is_file() or not (MODELS / "minilm").is_dir():
        sys.exit("the model files are missing: run python3 scripts/fetch_models.py")
    OUT.mkdir(parents=True, exist_ok=True)
    bert_tok, smol_tok = tokenizers()
    report = {
        "about": "attnscope.trace on tiny random checkpoints vs output_attentions; made by scripts/reference/tracefile_transformers.py",
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "text": TEXT,
        "models": {},
    }
    failures = []
    for name, model, tok, masks in tiny_models(bert_tok, smol_tok):
        want, ids = reference(model, tok, TEXT)
        checks = {}
        for dtype in ("float32", "float16"):
            path = OUT / f"{name}.safetensors" if dtype == "float32" else OUT / f"{name}.f16.tmp.safetensors"
            attnscope.trace(model, tok, TEXT, path, dtype=dtype, queries_keys=True)
            d, t = tensors(path)
            np_dtype = np.float32 if dtype == "float32" else np.float16
            equal = all(np.array_equal(t[f"layers.{l}.attention"], want[l].astype(np_dtype)) for l in range(len(want)))
            checks[f"{dtype}_attentions_equal_output_attentions"] = equal
            if dtype == "float16":
                path.unlink()
            else:
                checks["token_ids"] = d["token_ids"] == ids
                checks["masks"] = (d["mask"] if isinstance(d["mask"], list) else [d["mask"]] * d["n_layers"]) == masks
                checks["queries_keys_reproduce_weights"] = d["queries_keys"]["max_abs_error"] <= 1e-6
                summary = {k: d[k] for k in ("model", "n_layers", "n_heads", "n_kv_heads", "mask", "tokens", "queries_keys")}
                summary["file_bytes"] = path.stat().st_size
        # The model is left as it was: trace() switched to eager and back.
        checks["attn_implementation_restored"] = model.config._attn_implementation != "eager"
        summary["memory"] = memory_peak(model, tok, OUT / f"{name}.memory.tmp.safetensors")
        (OUT / f"{name}.memory.tmp.safetensors").unlink()
        # Every layer in float16 would be n_layers / 2 layers of float32 (3 here).
        checks["one_layer_on_the_host"] = summary["memory"]["peak_layers"] < 1.5
        summary["checks"] = checks
        report["models"][name] = summary
        failures += [f"{name}: {k}" for k, ok in checks.items() if not ok]
        print(f"{name}: {len(ids)} tokens, {d['n_layers']} layers × {d['n_heads']} heads; memory peak {summary['memory']['peak_layers']} layers; "
              f"{'ok' if all(checks.values()) else 'FAILED ' + str([k for k, ok in checks.items() if not ok])}")
    (OUT / "transformers_roundtrip.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n")
    if failures:
        sys.exit("failed: " + ", ".join(failures))


if __name__ == "__main__":
    main()
