#!/usr/bin/env python3
"""Writes fuzz/corpus/ctranslate2/tiny-whisper.bin: a Whisper small enough to
fuzz, in CTranslate2's model.bin (binary version 6, WhisperSpec revision 3):
d 4, 2 mel bins, 2 heads, one layer a side, a feed-forward of 8, 4 audio
frames, 4 positions and 8 tokens, float16 weights drawn from a fixed seed,
the heads' counts as int16 scalars and the projection an alias of the
embeddings, as the converter writes them. tests/whisper/ctranslate2.rs loads
and runs it."""
import random
import struct
from pathlib import Path

D, MELS, HEADS, HIDDEN, FRAMES, POSITIONS, VOCAB = 4, 2, 2, 8, 4, 4, 8


def main() -> None:
    rng = random.Random(0)
    variables = []

    def f16(name, shape):
        n = 1
        for s in shape:
            n *= s
        values = [round(rng.uniform(-0.5, 0.5), 3) for _ in range(n)]
        variables.append((name, shape, 4, struct.pack(f"<{n}e", *values)))

    def linear(prefix, rows, cols):
        f16(f"{prefix}/weight", [rows, cols])
        f16(f"{prefix}/bias", [rows])

    def norm(prefix):
        f16(f"{prefix}/gamma", [D])
        f16(f"{prefix}/beta", [D])

    f16("encoder/conv1/weight", [D, MELS, 3])
    f16("encoder/conv1/bias", [D])
    f16("encoder/conv2/weight", [D, D, 3])
    f16("encoder/conv2/bias", [D])
    f16("encoder/position_encodings/encodings", [FRAMES, D])
    for side in ("encoder", "decoder"):
        variables.append((f"{side}/num_heads", [], 2, struct.pack("<h", HEADS)))
    for side in ("encoder", "decoder"):
        p = f"{side}/layer_0"
        norm(f"{p}/self_attention/layer_norm")
        linear(f"{p}/self_attention/linear_0", 3 * D, D)
        linear(f"{p}/self_attention/linear_1", D, D)
        if side == "decoder":
            norm(f"{p}/attention/layer_norm")
            linear(f"{p}/attention/linear_0", D, D)
            linear(f"{p}/attention/linear_1", 2 * D, D)
            linear(f"{p}/attention/linear_2", D, D)
        norm(f"{p}/ffn/layer_norm")
        linear(f"{p}/ffn/linear_0", HIDDEN, D)
        linear(f"{p}/ffn/linear_1", D, HIDDEN)
        norm(f"{side}/layer_norm")
    f16("decoder/embeddings/weight", [VOCAB, D])
    f16("decoder/position_encodings/encodings", [POSITIONS, D])

    def string(s):
        b = s.encode() + b"\0"
        return struct.pack("<H", len(b)) + b

    out = struct.pack("<I", 6) + string("WhisperSpec") + struct.pack("<II", 3, len(variables))
    for name, shape, dtype, data in variables:
        out += string(name) + struct.pack(f"<B{len(shape)}I", len(shape), *shape)
        out += struct.pack("<BI", dtype, len(data)) + data
    out += struct.pack("<I", 1) + string("decoder/projection/weight") + string("decoder/embeddings/weight")
    path = Path(__file__).resolve().parent / "corpus" / "ctranslate2" / "tiny-whisper.bin"
    path.write_bytes(out)
    print(f"wrote {path} ({len(out)} bytes)")


if __name__ == "__main__":
    main()
