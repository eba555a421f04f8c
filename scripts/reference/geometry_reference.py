#!/usr/bin/env python3
"""Reference numbers for attention as geometry (src/analysis/geometry/, issue #59),
from Hugging Face transformers in PyTorch (float32, eager attention) and numpy
(float64), on the real all-MiniLM-L6-v2 and SmolLM2-135M files in www/models/.

Computed here on their own:
- a head's queries and keys: the outputs of the query and key projections, cut
  into heads (SmolLM2's turned by transformers' own apply_rotary_pos_emb), and
  checked against transformers' attention weights (softmax(QKᵀ/√d + M));
- their principal axes by numpy's SVD of the stacked, centred [Q; K]:
  coordinates U·S, shares S²/ΣS², with the keys as they are and moved by
  mean(Q) − mean(K);
- the distance between every two heads: the mean over query rows of the
  square root of ½KL(P‖M) + ½KL(Q‖M) in bits, M = ½(P + Q);
- classical multidimensional scaling of those distances by numpy's eigh.

Writes tests/fixtures/geometry/{minilm,smollm2}.json, checked by
tests/analysis_reference/geometry.rs. Run:
    .tools/bench-venv/bin/python scripts/reference/geometry_reference.py
"""
import sys
from pathlib import Path

import numpy as np
import torch
from transformers import AutoModel, AutoTokenizer
from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from analysis_reference import MINILM, ROOT, require_models, smollm2_files, write as write_to  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "geometry"
DIGITS = 7

MINILM_TEXT = "a fluffy blue creature roamed the verdant forest"
MINILM_HEADS = [(2, 3), (5, 11)]
SMOLLM2_TEXT = "The cat sat on the mat and the dog sat on the"
SMOLLM2_HEADS = [(5, 2), (29, 8)]


def r(x):
    return np.round(np.asarray(x, dtype=np.float64), DIGITS).tolist()


def pca(q, k):
    x = np.concatenate([q, k]).astype(np.float64)
    x -= x.mean(axis=0)
    u, s, _ = np.linalg.svd(x, full_matrices=False)
    coords = u[:, :2] * s[:2]
    n = q.shape[0]
    return {"queries": r(coords[:n]), "keys": r(coords[n:]), "explained": r(s[:2] ** 2 / (s**2).sum())}


def head_fixture(layer, head, q, k, weights):
    k = k.astype(np.float64)
    moved = k + (q.astype(np.float64).mean(axis=0) - k.mean(axis=0))
    return {
        "layer": layer,
        "head": head,
        "plain": pca(q, k),
        "translated": pca(q, moved),
        "weightiest": [int(j) for j in weights.argmax(axis=1)],
    }


def distances(attentions):
    """attentions: (heads, n, n), float64."""
    p = np.asarray(attentions, dtype=np.float64)
    count = p.shape[0]

    def kl(a, m):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(a > 0, a * np.log2(a / m), 0.0)
        return t.sum(axis=-1)

    d = np.zeros((count, count))
    for g in range(count):
        m = 0.5 * (p[g][None] + p)
        js = 0.5 * kl(p[g][None], m) + 0.5 * kl(p, m)
        d[g] = np.sqrt(np.maximum(js, 0.0)).mean(axis=-1)
    d = 0.5 * (d + d.T)
    np.fill_diagonal(d, 0.0)
    return d


def mds(d):
    n = d.shape[0]
    j = np.eye(n) - np.ones((n, n)) / n
    b = -0.5 * j @ (d**2) @ j
    values, vectors = np.linalg.eigh(b)
    order = np.argsort(values)[::-1][:2]
    return vectors[:, order] * np.sqrt(np.maximum(values[order], 0.0)), values[order]


def similar(attentions, full):
    d = distances(attentions)
    coords, values = mds(d)
    upper = [d[g, g + 1 :] for g in range(d.shape[0] - 1)]
    return {
        "distance_upper": r(np.concatenate(upper)),
        "map": r(coords) if full else None,
        "map_eigenvalues": r(values),
    }


def check_weights(q, k, scale, causal, weights):
    s = q.astype(np.float64) @ k.astype(np.float64).T * scale
    if causal:
        s = np.where(np.tril(np.ones_like(s)) > 0, s, -np.inf)
    a = np.exp(s - s.max(axis=1, keepdims=True))
    a /= a.sum(axis=1, keepdims=True)
    diff = np.abs(a - weights).max()
    assert diff < 1e-5, f"the captured Q and K do not give transformers' weights ({diff})"


def minilm():
    tok = AutoTokenizer.from_pretrained(MINILM)
    model = AutoModel.from_pretrained(MINILM, dtype=torch.float32, attn_implementation="eager").eval()
    n_heads = model.config.num_attention_heads
    d_head = model.config.hidden_size // n_heads
    got = {}
    for l, layer in enumerate(model.encoder.layer):
        sa = layer.attention.self
        sa.query.register_forward_hook(lambda m, a, o, l=l: got.__setitem__(("q", l), o.detach()[0]))
        sa.key.register_forward_hook(lambda m, a, o, l=l: got.__setitem__(("k", l), o.detach()[0]))
    ids = tok(MINILM_TEXT)["input_ids"]
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True)
    att = [a[0].double().numpy() for a in out.attentions]
    heads = []
    for l, h in MINILM_HEADS:
        q = got[("q", l)][:, h * d_head : (h + 1) * d_head].numpy()
        k = got[("k", l)][:, h * d_head : (h + 1) * d_head].numpy()
        check_weights(q, k, d_head**-0.5, False, att[l][h])
        heads.append(head_fixture(l, h, q, k, att[l][h]))
    write("minilm", {"text": MINILM_TEXT, "token_ids": ids, "heads": heads, **similar(np.concatenate(att), True)})


def smollm2():
    tok, model = smollm2_files()
    cfg = model.config
    d_head = cfg.hidden_size // cfg.num_attention_heads
    got = {}
    for l, layer in enumerate(model.model.layers):
        sa = layer.self_attn
        sa.q_proj.register_forward_hook(lambda m, a, o, l=l: got.__setitem__(("q", l), o.detach()))
        sa.k_proj.register_forward_hook(lambda m, a, o, l=l: got.__setitem__(("k", l), o.detach()))
    ids = tok(SMOLLM2_TEXT)["input_ids"]
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True)
    n = len(ids)
    positions = torch.arange(n)[None]
    att = [a[0].double().numpy() for a in out.attentions]
    heads = []
    for l, h in SMOLLM2_HEADS:
        q = got[("q", l)].view(1, n, cfg.num_attention_heads, d_head).transpose(1, 2)
        k = got[("k", l)].view(1, n, cfg.num_key_value_heads, d_head).transpose(1, 2)
        cos, sin = model.model.rotary_emb(q, positions)
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        kv = h // (cfg.num_attention_heads // cfg.num_key_value_heads)
        q, k = q[0, h].numpy(), k[0, kv].numpy()
        check_weights(q, k, d_head**-0.5, True, att[l][h])
        heads.append({**head_fixture(l, h, q, k, att[l][h]), "kv_head": kv})
    write("smollm2", {"text": SMOLLM2_TEXT, "token_ids": ids, "heads": heads, **similar(np.concatenate(att), True)})


def write(name, fixture):
    write_to(name, fixture, OUT)


if __name__ == "__main__":
    require_models()
    torch.set_num_threads(1)
    minilm()
    smollm2()
