#!/usr/bin/env python3
"""Write the transcripts and cross-attention tests/whisper/reference.rs checks attnscope's Whisper against.

The reference is transformers' WhisperForConditionalGeneration with tiny.en's
configuration (d_model 384, 4 + 4 layers of 6 heads, 1,500 source and 448
target positions, vocabulary 51,864), eager attention, float32, holding the
weights of www/models/whisper-tiny-en/model.bin (`scripts/fetch_models.py
--extra`): CTranslate2's float16 values widened to float32 and mapped to
transformers' names, the fused matrices split (self-attention's linear_0 is
[W_Q; W_K; W_V], cross-attention's linear_1 is [W_K; W_V]; the keys' biases,
which Whisper does not have, are checked to be zeros and left out). The file
is read here with numpy, independently of attnscope's reader.

The input is the clips of tests/fixtures/whisper/*.wav through
WhisperFeatureExtractor (as in whisper_mel_reference.py). Decoding is greedy
from <|startoftranscript|><|notimestamps|>, config.json's `suppress_ids`
taken out before every choice and `suppress_ids_begin` before the first,
until <|endoftext|> or 224 tokens; each step runs the whole sequence again
(no cache), the simplest correct decoder. The cross-attention is then one run
over the whole sequence with output_attentions=True.

A second engine checks the tokens: where the venv has PyPI's `ctranslate2`
(pip install ctranslate2), CTranslate2 itself, greedy on the same features,
must write the same tokens, or the script stops (4.8.5 did, on all three clips).

The words' times follow OpenAI's whisper (`timing.py`, `find_alignment`): the
alignment heads' rows that chose each text token and <|endoftext|>, over the
first len(audio) // 320 frames and renormalised there (the softmax of the
scores over those frames), standardised over the rows, median-filtered along
the frames (width 7, transformers' `_median_filter`), averaged over the heads,
dynamic time warping of its negative (transformers' `_dynamic_time_warping`),
and a word's start and end the first frames of its first token and of the
next word's. Words are joined as whisper's `split_tokens_on_spaces` joins them.

For each token, layer and head the fixture keeps the attention over the
frames that hold speech and ten more, every 50th frame after them, and the
sum over all frames after them (a row sums to 1, so this checks the rest).

Run from the repository root with the benchmark venv (scripts/lib/install.sh
`ensure_bench_peers`: torch, transformers, numpy from PyPI):

    .tools/bench-venv/bin/python scripts/reference/whisper_reference.py

It writes tests/fixtures/whisper/transcribe.json.
"""
import json
import string
import struct
import sys
import wave
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers import WhisperConfig, WhisperFeatureExtractor, WhisperForConditionalGeneration
from tokenizers import Tokenizer
from transformers.models.whisper.generation_whisper import _dynamic_time_warping, _median_filter

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "www" / "models" / "whisper-tiny-en"
FIXTURES = ROOT / "tests" / "fixtures" / "whisper"
CLIPS = ["fox.wav", "attention.wav", "listen.wav", "listen_pause.wav"]
# listen.wav with a second of silence before and after: the clip the page's
# end-to-end test plays through Chromium's fake microphone, whose first
# moments a recording may miss (written by `pause()` below when absent).
PAUSED = ("listen.wav", "listen_pause.wav", 16000)
MAX_NEW_TOKENS = 224
# Audio frames (20 ms) kept whole past the last that holds speech, and the
# stride of the frames kept after them.
MARGIN, STRIDE = 10, 50



