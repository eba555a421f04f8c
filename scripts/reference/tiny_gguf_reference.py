#!/usr/bin/env python3
"""GGUF files of the tiny Qwen2 checkpoint (tests/fixtures/tiny/qwen2, made by
tiny_reference.py), written with the `gguf` package as llama.cpp lays them
out: F32, and Q8_0 for every matrix. Its tokenizer is stored the GGUF way
(tokens, token types, merges, `tokenizer.ggml.pre = qwen2`), so the app
builds it from the file's own vocabulary.

The reference is transformers loading the very same GGUF (`gguf_file=`,
dequantized to float32, its tokenizer rebuilt from the metadata), eager
attention: tests/tiny/reference.rs compares the Rust model with it.

Run: /work/venv/bin/python scripts/reference/tiny_gguf_reference.py
(after tiny_reference.py; needs gguf, accelerate, torch, transformers).
"""
import json
from pathlib import Path

import gguf
import numpy as np
import torch
import transformers
from safetensors.torch import load_file
from transformers import AutoModelForCausalLM, AutoTokenizer

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "fixtures" / "tiny"
DECIMALS = 7
TEXTS = [
    "Unbelievably, the fluffy creature's queries attend elsewhere!",
    "Привет, 世界: tokens 🐟 and weights 2024.",
]


def hf_to_gguf_name(name):
    """Qwen2's Hugging Face tensor names as llama.cpp's converter writes them."""
    name = name.removeprefix("model.")
    fixed = {"embed_tokens.weight": "token_embd.weight", "norm.weight": "output_norm.weight", "lm_head.weight": "output.weight"}
    if name in fixed:
        return fixed[name]
    parts = name.split(".")  # layers.N.<module>.<proj>.<weight|bias>
    block, rest = parts[1], ".".join(parts[2:])
    table = {
        "input_layernorm.weight": "attn_norm.weight",
        "post_attention_layernorm.weight": "ffn_norm.weight",
        "self_attn.q_proj.weight": "attn_q.weight",
        "self_attn.q_proj.bias": "attn_q.bias",
        "self_attn.k_proj.weight": "attn_k.weight",
        "self_attn.k_proj.bias": "attn_k.bias",
        "self_attn.v_proj.weight": "attn_v.weight",
        "self_attn.v_proj.bias": "attn_v.bias",
        "self_attn.o_proj.weight": "attn_output.weight",
        "mlp.gate_proj.weight": "ffn_gate.weight",
        "mlp.up_proj.weight": "ffn_up.weight",
        "mlp.down_proj.weight": "ffn_down.weight",
    }
    return f"blk.{block}.{table[rest]}"


def write_qwen2(folder, path, qtype):
    config = json.loads((folder / "config.json").read_text())
    tok = json.loads((folder / "tokenizer.json").read_text())
    w = gguf.GGUFWriter(str(path), "qwen2")
    w.add_name(f"tiny qwen2 {qtype.name}")
    w.add_context_length(config["max_position_embeddings"])
    w.add_embedding_length(config["hidden_size"])
    w.add_block_count(config["num_hidden_layers"])
    w.add_feed_forward_length(config["intermediate_size"])
    w.add_head_count(config["num_attention_heads"])
    w.add_head_count_kv(config["num_key_value_heads"])
    rope = config.get("rope_parameters") or {}
    w.add_rope_freq_base(float(rope.get("rope_theta", config.get("rope_theta", 1e6))))
    w.add_layer_norm_rms_eps(config["rms_norm_eps"])
    vocab = tok["model"]["vocab"]
    tokens = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
    specials = {a["content"] for a in tok["added_tokens"]}
    merges = [m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]]
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("qwen2")
    w.add_token_list(tokens)
    w.add_token_types([gguf.TokenType.CONTROL if t in specials else gguf.TokenType.NORMAL for t in tokens])
    w.add_token_merges(merges)
    w.add_bos_token_id(vocab["<|endoftext|>"])
    w.add_eos_token_id(vocab["<|endoftext|>"])
    w.add_add_bos_token(False)
    for name, value in load_file(str(folder / "model.safetensors")).items():
        value = value.to(torch.float32).numpy()
        if value.ndim == 2 and qtype != gguf.GGMLQuantizationType.F32:
            w.add_tensor(hf_to_gguf_name(name), gguf.quants.quantize(value, qtype), raw_dtype=qtype)
        else:
            w.add_tensor(hf_to_gguf_name(name), value)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def reference(path):
    tok = AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    model = AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name, dtype=torch.float32, attn_implementation="eager")
    model.eval()
    cases = []
    for text in TEXTS:
        enc = tok(text, add_special_tokens=True)
        ids = torch.tensor([enc["input_ids"]])
        with torch.no_grad():
            out = model(input_ids=ids, output_attentions=True)
        cases.append(
            {
                "text": text,
                "tokens": tok.convert_ids_to_tokens(enc["input_ids"]),
                "ids": enc["input_ids"],
                "attention": [[[[round(x, DECIMALS) for x in row] for row in head] for head in layer[0].tolist()] for layer in out.attentions],
                "top_next_id": int(out.logits[0, -1].argmax()),
            }
        )
    return {"transformers": transformers.__version__, "torch": torch.__version__, "cases": cases}


def main():
    out = TINY / "gguf"
    out.mkdir(exist_ok=True)
    for qtype in [gguf.GGMLQuantizationType.F32, gguf.GGMLQuantizationType.Q8_0]:
        path = out / f"qwen2-{qtype.name.lower()}.gguf"
        write_qwen2(TINY / "qwen2", path, qtype)
        ref = reference(path)
        (out / f"qwen2-{qtype.name.lower()}.json").write_text(json.dumps(ref, ensure_ascii=False, separators=(",", ":")))
        print(f"{path.name}: {path.stat().st_size / 1024:.0f} KiB, tokens {[len(c['ids']) for c in ref['cases']]}")


if __name__ == "__main__":
    main()
