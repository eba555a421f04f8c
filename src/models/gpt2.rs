//! GPT-2, from a Hugging Face folder or a GGUF file.
//!
//! ```text
//!   h⁰ = wte[ids] + wpe[positions]                        learned positions
//!   per block:
//!     x  = LayerNorm(h) · ln_1                             LayerTrace.input
//!     [Q | K | V] = x W_c_attnᵀ + b                        one fused product
//!     A  = softmax(Q Kᵀ/√d_head + M_causal)
//!     ΔE = [A V]_heads W_c_projᵀ + b                       LayerTrace.delta
//!     r  = h + ΔE                                          LayerTrace.residual
//!     h  = r + W_mlp.c_proj GELU_tanh(W_c_fc LayerNorm(r) · ln_2)
//!   logits = LayerNorm(h_last) · ln_f · wteᵀ               (tied)
//! ```
//!
//! Struct fields carry the Hugging Face names (`h.3.attn.c_attn`); a GGUF's
//! (`blk.3.attn_qkv`) map onto them. Hugging Face stores GPT-2's matrices
//! as `Conv1D`, input × output, the transpose of `nn.Linear`: they are
//! turned at load (a GGUF stores them turned already).

use crate::attention::{Mask, Projections, Scale};
use crate::error::{Error, Result};
use crate::formats::hparams::{split_evenly, Hparams};
use crate::formats::weights::Weights;
use crate::kernels::quant::{QMatrix, QType};
use crate::models::decoder::parts::{attend_cached, embed_rows, gelu_tanh, Linear, Products};
use crate::models::decoder::{BlockRows, Net, Shape};
use crate::models::norm::LayerNorm;
use crate::tensor::Matrix;
use crate::trace::LayerTrace;

/// Hyper-parameters, from `config.json` or the GGUF metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub n_layers: usize,
    pub d_model: usize,
    pub n_heads: usize,
    pub d_ff: usize,
    pub n_positions: usize,
    pub vocab_size: usize,
    pub eps: f32,
    /// Whether scores are divided by √d_head (`scale_attn_weights`).
    pub scaled: bool,
}

impl Config {
    pub fn from_hf(h: &Hparams) -> Result<Config> {
        let act = h.string_or("activation_function", "gelu_new")?;
        if !matches!(act.as_str(), "gelu_new" | "gelu_pytorch_tanh" | "gelu_fast") {
            return Err(h.bad(
                "activation_function",
                format!("is {act:?}; GPT-2's \"gelu_new\" is implemented"),
            ));
        }
        for key in ["scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn"] {
            if h.flag_or(key, false)? {
                return Err(h.bad(key, "is true, which is not implemented"));
            }
        }
        let (d_model, n_heads) = (h.count("n_embd")?, h.count("n_head")?);
        split_evenly(h, "n_embd", d_model, "n_head", n_heads)?;
        Ok(Config {
            n_layers: h.count("n_layer")?,
            d_model,
            n_heads,
            d_ff: h.count_or("n_inner", 4 * d_model)?,
            n_positions: h.count_or("n_positions", h.count_or("n_ctx", 1024)?)?,
            vocab_size: h.count("vocab_size")?,
            eps: h.epsilon_or("layer_norm_epsilon", 1e-5)?,
            scaled: h.flag_or("scale_attn_weights", true)?,
        })
    }

    pub fn from_gguf(h: &Hparams, vocab_size: usize) -> Result<Config> {
        let (d_model, n_heads) = (h.count("embedding_length")?, h.count("attention.head_count")?);
        split_evenly(h, "embedding_length", d_model, "attention.head_count", n_heads)?;
        Ok(Config {
            n_layers: h.count("block_count")?,
            d_model,
            n_heads,
            d_ff: h.count_or("feed_forward_length", 4 * d_model)?,
            n_positions: h.count("context_length")?,
            vocab_size,
            eps: h.epsilon_or("attention.layer_norm_epsilon", 1e-5)?,
            scaled: true,
        })
    }

    pub fn d_head(&self) -> usize {
        self.d_model / self.n_heads
    }
}

