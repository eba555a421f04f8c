//! The Llama family of decoders: Llama, Mistral, SmolLM (SmolLM2 is a
//! checkpoint of it), Qwen2 (biases on q, k and v), from a Hugging Face
//! folder or a GGUF file.
//!
//! ```text
//!   h⁰ = token_embd[ids]
//!   per block:
//!     x  = RMSNorm(h) · attn_norm                          LayerTrace.input
//!     Q  = RoPE(x W_qᵀ + b_q)   K = RoPE(x W_kᵀ + b_k)   V = x W_vᵀ + b_v
//!     A  = softmax(Q Kᵀ/√d_head + M)                       M causal (or a sliding window)
//!     ΔE = [A V]_heads W_oᵀ                                LayerTrace.delta
//!     r  = h + ΔE                                          LayerTrace.residual
//!     h  = r + W_down (SiLU(W_gate y) ⊙ W_up y),  y = RMSNorm(r) · ffn_norm
//!   logits = RMSNorm(h_last) · output_norm · outputᵀ       (output = token_embd when tied)
//! ```
//!
//! Struct fields carry the GGUF tensor names (`attn_q`, `ffn_gate`, …); a
//! Hugging Face folder's names map onto them ([`Names`], [`hf_name`]). Weights stay as
//! the file stores them ([`QMatrix`](crate::kernels::quant::QMatrix)).
//!
//! llama.cpp's converter reorders the rows of a `llama` GGUF's `attn_q` and
//! `attn_k` so that RoPE rotates adjacent pairs (x[2i], x[2i+1]). That is
//! undone at load, so Q and K are in the Hugging Face layout (RoPE rotates
//! x[i] with x[i + d/2]) and what the page shows matches the reference
//! column for column. (Qwen2's GGUF keeps the Hugging Face order.)

use crate::attention::{Mask, Projections, Scale};
use crate::error::{Error, Result};
use crate::formats::hparams::{check_groups, split_evenly, Hparams};
use crate::formats::weights::Weights;
use crate::kernels::quant::QMatrix;
use crate::models::decoder::parts::{
    attend_cached, embed_rows, gated_block_matrices, rope_from_hf, silu_times, Attn, GatedFfn,
    Linear, Names, Products, Rope, RopeScaling, ATTENTION_MATRICES, GATED_BLOCK_MATRICES,
};
use crate::models::decoder::{BlockRows, Net, Shape};
use crate::models::norm::RmsNorm;
use crate::tensor::Matrix;
use crate::trace::LayerTrace;

/// Which member of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Llama,
    Mistral,
    Qwen2,
}

/// Hyper-parameters, from `config.json` or the GGUF metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub variant: Variant,
    pub n_layers: usize,
    pub d_model: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub d_head: usize,
    pub d_ff: usize,
    pub vocab_size: usize,
    pub rope_theta: f64,
    pub rope_scaling: RopeScaling,
    pub rms_eps: f32,
    /// Each layer's mask: causal, or a sliding window (Mistral, Qwen2's upper layers).
    pub masks: Vec<Mask>,
    /// Biases on the output projection and the feed-forward (Llama's
    /// `attention_bias` also puts them on q, k, v; Qwen2 always has those).
    pub qkv_bias: bool,
    pub o_bias: bool,
    pub mlp_bias: bool,
    /// llama.cpp's interleaved Q/K rows, undone at load (`llama` GGUFs).
    pub interleaved_qk: bool,
    /// The longest context the checkpoint was trained for, where it says.
    pub context: Option<usize>,
}

