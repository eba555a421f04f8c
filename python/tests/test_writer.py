"""The trace-file writer on numpy arrays (no torch): files that the safetensors
library reads back exactly, thumbnails as attnscope pools them, one layer in
memory at a time, and clear errors for bad input."""

import importlib.util
import json
import struct
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from safetensors import safe_open
from safetensors.numpy import load_file

import attnscope
from attnscope._format import thumbnails_of

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "tracefile"


def fixture_script():
    spec = importlib.util.spec_from_file_location("tracefile_numpy_fixtures", ROOT / "scripts/reference/tracefile_numpy_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def softmax_layers(layers, heads, n, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(layers):
        x = rng.normal(size=(heads, n, n))
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        yield (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def normalized_layers(layers, heads, n):
    """Rows of positive weights summing to 1, in float32 from the start (no
    float64 temporaries to blur a memory measure); each layer is dropped
    before the next is made."""
    rng = np.random.default_rng(1)
    for _ in range(layers):
        a = rng.random((heads, n, n), dtype=np.float32)
        a /= a.sum(axis=-1, keepdims=True)
        yield a
        del a


def minimal(**overrides):
    kw = dict(model_name="m", architecture="A", tokens=["a", "b", "c"], mask="none", n_layers=2, n_heads=2)
    kw.update(overrides)
    return kw


def read(path):
    with safe_open(str(path), "np") as f:
        meta = f.metadata()
        tensors = {k: f.get_tensor(k) for k in f.keys()}
    return meta, json.loads(meta["trace"]), tensors


def test_committed_fixtures_are_what_this_writer_writes(tmp_path):
    script = fixture_script()
    for path in script.write(tmp_path):
        committed = FIXTURES / path.name
        assert committed.is_file(), f"{committed} is missing: run scripts/reference/tracefile_numpy_fixtures.py"
        if path.name == "numpy_expected.safetensors":
            # Written by the safetensors library: compare the arrays, not its bytes.
            want, got = load_file(str(path)), load_file(str(committed))
            assert want.keys() == got.keys()
            assert all(np.array_equal(want[k], got[k]) for k in want)
        else:
            assert path.read_bytes() == committed.read_bytes(), f"{path.name} differs: rerun the fixture script"


def test_f32_round_trip_is_exact_with_queries_keys_and_masks(tmp_path):
    files, arrays = fixture_script().cases()
    name, kw = files[0]
    kw = dict(kw)
    attentions = kw.pop("attentions")
    attnscope.write_trace(tmp_path / name, iter(attentions), **kw)
    meta, d, t = read(tmp_path / name)
    assert (meta["format"], meta["format_version"]) == ("attnscope-trace", "1.0")
    assert d["mask"] == [{"type": "causal"}, {"type": "sliding_window", "window": 2}, {"type": "causal"}]
    assert d["tokens"][3] == " 🐟" and d["token_ids"] == [1, 504, 40213, 9, 242]
    assert d["queries_keys"]["scale"] == pytest.approx(3**-0.5)
    assert d["top_next"][1] == {"token": " a", "probability": 0.125}
    for l in range(3):
        for part in ("attention", "queries", "keys"):
            got, want = t[f"layers.{l}.{part}"], arrays[f"f32/layers.{l}.{part}"]
            assert got.dtype == np.float32 and np.array_equal(got, want), (l, part)
    assert t["thumbnails"].shape == (3, 4, 5, 5) and t["thumbnails"].dtype == np.uint16
    # Five tokens fit a thumbnail: each cell is one weight as a level.
    assert np.array_equal(t["thumbnails"][1], np.floor(arrays["f32/layers.1.attention"].astype(np.float64) * 65535 + 0.5))


def test_f16_weights_are_the_arrays_rounded_once(tmp_path):
    att = list(softmax_layers(3, 2, 7))
    attnscope.write_trace(tmp_path / "h.safetensors", iter(att), **minimal(tokens=list("abcdefg"), n_layers=3))
    _, d, t = read(tmp_path / "h.safetensors")
    assert "queries_keys" not in d and "top_next" not in d
    for l in range(3):
        assert t[f"layers.{l}.attention"].dtype == np.float16
        assert np.array_equal(t[f"layers.{l}.attention"], att[l].astype(np.float16))


def test_header_is_padded_and_tensors_follow_in_layer_order(tmp_path):
    path = tmp_path / "p.safetensors"
    attnscope.write_trace(path, softmax_layers(2, 2, 3), **minimal())
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    assert n % 8 == 0 and raw[8:9] == b"{"
    header = json.loads(raw[8 : 8 + n])
    order = sorted((v["data_offsets"], k) for k, v in header.items() if k != "__metadata__")
    assert [k for _, k in order] == ["layers.0.attention", "layers.1.attention", "thumbnails"]
    assert order[-1][0][1] == len(raw) - 8 - n


def naive_pool(a, size):
    n = a.shape[-1]
    out = np.zeros((a.shape[0], size, size))
    for p in range(size):
        rows = [i for i in range(n) if i * size // n == p]
        for q in range(size):
            cols = [j for j in range(n) if j * size // n == q]
            out[:, p, q] = a[:, rows][:, :, cols].astype(np.float64).mean(axis=(1, 2))
    return np.floor(np.clip(out, 0, 1) * 65535 + 0.5)


@pytest.mark.parametrize("n", [1, 47, 48, 49, 100, 131])
def test_thumbnails_are_cell_means_as_levels(n):
    (a,) = softmax_layers(1, 2, n, seed=n)
    got = thumbnails_of(a, min(n, 48))
    assert got.shape == (2, min(n, 48), min(n, 48))
    # Sums in another order may round a half level the other way.
    assert np.abs(got.astype(np.int64) - naive_pool(a, min(n, 48))).max() <= 1


def traced_peak(run):
    """Peak of the memory numpy and Python allocate while `run()` runs."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        kept = run()
        return tracemalloc.get_traced_memory()[1] - base, kept
    finally:
        tracemalloc.stop()


def test_writing_holds_one_layer_at_a_time(tmp_path):
    """Layers made on demand: the writer adds less than 1.5 layers' worth to
    what making them takes (its float16 copy of the layer, a head of pooling),
    where keeping all 12 in float16 would add 6."""
    layers, heads, n = 12, 4, 256
    layer_bytes = heads * n * n * 4
    shape = minimal(tokens=["x"] * n, n_layers=layers, n_heads=heads)

    def drain():
        for a in normalized_layers(layers, heads, n):
            del a

    making, _ = traced_peak(drain)
    writing, _ = traced_peak(lambda: attnscope.write_trace(tmp_path / "m.safetensors", normalized_layers(layers, heads, n), **shape))
    assert (tmp_path / "m.safetensors").stat().st_size > layers * layer_bytes // 2
    assert writing - making < 1.5 * layer_bytes, f"the writer adds {(writing - making) / layer_bytes:.2f} layers"

    # The measure does see a writer that keeps every layer.
    hoarding, kept = traced_peak(lambda: [a.astype(np.float16) for a in normalized_layers(layers, heads, n)])
    assert hoarding - making > 5 * layer_bytes
    del kept


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(n_layers=3), "ended before layer 2"),
        (dict(n_layers=1), "more than 1 layers"),
        (dict(tokens=["a", "b"]), "has shape (2, 3, 3), the file expects (2, 2, 2)"),
        (dict(mask="diagonal"), "unknown mask"),
        (dict(mask=["none"]), "1 masks for 2 layers"),
        (dict(mask=("sliding_window", 0)), "window of at least 1"),
        (dict(n_heads=3, n_kv_heads=2), "do not split evenly"),
        (dict(token_ids=[1, 2]), "3 tokens but 2 token ids"),
        (dict(dtype="bfloat16"), "dtype must be"),
        (dict(tokens=[]), "at least one"),
    ],
)
def test_bad_input_is_refused_and_leaves_no_file(tmp_path, change, message):
    path = tmp_path / "bad.safetensors"
    with pytest.raises(ValueError) as e:
        attnscope.write_trace(path, softmax_layers(2, 2, 3), **minimal(**change))
    assert message in str(e.value)
    assert not path.exists()


@pytest.mark.parametrize("value, message", [(np.nan, "not a finite number"), (1.5, "outside [0, 1]"), (-0.25, "outside [0, 1]")])
def test_values_no_reader_accepts_are_refused(tmp_path, value, message):
    a = list(softmax_layers(2, 2, 3))
    a[1][0, 2, 1] = value
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        attnscope.write_trace(tmp_path / "v.safetensors", iter(a), **minimal())
    assert not (tmp_path / "v.safetensors").exists()


def test_queries_keys_need_their_scale_and_both_halves(tmp_path):
    q = [np.zeros((2, 3, 4), np.float32)] * 2
    with pytest.raises(ValueError, match="both queries and keys"):
        attnscope.write_trace(tmp_path / "q.safetensors", softmax_layers(2, 2, 3), queries=q, d_head=4, **minimal())
    with pytest.raises(ValueError, match="queries_keys"):
        attnscope.write_trace(tmp_path / "q.safetensors", softmax_layers(2, 2, 3), queries=q, keys=q, d_head=4, **minimal())


def vision(**overrides):
    """A vision trace's keywords: a class token, then a 2 × 3 grid of patches over a 16 × 24 picture."""
    picture = np.arange(16 * 24 * 3, dtype=np.uint16).reshape(16, 24, 3) % 256
    kw = minimal(
        tokens=["[CLS]"] + [f"{r},{c}" for r in range(2) for c in range(3)],
        patches={"rows": 2, "cols": 3, "first_patch": 1, "patch_size": 8},
        image=picture.astype(np.uint8),
    )
    kw.update(overrides)
    return kw


def test_a_vision_trace_is_version_1_1_with_its_grid_and_image_first(tmp_path):
    path = tmp_path / "vit.safetensors"
    kw = vision()
    d = attnscope.write_trace(path, softmax_layers(2, 2, 7), **kw)
    assert d["patches"] == {"rows": 2, "cols": 3, "first_patch": 1, "patch_size": 8}
    meta, described, tensors = read(path)
    assert meta["format_version"] == "1.1" and described == d
    assert tensors["image"].dtype == np.uint8 and np.array_equal(tensors["image"], kw["image"])
    # The image comes right after the header, before any layer.
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
    assert header["image"]["data_offsets"][0] == 0
    # Read back by the package's reader; a text trace stays 1.0 and has no image.
    trace = attnscope.TraceFile(path)
    assert trace.patches == d["patches"] and np.array_equal(trace.image(), kw["image"])
    attnscope.write_trace(tmp_path / "text.safetensors", softmax_layers(2, 2, 3), **minimal())
    assert read(tmp_path / "text.safetensors")[0]["format_version"] == "1.0"
    assert attnscope.TraceFile(tmp_path / "text.safetensors").image() is None


@pytest.mark.parametrize(
    "change, message",
    [
        (dict(patches={"rows": 3, "cols": 3, "first_patch": 1}), "needs 10 tokens; the trace has 7"),
        (dict(patches={"rows": 2, "cols": 3, "first_patch": 2}), "needs 8 tokens"),
        (dict(patches={"rows": 0, "cols": 3, "first_patch": 1}), "sides must be at least 1"),
        (dict(patches={"rows": 2}), "must be a dict with rows, cols and first_patch"),
        (dict(image=None), "needs its image"),
        (dict(patches=None), "an image needs its patch grid"),
        (dict(image=np.zeros((16, 24), np.uint8)), "[height, width, 3]"),
        (dict(image=np.zeros((5000, 2, 3), np.uint8)), "each side must be 1 to 4096"),
        (dict(image=np.full((4, 4, 3), 300.0)), "0 to 255"),
        (dict(image=np.full((4, 4, 3), np.nan)), "0 to 255"),
    ],
)
def test_a_bad_grid_or_image_is_refused_and_leaves_no_file(tmp_path, change, message):
    path = tmp_path / "bad.safetensors"
    kw = vision(**change)
    kw = {k: v for k, v in kw.items() if v is not None}
    with pytest.raises(ValueError) as e:
        attnscope.write_trace(path, softmax_layers(2, 2, 7), **kw)
    assert message in str(e.value)
    assert not path.exists()


def test_a_float_image_in_0_to_255_is_rounded_to_levels(tmp_path):
    picture = np.full((8, 12, 3), 127.6)
    attnscope.write_trace(tmp_path / "f.safetensors", softmax_layers(2, 2, 7), **vision(image=picture))
    assert (read(tmp_path / "f.safetensors")[2]["image"] == 128).all()
