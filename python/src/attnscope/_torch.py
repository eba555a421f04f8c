"""attnscope.trace: runs a PyTorch / transformers model on a text with its
attention weights returned and writes them to a trace file, layer by layer;
attnscope.trace_image does the same for a vision transformer on an image."""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
from typing import Any, Optional

import numpy as np

from . import __version__
from ._format import TraceWriter, allowed, describe, mask_spec
from ._tokens import display_tokens


def trace(
    model,
    tokenizer,
    text: str,
    path: str | os.PathLike,
    *,
    dtype: str = "float16",
    queries_keys: bool = False,
    qk_dtype: str = "float32",
    thumbnails: bool = True,
    top_k: int = 5,
    add_special_tokens: bool = True,
    mask: Any = None,
    name: Optional[str] = None,
) -> dict:
    """Runs `model` on `text` (tokenized by `tokenizer`) with eager attention
    and writes the attention of every layer and head to `path` (an attnscope
    trace file, docs/trace-format.md). Returns the description written.

    The model stays where it is (CPU, one GPU, or spread with
    `device_map="auto"`); each layer's weights are brought to the host,
    converted to `dtype` ("float16" or "float32") and written before the next
    layer's, so the host holds at most one layer beyond the model's own output.

    queries_keys: also record every layer's queries and keys as they enter
    Q·Kᵀ (after RoPE, before the scale), for step by step. They are recorded
    by wrapping the model's `eager_attention_forward` for the forward.
    mask: the mask to record ("none", "causal", ("sliding_window", W), or a
    list of one per layer); by default it is read from the attention modules
    (`is_causal`, `sliding_window`) or the config, and checked against the
    weights either way.
    name: the model's name in the file (default: its `name_or_path`).
    """
    import torch

    encoded = tokenizer(text, add_special_tokens=add_special_tokens, return_tensors="pt")
    ids = encoded["input_ids"]
    if ids.shape[-1] == 0:
        raise ValueError("the text has no tokens: there is no attention to trace")
    parameters = inspect.signature(model.forward).parameters
    device = model.get_input_embeddings().weight.device
    inputs = {"input_ids": ids.to(device), "output_attentions": True}
    for key in ("attention_mask", "token_type_ids"):
        if key in encoded and key in parameters:
            inputs[key] = encoded[key].to(device)
    if "use_cache" in parameters:
        inputs["use_cache"] = False

    recorder = _Recorder(keep=queries_keys)
    with _eager(model), recorder.wrapping(model), torch.inference_mode():
        out = model(**inputs)
        attentions = list(getattr(out, "attentions", None) or [])
        if not attentions or any(a is None for a in attentions):
            raise ValueError("the model returned no attention weights (output_attentions=True gave none)")
        logits = getattr(out, "logits", None)
        del out

        n_layers, n_heads, n_tokens = len(attentions), attentions[0].shape[1], attentions[0].shape[-1]
        config = model.config
        calls = recorder.calls if len(recorder.calls) == n_layers else None
        if queries_keys and calls is None:
            raise ValueError(
                f"recorded {len(recorder.calls)} attention calls for {n_layers} layers: this model does not go through "
                "transformers' eager_attention_forward once per layer, so its queries and keys cannot be recorded"
            )
        masks = _masks(mask, calls, config, model, n_layers)
        for layer, (a, spec) in enumerate(zip(attentions, masks)):
            _check_mask(a[0], spec, layer)

        n_kv_heads = calls[0]["kv_heads"] if calls else getattr(config, "num_key_value_heads", None) or n_heads
        qk = None
        if queries_keys:
            scales = {c["scale"] for c in calls}
            if len(scales) != 1:
                raise ValueError(f"the layers scale Q·Kᵀ differently ({sorted(scales)}); a trace file has one scale")
            qk = {"scale": scales.pop(), "positions": _positions(model), "max_abs_error": max(c["error"] for c in calls)}
        top = None
        if logits is not None and top_k > 0 and all(m["type"] != "none" for m in masks):
            probs = torch.softmax(logits[0, -1].double(), dim=-1)
            p, i = torch.topk(probs, min(top_k, probs.shape[-1]))
            top_ids = [int(x) for x in i]
            shown = display_tokens(tokenizer, top_ids)
            top = [{"token": t, "id": j, "probability": float(q)} for t, j, q in zip(shown, top_ids, p)]
        del logits

        token_ids = [int(x) for x in ids[0]]
        description = describe(
            model_name=name or _model_name(model),
            architecture=type(model).__name__,
            model_type=getattr(config, "model_type", None),
            n_layers=n_layers,
            n_heads=n_heads,
            n_kv_heads=n_kv_heads,
            mask=masks,
            text=text,
            tokens=display_tokens(tokenizer, token_ids),
            token_ids=token_ids,
            top_next=top,
            queries_keys=qk,
            writer=f"attnscope-python {__version__} (transformers {_version('transformers')}, torch {torch.__version__})",
        )
        _write_layers(path, description, attentions, calls if queries_keys else None, dtype, qk_dtype, thumbnails)
    assert n_tokens == len(token_ids)
    return description


