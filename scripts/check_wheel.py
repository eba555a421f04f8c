"""Run by scripts/test.sh in a fresh venv holding only the built attnscope
wheel, anywidget and numpy: `import attnscope; attnscope.show(path)` works
there, and the widget answers as the page asks, with the page's files packed
in the wheel and the trace's bytes."""

import hashlib
import json
import os
import sys

import attnscope
from attnscope import _page

path = sys.argv[1]
where = os.path.dirname(attnscope.__file__)
assert "site-packages" in where, f"attnscope imported from {where}, not the installed wheel"
widget = attnscope.show(path, layer=2, head=4)
assert widget.error == "", widget.error
reply, buffers = _page.answer(widget.shown, {"kind": "files", "id": 1})
assert reply["kind"] == "files", reply
with open(os.path.join(where, "static", "page", "manifest.json")) as f:
    sums = json.load(f)["files"]
for name, data in zip(reply["names"], buffers):
    assert hashlib.sha256(data).hexdigest() == sums[name], name
assert sorted(reply["names"]) == sorted(_page.FILES) and "<style>" in reply["frame"]
reply, buffers = _page.answer(widget.shown, {"kind": "read", "id": 2, "start": 0, "end": 8})
with open(path, "rb") as f:
    assert buffers[0] == f.read(8)
size = sum(len(b) for b in _page.page_files()[1].values())
print(f"attnscope {attnscope.__version__} from the wheel: show() answers with the page ({size / 1e6:.1f} MB) and the trace's bytes")
