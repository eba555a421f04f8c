"""attnscope.show and to_html: the attnscope page, its files from this
package (python/src/attnscope/static/page/, from the web build), and the
trace's bytes by request. Each request gets exactly the bytes asked for, a bad
one a sentence (nothing escapes to the kernel), and a file that is not a
readable trace a clear message in the cell. The page itself is tested in a
real JupyterLab (tests/e2e/notebook.test.mjs)."""

import base64
import hashlib
import json
import re
import struct

import numpy as np
import pytest
from safetensors.numpy import save_file

import attnscope
from attnscope import _page

TOKENS = ["The", " capital", " of", " France", " is", " Paris"]


def layers(n_layers, heads, n, causal=True, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n_layers):
        x = rng.normal(scale=2.0, size=(heads, n, n))
        if causal:
            x[:, np.triu(np.ones((n, n), dtype=bool), 1)] = -np.inf
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        yield (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def small(path, dtype="float16", mask="causal"):
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
    )
    return path


@pytest.fixture
def page(tmp_path, monkeypatch):
    """Page files of our own in place of the built ones (the web build may
    still be running beside these tests): their bytes must come back as they are."""
    d = tmp_path / "page"
    d.mkdir()
    files = {name: (name * 50).encode() + bytes(range(256)) for name in _page.FILES}
    files["style.css"] = b".shell { color: red; }"
    for name, data in files.items():
        (d / name).write_bytes(data)
    sums = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    (d / "manifest.json").write_text(json.dumps({"version": "v1", "files": sums}))
    monkeypatch.setattr(_page, "PAGE_DIR", str(d))
    _page._read_page.cache_clear()
    yield d, files
    _page._read_page.cache_clear()


def ask(widget, content):
    """Sends `content` as the front end would (a custom message through the
    widget's comm handler) and returns what the widget sent back."""
    sent = []
    widget.send = lambda msg, buffers=None: sent.append((msg, buffers))
    widget._handle_custom_msg(content, [])
    assert len(sent) == 1
    return sent[0]


def test_the_page_files_come_from_the_package_with_the_frame(tmp_path, page):
    _, files = page
    w = attnscope.show(str(small(tmp_path / "t.safetensors")))
    assert (w.name, w.size, w.query, w.error) == ("t.safetensors", (tmp_path / "t.safetensors").stat().st_size, "layer=0&head=0", "")
    msg, buffers = ask(w, {"kind": "files", "id": 7})
    assert (msg["kind"], msg["id"], msg["version"]) == ("files", 7, "v1")
    assert dict(zip(msg["names"], map(bytes, buffers))) == files
    # The frame: the page's style inlined, the title the trace's model, no address of any host.
    assert ".shell { color: red; }" in msg["frame"] and "<title>attnscope · tiny</title>" in msg["frame"]
    assert not re.search(r"(src|href)=\"(https?:)?//", msg["frame"])


def test_page_files_that_are_missing_or_do_not_match_their_manifest_get_a_sentence(tmp_path, page):
    d, _ = page
    w = attnscope.show(str(small(tmp_path / "t.safetensors")))
    (d / "worker.js").write_bytes(b"changed")
    msg, _ = ask(w, {"kind": "files", "id": 1})
    assert msg["kind"] == "error" and "worker.js does not match its manifest" in msg["error"]
    (d / "manifest.json").unlink()
    msg, _ = ask(w, {"kind": "files", "id": 2})
    assert msg["kind"] == "error" and "has no viewer files" in msg["error"] and msg["id"] == 2


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_a_read_comes_back_as_exactly_those_bytes_of_the_file(tmp_path, dtype):
    path = small(tmp_path / "t.safetensors", dtype=dtype)
    data = path.read_bytes()
    w = attnscope.show(str(path), layer=2, head=3, view="grid")
    assert w.query == "layer=2&head=3&view=grid"
    for start, end in [(0, 8), (100, 101), (0, len(data)), (len(data) - 5, len(data))]:
        msg, buffers = ask(w, {"kind": "read", "id": 3, "start": start, "end": end})
        assert (msg["kind"], msg["id"], msg["start"]) == ("bytes", 3, start)
        assert bytes(buffers[0]) == data[start:end]


@pytest.mark.parametrize(
    "content, says",
    [
        ({"kind": "read", "id": 1, "start": 0, "end": 10**9}, r"not within the trace's"),
        ({"kind": "read", "id": 1, "start": -1, "end": 4}, r"not within"),
        ({"kind": "read", "id": 1, "start": 8, "end": 8}, r"not within"),
        ({"kind": "read", "id": 1, "start": "0", "end": 4}, r"whole numbers"),
        ({"kind": "read", "id": 1, "start": True, "end": 4}, r"whole numbers"),
        ({"kind": "read", "id": 1, "start": 0.5, "end": 4}, r"whole numbers"),
        ({"kind": "read", "id": 1}, r"whole numbers"),
        ({"kind": "rm -rf", "id": 1}, r"unknown request 'rm -rf'"),
        ({"id": 1}, r"unknown request 'None'"),
        ("files", r"unknown request"),
        ([1, 2], r"unknown request"),
    ],
)
def test_a_bad_request_gets_an_error_message_not_an_exception(tmp_path, content, says):
    w = attnscope.show(str(small(tmp_path / "t.safetensors")))
    msg, buffers = ask(w, content)
    assert msg["kind"] == "error" and re.search(says, msg["error"]), msg
    assert buffers == []


