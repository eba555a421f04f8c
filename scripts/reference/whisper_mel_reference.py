#!/usr/bin/env python3
"""Write the log-mel spectrograms tests/whisper/mel.rs checks attnscope's front end against.

The reference is transformers' WhisperFeatureExtractor (its numpy path, the
one that runs without torch) with Whisper's settings: 16 kHz, 80 mel bins,
n_fft 400, hop 160, the audio zero-padded to 30 s, reflect padding for the
centred STFT, the last frame dropped (3,000 frames), slaney mel filters,
log10 clamped to 8 below its maximum, then (x + 4) / 4.

The clips are tests/fixtures/whisper/*.wav: short sentences spoken by
espeak-ng, resampled by sox to 16 kHz mono 16-bit PCM. `--clips` makes them
again (they are committed, so the page's examples and the fixtures stay the
same whatever espeak-ng version a machine has); it needs espeak-ng and sox
(Debian: apt-get install espeak-ng sox).

The fixture keeps every value of the frames the speech covers and a few
more; beyond them the 30 s of padding is silence, whose frames the clamp
makes one value, recorded once (the script checks that they are).

Run from the repository root, in a venv with the pins below (no torch):

    python3 -m venv .tools/whisper-ref
    .tools/whisper-ref/bin/pip install numpy==2.4.6 transformers==5.24.0
    .tools/whisper-ref/bin/python scripts/reference/whisper_mel_reference.py [--clips]

It writes tests/fixtures/whisper/mel.json.
"""
import json
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np
import transformers
from transformers import WhisperFeatureExtractor

ROOT = Path(__file__).resolve().parents[2]
OUT_DIR = ROOT / "tests" / "fixtures" / "whisper"

# The clips: file name, espeak-ng voice, words per minute, text.
CLIPS = [
    ("fox.wav", "en-us", 160, "The quick brown fox jumps over the lazy dog."),
    ("attention.wav", "en", 150, "Attention is all you need."),
    ("listen.wav", "en-us+f3", 140, "Every word listens to the sound."),
]

# Frames kept whole past the last one the speech reaches: the STFT's window
# (400 samples) reaches 200 samples, not quite two frames, beyond its centre.
MARGIN = 3


def synthesize(name: str, voice: str, wpm: int, text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(wpm), "-w", str(raw), text], check=True)
        # -D: no dither, so the same espeak-ng output gives the same file.
        subprocess.run(["sox", "-D", str(raw), "-r", "16000", "-c", "1", "-b", "16", str(OUT_DIR / name)], check=True)
    print(f"{name}: {text!r}")


def read_wav(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (16000, 1, 2):
            sys.exit(f"{path.name} is not 16 kHz mono 16-bit PCM")
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    return data.astype(np.float32) / 32768.0


def main() -> None:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    if "--clips" in sys.argv[1:]:
        for clip in CLIPS:
            synthesize(*clip)
    fe = WhisperFeatureExtractor(feature_size=80, sampling_rate=16000, hop_length=160, chunk_length=30, n_fft=400)
    clips = []
    for name, _voice, _wpm, text in CLIPS:
        audio = read_wav(OUT_DIR / name)
        mel = fe(audio, sampling_rate=16000, return_tensors="np").input_features[0]
        assert mel.shape == (80, 3000), mel.shape
        # Frames from here on see only the zero padding (a frame t covers
        # samples 160 t - 200 .. 160 t + 200).
        kept = min(3000, (len(audio) + 200) // 160 + 1 + MARGIN)
        tail = mel[:, kept:]
        floor = float(mel.max() - 2.0)  # (max - 8 + 4) / 4 = max - 2 in the scaled units
        if tail.size and not np.allclose(tail, floor, atol=1e-6):
            sys.exit(f"{name}: the padding's frames are not all the clamp's floor")
        clips.append({
            "file": name,
            "text": text,
            "samples": len(audio),
            "frames": kept,
            # [mel bin][frame] for the frames 0 .. `frames`, as the model reads them.
            "mel": [[round(float(v), 5) for v in row[:kept]] for row in mel],
            "padding_value": round(floor, 6),
        })
        print(f"{name}: {len(audio)} samples, {kept} frames kept, padding {floor:.6f}")
    out = {
        "reference": f"transformers {transformers.__version__} WhisperFeatureExtractor (numpy), numpy {np.__version__}",
        "n_mels": 80,
        "n_frames": 3000,
        "clips": clips,
    }
    (OUT_DIR / "mel.json").write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {(OUT_DIR / 'mel.json').relative_to(ROOT)}")


if __name__ == "__main__":
    main()
