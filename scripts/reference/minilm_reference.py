#!/usr/bin/env python3
"""Write the reference numbers tests/minilm/reference.rs checks the Rust MiniLM against.

Attention weights come from Hugging Face transformers (eager attention, float32,
so that the softmax is computed the textbook way and returned); the sentence
embedding comes from sentence-transformers (Transformer → mean Pooling →
Normalize, max_seq_length 256), which is what all-MiniLM-L6-v2 users get.
Both load the very files the Rust code loads, from www/models/minilm (no hub).

Run from the repository root, after `python3 scripts/fetch_models.py`:

    HF_HUB_OFFLINE=1 /work/.venv-ref/bin/python scripts/reference/minilm_reference.py

Numbers are rounded to 7 significant digits (float32 carries about 7), which
keeps the fixtures small and far below the 1e-4 tolerance the test uses.
"""
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import sentence_transformers  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
from sentence_transformers import SentenceTransformer  # noqa: E402

try:  # sentence-transformers ≥ 6 moved the building blocks
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer
except ImportError:
    from sentence_transformers.models import Normalize, Pooling, Transformer
from transformers import AutoModel, AutoTokenizer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = ROOT / "www" / "models" / "minilm"
OUT_DIR = ROOT / "tests" / "fixtures" / "minilm"
MAX_SEQ_LENGTH = 256  # sentence-transformers' setting for all-MiniLM-L6-v2

# name -> (text, keep attentions?). Attention fixtures stay short (6·12·n² numbers);
# the others check tokenization and the embedding only.
CASES = {
    "subwords": ("a fluffy blue creature roamed the verdant forest", True),
    "punctuation": ("Hello, World! Isn't ALL attention (2017)?", True),
    "pronoun": ("The cat sat down because it was tired.", True),
    "unusual": ("Naïve café 😀 東京タワー\u0007 tab\there\u200b ZWSP – end", False),
    "long": (" ".join(["The quick brown fox jumps over the lazy dog near the riverbank."] * 30), False),
}


def sig7(x: float) -> float:
    return float(f"{x:.7g}")


def rounded(a: np.ndarray):
    if a.ndim == 0:
        return sig7(float(a))
    return [rounded(x) for x in a]


def main() -> int:
    if not (MODEL_DIR / "model.safetensors").is_file():
        print(f"missing {MODEL_DIR}/model.safetensors: run python3 scripts/fetch_models.py", file=sys.stderr)
        return 1
    torch.manual_seed(0)
    torch.set_num_threads(1)

    tokenizer = AutoTokenizer.from_pretrained(MODEL_DIR)
    model = AutoModel.from_pretrained(MODEL_DIR, attn_implementation="eager", dtype=torch.float32).eval()

    word = Transformer(str(MODEL_DIR), max_seq_length=MAX_SEQ_LENGTH)
    dim = word.get_embedding_dimension() if hasattr(word, "get_embedding_dimension") else word.get_word_embedding_dimension()
    st = SentenceTransformer(modules=[word, Pooling(dim, pooling_mode="mean"), Normalize()], device="cpu").eval()

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name, (text, keep_attention) in CASES.items():
        enc = tokenizer(text, return_tensors="pt", truncation=True, max_length=MAX_SEQ_LENGTH)
        ids = enc["input_ids"][0].tolist()
        with torch.no_grad():
            out = model(**enc, output_attentions=True)
            emb = st.encode([text], convert_to_numpy=True, normalize_embeddings=False)[0]
        # The same truncated ids must feed both paths, or the comparison is moot.
        prepare = st.preprocess if hasattr(st, "preprocess") else st.tokenize
        st_ids = prepare([text])["input_ids"][0].tolist()
        assert st_ids == ids, f"{name}: sentence-transformers tokenized differently"

        fixture = {
            "source": (
                f"transformers {transformers.__version__} (eager, float32), "
                f"sentence-transformers {sentence_transformers.__version__}, torch {torch.__version__}; "
                "scripts/reference/minilm_reference.py"
            ),
            "text": text,
            "tokens": tokenizer.convert_ids_to_tokens(ids),
            "token_ids": ids,
            "sentence_embedding": rounded(np.asarray(emb, dtype=np.float64)),
        }
        if keep_attention:
            # [layer][head][query][key]
            att = np.stack([a[0].numpy() for a in out.attentions]).astype(np.float64)
            fixture["attentions"] = rounded(att)
        path = OUT_DIR / f"{name}.json"
        path.write_text(json.dumps(fixture, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"[minilm] {path.relative_to(ROOT)}: {len(ids)} tokens, {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
