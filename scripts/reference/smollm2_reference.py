#!/usr/bin/env python3
"""Reference numbers for SmolLM2-135M, from Hugging Face transformers.

transformers loads the very GGUF file the app loads (`gguf_file=`), dequantizes
Q4_1 / Q8_0 to float32 and un-permutes attn_q / attn_k back to its own layout
(RoPE on halves, x[i] with x[i+32]). We run it with eager attention so that the
attention weights A come out, and write small JSON fixtures that
tests/smollm2/reference.rs compares the Rust model with.

Tokenizer: transformers rebuilds the tokenizer from the GGUF metadata, but for
the pre-tokenizer type "smollm" it falls back to plain GPT-2 splitting, which
keeps "2024" as one piece. SmolLM2's own tokenizer (and llama.cpp's "smollm"
pre-tokenizer) first splits every digit off, so we set that pre-tokenizer:
Sequence[Digits(individual_digits=True), ByteLevel(add_prefix_space=False)].
Both agree on text without digits (checked below on every fixture text).

Run with the reference venv:
    /work/.venv-ref/bin/python scripts/reference/smollm2_reference.py
"""
import hashlib
import json
import sys
from pathlib import Path

import torch
import transformers
from tokenizers import pre_tokenizers
from transformers import AutoModelForCausalLM, AutoTokenizer
from transformers.models.llama import modeling_llama

ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = ROOT / "www" / "models" / "smollm2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
OUT = ROOT / "tests" / "fixtures" / "smollm2"

# (fixture name, text, layers whose attention is stored: all for short texts,
# a spread for longer ones to keep the files small).
CASES = [
    ("capital", "The capital of France is", None),
    ("digits_special", "<|im_start|>user\nIn 2024, 17 cats ate 3 fish.", [0, 1, 7, 15, 22, 28, 29]),
    ("scripts_emoji", "Привет, 世界! Café 🐟 naïve", [0, 3, 14, 29]),
]
TOP_K = 5
TEMPERATURES = [1.0, 0.5]
DECIMALS = 7


def byte_decoder():
    """GPT-2's byte-level alphabet, inverted: vocabulary character -> byte."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


BYTES = byte_decoder()


def display(piece: str, special: bool) -> str:
    """How a token is shown: its text, with bytes that are not whole UTF-8
    characters on their own (a piece of an emoji) written as <0xF0>.
    Mirrors `display_token` in src/models/smollm2.rs."""
    if special:
        return piece
    raw = bytes(BYTES[ch] for ch in piece)
    out, i = [], 0
    while i < len(raw):
        for width in (1, 2, 3, 4):
            try:
                out.append(raw[i : i + width].decode("utf-8"))
                i += width
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(f"<0x{raw[i]:02X}>")
            i += 1
    return "".join(out)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main():
    if not (MODEL_DIR / GGUF).is_file():
        sys.exit(f"{MODEL_DIR / GGUF} is missing: run python3 scripts/fetch_models.py")
    torch.manual_seed(0)
    tok = AutoTokenizer.from_pretrained(MODEL_DIR, gguf_file=GGUF)
    gpt2_split = tok.backend_tokenizer.pre_tokenizer
    smollm_split = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )
    model = AutoModelForCausalLM.from_pretrained(MODEL_DIR, gguf_file=GGUF, dtype=torch.float32, attn_implementation="eager")
    model.eval()
    special_ids = set(tok.all_special_ids)

    # Q and K after RoPE, as attention sees them: record them on their way in.
    recorded = []
    eager = modeling_llama.eager_attention_forward

    def recording(module, query, key, value, attention_mask, **kw):
        recorded.append((query.detach().clone(), key.detach().clone()))
        return eager(module, query, key, value, attention_mask, **kw)

    modeling_llama.eager_attention_forward = recording

    OUT.mkdir(parents=True, exist_ok=True)
    for name, text, layers in CASES:
        tok.backend_tokenizer.pre_tokenizer = gpt2_split
        plain_ids = tok(text, add_special_tokens=True)["input_ids"]
        tok.backend_tokenizer.pre_tokenizer = smollm_split
        ids = tok(text, add_special_tokens=True)["input_ids"]
        if not any(c.isdigit() for c in text):
            assert ids == plain_ids, (text, ids, plain_ids)
        # SmolLM2 adds no BOS token (a user may still type <|im_start|>, id 1).
        assert text.startswith(tok.bos_token) or ids[0] != tok.bos_token_id
        recorded.clear()
        with torch.no_grad():
            out = model(torch.tensor([ids]), output_attentions=True)
        assert len(recorded) == model.config.num_hidden_layers
        logits = out.logits[0, -1].double()
        pieces = tok.convert_ids_to_tokens(ids)
        layers = layers if layers is not None else list(range(model.config.num_hidden_layers))
        top = {}
        for t in TEMPERATURES:
            p = torch.softmax(logits / t, dim=-1)
            vals, idx = torch.topk(p, TOP_K)
            top[str(t)] = [
                {"id": int(i), "token": display(tok.convert_ids_to_tokens(int(i)), int(i) in special_ids), "p": round(float(v), DECIMALS)}
                for v, i in zip(vals, idx)
            ]
        q0, k0 = recorded[0]
        fixture = {
            "about": "transformers on the dequantized float32 SmolLM2-135M GGUF, eager attention; made by scripts/reference/smollm2_reference.py",
            "model": GGUF,
            "model_sha256": sha256(MODEL_DIR / GGUF),
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "text": text,
            "token_ids": ids,
            "pieces": pieces,
            "tokens": [display(p, i in special_ids) for p, i in zip(pieces, ids)],
            "gpt2_split_token_ids": plain_ids,
            "layers": layers,
            # attentions[i] is layer layers[i]: [head][query][key]
            "attentions": [[[[round(v, DECIMALS) for v in row] for row in head] for head in out.attentions[l][0].tolist()] for l in layers],
            # Layer 0, after RoPE: query head 0 and key/value head 0 (n × 64), in transformers' layout.
            "q_layer0_head0": [[round(v, 5) for v in row] for row in q0[0, 0].tolist()],
            "k_layer0_head0": [[round(v, 5) for v in row] for row in k0[0, 0].tolist()],
            "top_next": top,
        }
        path = OUT / f"{name}.json"
        path.write_text(json.dumps(fixture, ensure_ascii=False, separators=(",", ":")) + "\n")
        print(f"{path.relative_to(ROOT)}: {len(ids)} tokens {fixture['tokens']}, top next {top['1.0'][:2]}")


if __name__ == "__main__":
    main()