def trace_image(
    model,
    processor,
    image,
    path: str | os.PathLike,
    *,
    dtype: str = "float16",
    queries_keys: bool = False,
    qk_dtype: str = "float32",
    thumbnails: bool = True,
    name: Optional[str] = None,
    image_side: int = 448,
) -> dict:
    """Runs a vision transformer (ViT, DeiT, DINOv2, CLIP's or SigLIP's vision
    tower: any model whose tokens are special tokens, then a grid of patches
    row by row) on `image` (anything `processor` takes: a PIL image, a
    [height, width, 3] array) and writes the attention of every layer and
    head to `path`, a vision trace (format 1.1): the weights, the patch grid,
    which tokens are special, and the image as the model saw it (after the
    processor's resize and crop, its normalization undone), downscaled so
    that its longest side is at most `image_side` pixels. The other keywords
    are as for `trace`. Returns the description written.
    """
    import torch

    pixels = processor(images=image, return_tensors="pt")["pixel_values"]
    if pixels.ndim != 4 or pixels.shape[0] != 1 or pixels.shape[1] != 3:
        raise ValueError(f"the processor gave pixel values of shape {list(pixels.shape)}, not one RGB image [1, 3, H, W]")
    device = next(model.parameters()).device
    inputs = {"pixel_values": pixels.to(device=device, dtype=next(model.parameters()).dtype), "output_attentions": True}
    recorder = _Recorder(keep=queries_keys)
    with _eager(model), recorder.wrapping(model), torch.inference_mode():
        out = model(**inputs)
        attentions = list(getattr(out, "attentions", None) or [])
        if not attentions:  # CLIP-like models: the vision tower's own output
            attentions = list(getattr(getattr(out, "vision_model_output", None), "attentions", None) or [])
        if not attentions or any(a is None for a in attentions):
            raise ValueError("the model returned no attention weights (output_attentions=True gave none)")
        del out
        n_layers, n_heads, n_tokens = len(attentions), attentions[0].shape[1], attentions[0].shape[-1]
        config = getattr(model.config, "vision_config", None) or model.config
        patch = getattr(config, "patch_size", None)
        patch = patch[0] if isinstance(patch, (tuple, list)) else patch
        if not patch:
            raise ValueError("the model's config has no patch_size: is it a vision transformer?")
        height, width = int(pixels.shape[-2]), int(pixels.shape[-1])
        rows, cols = height // int(patch), width // int(patch)
        first_patch = n_tokens - rows * cols
        if rows < 1 or cols < 1 or first_patch < 0:
            raise ValueError(
                f"{n_tokens} tokens cannot hold the {rows} × {cols} patches of a {width} × {height} input "
                f"cut into {patch}-pixel squares"
            )
        calls = recorder.calls if len(recorder.calls) == n_layers else None
        if queries_keys and calls is None:
            raise ValueError(
                f"recorded {len(recorder.calls)} attention calls for {n_layers} layers: this model does not go through "
                "transformers' eager_attention_forward once per layer, so its queries and keys cannot be recorded"
            )
        masks = [{"type": "none"}] * n_layers
        qk = None
        if queries_keys:
            scales = {c["scale"] for c in calls}
            if len(scales) != 1:
                raise ValueError(f"the layers scale Q·Kᵀ differently ({sorted(scales)}); a trace file has one scale")
            qk = {"scale": scales.pop(), "positions": "input", "max_abs_error": max(c["error"] for c in calls)}
        specials = _special_names(first_patch, getattr(config, "model_type", "") or "")
        tokens = specials + [f"{r},{c}" for r in range(rows) for c in range(cols)]
        description = describe(
            model_name=name or _model_name(model),
            architecture=type(model).__name__,
            model_type=getattr(model.config, "model_type", None),
            n_layers=n_layers,
            n_heads=n_heads,
            n_kv_heads=calls[0]["kv_heads"] if calls else n_heads,
            mask=masks,
            tokens=tokens,
            queries_keys=qk,
            patches={"rows": rows, "cols": cols, "first_patch": first_patch, "patch_size": int(patch)},
            writer=f"attnscope-python {__version__} (transformers {_version('transformers')}, torch {torch.__version__})",
        )
        seen = _seen_image(pixels[0], processor, image_side)
        _write_layers(path, description, attentions, calls if queries_keys else None, dtype, qk_dtype, thumbnails, seen)
    return description


