#!/usr/bin/env python3
"""Export all-MiniLM-L6-v2 to ONNX with every layer's attention weights as
outputs, for the peers' benchmark (scripts/bench_peers.mjs runs it in
onnxruntime-web beside attnscope, issue #31).

transformers' BertModel loads the very files the page loads (config.json and
model.safetensors from www/models/minilm, no hub), in float32 with eager
attention, so that softmax(QKᵀ/√d_k + M) is a node of the graph and its
result can be an output. The graph takes input_ids, attention_mask and
token_type_ids (int64, [batch, sequence], both axes dynamic) and gives
last_hidden_state [batch, sequence, 384] and attention_0 … attention_5
[batch, 12, sequence, sequence]. PyTorch is used for this export only.

Run from the repository root (scripts/bench.sh peers does, when the file is
missing or older than this script):

    .tools/bench-venv/bin/python scripts/reference/minilm_onnx_export.py [OUT]

OUT defaults to .tools/bench/minilm-attn.onnx (gitignored).
"""
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import onnx  # noqa: E402
import torch  # noqa: E402
from transformers import BertModel  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = ROOT / "www" / "models" / "minilm"
DEFAULT_OUT = ROOT / ".tools" / "bench" / "minilm-attn.onnx"
OPSET = 17


class WithAttentions(torch.nn.Module):
    """BertModel returning its last hidden state and each layer's attention weights."""

    def __init__(self, bert: BertModel):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask, token_type_ids):
        out = self.bert(
            input_ids=input_ids,
            attention_mask=attention_mask,
            token_type_ids=token_type_ids,
            output_attentions=True,
            return_dict=True,
        )
        return (out.last_hidden_state, *out.attentions)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    if not (MODEL_DIR / "model.safetensors").is_file():
        sys.exit(f"{MODEL_DIR}/model.safetensors is missing: run python3 scripts/fetch_models.py")
    bert = BertModel.from_pretrained(MODEL_DIR, dtype=torch.float32, attn_implementation="eager", add_pooling_layer=False)
    bert.eval()
    layers = bert.config.num_hidden_layers
    model = WithAttentions(bert).eval()

    n = 16
    example = (
        torch.randint(1000, 2000, (1, n), dtype=torch.int64),
        torch.ones((1, n), dtype=torch.int64),
        torch.zeros((1, n), dtype=torch.int64),
    )
    inputs = ["input_ids", "attention_mask", "token_type_ids"]
    outputs = ["last_hidden_state"] + [f"attention_{i}" for i in range(layers)]
    axes = {name: {0: "batch", 1: "sequence"} for name in inputs}
    axes["last_hidden_state"] = {0: "batch", 1: "sequence"}
    for i in range(layers):
        axes[f"attention_{i}"] = {0: "batch", 2: "sequence", 3: "sequence_k"}

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".partial.onnx")
    with torch.inference_mode():
        expected = model(*example)
    # The TorchScript exporter: it writes one self-contained file and keeps
    # the attention graph as eager attention computes it.
    torch.onnx.export(
        model,
        example,
        str(tmp),
        input_names=inputs,
        output_names=outputs,
        dynamic_axes=axes,
        opset_version=OPSET,
        do_constant_folding=True,
        dynamo=False,
    )
    graph = onnx.load(str(tmp))
    onnx.checker.check_model(graph)
    got = [o.name for o in graph.graph.output]
    if got != outputs:
        sys.exit(f"the exported graph's outputs are {got}, not {outputs}")
    tmp.replace(out)
    print(
        f"{out}: {out.stat().st_size / 1e6:.1f} MB, opset {OPSET}, torch {torch.__version__}, "
        f"outputs {', '.join(outputs)} (attention_0 on the example: {tuple(expected[1].shape)})"
    )


if __name__ == "__main__":
    main()
