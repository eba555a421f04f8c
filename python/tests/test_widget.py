"""attnscope.show and to_html on traces written with write_trace: the widget
answers a head's request with exactly that head's bytes, a bad request with a
sentence (nothing escapes to the kernel), and files that are not a readable
trace with a clear Python error."""

import base64
import json
import re
import struct

import numpy as np
import pytest
from safetensors import safe_open
from safetensors.numpy import save_file

import attnscope
from attnscope._format import thumbnails_of

TOKENS = ["The", " capital", " of", " France", " is", " Paris"]


def layers(n_layers, heads, n, causal=True, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n_layers):
        x = rng.normal(scale=2.0, size=(heads, n, n))
        if causal:
            x[:, np.triu(np.ones((n, n), dtype=bool), 1)] = -np.inf
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        yield (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def small(path, dtype="float16", thumbnails=True, mask="causal"):
    attnscope.write_trace(
        path,
        layers(3, 4, len(TOKENS), causal=mask != "none"),
        model_name="tiny",
        architecture="Demo",
        tokens=TOKENS,
        mask=mask,
        n_layers=3,
        n_heads=4,
        dtype=dtype,
        thumbnails=thumbnails,
    )
    return path


def ask(widget, content):
    """Sends `content` as the front end would (a custom message through the
    widget's comm handler) and returns what the widget sent back."""
    sent = []
    widget.send = lambda msg, buffers=None: sent.append((msg, buffers))
    widget._handle_custom_msg(content, [])
    assert len(sent) == 1
    return sent[0]


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_a_requested_head_comes_back_as_its_exact_bytes(tmp_path, dtype):
    path = small(tmp_path / "t.safetensors", dtype=dtype)
    w = attnscope.show(str(path))
    with safe_open(str(path), "np") as f:
        for layer, head in [(0, 0), (1, 2), (2, 3)]:
            msg, buffers = ask(w, {"type": "head", "layer": layer, "head": head})
            assert msg == {"type": "head", "layer": layer, "head": head, "dtype": "F16" if dtype == "float16" else "F32"}
            want = f.get_tensor(f"layers.{layer}.attention")[head]
            assert bytes(buffers[0]) == want.tobytes()
            assert len(buffers[0]) == len(TOKENS) ** 2 * want.itemsize


def test_the_overview_is_the_files_thumbnails_or_pooled_when_it_has_none(tmp_path):
    with_thumbs = attnscope.show(small(tmp_path / "a.safetensors"))
    with safe_open(str(tmp_path / "a.safetensors"), "np") as f:
        assert with_thumbs.thumbnails == f.get_tensor("thumbnails").tobytes()
        weights = [f.get_tensor(f"layers.{l}.attention") for l in range(3)]
    info = with_thumbs.info
    assert (info["model"], info["n_layers"], info["n_heads"], info["tokens"]) == ("tiny", 3, 4, TOKENS)
    assert info["masks"] == [{"type": "causal"}] * 3 and info["thumbnail_size"] == len(TOKENS)
    pooled = attnscope.show(small(tmp_path / "b.safetensors", thumbnails=False))
    assert pooled.thumbnails == np.stack([thumbnails_of(a, len(TOKENS)) for a in weights]).tobytes()


@pytest.mark.parametrize(
    "content, says",
    [
        ({"type": "head", "layer": 3, "head": 0}, "layer 3 does not exist: the trace has layers 0 to 2"),
        ({"type": "head", "layer": 0, "head": -1}, "head -1 does not exist: the trace has heads 0 to 3"),
        ({"type": "head", "layer": "0", "head": 1}, "must be whole numbers"),
        ({"type": "head"}, "must be whole numbers"),
        ({"type": "everything"}, "unknown request"),
        ("head", "unknown request"),
    ],
)
def test_a_bad_request_gets_an_error_message_not_an_exception(tmp_path, content, says):
    w = attnscope.show(small(tmp_path / "t.safetensors"))
    msg, buffers = ask(w, content)
    assert msg["type"] == "error" and says in msg["message"] and not buffers


def test_a_file_cut_short_after_opening_gets_an_error_message(tmp_path):
    path = small(tmp_path / "t.safetensors")
    w = attnscope.show(str(path))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    msg, _ = ask(w, {"type": "head", "layer": 2, "head": 3})
    assert msg["type"] == "error" and "cut short" in msg["message"]


def rewrite_metadata(path, **changes):
    """The same file with `changes` in its __metadata__ (header re-padded)."""
    data = path.read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    header["__metadata__"].update(changes)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + data[8 + n :])


def damage(tmp_path, how):
    path = small(tmp_path / "t.safetensors")
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[:-10])
    elif how == "header cut":
        path.write_bytes(data[:40])
    elif how == "garbage":
        path.write_bytes(b"\x07" * 8 + data[8:])
    elif how == "not json":
        (n,) = struct.unpack("<Q", data[:8])
        path.write_bytes(data[:8] + b"{" + b"x" * (n - 1) + data[8 + n :])
    elif how == "extra bytes":
        path.write_bytes(data + b"\0" * 8)
    elif how == "newer":
        rewrite_metadata(path, format_version="2.0")
    elif how == "bad description":
        rewrite_metadata(path, trace="{not json")
    elif how == "not a trace":
        save_file({"weight": np.zeros((2, 2), dtype=np.float32)}, str(path))
    elif how == "tiny":
        path.write_bytes(b"\0" * 4)
    return path