/// Tensor names: Hugging Face's (with the prefix its checkpoint uses, often
/// `transformer.`), or a GGUF's.
pub enum Names {
    HuggingFace(&'static str),
    Gguf,
}

impl Names {
    /// A Hugging Face folder's names, with the prefix its tensors carry.
    pub fn hugging_face(w: &Weights) -> Names {
        Names::HuggingFace(if w.has("transformer.wte.weight") { "transformer." } else { "" })
    }

    /// Tensor `hf` (`h.3.attn.c_attn`, `wte`) as the file names it, without `.weight`.
    fn of(&self, hf: &str) -> String {
        match self {
            Names::HuggingFace(prefix) => format!("{prefix}{hf}"),
            Names::Gguf => {
                let (block, part) =
                    match hf.strip_prefix("h.").and_then(|rest| rest.split_once('.')) {
                        Some((i, part)) => (Some(i), part),
                        None => (None, hf),
                    };
                let gguf = match part {
                    "wte" => "token_embd",
                    "wpe" => "position_embd",
                    "ln_f" => "output_norm",
                    "ln_1" => "attn_norm",
                    "attn.c_attn" => "attn_qkv",
                    "attn.c_proj" => "attn_output",
                    "ln_2" => "ffn_norm",
                    "mlp.c_fc" => "ffn_up",
                    "mlp.c_proj" => "ffn_down",
                    other => other,
                };
                match block {
                    Some(i) => format!("blk.{i}.{gguf}"),
                    None => gguf.to_string(),
                }
            }
        }
    }

    /// A Conv1D of `d_in` inputs and `d_out` outputs, as y = x Wᵀ + b.
    fn conv1d(&self, w: &Weights, hf: &str, d_in: usize, d_out: usize) -> Result<Linear> {
        let name = self.of(hf);
        let weight = match self {
            Names::Gguf => w.qmatrix(&format!("{name}.weight"), d_out, d_in)?,
            Names::HuggingFace(_) => {
                let turned = w.matrix(&format!("{name}.weight"), d_in, d_out)?.transpose();
                QMatrix::new(
                    d_out,
                    d_in,
                    QType::F32,
                    turned.data.iter().flat_map(|v| v.to_le_bytes()).collect(),
                )?
            }
        };
        Ok(Linear { weight, bias: Some(w.vector(&format!("{name}.bias"), d_out)?) })
    }

    fn layer_norm(&self, w: &Weights, hf: &str, d: usize, eps: f32) -> Result<LayerNorm> {
        LayerNorm::load(w, &self.of(hf), d, eps)
    }
}

#[derive(Clone, Debug)]
struct Attn {
    c_attn: Linear,
    c_proj: Linear,
}

#[derive(Clone, Debug)]
struct Mlp {
    c_fc: Linear,
    c_proj: Linear,
}

/// `h.N`.
#[derive(Clone, Debug)]
struct Block {
    ln_1: LayerNorm,
    attn: Attn,
    ln_2: LayerNorm,
    mlp: Mlp,
}

/// The weight matrices of a block, in the order it multiplies by them.
const MATRICES_PER_BLOCK: usize = 4;

/// GPT-2's weights.
pub struct Gpt2 {
    shape: Shape,
    config: Config,
    wte: QMatrix,
    wpe: Matrix,
    h: Vec<Block>,
    ln_f: LayerNorm,
    /// A separate output matrix, where a GGUF stores one (a copy of `wte`).
    output: Option<QMatrix>,
}

impl Gpt2 {
    pub fn load(w: &Weights, names: &Names, config: Config) -> Result<Gpt2> {
        let c = &config;
        let (d, eps) = (c.d_model, c.eps);
        let block = |i: usize| -> Result<Block> {
            let at = |part: &str| format!("h.{i}.{part}");
            Ok(Block {
                ln_1: names.layer_norm(w, &at("ln_1"), d, eps)?,
                attn: Attn {
                    c_attn: names.conv1d(w, &at("attn.c_attn"), d, 3 * d)?,
                    c_proj: names.conv1d(w, &at("attn.c_proj"), d, d)?,
                },
                ln_2: names.layer_norm(w, &at("ln_2"), d, eps)?,
                mlp: Mlp {
                    c_fc: names.conv1d(w, &at("mlp.c_fc"), d, c.d_ff)?,
                    c_proj: names.conv1d(w, &at("mlp.c_proj"), c.d_ff, d)?,
                },
            })
        };
        let h = (0..c.n_layers).map(block).collect::<Result<Vec<_>>>()?;
        let output = match names {
            Names::Gguf if w.has("output.weight") => {
                Some(w.qmatrix("output.weight", c.vocab_size, d)?.with_16_bit_inputs())
            }
            _ => None,
        };
        let shape = Shape {
            n_layers: c.n_layers,
            n_heads: c.n_heads,
            n_kv_heads: c.n_heads,
            d_model: d,
            d_head: c.d_head(),
            vocab_size: c.vocab_size,
        };
        Ok(Gpt2 {
            shape,
            wte: w
                .qmatrix(&format!("{}.weight", names.of("wte")), c.vocab_size, d)?
                .with_16_bit_inputs(),
            wpe: w.matrix(&format!("{}.weight", names.of("wpe")), c.n_positions, d)?,
            h,
            ln_f: names.layer_norm(w, "ln_f", d, eps)?,
            output,
            config,
        })
    }
}

impl Net for Gpt2 {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn embed(&self, ids: &[u32], start: usize) -> Result<Matrix> {
        if start + ids.len() > self.wpe.rows {
            return Err(Error::Invalid(format!(
                "GPT-2 has {} positions; the text needs {}",
                self.wpe.rows,
                start + ids.len()
            )));
        }
        let mut h = embed_rows(&self.wte, ids);
        for r in 0..h.rows {
            h.row_mut(r).iter_mut().zip(self.wpe.row(start + r)).for_each(|(x, p)| *x += p);
        }
        Ok(h)
    }

