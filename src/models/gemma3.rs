//! Gemma 3 (text), from a Hugging Face folder or a GGUF file.
//!
//! ```text
//!   h⁰ = token_embd[ids] · √d_model                          embedding scale
//!   per block:
//!     x  = RMSNorm(h) · (1 + attn_norm)                       LayerTrace.input
//!     Q  = RoPE(RMSNorm_head(x W_qᵀ) · (1 + attn_q_norm))     query and key norms, per head
//!     K  = RoPE(RMSNorm_head(x W_kᵀ) · (1 + attn_k_norm))     RoPE base: local or global
//!     A  = softmax(Q Kᵀ / √query_pre_attn_scalar + M)         M: sliding window (local) or causal (global)
//!     ΔE = RMSNorm([A V]_heads W_oᵀ) · (1 + post_attention_norm)   LayerTrace.delta
//!     r  = h + ΔE                                             LayerTrace.residual
//!     y  = RMSNorm(r) · (1 + ffn_norm)
//!     h  = r + RMSNorm(W_down (GELU_tanh(W_gate y) ⊙ W_up y)) · (1 + post_ffw_norm)
//!   logits = RMSNorm(h_last) · (1 + output_norm) · token_embdᵀ (tied)
//! ```
//!
//! Local layers (five in six, by default) see a sliding window of the last
//! `sliding_window` tokens and rotate with their own base (10,000); global
//! ones see every earlier token. Gemma is its own file rather than a Llama
//! variant: it differs from Llama in most lines of a block (four norms, two
//! more per head, the embedding scale, the attention scale, the masks and
//! bases per layer, GELU), and what the two share (the attention's and the
//! gated feed-forward's matrices, the tensor names, the cache, RoPE, the
//! products) is written once in [`crate::models::decoder::parts`].
//!
//! Struct fields carry the GGUF tensor names; a Hugging Face folder's map
//! onto them ([`Names`], [`hf_name`]). Hugging Face stores each norm's w and multiplies
//! by 1 + w; a GGUF stores 1 + w.

use crate::attention::{Mask, Projections, Scale};
use crate::error::Result;
use crate::formats::hparams::{check_groups, Hparams};
use crate::formats::weights::Weights;
use crate::kernels::quant::QMatrix;
use crate::models::decoder::parts::{
    attend_cached, embed_rows, gated_block_matrices, gelu_tanh_times, rope_from_hf, Attn, GatedFfn,
    Linear, Names, Products, Rope, RopeScaling, ATTENTION_MATRICES, GATED_BLOCK_MATRICES,
};
use crate::models::decoder::{BlockRows, Net, Shape};
use crate::models::norm::RmsNorm;
use crate::tensor::Matrix;
use crate::trace::LayerTrace;

/// One layer in this many is global unless the checkpoint lists its layers' types.
const SLIDING_WINDOW_PATTERN: usize = 6;
/// The local layers' rotary base, where a file does not state it (llama.cpp's and transformers'
/// default).
const LOCAL_ROPE_BASE: f64 = 10000.0;

/// Hyper-parameters, from `config.json` or the GGUF metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub n_layers: usize,
    pub d_model: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub d_head: usize,
    pub d_ff: usize,
    pub vocab_size: usize,
    pub rms_eps: f32,
    /// Scores are divided by √query_pre_attn_scalar.
    pub query_pre_attn_scalar: f64,
    pub sliding_window: usize,
    /// Which layers are local (sliding window).
    pub local: Vec<bool>,
    pub global_rope: (f64, RopeScaling),
    pub local_rope: (f64, RopeScaling),
    /// logits ← c · tanh(logits / c), where set.
    pub final_logit_softcapping: Option<f64>,
    /// The longest context the checkpoint was trained for, where it says.
    pub context: Option<usize>,
}

