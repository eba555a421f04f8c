"""Tokens as attnscope shows them (docs/trace-format.md, "The description")."""

from __future__ import annotations

import json
from typing import Sequence


def _byte_decoder() -> dict:
    """GPT-2's byte-level alphabet, inverted: vocabulary character → byte."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    extra = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(bs, cs)}


_BYTES = _byte_decoder()


def _decoder_types(tokenizer) -> set:
    """The types of the fast tokenizer's decoder (and of its parts)."""
    decoder = getattr(getattr(tokenizer, "backend_tokenizer", None), "decoder", None)
    if decoder is None:
        return set()
    # The decoder's own JSON: the whole tokenizer's (its vocabulary) is megabytes.
    decoder = json.loads(decoder.__getstate__())
    parts = decoder.get("decoders") or [decoder]
    return {p.get("type") for p in parts if isinstance(p, dict)}


def bytes_as_text(raw: bytes) -> str:
    """UTF-8 text, with a byte that is not part of a whole character written as <0xF0>."""
    out, i = [], 0
    while i < len(raw):
        for width in (1, 2, 3, 4):
            try:
                out.append(raw[i : i + width].decode("utf-8"))
                i += width
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(f"<0x{raw[i]:02X}>")
            i += 1
    return "".join(out)


def display_tokens(tokenizer, ids: Sequence[int]) -> list:
    """Each token as shown: a byte-level BPE piece's bytes as text, a
    SentencePiece "▁" as a space, WordPiece and special or added tokens as
    they are."""
    pieces = tokenizer.convert_ids_to_tokens(list(ids))
    kinds = _decoder_types(tokenizer)
    added = set(getattr(tokenizer, "added_tokens_decoder", {}) or {}) | set(tokenizer.all_special_ids)
    out = []
    for i, piece in zip(ids, pieces):
        if piece is None:
            out.append(tokenizer.decode([i]))
        elif i in added:
            out.append(piece)
        elif "ByteLevel" in kinds and all(ch in _BYTES for ch in piece):
            out.append(bytes_as_text(bytes(_BYTES[ch] for ch in piece)))
        elif "Metaspace" in kinds or piece.startswith("▁"):
            out.append(piece.replace("▁", " "))
        else:
            out.append(piece)
    return out