@pytest.mark.parametrize(
    "how, says",
    [
        ("truncated", r"is cut short: its tensors run past the end"),
        ("header cut", r"is cut short: its header runs past the end"),
        ("garbage", r"is not a safetensors file"),
        ("not json", r"is not a safetensors file: its header is not JSON"),
        ("extra bytes", r"is damaged: 8 extra bytes"),
        ("newer", r"format version 2\.0, newer than this attnscope reads \(1\.x\): update attnscope"),
        ("bad description", r"is damaged: its description is not JSON"),
        ("not a trace", r"is not an attnscope trace"),
        ("tiny", r"is not a safetensors file: only 4 bytes"),
    ],
)
def test_a_file_that_is_not_a_readable_trace_gets_a_clear_error(tmp_path, how, says):
    path = damage(tmp_path, how)
    with pytest.raises(attnscope.TraceError, match=says):
        attnscope.show(str(path))
    with pytest.raises(attnscope.TraceError, match=says):
        attnscope.to_html(str(path), str(tmp_path / "out.html"))


def test_a_missing_file_gets_a_clear_error(tmp_path):
    with pytest.raises(attnscope.TraceError, match="cannot read .*nothing.safetensors"):
        attnscope.show(str(tmp_path / "nothing.safetensors"))


def test_outputs_with_attentions_are_shown_through_a_temporary_trace(tmp_path):
    class Outputs:  # as transformers' ModelOutput: per layer [batch = 1, H, T, T]
        attentions = tuple(a[None] for a in layers(2, 3, len(TOKENS)))

    w = attnscope.show(Outputs(), tokens=TOKENS, name="my model")
    assert w.info["masks"] == [{"type": "causal"}] * 2 and w.info["model"] == "my model"
    msg, buffers = ask(w, {"type": "head", "layer": 1, "head": 2})
    assert msg["dtype"] == "F32"
    assert bytes(buffers[0]) == Outputs.attentions[1][0, 2].tobytes()
    encoder = attnscope.show({"attentions": list(layers(1, 2, 3, causal=False))}, tokens=["a", "b", "c"])
    assert encoder.info["masks"] == [{"type": "none"}]
    with pytest.raises(ValueError, match="needs tokens="):
        attnscope.show(Outputs())
    with pytest.raises(ValueError, match="5 tokens given but the attentions are over 6 tokens"):
        attnscope.show(Outputs(), tokens=TOKENS[:5])
    with pytest.raises(ValueError, match="output_attentions=True"):
        attnscope.show(object())
    with pytest.raises(ValueError, match="attn_implementation='eager'"):
        attnscope.show({"attentions": (None, None)}, tokens=TOKENS)


def test_the_widget_loads_nothing_from_another_host():
    from attnscope._widget import AttentionWidget

    for asset in (AttentionWidget._esm, AttentionWidget._css):
        text = asset.read_text() if hasattr(asset, "read_text") else str(asset)
        assert not re.search(r"https?://|\bimport\s*\(|^\s*import\s", text, re.M), asset


def test_to_html_embeds_every_head_and_refuses_a_trace_over_its_limit(tmp_path):
    path = small(tmp_path / "t.safetensors", dtype="float32")
    out = attnscope.to_html(str(path), str(tmp_path / "t.html"))
    page = open(out, encoding="utf-8").read()
    data = json.loads(re.search(r'id="attnscope-data">(.*?)</script>', page, re.S).group(1))
    with safe_open(str(path), "np") as f:
        for layer in range(3):
            got = np.frombuffer(base64.b64decode(data["layers"][layer]), dtype="<f2").reshape(4, 6, 6)
            assert np.array_equal(got, f.get_tensor(f"layers.{layer}.attention").astype("<f2"))
    assert not re.search(r'(src|href)="(?!data:)', page)
    with pytest.raises(ValueError, match=r"over the standalone HTML's limit of 0\.0 MB"):
        attnscope.to_html(str(path), str(tmp_path / "u.html"), max_bytes=100)
    with pytest.raises(ValueError, match="layer 3 does not exist"):
        attnscope.to_html(str(path), str(tmp_path / "u.html"), layer=3)


@pytest.mark.parametrize(
    "dtype, bad",
    [
        ("float16", np.array([np.nan], dtype="<f2")),
        ("float16", np.array([1.002], dtype="<f2")),
        ("float16", np.array([-0.25], dtype="<f2")),
        ("float32", np.array([np.inf], dtype="<f4")),
        ("float32", np.array([1.5], dtype="<f4")),
    ],
)
def test_a_head_holding_a_weight_outside_0_1_gets_an_error_message(tmp_path, dtype, bad):
    path = small(tmp_path / "t.safetensors", dtype=dtype)
    w = attnscope.show(str(path))
    data = bytearray(path.read_bytes())
    (n,) = struct.unpack("<Q", data[:8])
    begin = json.loads(data[8 : 8 + n])["layers.1.attention"]["data_offsets"][0]
    cell = 8 + n + begin + (2 * 36 + 3 * 6 + 4) * bad.itemsize  # head 2, query 3, key 4
    data[cell : cell + bad.itemsize] = bad.tobytes()
    path.write_bytes(bytes(data))
    msg, buffers = ask(w, {"type": "head", "layer": 1, "head": 2})
    assert msg["type"] == "error" and "layer 1 head 2 holds a weight that is not in [0, 1]" in msg["message"] and not buffers
    assert ask(w, {"type": "head", "layer": 1, "head": 1})[0]["type"] == "head"
