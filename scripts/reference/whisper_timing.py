#!/usr/bin/env python3
"""Time Whisper tiny.en in CTranslate2 natively on this CPU, one thread,
float32: the peer of attnscope's `cargo bench --bench transcribe` (issue 57;
a report, nothing passes or fails).

The clip is the benchmark's: tests/fixtures/whisper/fox.wav then
attention.wav, cut at 5 s. The spectrogram is transformers'
WhisperFeatureExtractor (numpy; CTranslate2 takes a spectrogram, it does not
make one). CTranslate2 loads www/models/whisper-tiny-en with
compute_type="float32", intra_threads=1, and

- `encode`: the encoder, once (its output is given to the two others, as
  attnscope encodes once);
- `generate`: greedy from <|startoftranscript|><|notimestamps|> with the
  blank suppressed at the start, as attnscope decodes;
- `align`: the alignment heads' cross-attention, median-filtered and warped
  into the tokens' times (its word timing), which attnscope's path also
  computes.

The peer's figure for "a clip to its transcript" is the spectrogram, encode
and generate; with its attention (the words' times) align is added.

Each is run WARMUP times not counted, then ROUNDS timed; medians in
milliseconds with the CPU model, and as JSON on the last line.

Run from the repository root (scripts/bench.sh speech does, after
installing CTranslate2 into the bench venv):

    .tools/bench-venv/bin/python scripts/reference/whisper_timing.py

Env: ROUNDS (default 5), WARMUP (default 1).
"""
import json
import os
import statistics
import sys
import time
import wave
from pathlib import Path

import numpy as np
import ctranslate2
from tokenizers import Tokenizer
from transformers import WhisperFeatureExtractor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from smollm2_torch_timing import cpu  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "www" / "models" / "whisper-tiny-en"
FIXTURES = ROOT / "tests" / "fixtures" / "whisper"
SAMPLES = 80_000
ROUNDS = int(os.environ.get("ROUNDS", 5))
WARMUP = int(os.environ.get("WARMUP", 1))


def read_wav(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0


def median_ms(f) -> float:
    for _ in range(WARMUP):
        f()
    times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        f()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main() -> None:
    if not (MODEL / "model.bin").exists():
        sys.exit(f"{MODEL / 'model.bin'} is absent: run scripts/fetch_models.py --extra first")
    audio = np.concatenate([read_wav(FIXTURES / "fox.wav"), read_wav(FIXTURES / "attention.wav")])[:SAMPLES]
    fe = WhisperFeatureExtractor(feature_size=80, sampling_rate=16000, hop_length=160, chunk_length=30, n_fft=400)
    tok = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    prompt = [tok.token_to_id("<|startoftranscript|>"), tok.token_to_id("<|notimestamps|>")]
    model = ctranslate2.models.Whisper(str(MODEL), device="cpu", compute_type="float32",
                                       inter_threads=1, intra_threads=1)

    def features():
        return ctranslate2.StorageView.from_array(fe(audio, sampling_rate=16000, return_tensors="np").input_features)

    mel = features()

    def encode():
        return model.encode(mel)

    encoded = encode()

    def generate():
        return model.generate(encoded, [prompt], beam_size=1, max_length=224, suppress_blank=True)[0].sequences_ids[0]

    tokens = generate()

    def align():
        return model.align(encoded, [prompt[0]], [tokens], len(audio) // 160, median_filter_width=7)

    mel_ms, encode_ms = median_ms(features), median_ms(encode)
    generate_ms, align_ms = median_ms(generate), median_ms(align)
    transcript = mel_ms + encode_ms + generate_ms
    print(f"CTranslate2 {ctranslate2.__version__}, one thread, float32, Whisper tiny.en, CPU: {cpu()}")
    print(f"  spectrogram (transformers, numpy) {mel_ms:7.1f} ms")
    print(f"  encode                            {encode_ms:7.1f} ms")
    print(f"  generate (greedy)                 {generate_ms:7.1f} ms  text: {tok.decode(tokens)!r} ({len(tokens)} tokens)")
    print(f"  align (alignment heads, DTW)      {align_ms:7.1f} ms")
    print(f"  transcript: {transcript:.1f} ms; with the words' times: {transcript + align_ms:.1f} ms")
    print(json.dumps({"ct2_transcript_5s_ms": round(transcript, 1),
                      "ct2_with_times_5s_ms": round(transcript + align_ms, 1)}))


if __name__ == "__main__":
    main()