impl Config {
    pub fn from_hf(h: &Hparams, variant: Variant) -> Result<Config> {
        let act = h.string_or("hidden_act", "silu")?;
        if act != "silu" {
            return Err(h.bad(
                "hidden_act",
                format!("is {act:?}; the Llama family's feed-forward is \"silu\""),
            ));
        }
        let (d_model, n_heads) = (h.count("hidden_size")?, h.count("num_attention_heads")?);
        let n_kv_heads = h.count_or("num_key_value_heads", n_heads)?;
        check_groups(h, "num_attention_heads", n_heads, "num_key_value_heads", n_kv_heads)?;
        let d_head = match h.count_or_none("head_dim")? {
            Some(d) => d,
            None => split_evenly(h, "hidden_size", d_model, "num_attention_heads", n_heads)?,
        };
        let n_layers = h.count("num_hidden_layers")?;
        let (rope_theta, rope_scaling) = rope_from_hf(h, None, "rope_theta", 10000.0)?;
        let window = h.count_or_none("sliding_window")?;
        let masks = match variant {
            Variant::Mistral => vec![window.map_or(Mask::Causal, Mask::SlidingWindow); n_layers],
            Variant::Qwen2 if h.flag_or("use_sliding_window", false)? => {
                let from = h.count_or("max_window_layers", n_layers)?;
                (0..n_layers)
                    .map(|l| {
                        if l >= from {
                            window.map_or(Mask::Causal, Mask::SlidingWindow)
                        } else {
                            Mask::Causal
                        }
                    })
                    .collect()
            }
            _ => vec![Mask::Causal; n_layers],
        };
        let bias = h.flag_or("attention_bias", false)?;
        if h.number("partial_rotary_factor")?.is_some_and(|f| f != 1.0) {
            return Err(h.bad(
                "partial_rotary_factor",
                "is not 1: rotating part of each head is not implemented",
            ));
        }
        let c = Config {
            variant,
            n_layers,
            d_model,
            n_heads,
            n_kv_heads,
            d_head,
            d_ff: h.count("intermediate_size")?,
            vocab_size: h.count("vocab_size")?,
            rope_theta,
            rope_scaling,
            rms_eps: h.epsilon_or("rms_norm_eps", 1e-6)?,
            masks,
            qkv_bias: bias || variant == Variant::Qwen2,
            o_bias: bias,
            mlp_bias: h.flag_or("mlp_bias", false)?,
            interleaved_qk: false,
            context: h.count_or_none("max_position_embeddings")?,
        };
        c.check_rope_width(h, "head_dim")?;
        Ok(c)
    }

    /// From a GGUF's `{arch}.*` keys (`llama`, `qwen2`); biases are read
    /// where the file has them.
    pub fn from_gguf(h: &Hparams, variant: Variant, vocab_size: usize) -> Result<Config> {
        let (d_model, n_heads) = (h.count("embedding_length")?, h.count("attention.head_count")?);
        let n_kv_heads = h.count_or("attention.head_count_kv", n_heads)?;
        check_groups(h, "attention.head_count", n_heads, "attention.head_count_kv", n_kv_heads)?;
        let d_head = match h.count_or_none("attention.key_length")? {
            Some(d) => d,
            None => split_evenly(h, "embedding_length", d_model, "attention.head_count", n_heads)?,
        };
        if let Some(rope) = h.count_or_none("rope.dimension_count")? {
            if rope != d_head {
                return Err(
                    h.bad("rope.dimension_count", format!("= {rope}: rotating {rope} of {d_head} dimensions per head is not implemented"))
                );
            }
        }
        let scaling = h.string_or("rope.scaling.type", "none")?;
        let rope_scaling = match scaling.as_str() {
            "none" => RopeScaling::None,
            "linear" => RopeScaling::Linear(h.positive("rope.scaling.factor")?),
            other => {
                return Err(h.bad(
                    "rope.scaling.type",
                    format!("is {other:?}; only \"linear\" is implemented"),
                ))
            }
        };
        let n_layers = h.count("block_count")?;
        let c = Config {
            variant,
            n_layers,
            d_model,
            n_heads,
            n_kv_heads,
            d_head,
            d_ff: h.count("feed_forward_length")?,
            vocab_size,
            rope_theta: h.positive_or("rope.freq_base", 10000.0)?,
            rope_scaling,
            rms_eps: h.epsilon("attention.layer_norm_rms_epsilon")?,
            masks: vec![
                h.count_or_none("attention.sliding_window")?
                    .map_or(Mask::Causal, Mask::SlidingWindow);
                n_layers
            ],
            qkv_bias: false,
            o_bias: false,
            mlp_bias: false,
            interleaved_qk: variant != Variant::Qwen2,
            context: h.count_or_none("context_length")?,
        };
        c.check_rope_width(h, "attention.key_length")?;
        Ok(c)
    }

    fn check_rope_width(&self, h: &Hparams, key: &str) -> Result<()> {
        if !self.d_head.is_multiple_of(2) {
            return Err(h.bad(
                key,
                format!(
                    "= {}: RoPE turns dimensions in pairs, so heads need an even width",
                    self.d_head
                ),
            ));
        }
        Ok(())
    }
}

/// The Hugging Face names of a block's norms (the matrices' are shared, [`Names::block`]).
fn hf_name(gguf: &str) -> Option<&'static str> {
    match gguf {
        "attn_norm" => Some("input_layernorm"),
        "ffn_norm" => Some("post_attention_layernorm"),
        _ => None,
    }
}

/// One transformer block, fields named as in a GGUF file (`blk.N.*`).
#[derive(Clone, Debug)]
struct Block {
    attn_norm: RmsNorm,
    attn: Attn,
    ffn_norm: RmsNorm,
    ffn: GatedFfn,
    mask: Mask,
}