impl Config {
    pub fn from_hf(h: &Hparams) -> Result<Config> {
        let act = h.string_or("hidden_activation", "gelu_pytorch_tanh")?;
        if !matches!(act.as_str(), "gelu_pytorch_tanh" | "gelu_new" | "gelu_fast") {
            return Err(h.bad(
                "hidden_activation",
                format!("is {act:?}; Gemma 3's \"gelu_pytorch_tanh\" is implemented"),
            ));
        }
        if h.flag_or("use_bidirectional_attention", false)? {
            return Err(h.bad(
                "use_bidirectional_attention",
                "is true (an embedding model); only the causal Gemma 3 is implemented",
            ));
        }
        if h.number("attn_logit_softcapping")?.is_some() {
            return Err(h.bad(
                "attn_logit_softcapping",
                "is set; Gemma 3 has none, and it is not implemented",
            ));
        }
        let n_layers = h.count("num_hidden_layers")?;
        let local = match h.json("layer_types").and_then(|t| t.as_array()) {
            Some(types) if types.len() == n_layers => types
                .iter()
                .map(|t| match t.as_str() {
                    Some("sliding_attention") => Ok(true),
                    Some("full_attention") => Ok(false),
                    _ => Err(h.bad(
                        "layer_types",
                        format!("holds {t}; \"sliding_attention\" or \"full_attention\" expected"),
                    )),
                })
                .collect::<Result<Vec<bool>>>()?,
            Some(types) => {
                return Err(h.bad(
                    "layer_types",
                    format!("lists {} layers for num_hidden_layers = {n_layers}", types.len()),
                ))
            }
            None => {
                pattern(n_layers, h.count_or("sliding_window_pattern", SLIDING_WINDOW_PATTERN)?)
            }
        };
        let (n_heads, d_model) = (h.count("num_attention_heads")?, h.count("hidden_size")?);
        let n_kv_heads = h.count_or("num_key_value_heads", n_heads)?;
        check_groups(h, "num_attention_heads", n_heads, "num_key_value_heads", n_kv_heads)?;
        let global_rope = rope_from_hf(h, Some("full_attention"), "rope_theta", 1_000_000.0)?;
        let local_rope = match h.json("rope_parameters") {
            Some(_) => {
                rope_from_hf(h, Some("sliding_attention"), "rope_local_base_freq", LOCAL_ROPE_BASE)?
            }
            None => (h.positive_or("rope_local_base_freq", LOCAL_ROPE_BASE)?, RopeScaling::None),
        };
        let c = Config {
            n_layers,
            d_model,
            n_heads,
            n_kv_heads,
            d_head: h.count_or("head_dim", 256)?,
            d_ff: h.count("intermediate_size")?,
            vocab_size: h.count("vocab_size")?,
            rms_eps: h.epsilon_or("rms_norm_eps", 1e-6)?,
            query_pre_attn_scalar: h.positive_or("query_pre_attn_scalar", 256.0)?,
            sliding_window: h.count_or("sliding_window", 4096)?,
            local,
            global_rope,
            local_rope,
            final_logit_softcapping: h.positive_or_none("final_logit_softcapping")?,
            context: h.count_or_none("max_position_embeddings")?,
        };
        c.check(h, "head_dim")
    }

    /// From a GGUF's `gemma3.*` keys, with llama.cpp's conventions for what
    /// they leave out: five local layers in six with a rotary base of
    /// 10,000, and scores divided by √d_head.
    pub fn from_gguf(h: &Hparams, vocab_size: usize) -> Result<Config> {
        let (n_heads, d_model) = (h.count("attention.head_count")?, h.count("embedding_length")?);
        let n_kv_heads = h.count_or("attention.head_count_kv", n_heads)?;
        check_groups(h, "attention.head_count", n_heads, "attention.head_count_kv", n_kv_heads)?;
        let d_head = h.count_or("attention.key_length", 256)?;
        if let Some(v) = h.count_or_none("attention.value_length")? {
            if v != d_head {
                return Err(h.bad(
                    "attention.value_length",
                    format!("= {v} differs from attention.key_length = {d_head}, which is not implemented"),
                ));
            }
        }
        let n_layers = h.count("block_count")?;
        let c = Config {
            n_layers,
            d_model,
            n_heads,
            n_kv_heads,
            d_head,
            d_ff: h.count("feed_forward_length")?,
            vocab_size,
            rms_eps: h.epsilon_or("attention.layer_norm_rms_epsilon", 1e-6)?,
            query_pre_attn_scalar: d_head as f64,
            sliding_window: h.count("attention.sliding_window")?,
            local: pattern(n_layers, SLIDING_WINDOW_PATTERN),
            global_rope: (h.positive_or("rope.freq_base", 1_000_000.0)?, RopeScaling::None),
            local_rope: (LOCAL_ROPE_BASE, RopeScaling::None),
            final_logit_softcapping: h.positive_or_none("final_logit_softcapping")?,
            context: h.count_or_none("context_length")?,
        };
        c.check(h, "attention.key_length")
    }

