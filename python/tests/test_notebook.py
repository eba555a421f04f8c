"""examples/attention.ipynb executed headless with nbclient, as a notebook
server would run it: the widget's view comes out, and no error. It writes the
page as HTML, so it needs the page's files: scripts/test.sh runs it after the
web build, against the built wheel."""

import json
from pathlib import Path

import nbformat
from nbclient import NotebookClient

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "attention.ipynb"
VIEW = "application/vnd.jupyter.widget-view+json"


def test_the_example_notebook_renders_the_widget(tmp_path, monkeypatch):
    # This venv's own python3 kernel, not one a user registered; connection files in tmp_path.
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "jupyter-runtime"))
    nb = nbformat.read(EXAMPLE, as_version=4)
    # Run where its files may go: the trace and the HTML it writes land in tmp_path.
    NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    errors = [o for o in outputs if o.output_type == "error" or (o.output_type == "stream" and o.name == "stderr")]
    assert not errors, errors
    views = [o.data[VIEW] for o in outputs if o.output_type == "execute_result" and VIEW in o.data]
    assert len(views) == 1, outputs
    # The widget state nbclient saves with the notebook: the page's model, naming the trace and the start.
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    model = state[views[0]["model_id"]]
    assert model["model_name"] == "AnyModel"
    s = model["state"]
    assert (s["name"], s["query"], s["error"]) == ("example.trace.safetensors", "layer=1&head=0", "")
    assert s["size"] == (tmp_path / "example.trace.safetensors").stat().st_size
    assert (tmp_path / "example.trace.safetensors").is_file() and (tmp_path / "example.html").is_file()
    assert json.loads(json.dumps(views[0]))["version_major"] == 2