impl Block {
    fn load(w: &Weights, names: Names, i: usize, c: &Config) -> Result<Block> {
        let n = |s: &str| names.block(i, s, hf_name);
        let linear = |s: &str, rows: usize, cols: usize| -> Result<Linear> {
            let bias = if s.starts_with("ffn") {
                c.mlp_bias
            } else if s == "attn_output" {
                c.o_bias
            } else {
                c.qkv_bias
            };
            match names {
                // A GGUF says with its tensors whether it has biases.
                Names::Gguf => Linear::load_bias_if_any(w, &n(s), rows, cols),
                Names::HuggingFace => Linear::load(w, &n(s), rows, cols, bias),
            }
        };
        let mut attn = Attn::load(linear, c.d_model, c.n_heads, c.n_kv_heads, c.d_head)?;
        if c.interleaved_qk {
            unpermute(&mut attn.attn_q, c.n_heads, c.d_head);
            unpermute(&mut attn.attn_k, c.n_kv_heads, c.d_head);
        }
        Ok(Block {
            attn_norm: RmsNorm::load(
                w,
                &format!("{}.weight", n("attn_norm")),
                c.d_model,
                c.rms_eps,
                false,
            )?,
            attn,
            ffn_norm: RmsNorm::load(
                w,
                &format!("{}.weight", n("ffn_norm")),
                c.d_model,
                c.rms_eps,
                false,
            )?,
            ffn: GatedFfn::load(linear, c.d_model, c.d_ff)?,
            mask: c.masks[i],
        })
    }
}

/// Puts llama.cpp's interleaved Q or K rows back in the Hugging Face
/// order: HF row h·d + p·d/2 + i is GGUF row h·d + 2i + p (p ∈ {0, 1}).
fn unpermute(l: &mut Linear, n_heads: usize, d_head: usize) {
    let order = unpermute_order(n_heads, d_head);
    l.weight = l.weight.permute_rows(&order);
    if let Some(b) = &mut l.bias {
        *b = order.iter().map(|&r| b[r]).collect();
    }
}

fn unpermute_order(n_heads: usize, d_head: usize) -> Vec<usize> {
    let half = d_head / 2;
    let mut order = Vec::with_capacity(n_heads * d_head);
    for h in 0..n_heads {
        for p in 0..2 {
            for i in 0..half {
                order.push(h * d_head + 2 * i + p);
            }
        }
    }
    order
}

/// A Llama-family decoder's weights.
pub struct Llama {
    shape: Shape,
    config: Config,
    token_embd: QMatrix,
    blocks: Vec<Block>,
    output_norm: RmsNorm,
    /// The output matrix, when it is not `token_embd` (untied).
    output: Option<QMatrix>,
    rope: Rope,
}

impl Llama {
    pub fn load(w: &Weights, names: Names, config: Config, tied: bool) -> Result<Llama> {
        let c = &config;
        // Also the output matrix when tied, whose logits only set the next-token probabilities.
        let token_embd =
            w.qmatrix(names.top("token_embd"), c.vocab_size, c.d_model)?.with_16_bit_inputs();
        let blocks =
            (0..c.n_layers).map(|i| Block::load(w, names, i, c)).collect::<Result<Vec<_>>>()?;
        let output_norm = RmsNorm::load(w, names.top("output_norm"), c.d_model, c.rms_eps, false)?;
        let output = match (tied, w.has(names.top("output"))) {
            (_, true) => Some(w.qmatrix(names.top("output"), c.vocab_size, c.d_model)?.with_16_bit_inputs()),
            (true, false) => None,
            (false, false) => {
                return Err(Error::ModelFile(format!(
                    "the configuration says the output matrix is not the token embedding, but the weights have no `{}`",
                    names.top("output")
                )))
            }
        };
        let rope = Rope::new(c.d_head, c.rope_theta, &c.rope_scaling);
        let shape = Shape {
            n_layers: c.n_layers,
            n_heads: c.n_heads,
            n_kv_heads: c.n_kv_heads,
            d_model: c.d_model,
            d_head: c.d_head,
            vocab_size: c.vocab_size,
        };
        Ok(Llama { shape, config, token_embd, blocks, output_norm, output, rope })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }
}

impl Net for Llama {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn embed(&self, ids: &[u32], _start: usize) -> Result<Matrix> {
        Ok(embed_rows(&self.token_embd, ids))
    }

    fn attention_input(&self, l: usize, h: &Matrix) -> Matrix {
        self.blocks[l].attn_norm.forward(h)
    }

