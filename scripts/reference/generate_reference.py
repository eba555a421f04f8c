#!/usr/bin/env python3
"""Reference generations for SmolLM2-135M, from Hugging Face transformers:
greedy decoding, token by token, with each new token's attention row.

transformers loads the very GGUF file the app loads (`gguf_file=`),
dequantized to float32, with eager attention (as scripts/reference/
smollm2_reference.py does; see there for the tokenizer's digit splitting,
set the same way here). For each prompt the loop is greedy decoding with a
key/value cache, as `model.generate(do_sample=False)` runs it:

    logits = model(prompt)                      the prompt at once
    repeat N times:
        chosen = argmax(logits)                 recorded: id, token, gap
        logits, A = model(chosen | cache)       A: the new token's row

Each step records the chosen id and token, the gap between the two largest
logits (a small gap means the order of sums may decide the token) and the
chosen token's attention row in every layer and head, computed at that very
step (the forward of the one new token on top of the cache). The tokens are
checked against `model.generate(max_new_tokens=N, do_sample=False)`.

The rows are stored as base64 of little-endian float32, [layer][head][key]
(key = 0 .. position of the token, inclusive), to keep the files small.
tests/smollm2/generate.rs compares the Rust generation with these files.

Run from the repository root with the benchmark venv:
    .tools/bench-venv/bin/python scripts/reference/generate_reference.py
"""
import base64
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TQDM_DISABLE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
from tokenizers import pre_tokenizers  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402

# The model's file, the fixtures' folder, how a token is shown and the
# file's checksum are the ones the reading reference uses.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from smollm2_reference import GGUF, MODEL_DIR, OUT, ROOT, sha256  # noqa: E402
from smollm2_reference import display as shown  # noqa: E402

# (fixture name, prompt, tokens to write).
CASES = [
    ("generate_capital", "The capital of France is", 20),
    ("generate_story", "Once upon a time, there was a", 20),
    ("generate_code", "x = 3 * 4\nprint(x)", 16),
]


def rows_base64(attentions) -> str:
    """The new token's row of every layer and head, [layer][head][key], as
    base64 of little-endian float32."""
    rows = np.stack([a[0, :, -1, :].float().numpy() for a in attentions])
    return base64.b64encode(rows.astype("<f4").tobytes()).decode("ascii")


def main():
    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    if not (MODEL_DIR / GGUF).is_file():
        sys.exit(f"{MODEL_DIR / GGUF} is missing: run python3 scripts/fetch_models.py")
    tok = AutoTokenizer.from_pretrained(MODEL_DIR, gguf_file=GGUF)
    tok.backend_tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )
    model = AutoModelForCausalLM.from_pretrained(
        MODEL_DIR, gguf_file=GGUF, dtype=torch.float32, attn_implementation="eager"
    ).eval()
    special = set(tok.all_special_ids)
    cfg = model.config
    ends = {i for i in [cfg.eos_token_id, tok.eos_token_id] if i is not None}

    for name, prompt, n in CASES:
        ids = tok(prompt, add_special_tokens=True)["input_ids"]
        steps = []
        with torch.inference_mode():
            out = model(torch.tensor([ids]), use_cache=True)
            cache, logits = out.cache, out.logits[0, -1]
            for step in range(n):
                top = torch.topk(logits, 2)
                chosen = int(top.indices[0])
                gap = float(top.values[0]) - float(top.values[1])
                p = float(torch.softmax(logits.double(), dim=-1)[chosen])
                out = model(torch.tensor([[chosen]]), cache=cache, use_cache=True, output_attentions=True)
                cache, logits = out.cache, out.logits[0, -1]
                assert len(out.attentions) == cfg.num_hidden_layers
                assert out.attentions[0].shape[-1] == len(ids) + step + 1
                piece = tok.convert_ids_to_tokens(chosen)
                steps.append({
                    "step": step,
                    "id": chosen,
                    "token": shown(piece, chosen in special),
                    "p": round(p, 7),
                    "gap": round(gap, 6),
                    "second": int(top.indices[1]),
                    "attention": rows_base64(out.attentions),
                })
                if chosen in ends:
                    break
            written = [s["id"] for s in steps]
            theirs = model.generate(
                torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                max_new_tokens=len(written), do_sample=False, pad_token_id=tok.eos_token_id,
            )[0, len(ids):].tolist()
        assert theirs == written, f"{name}: model.generate wrote {theirs}, the loop {written}"
        fixture = {
            "about": "greedy decoding in transformers on the dequantized float32 SmolLM2-135M GGUF, eager attention, "
            "with a key/value cache; made by scripts/reference/generate_reference.py. steps[s].attention: base64 of "
            "little-endian float32 [layer][head][key], the row of the token chosen at step s, computed at step s",
            "model": GGUF,
            "model_sha256": sha256(MODEL_DIR / GGUF),
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "prompt": prompt,
            "prompt_ids": ids,
            "n_layers": cfg.num_hidden_layers,
            "n_heads": cfg.num_attention_heads,
            "text": tok.decode(ids + written, skip_special_tokens=True),
            "steps": steps,
        }
        path = OUT / f"{name}.json"
        path.write_text(json.dumps(fixture, ensure_ascii=False, separators=(",", ":")) + "\n")
        small = min(s["gap"] for s in steps)
        print(
            f"{path.relative_to(ROOT)}: {len(ids)} + {len(steps)} tokens, {path.stat().st_size / 1e3:.0f} kB, "
            f"smallest gap {small:.3f}: {fixture['text']!r}"
        )


if __name__ == "__main__":
    main()
