#!/usr/bin/env python3
"""Reference numbers for the analyses of src/analysis/ (issue #28), from
Hugging Face transformers in PyTorch, float32, eager attention, on the real
all-MiniLM-L6-v2 and SmolLM2-135M files in www/models/.

Each quantity is computed here on its own, from transformers' modules:
- value-weighted attention (Kobayashi et al. 2020): a_ij · ‖(x_j W_V^h + b_V^h) W_O^h‖;
- attention rollout (Abnar & Zuidema 2020): Ā_l = ½ mean_h A_l + ½ I, rows
  renormalized, R_l = Ā_l · R_{l-1};
- logit lens (SmolLM2): each decoder layer's output (a forward hook),
  through model.norm and lm_head;
- head knockout: a forward pre-hook on the attention's output projection
  (BERT's attention.output.dense, Llama's o_proj) that zeroes the head's
  slice of its input, or replaces it with its mean over positions;
- head detectors on random tokens repeated twice (Olsson et al. 2022).

Writes tests/fixtures/analysis/{minilm,smollm2}_<name>.json, checked by
tests/analysis_reference/main.rs. Run:
    /work/venv/bin/python scripts/reference/analysis_reference.py
"""
import json
import sys
from pathlib import Path

import torch
import transformers
from tokenizers import pre_tokenizers
from transformers import AutoModel, AutoModelForCausalLM, AutoTokenizer

ROOT = Path(__file__).resolve().parents[2]
MINILM = ROOT / "www" / "models" / "minilm"
SMOLLM2 = ROOT / "www" / "models" / "smollm2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
OUT = ROOT / "tests" / "fixtures" / "analysis"
DIGITS = 6

MINILM_CASES = [
    ("animal", "The animal didn't cross the street because it was tired"),
    ("creature", "a fluffy blue creature roamed the verdant forest"),
]
SMOLLM2_CASES = [
    ("capital", "The capital of France is"),
    ("cat", "The cat sat on the mat and the dog sat on the"),
]
# Heads knocked out together, (layer, head).
MINILM_KNOCKOUTS = [[[0, 3]], [[2, 5], [4, 1], [5, 11]]]
SMOLLM2_KNOCKOUTS = [[[0, 3]], [[3, 1], [9, 4], [20, 8]]]
SMOLLM2_VALUE_LAYERS = [0, 1, 15, 29]
PERIOD = 8  # random tokens per copy in the detector prompt
TOP_K = 5


def r(x):
    """Rounds nested lists of numbers to DIGITS decimals."""
    if isinstance(x, list):
        return [r(v) for v in x]
    return round(float(x), DIGITS)


def rollout(attentions):
    """Per layer R_l, in float64."""
    out, prod = [], None
    for a in attentions:
        a = a[0].double().mean(0)
        n = a.shape[0]
        bar = 0.5 * a + 0.5 * torch.eye(n, dtype=torch.float64)
        bar = bar / bar.sum(-1, keepdim=True)
        prod = bar if prod is None else bar @ prod
        out.append(prod)
    return out


class Knockout:
    """Forward pre-hooks on each layer's output projection that edit the
    heads' concatenated outputs before W_O."""

    def __init__(self, projections, d_head):
        self.heads, self.mode = [], "zero"
        self.d = d_head
        for l, proj in enumerate(projections):
            proj.register_forward_pre_hook(self.hook(l))

    def hook(self, l):
        def edit(module, args):
            heads = [h for (ll, h) in self.heads if ll == l]
            if not heads:
                return None
            z = args[0].clone()
            for h in heads:
                s = slice(h * self.d, (h + 1) * self.d)
                if self.mode == "zero":
                    z[..., s] = 0.0
                else:
                    z[..., s] = z[..., s].mean(dim=1, keepdim=True)
            return (z,) + tuple(args[1:])

        return edit

    def set(self, heads, mode="zero"):
        self.heads, self.mode = [tuple(h) for h in heads], mode


