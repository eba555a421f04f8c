#!/usr/bin/env python3
"""Tiny randomly initialized checkpoints of every architecture attnscope
reads from a Hugging Face folder, and what transformers computes on them.

For each architecture this writes tests/fixtures/tiny/<name>/ with the folder
the app opens (config.json, tokenizer.json, model.safetensors or its shards
with their index) and reference.json: the tokens and ids of the `tokenizers`
library, the attention weights of every layer and head (eager attention,
float32) and, for decoders, the id of the most likely next token.
tests/tiny/reference.rs compares the Rust models with them.

The widths are tiny and the vocabulary is a few hundred tokens trained on a
few sentences, so that the fixtures stay small; the tokenizer is not what is
under test here (the tokenizers crate reads tokenizer.json). Weights are drawn
wider than transformers' own initialisation (std 0.02 gives near-uniform
attention, which would hide a wrong mask or position) and every bias is
random, so that a missing bias shows. Two checkpoints are stored in half
precision (f16, bf16) and one in shards; the reference then runs on the
weights as rounded, widened back to float32, which is what the app reads.

Run with a venv that has torch, transformers and tokenizers:
    /work/venv/bin/python scripts/reference/tiny_reference.py
"""
import copy
import json
import shutil
from pathlib import Path

import torch
import transformers
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import AutoModel, AutoModelForCausalLM

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "tiny"
DECIMALS = 7

CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Attention lets every token look at the others, weighted by a softmax.",
    "Unbelievable! The tokenizer splits rare words into subwords, doesn't it?",
    "A fluffy blue creature roamed the verdant forest at night.",
    "Queries, keys and values: each head computes its own weights.",
]
# Subwords, punctuation, an emoji and another script (the last two fall
# back to bytes or the unknown token in these tiny vocabularies).
TEXTS = [
    "Unbelievably, the fluffy creature's queries attend elsewhere!",
    "Привет, 世界: tokens 🐟 and weights.",
]
VOCAB = 320


def byte_level_bpe(bos=None):
    """A GPT-2-style byte-level BPE; with `bos`, a post-processor adds it first."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    specials = [bos] if bos else ["<|endoftext|>"]
    trainer = trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(CORPUS, trainer)
    if bos:
        tok.post_processor = processors.TemplateProcessing(single=f"{bos} $A", special_tokens=[(bos, tok.token_to_id(bos))])
    else:
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
    return tok


def wordpiece(cls, sep, pad, unk, mask):
    """A BERT-style WordPiece whose special tokens are the variant's own, `pad` first."""
    tok = Tokenizer(models.WordPiece(unk_token=unk))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=200, special_tokens=[pad, cls, sep, unk, mask])
    tok.train_from_iterator(CORPUS, trainer)
    tok.post_processor = processors.TemplateProcessing(
        single=f"{cls} $A {sep}", special_tokens=[(cls, tok.token_to_id(cls)), (sep, tok.token_to_id(sep))]
    )
    return tok


def randomize(model, seed):
    """Weights wide enough for peaked attention; norms near one; every bias random."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            lowered = name.lower()
            if "norm" in lowered or ".ln_" in lowered or "layernorm" in lowered:
                base = 0.0 if ("gemma" in type(model).__name__.lower() and name.endswith("weight")) else (1.0 if name.endswith("weight") else 0.0)
                p.copy_(base + 0.1 * torch.randn(p.shape, generator=g))
            elif "relative_attention_bias" in lowered:
                p.copy_(torch.randn(p.shape, generator=g))
            elif "embed" in lowered or "wte" in lowered or "wpe" in lowered:
                p.copy_(0.5 * torch.randn(p.shape, generator=g))
            else:
                p.copy_(0.15 * torch.randn(p.shape, generator=g))


def round_to(model, dtype):
    """The weights as stored in `dtype`, widened back (what the app computes with)."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.to(dtype).to(torch.float32))


def reference(model, tok, decoder):
    cases = []
    for text in TEXTS:
        enc = tok.encode(text)
        ids = torch.tensor([enc.ids])
        with torch.no_grad():
            out = model(input_ids=ids, output_attentions=True)
        case = {
            "text": text,
            "tokens": enc.tokens,
            "ids": enc.ids,
            "attention": [[[[round(x, DECIMALS) for x in row] for row in head] for head in layer[0].tolist()] for layer in out.attentions],
        }
        if decoder:
            case["top_next_id"] = int(out.logits[0, -1].argmax())
        cases.append(case)
    return cases