def pause():
    """Writes listen_pause.wav (16-bit PCM, 16 kHz mono) from listen.wav if it is absent."""
    import wave
    src, dst, pad = PAUSED
    if (FIXTURES / dst).exists():
        return
    with wave.open(str(FIXTURES / src), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16000)
        frames = w.readframes(w.getnframes())
    with wave.open(str(FIXTURES / dst), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(bytes(2 * pad) + frames + bytes(2 * pad))

def read_ct2(path: Path) -> dict:
    """CTranslate2's model.bin, binary version 6: {name: float32 or int array}, aliases resolved."""
    data = path.read_bytes()
    at = 0

    def take(fmt):
        nonlocal at
        values = struct.unpack_from("<" + fmt, data, at)
        at += struct.calcsize("<" + fmt)
        return values if len(values) > 1 else values[0]

    def string():
        nonlocal at
        n = take("H")
        s = data[at:at + n - 1].decode()
        at += n
        return s

    assert take("I") == 6, "binary version 6"
    assert string() == "WhisperSpec" and take("I") == 3
    dtypes = {0: "<f4", 1: "<i1", 2: "<i2", 3: "<i4", 4: "<f2"}
    out = {}
    for _ in range(take("I")):
        name = string()
        rank = take("B")
        shape = [take("I") for _ in range(rank)]
        dtype, size = take("B"), take("I")
        array = np.frombuffer(data, dtype=dtypes[dtype], count=size // np.dtype(dtypes[dtype]).itemsize, offset=at)
        at += size
        out[name] = array.reshape(shape).astype(np.float32) if dtype in (0, 4) else array.reshape(shape)
    for _ in range(take("I")):
        alias, name = string(), string()
        out[alias] = out[name]
    assert at == len(data)
    return out


def state_dict(ct2: dict, n_layers: int, d: int) -> dict:
    t = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    sd = {}

    def norm(dst, src):
        sd[f"{dst}.weight"], sd[f"{dst}.bias"] = t(ct2[f"{src}/gamma"]), t(ct2[f"{src}/beta"])

    def linear(dst, src, rows=None, bias=True):
        w, b = ct2[f"{src}/weight"], ct2[f"{src}/bias"]
        if rows is not None:
            w, b = w[rows], b[rows]
        sd[f"{dst}.weight"] = t(w)
        if bias:
            sd[f"{dst}.bias"] = t(b)
        else:
            assert not b.any(), f"{src}: the keys' bias should be zeros"

    q, k, v = slice(0, d), slice(d, 2 * d), slice(2 * d, 3 * d)
    for side in ("encoder", "decoder"):
        for i in range(n_layers):
            p, s = f"model.{side}.layers.{i}", f"{side}/layer_{i}"
            norm(f"{p}.self_attn_layer_norm", f"{s}/self_attention/layer_norm")
            linear(f"{p}.self_attn.q_proj", f"{s}/self_attention/linear_0", q)
            linear(f"{p}.self_attn.k_proj", f"{s}/self_attention/linear_0", k, bias=False)
            linear(f"{p}.self_attn.v_proj", f"{s}/self_attention/linear_0", v)
            linear(f"{p}.self_attn.out_proj", f"{s}/self_attention/linear_1")
            norm(f"{p}.final_layer_norm", f"{s}/ffn/layer_norm")
            linear(f"{p}.fc1", f"{s}/ffn/linear_0")
            linear(f"{p}.fc2", f"{s}/ffn/linear_1")
            if side == "decoder":
                norm(f"{p}.encoder_attn_layer_norm", f"{s}/attention/layer_norm")
                linear(f"{p}.encoder_attn.q_proj", f"{s}/attention/linear_0")
                linear(f"{p}.encoder_attn.k_proj", f"{s}/attention/linear_1", slice(0, d), bias=False)
                linear(f"{p}.encoder_attn.v_proj", f"{s}/attention/linear_1", slice(d, 2 * d))
                linear(f"{p}.encoder_attn.out_proj", f"{s}/attention/linear_2")
        norm(f"model.{side}.layer_norm", f"{side}/layer_norm")
        sd[f"model.{side}.embed_positions.weight"] = t(ct2[f"{side}/position_encodings/encodings"])
    for c in ("conv1", "conv2"):
        linear(f"model.encoder.{c}", f"encoder/{c}")
    sd["model.decoder.embed_tokens.weight"] = t(ct2["decoder/embeddings/weight"])
    sd["proj_out.weight"] = t(ct2["decoder/projection/weight"])
    return sd


def read_wav(path: Path) -> np.ndarray:
    with wave.open(str(path)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (16000, 1, 2)
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0


def split_words(text: list, tok: Tokenizer) -> list:
    """whisper's split_tokens_on_unicode, then split_tokens_on_spaces: [(word, [tokens])]."""
    full = tok.decode(text, skip_special_tokens=False)
    pieces, current, offset = [], [], 0
    for token in text:
        current.append(token)
        decoded = tok.decode(current, skip_special_tokens=False)
        if "\ufffd" not in decoded or full[offset + decoded.index("\ufffd")] == "\ufffd":
            pieces.append((decoded, current))
            current, offset = [], offset + len(decoded)
    words = []
    for piece, tokens in pieces:
        if piece.startswith(" ") or piece.strip() in string.punctuation or not words:
            words.append((piece, list(tokens)))
        else:
            words[-1] = (words[-1][0] + piece, words[-1][1] + tokens)
    return words


def word_times(cross: np.ndarray, ids: list, samples: int, heads: list, tok: Tokenizer, eot: int) -> list:
    """[[word, start, end]] in seconds, as whisper's find_alignment times them."""
    written = len(ids) - (ids[-1] == eot)
    text = ids[2:written]
    if not text:
        return []
    n = max(1, min(samples // 320, 1500))
    w = torch.stack([torch.from_numpy(cross[l, h]) for l, h in heads])[:, 1:written, :n].double()
    w = w / w.sum(-1, keepdim=True)
    std, mean = torch.std_mean(w, dim=-2, keepdim=True, unbiased=False)
    w = _median_filter((w - mean) / std, 7)
    text_indices, time_indices = _dynamic_time_warping(-w.mean(0).numpy())
    jumps = np.pad(np.diff(text_indices), (1, 0), constant_values=1).astype(bool)
    jump_times = time_indices[jumps] / 50
    words = split_words(text, tok)
    bounds = np.pad(np.cumsum([len(t) for _, t in words]), (1, 0))
    return [[word, float(jump_times[a]), float(jump_times[b])] for (word, _), a, b in zip(words, bounds[:-1], bounds[1:])]


def second_engine(features: np.ndarray, ids: list, eot: int, name: str) -> None:
    """CTranslate2's own greedy decoding of the same features, where it is installed."""
    try:
        import ctranslate2
    except ImportError:
        print(f"{name}: ctranslate2 is not installed; the tokens are not checked by a second engine")
        return
    model = ctranslate2.models.Whisper(str(MODEL), device="cpu", compute_type="float32")
    result = model.generate(ctranslate2.StorageView.from_array(features), [ids[:2]], beam_size=1,
                            max_length=MAX_NEW_TOKENS, suppress_blank=True)
    # CTranslate2 leaves out the final <|endoftext|>.
    written = ids[2:-1] if ids[-1] == eot else ids[2:]
    if result[0].sequences_ids[0] != written:
        sys.exit(f"{name}: CTranslate2 writes {result[0].sequences_ids[0]}, transformers {written}")
    print(f"{name}: CTranslate2 {ctranslate2.__version__} writes the same tokens")


def main() -> None:
    if not (MODEL / "model.bin").exists():
        sys.exit(f"{MODEL / 'model.bin'} is absent: run scripts/fetch_models.py --extra first")
    torch.manual_seed(0)
    ct2 = read_ct2(MODEL / "model.bin")
    config = WhisperConfig(
        vocab_size=51864, num_mel_bins=80, d_model=384, encoder_layers=4, decoder_layers=4,
        encoder_attention_heads=6, decoder_attention_heads=6, encoder_ffn_dim=1536, decoder_ffn_dim=1536,
        max_source_positions=1500, max_target_positions=448, activation_function="gelu",
        scale_embedding=False, tie_word_embeddings=True,
    )
    config._attn_implementation = "eager"
    model = WhisperForConditionalGeneration(config).eval()
    missing, unexpected = model.load_state_dict(state_dict(ct2, 4, 384), strict=False)
    assert not unexpected and not missing, (missing, unexpected)
    settings = json.loads((MODEL / "config.json").read_text())
    suppress, suppress_begin = settings["suppress_ids"], settings["suppress_ids_begin"]
    tok = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    sot, no_ts, eot = (tok.token_to_id(s) for s in ("<|startoftranscript|>", "<|notimestamps|>", "<|endoftext|>"))
    fe = WhisperFeatureExtractor(feature_size=80, sampling_rate=16000, hop_length=160, chunk_length=30, n_fft=400)

    pause()
    clips = []
    for name in CLIPS:
        audio = read_wav(FIXTURES / name)
        features = torch.from_numpy(fe(audio, sampling_rate=16000, return_tensors="np").input_features)
        with torch.no_grad():
            encoded = model.model.encoder(features)
            ids = [sot, no_ts]
            for n in range(MAX_NEW_TOKENS):
                logits = model(encoder_outputs=encoded, decoder_input_ids=torch.tensor([ids])).logits[0, -1].clone()
                logits[suppress] = -float("inf")
                if n == 0:
                    logits[suppress_begin] = -float("inf")
                ids.append(int(torch.argmax(logits)))
                if ids[-1] == eot:
                    break
            out = model(encoder_outputs=encoded, decoder_input_ids=torch.tensor([ids]), output_attentions=True)
        cross = torch.stack(out.cross_attentions)[:, 0].numpy()  # layer, head, token, frame
        speech = -(-len(audio) // 320)
        kept = min(1500, speech + MARGIN)
        frames = list(range(kept)) + list(range(kept, 1500, STRIDE))
        text = tok.decode(ids, skip_special_tokens=True)
        clips.append({
            "file": name,
            "ids": ids,
            "text": text,
            "speech_frames": speech,
            "frames": frames,
            "kept": kept,
            "samples": len(audio),
            "words": word_times(cross, ids, len(audio), settings["alignment_heads"], tok, eot),
            # [layer][head][token][i]: the attention over frames[i]
            "cross_attention": np.round(cross[..., frames].astype(np.float64), 4).tolist(),
            # [layer][head][token]: the attention over frames kept .. 1500
            "rest": np.round(cross[..., kept:].astype(np.float64).sum(-1), 5).tolist(),
        })
        second_engine(features.numpy(), ids, eot, name)
        print(f"{name}: {text!r} ({len(ids)} tokens)")
    out = {
        "reference": f"transformers {transformers.__version__} WhisperForConditionalGeneration (eager, float32), torch {torch.__version__}",
        "clips": clips,
    }
    (FIXTURES / "transcribe.json").write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {(FIXTURES / 'transcribe.json').relative_to(ROOT)}")


if __name__ == "__main__":
    main()