    fn check(self, h: &Hparams, head_key: &str) -> Result<Config> {
        if !self.d_head.is_multiple_of(2) {
            return Err(h.bad(
                head_key,
                format!(
                    "= {}: RoPE turns dimensions in pairs, so heads need an even width",
                    self.d_head
                ),
            ));
        }
        Ok(self)
    }

    /// Layer `l`'s mask.
    pub fn mask(&self, l: usize) -> Mask {
        if self.local[l] {
            Mask::SlidingWindow(self.sliding_window)
        } else {
            Mask::Causal
        }
    }
}

/// Every `every`-th layer global, the others local.
fn pattern(n_layers: usize, every: usize) -> Vec<bool> {
    (0..n_layers).map(|l| (l + 1) % every != 0).collect()
}

/// The Hugging Face names of a block's norms (the matrices' are shared, [`Names::block`]).
fn hf_name(gguf: &str) -> Option<&'static str> {
    match gguf {
        "attn_norm" => Some("input_layernorm"),
        "attn_q_norm" => Some("self_attn.q_norm"),
        "attn_k_norm" => Some("self_attn.k_norm"),
        "post_attention_norm" => Some("post_attention_layernorm"),
        "ffn_norm" => Some("pre_feedforward_layernorm"),
        "post_ffw_norm" => Some("post_feedforward_layernorm"),
        _ => None,
    }
}

/// One block, fields named as in a GGUF file (`blk.N.*`).
#[derive(Clone, Debug)]
struct Block {
    attn_norm: RmsNorm,
    attn: Attn,
    attn_q_norm: RmsNorm,
    attn_k_norm: RmsNorm,
    post_attention_norm: RmsNorm,
    ffn_norm: RmsNorm,
    ffn: GatedFfn,
    post_ffw_norm: RmsNorm,
}

impl Block {
    fn load(w: &Weights, names: Names, i: usize, c: &Config) -> Result<Block> {
        let n = |s: &str| names.block(i, s, hf_name);
        let plus_one = names == Names::HuggingFace;
        let norm = |s: &str, d: usize| {
            RmsNorm::load(w, &format!("{}.weight", n(s)), d, c.rms_eps, plus_one)
        };
        let linear = |s: &str, rows: usize, cols: usize| Linear::load(w, &n(s), rows, cols, false);
        let d = c.d_model;
        Ok(Block {
            attn_norm: norm("attn_norm", d)?,
            attn: Attn::load(linear, d, c.n_heads, c.n_kv_heads, c.d_head)?,
            attn_q_norm: norm("attn_q_norm", c.d_head)?,
            attn_k_norm: norm("attn_k_norm", c.d_head)?,
            post_attention_norm: norm("post_attention_norm", d)?,
            ffn_norm: norm("ffn_norm", d)?,
            ffn: GatedFfn::load(linear, d, c.d_ff)?,
            post_ffw_norm: norm("post_ffw_norm", d)?,
        })
    }
}

/// Gemma 3's weights.
pub struct Gemma3 {
    shape: Shape,
    config: Config,
    token_embd: QMatrix,
    /// √d_model, rounded to f32 as the reference rounds it.
    embedding_scale: f32,
    blocks: Vec<Block>,
    output_norm: RmsNorm,
    global_rope: Rope,
    local_rope: Rope,
}