def build(name, config, tok, decoder, dtype=None, shard=None, seed=0):
    torch.manual_seed(seed)
    auto = AutoModelForCausalLM if decoder else AutoModel
    model = auto.from_config(config, attn_implementation="eager").to(torch.float32)
    model.eval()
    randomize(model, seed)
    if dtype is not None:
        round_to(model, dtype)
    folder = OUT / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    # A copy is narrowed for the file: `.to()` would also round the model's
    # own buffers (RoPE's inverse frequencies), which the reference keeps in float32.
    save = copy.deepcopy(model).to(dtype) if dtype is not None else model
    kwargs = {"max_shard_size": shard} if shard else {}
    save.save_pretrained(folder, safe_serialization=True, **kwargs)
    for extra in folder.iterdir():
        if extra.name == "generation_config.json":
            extra.unlink()
    tok.save(str(folder / "tokenizer.json"))
    cases = reference(model, tok, decoder)
    info = {"transformers": transformers.__version__, "torch": torch.__version__, "dtype": str(dtype or torch.float32), "cases": cases}
    (folder / "reference.json").write_text(json.dumps(info, ensure_ascii=False, separators=(",", ":")))
    size = sum(f.stat().st_size for f in folder.iterdir())
    print(f"{name}: {size / 1024:.0f} KiB, tokens {[len(c['ids']) for c in cases]}")


def main():
    from transformers import BertConfig, DistilBertConfig, GPT2Config, Gemma3TextConfig, LlamaConfig, MistralConfig, MPNetConfig, Qwen2Config, RobertaConfig

    bpe = byte_level_bpe()
    bpe_bos = byte_level_bpe("<s>")
    bert_tok = wordpiece("[CLS]", "[SEP]", "[PAD]", "[UNK]", "[MASK]")
    roberta_tok = wordpiece("<s>", "</s>", "<pad>", "<unk>", "<mask>")
    # RoBERTa and MPNet count positions from pad_token_id + 1, read from config.json.
    assert roberta_tok.token_to_id("<pad>") == 0
    small = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64)

    build("bert", BertConfig(vocab_size=bert_tok.get_vocab_size(), max_position_embeddings=64, **small), bert_tok, False, seed=1)
    build(
        "roberta",
        RobertaConfig(vocab_size=roberta_tok.get_vocab_size(), max_position_embeddings=64, pad_token_id=0, bos_token_id=1, eos_token_id=2, **small),
        roberta_tok,
        False,
        seed=2,
    )
    build(
        "distilbert",
        DistilBertConfig(vocab_size=bert_tok.get_vocab_size(), max_position_embeddings=64, dim=32, n_layers=2, n_heads=4, hidden_dim=64),
        bert_tok,
        False,
        seed=3,
    )
    build(
        "mpnet",
        MPNetConfig(vocab_size=roberta_tok.get_vocab_size(), max_position_embeddings=64, pad_token_id=0, bos_token_id=1, eos_token_id=2, relative_attention_num_buckets=32, **small),
        roberta_tok,
        False,
        seed=4,
    )
    build(
        "llama",
        LlamaConfig(
            vocab_size=bpe_bos.get_vocab_size(), num_key_value_heads=2, head_dim=8, max_position_embeddings=128, rope_theta=10000.0, tie_word_embeddings=False, bos_token_id=0, eos_token_id=0, **small
        ),
        bpe_bos,
        True,
        dtype=torch.float16,
        seed=5,
    )
    build(
        "qwen2",
        Qwen2Config(vocab_size=bpe.get_vocab_size(), num_key_value_heads=2, max_position_embeddings=128, rope_theta=1000000.0, tie_word_embeddings=True, bos_token_id=0, eos_token_id=0, **small),
        bpe,
        True,
        dtype=torch.bfloat16,
        seed=6,
    )
    build(
        "mistral",
        MistralConfig(vocab_size=bpe_bos.get_vocab_size(), num_key_value_heads=1, max_position_embeddings=128, sliding_window=5, tie_word_embeddings=False, bos_token_id=0, eos_token_id=0, **small),
        bpe_bos,
        True,
        seed=7,
    )
    build(
        "gpt2",
        GPT2Config(vocab_size=bpe.get_vocab_size(), n_positions=64, n_embd=32, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0),
        bpe,
        True,
        shard="40KB",
        seed=8,
    )
    build(
        "gemma3",
        Gemma3TextConfig(
            vocab_size=bpe_bos.get_vocab_size(),
            hidden_size=32,
            num_hidden_layers=3,
            num_attention_heads=4,
            num_key_value_heads=2,
            head_dim=16,
            intermediate_size=64,
            query_pre_attn_scalar=16,
            sliding_window=4,
            layer_types=["sliding_attention", "sliding_attention", "full_attention"],
            max_position_embeddings=128,
            bos_token_id=0,
            eos_token_id=0,
            pad_token_id=0,
        ),
        bpe_bos,
        True,
        seed=9,
    )


if __name__ == "__main__":
    main()