def _write_layers(path, description, attentions, calls, dtype, qk_dtype, thumbnails, image=None) -> None:
    """Writes the trace file layer by layer: each layer's weights (and, with the
    recorded `calls`, its queries and keys) brought to the host and written,
    then dropped (on the host, or the device) before the next one."""
    d_head = calls[0]["q"].shape[-1] if calls else None
    with TraceWriter(
        path, description, dtype=dtype, qk_dtype=qk_dtype, d_head=d_head, thumbnails=thumbnails, image=image
    ) as writer:
        for layer in range(len(attentions)):
            q = k = None
            if calls:
                q, k = _host(calls[layer].pop("q"), qk_dtype), _host(calls[layer].pop("k"), qk_dtype)
            writer.write_layer(_host(attentions[layer][0], dtype), q, k)
            attentions[layer] = q = k = None


def _special_names(count: int, model_type: str) -> list:
    """Names of the tokens before the patches: the class token, DeiT's
    distillation token, registers (DINOv2 with registers)."""
    names = ["[CLS]"] if count else []
    if count > 1 and model_type == "deit":
        names.append("[DIST]")
    names += [f"[REG{i}]" for i in range(count - len(names))]
    return names


def _seen_image(pixels, processor, side: int):
    """The model's input [3, H, W] back to uint8 [H', W', 3], its normalization
    undone, every pixel kept or dropped (nearest) so the longest side is at most `side`."""
    x = pixels.detach().float().cpu().numpy().transpose(1, 2, 0)  # [H, W, 3]
    mean = np.asarray(getattr(processor, "image_mean", None) or [0.0, 0.0, 0.0], dtype=np.float32)
    std = np.asarray(getattr(processor, "image_std", None) or [1.0, 1.0, 1.0], dtype=np.float32)
    x = np.clip((x * std + mean) * 255.0, 0.0, 255.0)
    h, w = x.shape[:2]
    scale = min(1.0, side / max(h, w))
    ys = (np.arange(max(1, round(h * scale))) / scale).astype(int).clip(0, h - 1)
    xs = (np.arange(max(1, round(w * scale))) / scale).astype(int).clip(0, w - 1)
    return np.rint(x[ys][:, xs]).astype(np.uint8)


def _host(t, dtype: str):
    """A tensor as a host numpy array: converted to `dtype` on its device
    first when it is not on the host (half the bytes cross for float16);
    on the host, numpy converts it (so the conversion shows in tracemalloc)."""
    import torch

    t = t.detach()
    if t.device.type != "cpu":
        return t.to(dtype=getattr(torch, dtype)).cpu().numpy()
    if t.dtype not in (torch.float16, torch.float32):
        t = t.float()  # bfloat16 and others, which numpy lacks
    return t.numpy()


@contextlib.contextmanager
def _eager(model):
    """Eager attention for the forward (the only kind that returns weights)."""
    before = getattr(model.config, "_attn_implementation", None)
    if before == "eager":
        yield
        return
    try:
        model.set_attn_implementation("eager")
    except Exception as e:  # older transformers, or a model that has no eager path
        raise ValueError(
            f"the model uses {before!r} attention, which returns no weights; load it with attn_implementation='eager'"
        ) from e
    try:
        yield
    finally:
        if before is not None:
            model.set_attn_implementation(before)