def detector_scores(attentions, prefix, period):
    """layers × heads: induction, duplicate-token, previous-token, first-token."""
    out = {"induction": [], "duplicate_token": [], "previous_token": [], "first_token": []}
    for a in attentions:
        a = a[0].double()  # heads × n × n
        n = a.shape[-1]
        t = torch.arange(period)
        second = prefix + period + t
        out["induction"].append(a[:, second, prefix + t + 1].mean(-1).tolist())
        out["duplicate_token"].append(a[:, second, prefix + t].mean(-1).tolist())
        i = torch.arange(1, n)
        out["previous_token"].append(a[:, i, i - 1].mean(-1).tolist())
        out["first_token"].append(a[:, :, 0].mean(-1).tolist())
    return {k: r(v) for k, v in out.items()}


def value_norms(attentions, values, w_o, n_heads, layers):
    """[layer][head][i][j] = a_ij ‖f(x_j)‖, f(x_j) = v_j W_O^h (v_j with its bias)."""
    out = []
    for l in layers:
        a = attentions[l][0].double()
        v = values[l][0].double()
        w = w_o[l].double()
        d = w.shape[1] // n_heads
        group = n_heads // (v.shape[-1] // d)
        heads = []
        for h in range(n_heads):
            kv = h // group
            f = v[:, kv * d : (kv + 1) * d] @ w[:, h * d : (h + 1) * d].T  # n × d_model
            heads.append((a[h] * f.norm(dim=-1)[None, :]).tolist())
        out.append(heads)
    return r(out)


def top(probs, tok, k=TOP_K):
    vals, idx = torch.topk(probs, k)
    return [{"id": int(i), "p": round(float(p), DIGITS)} for p, i in zip(vals, idx)]


def random_ids(seed, low, high):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(low, high, (PERIOD,), generator=g).tolist()


def minilm():
    tok = AutoTokenizer.from_pretrained(MINILM)
    model = AutoModel.from_pretrained(MINILM, dtype=torch.float32, attn_implementation="eager").eval()
    cfg = model.config
    d_head = cfg.hidden_size // cfg.num_attention_heads
    layers = model.encoder.layer
    ko = Knockout([l.attention.output.dense for l in layers], d_head)
    values = [None] * len(layers)
    for i, l in enumerate(layers):
        l.attention.self.value.register_forward_hook(lambda m, a, o, i=i: values.__setitem__(i, o.detach()))
    w_o = [l.attention.output.dense.weight.detach() for l in layers]

    def run(ids, heads=(), mode="zero"):
        ko.set(heads, mode)
        with torch.no_grad():
            out = model(torch.tensor([ids]), output_attentions=True)
        e = out.last_hidden_state[0].double().mean(0)
        return out, e / e.norm()

    for name, text in MINILM_CASES:
        ids = tok(text)["input_ids"]
        out, emb = run(ids)
        att = out.attentions
        knockouts = []
        for heads in MINILM_KNOCKOUTS:
            for mode in ("zero", "mean"):
                _, e2 = run(ids, heads, mode)
                knockouts.append({"heads": heads, "mode": mode, "cosine": round(float(emb @ e2), DIGITS)})
        importance = [[round(1.0 - float(emb @ run(ids, [[l, h]])[1]), DIGITS) for h in range(cfg.num_attention_heads)] for l in range(len(layers))]
        run(ids)
        fixture = {
            "about": f"all-MiniLM-L6-v2 in transformers {transformers.__version__}, torch {torch.__version__}, float32, eager; scripts/reference/analysis_reference.py",
            "text": text,
            "token_ids": ids,
            "value_norm_layers": list(range(len(layers))),
            "value_norms": value_norms(att, values, w_o, cfg.num_attention_heads, range(len(layers))),
            "rollout": r([m.tolist() for m in rollout(att)]),
            "knockouts": knockouts,
            "importance_zero": importance,
        }
        write(f"minilm_{name}", fixture)

    det_ids = [tok.cls_token_id] + random_ids(1, 1000, cfg.vocab_size) * 2 + [tok.sep_token_id]
    out, _ = run(det_ids)
    write("minilm_detectors", {"token_ids": det_ids, "prefix": 1, "period": PERIOD, **detector_scores(out.attentions, 1, PERIOD)})