impl Gemma3 {
    pub fn load(w: &Weights, names: Names, config: Config) -> Result<Gemma3> {
        let c = &config;
        let token_embd =
            w.qmatrix(names.top("token_embd"), c.vocab_size, c.d_model)?.with_16_bit_inputs();
        let blocks =
            (0..c.n_layers).map(|i| Block::load(w, names, i, c)).collect::<Result<Vec<_>>>()?;
        let output_norm = RmsNorm::load(
            w,
            names.top("output_norm"),
            c.d_model,
            c.rms_eps,
            names == Names::HuggingFace,
        )?;
        let shape = Shape {
            n_layers: c.n_layers,
            n_heads: c.n_heads,
            n_kv_heads: c.n_kv_heads,
            d_model: c.d_model,
            d_head: c.d_head,
            vocab_size: c.vocab_size,
        };
        Ok(Gemma3 {
            shape,
            token_embd,
            embedding_scale: (c.d_model as f64).sqrt() as f32,
            blocks,
            output_norm,
            global_rope: Rope::new(c.d_head, c.global_rope.0, &c.global_rope.1),
            local_rope: Rope::new(c.d_head, c.local_rope.0, &c.local_rope.1),
            config,
        })
    }
}

impl Net for Gemma3 {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn embed(&self, ids: &[u32], _start: usize) -> Result<Matrix> {
        let mut h = embed_rows(&self.token_embd, ids);
        h.data.iter_mut().for_each(|x| *x *= self.embedding_scale);
        Ok(h)
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
        let BlockRows { start, past, last_only } = rows;
        let (b, c) = (&self.blocks[l], &self.config);
        let x = self.attention_input(l, h);
        let [mut q, mut k, v] = b.attn.qkv(&x, mm);
        b.attn_q_norm.forward_chunks(&mut q, c.d_head);
        b.attn_k_norm.forward_chunks(&mut k, c.d_head);
        let rope = if c.local[l] { &self.local_rope } else { &self.global_rope };
        rope.apply(&mut q, c.d_head, start);
        rope.apply(&mut k, c.d_head, start);
        let scale = Scale::Factor((1.0 / c.query_pre_attn_scalar.sqrt()) as f32);
        let new = Projections { q: &q, k: &k, v: &v, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads };
        let mut attention = attend_cached(new, past, c.mask(l), scale, mm);
        if let Some(edit) = edit {
            edit(&mut attention.concat); // [Z_1 | … | Z_H] edited before W_O
        }
        let delta = b.post_attention_norm.forward(&b.attn.output(&attention.concat, mm));
        let residual = h.add(&delta);
        let r =
            if last_only { residual.rows_range(residual.rows - 1, 1) } else { residual.clone() };
        let down = b.ffn.forward(&b.ffn_norm.forward(&r), gelu_tanh_times, mm);
        let out = r.add(&b.post_ffw_norm.forward(&down));
        (LayerTrace::new(x, attention, delta, residual), out)
    }

    fn logits(&self, h_last: &Matrix, mm: &mut Products) -> Vec<f32> {
        let last = self.output_norm.forward(h_last);
        let [logits] = mm.matrices([&self.token_embd], &last);
        let mut logits = logits.data;
        if let Some(cap) = self.config.final_logit_softcapping {
            let cap = cap as f32;
            logits.iter_mut().for_each(|z| *z = cap * (*z / cap).tanh());
        }
        logits
    }

    fn matrices(&self) -> Vec<&QMatrix> {
        let mut all: Vec<&QMatrix> =
            self.blocks.iter().flat_map(|b| gated_block_matrices(&b.attn, &b.ffn)).collect();
        all.push(&self.token_embd);
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
    fn five_local_layers_in_six() {
        assert_eq!(pattern(8, 6), [true, true, true, true, true, false, true, true]);
    }
}