def test_a_read_over_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(_page, "MAX_READ", 16)
    w = attnscope.show(str(small(tmp_path / "t.safetensors")))
    msg, _ = ask(w, {"kind": "read", "id": 1, "start": 0, "end": 17})
    assert msg["kind"] == "error" and "over the limit of 16" in msg["error"]


def test_a_file_changed_or_removed_after_it_was_shown_gets_an_error_message(tmp_path):
    path = small(tmp_path / "t.safetensors")
    w = attnscope.show(str(path))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    msg, _ = ask(w, {"kind": "read", "id": 1, "start": 0, "end": 8})
    assert msg["kind"] == "error" and "changed on disk since it was shown" in msg["error"]
    path.unlink()
    msg, _ = ask(w, {"kind": "read", "id": 1, "start": 0, "end": 8})
    assert msg["kind"] == "error" and "cannot read" in msg["error"]


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
def test_a_file_that_is_not_a_readable_trace_shows_why_in_the_cell(tmp_path, how, says):
    path = damage(tmp_path, how)
    w = attnscope.show(str(path))
    assert re.search("attnscope cannot show this trace: .*" + says, w.error), w.error
    assert w.size == 0
    with pytest.raises(attnscope.TraceError, match=says):
        attnscope.to_html(str(path), str(tmp_path / "out.html"))


def test_a_missing_file_shows_why_in_the_cell(tmp_path):
    w = attnscope.show(str(tmp_path / "nothing.safetensors"))
    assert re.search("cannot read .*nothing.safetensors", w.error), w.error


def test_a_layer_or_head_the_trace_lacks_or_an_unknown_view_is_refused(tmp_path):
    path = str(small(tmp_path / "t.safetensors"))
    with pytest.raises(ValueError, match="layer 3 does not exist: the trace has 3"):
        attnscope.show(path, layer=3)
    with pytest.raises(ValueError, match="head 4 does not exist"):
        attnscope.show(path, head=4)
    with pytest.raises(ValueError, match="head must be a whole number"):
        attnscope.show(path, head=-1)
    with pytest.raises(ValueError, match="view must be one of"):
        attnscope.show(path, view="everything")


def test_outputs_with_attentions_are_shown_through_a_temporary_trace(tmp_path):
    class Outputs:  # as transformers' ModelOutput: per layer [batch = 1, H, T, T]
        attentions = tuple(a[None] for a in layers(2, 3, len(TOKENS)))

    w = attnscope.show(Outputs(), tokens=TOKENS, name="my model")
    reader = attnscope.TraceFile(w.shown.path)
    assert reader.masks == [{"type": "causal"}] * 2 and reader.model_name == "my model"
    assert np.array_equal(reader.head(1, 2), Outputs.attentions[1][0, 2])
    encoder = attnscope.show({"attentions": list(layers(1, 2, 3, causal=False))}, tokens=["a", "b", "c"])
    assert attnscope.TraceFile(encoder.shown.path).masks == [{"type": "none"}]
    with pytest.raises(ValueError, match="needs tokens="):
        attnscope.show(Outputs())
    with pytest.raises(ValueError, match="5 tokens given but the attentions are over 6 tokens"):
        attnscope.show(Outputs(), tokens=TOKENS[:5])
    with pytest.raises(ValueError, match="output_attentions=True"):
        attnscope.show(object())
    with pytest.raises(ValueError, match="attn_implementation='eager'"):
        attnscope.show({"attentions": (None, None)}, tokens=TOKENS)


def test_the_widget_loads_nothing_from_another_host():
    for asset in ("notebook.js", "notebook.css", "frame.html"):
        text = open(f"{_page.STATIC}/{asset}").read()
        assert not re.search(r"https?://|^\s*import\s", text, re.M), asset


def inline_of(html):
    m = re.search(r'<script type="application/json" id="attnscope-inline">(.*?)</script>', html, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))


def test_to_html_inlines_the_page_and_the_trace_and_refuses_a_trace_over_its_limit(tmp_path, page):
    _, files = page
    path = small(tmp_path / "t.safetensors")
    out = attnscope.to_html(str(path), str(tmp_path / "t.html"), layer=1, head=2, view="overview", title="My </script> trace")
    text = (tmp_path / "t.html").read_text()
    assert out.endswith("t.html") and "<title>My &lt;/script&gt; trace</title>" in text
    data = inline_of(text)
    assert base64.b64decode(data["trace"]["bytes"]) == path.read_bytes() and data["trace"]["name"] == "t.safetensors"
    assert {k: base64.b64decode(v) for k, v in data["files"].items()} == files
    assert data["query"] == "layer=1&head=2&view=overview"
    with pytest.raises(ValueError, match="over the standalone HTML's limit"):
        attnscope.to_html(str(path), str(tmp_path / "big.html"), max_bytes=100)
    # The same document from the widget's button.
    w = attnscope.show(str(path))
    msg, buffers = ask(w, {"kind": "html", "id": 5})
    assert msg == {"kind": "html", "id": 5} and inline_of(bytes(buffers[0]).decode())["trace"] == data["trace"]
