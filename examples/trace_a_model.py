#!/usr/bin/env python3
"""Write the attention of a Hugging Face transformers model to an attnscope
trace file, then open it with attnscope:

    pip install ./python            # from the attnscope repository
    python examples/trace_a_model.py HuggingFaceTB/SmolLM2-135M "The capital of France is" capital.trace.safetensors
    attnscope attention --trace capital.trace.safetensors --layer 3 --head 2 --png head.png

The model may be of any size: device_map="auto" spreads it over the GPUs
(and CPU) there are, and the file is written one layer at a time.
"""
import sys

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

import attnscope


def main():
    name, text, path = sys.argv[1:4]
    tokenizer = AutoTokenizer.from_pretrained(name)
    model = AutoModelForCausalLM.from_pretrained(
        name,
        attn_implementation="eager",  # the only attention that returns its weights
        dtype=torch.bfloat16 if torch.cuda.is_available() else torch.float32,
        device_map="auto",
    )
    description = attnscope.trace(model, tokenizer, text, path, queries_keys=True)
    print(f"{path}: {description['n_layers']} layers × {description['n_heads']} heads × {len(description['tokens'])} tokens")
    if description.get("top_next"):
        print("most likely next:", ", ".join(f"{t['token']!r} {t['probability']:.2f}" for t in description["top_next"]))


if __name__ == "__main__":
    main()
