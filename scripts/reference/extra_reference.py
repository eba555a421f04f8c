#!/usr/bin/env python3
"""Reference fixtures for the real checkpoints in models-extra/ (fetched by
`scripts/fetch_models.py --extra`): Gemma 3 270M and Qwen2.5 Coder 0.5B
Instruct, both Q4_K_M GGUFs, and all-mpnet-base-v2 (a Hugging Face folder).

For a GGUF, transformers loads the very same file (`gguf_file=`: every
tensor dequantized to float32 by the `gguf` package, the tokenizer rebuilt
from the file's own vocabulary) and runs it with eager attention in float32.
For each text it writes the tokens and ids, the attention of the first and
the last layer, and the most likely next token; for the first text the last
query's attention in every layer and head; for more texts the tokens and
ids alone. It also writes what transformers makes of the layers' kinds
(Gemma's `layer_types`, `sliding_window`), which the test compares with the
masks attnscope draws. tests/extra_reference.rs reads the fixtures in
tests/fixtures/extra/.

Run: /work/venv/bin/python scripts/reference/extra_reference.py [NAME ...]
(needs torch, transformers, gguf, tokenizers).
"""
import json
import sys
from pathlib import Path

import torch
from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer

ROOT = Path(__file__).resolve().parents[2]
EXTRA = ROOT / "models-extra"
OUT = ROOT / "tests" / "fixtures" / "extra"
DECIMALS = 6

# Attention is kept for these (subwords, punctuation, emoji, another script).
ATTENTION_TEXTS = [
    "The capital of France is",
    "Unbelievably, the fluffy creature's queries attend elsewhere!",
    "Привет, 世界: tokens 🐟 and 2024.",
]
# Tokens and ids alone for these.
TOKEN_TEXTS = ATTENTION_TEXTS + [
    "def add(a, b):\n    return a + b  # sum",
    "  leading spaces, tabs\tand\nnew lines\n\n",
    "naïve café façade — “quotes” … ½ ≠ ∞",
    "日本語のテキストと한국어 텍스트, العربية.",
    "emoji 👩‍👩‍👧 🇵🇹 ✨ in a row",
    "<start_of_turn>user hello<end_of_turn> <|im_start|>",
    "1234567 3.14159 0xDEADBEEF",
]
GGUFS = {
    "gemma3-270m": "gemma-3-270m-q4_k_m.gguf",
    "qwen2.5-0.5b": "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
}


def rounded(head):
    return [[round(x, DECIMALS) for x in row] for row in head]


def last_rows(attentions):
    """Every layer's and head's attention of the last query, [layer][head][key]."""
    return [[[round(x, DECIMALS) for x in head[-1]] for head in layer[0].tolist()] for layer in attentions]


def decoder_reference(name, file):
    folder = EXTRA / name
    tok = AutoTokenizer.from_pretrained(folder, gguf_file=file)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=file, dtype=torch.float32, attn_implementation="eager")
    model.eval()
    config = model.config.get_text_config()
    n_layers = config.num_hidden_layers
    layers = [0, n_layers - 1]
    ref = {
        "file": file,
        "layers": layers,
        "n_layers": n_layers,
        "layer_types": getattr(config, "layer_types", None),
        "sliding_window": getattr(config, "sliding_window", None),
        "tokens": [],
        "cases": [],
    }
    for text in TOKEN_TEXTS:
        ids = tok(text)["input_ids"]
        ref["tokens"].append({"text": text, "ids": ids, "tokens": tok.convert_ids_to_tokens(ids)})
    with torch.no_grad():
        for text in ATTENTION_TEXTS:
            ids = tok(text, return_tensors="pt")["input_ids"]
            out = model(input_ids=ids, output_attentions=True)
            ref["cases"].append({
                "text": text,
                "ids": ids[0].tolist(),
                "attention": [[rounded(h) for h in out.attentions[l][0].tolist()] for l in layers],
                "top_next_id": int(out.logits[0, -1].argmax()),
            })
            if text == ATTENTION_TEXTS[0]:
                ref["last_rows"] = last_rows(out.attentions)
    return ref


def mpnet_reference():
    folder = EXTRA / "all-mpnet-base-v2"
    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder, dtype=torch.float32, attn_implementation="eager")
    model.eval()
    n_layers = model.config.num_hidden_layers
    layers = [0, n_layers - 1]
    ref = {"layers": layers, "n_layers": n_layers, "tokens": [], "cases": []}
    for text in TOKEN_TEXTS:
        ids = tok(text)["input_ids"]
        ref["tokens"].append({"text": text, "ids": ids, "tokens": tok.convert_ids_to_tokens(ids)})
    with torch.no_grad():
        # Two texts keep the fixture small: 12 heads of 12 layers see every token.
        for text in ATTENTION_TEXTS[:2]:
            enc = tok(text, return_tensors="pt")
            out = model(**enc, output_attentions=True)
            ref["cases"].append({
                "text": text,
                "ids": enc["input_ids"][0].tolist(),
                "attention": [[rounded(h) for h in out.attentions[l][0].tolist()] for l in layers],
                "top_next_id": None,
            })
            if text == ATTENTION_TEXTS[0]:
                ref["last_rows"] = last_rows(out.attentions)
    return ref


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    todo = {name: (lambda n=name, f=file: decoder_reference(n, f)) for name, file in GGUFS.items()}
    todo["all-mpnet-base-v2"] = mpnet_reference
    wanted = sys.argv[1:] or list(todo)
    for name, make in todo.items():
        if name not in wanted:
            continue
        if not (EXTRA / name).is_dir():
            print(f"{name}: not in models-extra/ (scripts/fetch_models.py --extra), skipped")
            continue
        ref = make()
        path = OUT / f"{name}.json"
        path.write_text(json.dumps(ref, ensure_ascii=False, separators=(",", ":")))
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