    fn attention_input(&self, l: usize, h: &Matrix) -> Matrix {
        self.h[l].ln_1.forward(h)
    }

    fn block_rows(
        &self,
        l: usize,
        h: &Matrix,
        rows: BlockRows<'_>,
        mm: &mut Products,
        edit: Option<&dyn Fn(&mut Matrix)>,
    ) -> (LayerTrace, Matrix) {
        let BlockRows { past, last_only, .. } = rows;
        let (b, d) = (&self.h[l], self.shape.d_model);
        let x = self.attention_input(l, h);
        let [qkv] = mm.linear([&b.attn.c_attn], &x);
        let (q, k, v) = (qkv.cols_range(0, d), qkv.cols_range(d, d), qkv.cols_range(2 * d, d));
        let scale = if self.config.scaled { Scale::InvSqrtDk } else { Scale::None };
        let new = Projections {
            q: &q,
            k: &k,
            v: &v,
            n_heads: self.shape.n_heads,
            n_kv_heads: self.shape.n_heads,
        };
        let mut attention = attend_cached(new, past, Mask::Causal, scale, mm);
        if let Some(edit) = edit {
            edit(&mut attention.concat); // [Z_1 | … | Z_H] edited before W_O
        }
        let [delta] = mm.linear([&b.attn.c_proj], &attention.concat);
        let residual = h.add(&delta);
        let r =
            if last_only { residual.rows_range(residual.rows - 1, 1) } else { residual.clone() };
        let y = b.ln_2.forward(&r);
        let [mut up] = mm.linear([&b.mlp.c_fc], &y);
        up.data.iter_mut().for_each(|x| *x = gelu_tanh(*x));
        let [down] = mm.linear([&b.mlp.c_proj], &up);
        let out = r.add(&down);
        (LayerTrace::new(x, attention, delta, residual), out)
    }

    fn logits(&self, h_last: &Matrix, mm: &mut Products) -> Vec<f32> {
        let last = self.ln_f.forward(h_last);
        let [logits] = mm.matrices([self.output.as_ref().unwrap_or(&self.wte)], &last);
        logits.data
    }

    fn matrices(&self) -> Vec<&QMatrix> {
        let mut all: Vec<&QMatrix> = self
            .h
            .iter()
            .flat_map(|b| {
                [&b.attn.c_attn, &b.attn.c_proj, &b.mlp.c_fc, &b.mlp.c_proj].map(|l| &l.weight)
            })
            .collect();
        all.push(self.output.as_ref().unwrap_or(&self.wte));
        all
    }

    fn matrices_per_block(&self) -> usize {
        MATRICES_PER_BLOCK
    }

    fn attention_matrices(&self) -> usize {
        2 // c_attn (Q, K and V together) and c_proj
    }
}
