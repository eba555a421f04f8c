#!/usr/bin/env python3
"""Time SmolLM2-135M's forward in PyTorch natively on this CPU: the peer of
attnscope's SmolLM2 figure in issue #31 (a report; nothing passes or fails).

transformers loads the very GGUF file the page loads
(www/models/smollm2/SmolLM2-135M-Instruct.Q4_1.gguf), dequantized to float32,
with eager attention; the forward is `model(input_ids, output_attentions=True)`
under torch.inference_mode() on a 16-token text (the one tests/e2e/bench.mjs
times in the browser, no special tokens, as attnscope reads it), on 1 and on
2 threads (torch.set_num_threads). Each thread count gets WARMUP forwards not
counted, then ROUNDS timed; the median and the fastest are printed in ms
with the CPU model and clock, and the medians as JSON on the last line.

Run from the repository root (scripts/bench.sh peers does):

    .tools/bench-venv/bin/python scripts/reference/smollm2_torch_timing.py [THREADS ...]

THREADS defaults to 1 2. Env: ROUNDS (default 15), WARMUP (default 5), TOKENS
(default 16; 2048 times the long paste scripts/bench.sh long times).
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TQDM_DISABLE", "1")  # the GGUF loader's progress bar

import torch  # noqa: E402
import transformers  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = ROOT / "www" / "models" / "smollm2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
# tests/e2e/bench.mjs's SIXTEEN_SMOLLM2: 16 tokens for SmolLM2; or, with
# TOKENS=2048 (scripts/bench.sh long), the long paste of tests/long_texts.rs
# cut at 2,048 tokens, as attnscope cuts it.
TEXT = "the quick brown fox jumps over the lazy dog while the cat sleeps nearby today"
TOKENS = int(os.environ.get("TOKENS", 16))


def long_text(sentences: int) -> str:
    """tests/long_texts.rs's long_text: sentences that do not repeat exactly."""
    subjects = ["The old lighthouse keeper", "A fluffy blue creature", "Her younger brother", "The committee",
                "Nobody in the village"]
    verbs = ["watched", "remembered", "painted", "argued about", "carried"]
    objects = ["the verdant forest", "a letter from Lisbon", "the broken clock", "seven red apples",
               "the storm over the harbour"]
    return " ".join(f"{subjects[i % 5]} {verbs[(i // 5) % 5]} {objects[(i * 3 + 1) % 5]} on day {i + 1}."
                    for i in range(sentences))
ROUNDS = int(os.environ.get("ROUNDS", 15))
WARMUP = int(os.environ.get("WARMUP", 5))


def cpu() -> str:
    """The CPU's model (lscpu, else /proc/cpuinfo) and its current clock."""
    model, mhz = None, []
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name") and not model:
            model = line.split(":", 1)[1].strip()
        if line.startswith("cpu MHz"):
            mhz.append(float(line.split(":", 1)[1]))
    clock = f"{statistics.mean(mhz):.0f} MHz" if mhz else "clock unknown"
    return f"{model or platform.processor() or 'unknown CPU'}, {os.cpu_count()} logical CPUs, {clock}"


def machine_ticks() -> tuple[int, int]:
    """The machine's busy and total CPU time over every core, in clock ticks (/proc/stat)."""
    f = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = f
    return user + nice + system + irq + softirq + steal, sum(f)


def others_share(before, after) -> float:
    """The share of the machine's CPU that other processes took between two
    (machine_ticks(), process_time()) readings: a build running beside the
    benchmark shows up here."""
    (busy0, all0), own0 = before
    (busy1, all1), own1 = after
    own = (own1 - own0) * os.sysconf("SC_CLK_TCK")
    return max(0.0, (busy1 - busy0 - own) / max(1, all1 - all0))


def main() -> None:
    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    threads = [int(t) for t in sys.argv[1:]] or [1, 2]
    if not (MODEL_DIR / GGUF).is_file():
        sys.exit(f"{MODEL_DIR / GGUF} is missing: run python3 scripts/fetch_models.py")
    tok = AutoTokenizer.from_pretrained(MODEL_DIR, gguf_file=GGUF)
    model = AutoModelForCausalLM.from_pretrained(
        MODEL_DIR, gguf_file=GGUF, dtype=torch.float32, attn_implementation="eager"
    ).eval()
    text = TEXT if TOKENS == 16 else long_text(150)
    ids = tok(text, add_special_tokens=False, return_tensors="pt")["input_ids"][:, :TOKENS]
    if ids.shape[1] != TOKENS:
        sys.exit(f"the text is {ids.shape[1]} tokens for SmolLM2, not {TOKENS}")
    print(
        f"PyTorch {torch.__version__}, transformers {transformers.__version__}: SmolLM2-135M from the Q4_1 GGUF "
        f"dequantized to float32, eager attention, {TOKENS} tokens, output_attentions=True; CPU: {cpu()}; "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    medians, fastest = {}, {}
    with torch.inference_mode():
        for n in threads:
            torch.set_num_threads(n)
            for _ in range(WARMUP):
                out = model(ids, output_attentions=True)
            assert len(out.attentions) == model.config.num_hidden_layers
            times = []
            before = (machine_ticks(), time.process_time())
            for _ in range(ROUNDS):
                t0 = time.perf_counter()
                model(ids, output_attentions=True)
                times.append((time.perf_counter() - t0) * 1000)
            busy = others_share(before, (machine_ticks(), time.process_time()))
            medians[n], fastest[n] = statistics.median(times), min(times)
            print(
                f"  SmolLM2, {TOKENS} tokens, PyTorch on {n} thread{'s' if n > 1 else ''}: "
                f"median {medians[n]:7.1f} ms   fastest {min(times):7.1f} ms   ({ROUNDS} runs after {WARMUP} warm-up; "
                f"other processes {100 * busy:.0f}% of the CPU meanwhile)"
            )
    print(json.dumps({
        f"smollm2_{TOKENS}_torch_ms": {str(n): round(ms, 2) for n, ms in medians.items()},
        f"smollm2_{TOKENS}_torch_fastest_ms": {str(n): round(ms, 2) for n, ms in fastest.items()},
    }))


if __name__ == "__main__":
    main()