class _Recorder:
    """Wraps every `eager_attention_forward` the model's modules call, to
    see each layer's attention module, scale, and (if kept) queries and keys."""

    def __init__(self, keep: bool):
        self.keep = keep
        self.calls: list = []

    @contextlib.contextmanager
    def wrapping(self, model):
        patched = []
        names = {type(m).__module__ for m in model.modules()}
        for name in sorted(names):
            module = sys.modules.get(name)
            eager = getattr(module, "eager_attention_forward", None)
            if callable(eager):
                setattr(module, "eager_attention_forward", self._wrap(eager))
                patched.append((module, eager))
        try:
            yield
        finally:
            for module, eager in patched:
                setattr(module, "eager_attention_forward", eager)

    def _wrap(self, eager):
        def recording(module, query, key, value, attention_mask, *args, **kwargs):
            result = eager(module, query, key, value, attention_mask, *args, **kwargs)
            scaling = kwargs.get("scaling", args[0] if args else None)
            if scaling is None:
                scaling = query.shape[-1] ** -0.5
            call = {"module": module, "scale": float(scaling), "kv_heads": int(key.shape[1])}
            if self.keep:
                call["q"], call["k"] = query[0].detach(), key[0].detach()
                call["error"] = _recompute_error(call["q"], call["k"], attention_mask, float(scaling), result[1][0])
            self.calls.append(call)
            return result

        return recording


def _recompute_error(q, k, attention_mask, scale: float, weights) -> float:
    """max |weights − softmax(Q·Kᵀ·scale + M)|, from the recorded Q and K."""
    import torch

    q, k = q.float(), k.float()
    k = k.repeat_interleave(q.shape[0] // k.shape[0], dim=0)
    scores = torch.matmul(q, k.transpose(-1, -2)) * scale
    if attention_mask is not None:
        m = attention_mask[0][..., : scores.shape[-1]]
        scores = scores.masked_fill(~m, float("-inf")) if m.dtype == torch.bool else scores + m.float()
    again = torch.softmax(scores, dim=-1)
    return float((again - weights.float()).abs().max())


def _masks(mask, calls, config, model, n_layers: int) -> list:
    """One mask spec per layer: as given, else from the attention modules, else the config."""
    if mask is not None:
        masks = [mask_spec(m) for m in mask] if isinstance(mask, list) else [mask_spec(mask)] * n_layers
        if len(masks) != n_layers:
            raise ValueError(f"{len(masks)} masks for {n_layers} layers")
        return masks
    layer_types = getattr(config, "layer_types", None)
    out = []
    for layer in range(n_layers):
        module = calls[layer]["module"] if calls else None
        causal = getattr(module, "is_causal", None)
        if causal is None:
            causal = bool(getattr(config, "is_decoder", False)) or model.can_generate()
        window = getattr(module, "sliding_window", None)
        if window is None and layer_types and layer < len(layer_types) and layer_types[layer] == "sliding_attention":
            window = getattr(config, "sliding_window", None)
        if not causal:
            out.append({"type": "none"})
        elif window:
            out.append({"type": "sliding_window", "window": int(window)})
        else:
            out.append({"type": "causal"})
    return out


def _check_mask(weights, spec: dict, layer: int) -> None:
    """Every key the mask hides has weight exactly 0, or the mask is wrong."""
    import torch

    if spec["type"] == "none":
        return
    hidden = ~torch.from_numpy(allowed(spec, weights.shape[-1])).to(weights.device)
    if not bool(hidden.any()):
        return
    leak = max(float(head[hidden].abs().max()) for head in weights)  # head by head: no copy of the layer
    if leak != 0.0:
        raise ValueError(
            f"layer {layer}: keys a {spec['type']} mask hides have weights up to {leak:.3g}; "
            "pass mask=… to trace() with the model's real mask"
        )


def _positions(model) -> Optional[str]:
    """How positions reach Q and K: rotated into them, or added to the input."""
    names = {n.rsplit(".", 1)[-1] for n, _ in model.named_modules()}
    if "rotary_emb" in names:
        return "rope"
    if names & {"position_embeddings", "wpe", "embed_positions"}:
        return "input"
    return None


def _model_name(model) -> str:
    name = str(getattr(model, "name_or_path", "") or "")
    if name and os.path.exists(name):
        name = os.path.basename(os.path.normpath(name))  # a local folder: its name, not the user's path
    return name or type(model).__name__


def _version(package: str) -> str:
    module = sys.modules.get(package)
    return getattr(module, "__version__", "?")