def smollm2_files():
    """SmolLM2's tokenizer and model (the GGUF dequantized, float32, eager attention)."""
    tok = AutoTokenizer.from_pretrained(SMOLLM2, gguf_file=GGUF)
    # SmolLM2 splits digits off first (see smollm2_reference.py); fixture texts have none anyway.
    tok.backend_tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )
    model = AutoModelForCausalLM.from_pretrained(SMOLLM2, gguf_file=GGUF, dtype=torch.float32, attn_implementation="eager").eval()
    return tok, model


def smollm2():
    tok, model = smollm2_files()
    cfg = model.config
    d_head = cfg.hidden_size // cfg.num_attention_heads
    layers = model.model.layers
    ko = Knockout([l.self_attn.o_proj for l in layers], d_head)
    values, outputs = [None] * len(layers), [None] * len(layers)
    for i, l in enumerate(layers):
        l.self_attn.v_proj.register_forward_hook(lambda m, a, o, i=i: values.__setitem__(i, o.detach()))
        l.register_forward_hook(lambda m, a, o, i=i: outputs.__setitem__(i, (o[0] if isinstance(o, tuple) else o).detach()))
    w_o = [l.self_attn.o_proj.weight.detach() for l in layers]

    def run(ids, heads=(), mode="zero"):
        ko.set(heads, mode)
        with torch.no_grad():
            out = model(torch.tensor([ids]), output_attentions=True)
        return out, torch.softmax(out.logits[0, -1].double(), -1)

    for name, text in SMOLLM2_CASES:
        ids = tok(text)["input_ids"]
        out, p = run(ids)
        att = out.attentions
        top_id = int(p.argmax())
        knockouts = []
        for heads in SMOLLM2_KNOCKOUTS:
            for mode in ("zero", "mean"):
                _, p2 = run(ids, heads, mode)
                rank = int((p2 > p2[top_id]).sum())
                knockouts.append({"heads": heads, "mode": mode, "top": top(p2, tok), "previous_top_p": round(float(p2[top_id]), DIGITS), "previous_top_rank": rank})
        importance = [[round(float(p[top_id] - run(ids, [[l, h]])[1][top_id]), DIGITS) for h in range(cfg.num_attention_heads)] for l in range(len(layers))]
        out, p = run(ids)
        with torch.no_grad():
            lens = [torch.softmax(model.lm_head(model.model.norm(h))[0].double(), -1) for h in outputs]
        fixture = {
            "about": f"SmolLM2-135M GGUF dequantized in transformers {transformers.__version__}, torch {torch.__version__}, float32, eager; scripts/reference/analysis_reference.py",
            "text": text,
            "token_ids": ids,
            "top": top(p, tok),
            "value_norm_layers": SMOLLM2_VALUE_LAYERS,
            "value_norms": value_norms(att, values, w_o, cfg.num_attention_heads, SMOLLM2_VALUE_LAYERS),
            "rollout": r([m.tolist() for m in rollout(att)]),
            # logit lens at the last position: per layer, the top tokens
            "lens_last": [top(q[-1], tok) for q in lens],
            # per layer, per position: the top token's id
            "lens_grid": [[int(i) for i in q.argmax(-1)] for q in lens],
            "knockouts": knockouts,
            "importance_zero": importance,
        }
        write(f"smollm2_{name}", fixture)

    det_ids = random_ids(1, 1000, cfg.vocab_size) * 2
    out, _ = run(det_ids)
    write("smollm2_detectors", {"token_ids": det_ids, "prefix": 0, "period": PERIOD, **detector_scores(out.attentions, 0, PERIOD)})


def write(name, fixture, out=OUT):
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}.json"
    path.write_text(json.dumps(fixture, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")


def require_models():
    for d in (MINILM, SMOLLM2):
        if not d.is_dir():
            sys.exit(f"{d} is missing: run python3 scripts/fetch_models.py")


if __name__ == "__main__":
    require_models()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    minilm()
    smollm2()