    fn block_rows(
        &self,
        l: usize,
        h: &Matrix,
        rows: BlockRows<'_>,
        mm: &mut Products,
        edit: Option<&dyn Fn(&mut Matrix)>,
    ) -> (LayerTrace, Matrix) {
        let (b, c) = (&self.blocks[l], &self.config);
        let x = self.attention_input(l, h);
        let [mut q, mut k, v] = b.attn.qkv(&x, mm);
        self.rope.apply(&mut q, c.d_head, rows.start);
        self.rope.apply(&mut k, c.d_head, rows.start);
        let new = Projections { q: &q, k: &k, v: &v, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads };
        let mut attention = attend_cached(new, rows.past, b.mask, Scale::InvSqrtDk, mm);
        if let Some(edit) = edit {
            edit(&mut attention.concat);
        }
        let delta = b.attn.output(&attention.concat, mm);
        let residual = h.add(&delta);
        let r = if rows.last_only {
            residual.rows_range(residual.rows - 1, 1)
        } else {
            residual.clone()
        };
        let down = b.ffn.forward(&b.ffn_norm.forward(&r), silu_times, mm);
        let out = r.add(&down);
        (LayerTrace::new(x, attention, delta, residual), out)
    }

    fn block_runs(
        &self,
        l: usize,
        h: &Matrix,
        n: usize,
        edits: &[&dyn Fn(&mut Matrix)],
        last_only: bool,
        mm: &mut Products,
    ) -> Option<Matrix> {
        let (b, c) = (&self.blocks[l], &self.config);
        let x = b.attn_norm.forward(h); // (runs·n, d_model)
        let [mut q, mut k, v] = b.attn.qkv(&x, mm);
        self.rope.apply_in_runs(&mut q, c.d_head, n);
        self.rope.apply_in_runs(&mut k, c.d_head, n);
        let mut concat = Matrix::zeros(0, q.cols); // (runs·n·max(1, edits), H·d_head)
        for s in (0..h.rows).step_by(n) {
            let run = |m: &Matrix| m.rows_range(s, n);
            let (q_run, k_run, v_run) = (run(&q), run(&k), run(&v));
            let new = Projections {
                q: &q_run,
                k: &k_run,
                v: &v_run,
                n_heads: c.n_heads,
                n_kv_heads: c.n_kv_heads,
            };
            let z = attend_cached(new, None, b.mask, Scale::InvSqrtDk, mm).concat;
            if edits.is_empty() {
                concat.push_rows(&z);
            }
            for edit in edits {
                let mut z = z.clone();
                edit(&mut z);
                concat.push_rows(&z);
            }
        }
        let delta = b.attn.output(&concat, mm);
        // With edits, every edited run adds its delta to the same input.
        let residual = if edits.is_empty() {
            h.add(&delta)
        } else {
            Matrix::concat_rows(&vec![h.clone(); edits.len()]).add(&delta)
        };
        let r = if last_only {
            residual.select_rows(&(n - 1..residual.rows).step_by(n).collect::<Vec<_>>())
        } else {
            residual
        };
        self.after_attention(l, &r, mm)
    }

    fn after_attention(&self, l: usize, residual: &Matrix, mm: &mut Products) -> Option<Matrix> {
        let b = &self.blocks[l];
        Some(residual.add(&b.ffn.forward(&b.ffn_norm.forward(residual), silu_times, mm)))
    }

    fn attention_output(&self, l: usize) -> Option<&QMatrix> {
        Some(&self.blocks.get(l)?.attn.attn_output.weight)
    }

    fn logits(&self, h_last: &Matrix, mm: &mut Products) -> Vec<f32> {
        let last = self.output_norm.forward(h_last);
        let [logits] = mm.matrices([self.output.as_ref().unwrap_or(&self.token_embd)], &last);
        logits.data
    }

    fn matrices(&self) -> Vec<&QMatrix> {
        let mut all: Vec<&QMatrix> =
            self.blocks.iter().flat_map(|b| gated_block_matrices(&b.attn, &b.ffn)).collect();
        all.push(self.output.as_ref().unwrap_or(&self.token_embd));
        all
    }

    fn matrices_per_block(&self) -> usize {
        GATED_BLOCK_MATRICES
    }

    fn attention_matrices(&self) -> usize {
        ATTENTION_MATRICES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpermute_turns_pairs_into_halves() {
        // GGUF rows (per head of 4): 0 1 2 3 hold x0 x2 x1 x3 in HF terms.
        assert_eq!(unpermute_order(1, 4), vec![0, 2, 1, 3]);
        assert_eq!(unpermute_order(2, 4)[4..], [4, 6, 5, 7]);
    }
}
