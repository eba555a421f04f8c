#!/usr/bin/env python3
"""How long attnscope.trace takes to write a trace of SmolLM2-135M (or, with
`qwen`, Qwen2.5 0.5B from models-extra/) on this CPU (transformers on the
GGUF, float32, eager attention), against its peer: the same model's forward
with output_attentions=True and nothing written.
Reports; never passes or fails. Needs torch, transformers and gguf:
    /work/venv/bin/python scripts/reference/tracefile_bench.py [threads] [smollm2|qwen]
"""
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tracefile_smollm2 import load  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python" / "src"))
import attnscope  # noqa: E402

REPEATS = 5
WORDS = "Researchers explore attention where their models already run, in notebooks on laptops and on large machines alike. "


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def text_of(tok, n: int) -> str:
    """A text of exactly n tokens."""
    ids = tok((WORDS * (n // 8 + 1)), add_special_tokens=False)["input_ids"][:n]
    text = tok.decode(ids)
    assert len(tok(text)["input_ids"]) == n, n
    return text


def median_seconds(run) -> float:
    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def load_qwen():
    """Qwen2.5 0.5B's tokenizer and model from its GGUF (scripts/fetch_models.py --extra)."""
    folder = Path(__file__).resolve().parents[2] / "models-extra" / "qwen2.5-0.5b"
    ggufs = sorted(folder.glob("*.gguf"))
    if not ggufs:
        sys.exit(f"no GGUF in {folder}: run python3 scripts/fetch_models.py --extra")
    tok = AutoTokenizer.from_pretrained(folder, gguf_file=ggufs[0].name)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=ggufs[0].name, dtype=torch.float32, attn_implementation="eager")
    return tok, model.eval()


def main():
    if len(sys.argv) > 1:
        torch.set_num_threads(int(sys.argv[1]))
    tok, model = load_qwen() if sys.argv[2:3] == ["qwen"] else load()
    print(f"model: {model.config.model_type}, {model.config.num_hidden_layers} layers × {model.config.num_attention_heads} heads")
    print(f"CPU: {cpu_model()}, torch threads: {torch.get_num_threads()}, torch {torch.__version__}")
    print(f"{'tokens':>6} {'forward':>10} {'trace f16':>10} {'ratio':>6} {'+ Q, K':>10} {'ratio':>6} {'file f16':>10} {'+ Q, K':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.safetensors"
        for n in (16, 128, 512):
            text = text_of(tok, n)
            ids = tok(text, return_tensors="pt")["input_ids"]

            def forward():
                with torch.inference_mode():
                    model(input_ids=ids, output_attentions=True, use_cache=False)

            forward()  # warm up
            peer = median_seconds(forward)
            plain = median_seconds(lambda: attnscope.trace(model, tok, text, path))
            plain_size = path.stat().st_size
            qk = median_seconds(lambda: attnscope.trace(model, tok, text, path, queries_keys=True))
            qk_size = path.stat().st_size
            print(f"{n:>6} {peer * 1e3:>8.0f}ms {plain * 1e3:>8.0f}ms {plain / peer:>6.2f} {qk * 1e3:>8.0f}ms {qk / peer:>6.2f} "
                  f"{plain_size / 1e6:>8.1f}MB {qk_size / 1e6:>8.1f}MB")


if __name__ == "__main__":
    main()
