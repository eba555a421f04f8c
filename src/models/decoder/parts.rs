//! What the decoder families share below the level of a block: weight
//! matrices with their biases, the tensor names of a file, the token
//! embedding's rows, the attention's and the gated feed-forward's matrices
//! (Llama, Gemma 3), the products numbered for a helper thread, rotary
//! position embeddings, the activations, and attention over the key/value
//! cache.

use crate::attention::{
    gather, kv_head_of, multi_head, split_heads, AttendHeads, HeadTrace, Mask, MultiHeadTrace,
    Projections, Scale,
};
use crate::error::Result;
use crate::formats::hparams::Hparams;
use crate::formats::weights::Weights;
use crate::kernels::fused;
use crate::kernels::quant::QMatrix;
use crate::models::two_threads::{shared_heads, Heads};
use crate::tensor::{self, Matrix};
use crate::trace::summary::HeadSummary;
use crate::trace::LayerTrace;
use std::cell::RefCell;

/// y = x Wᵀ + b: a weight matrix kept as the file stores it (quantized for
/// a GGUF) and its bias, if it has one.
#[derive(Clone, Debug)]
pub struct Linear {
    pub weight: QMatrix,
    pub bias: Option<Vec<f32>>,
}

impl Linear {
    /// `{prefix}.weight` (rows × cols) and, if `bias`, `{prefix}.bias`.
    pub fn load(w: &Weights, prefix: &str, rows: usize, cols: usize, bias: bool) -> Result<Linear> {
        let weight = w.qmatrix(&format!("{prefix}.weight"), rows, cols)?;
        let bias = if bias { Some(w.vector(&format!("{prefix}.bias"), rows)?) } else { None };
        Ok(Linear { weight, bias })
    }

    /// A bias where the file has one (`{prefix}.bias`), none otherwise.
    pub fn load_bias_if_any(w: &Weights, prefix: &str, rows: usize, cols: usize) -> Result<Linear> {
        Linear::load(w, prefix, rows, cols, w.has(&format!("{prefix}.bias")))
    }
}

/// The tensor names of a Hugging Face folder or a GGUF file, for the
/// families whose structs carry the GGUF names (Llama, Gemma 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Names {
    HuggingFace,
    Gguf,
}

impl Names {
    /// Block `i`'s tensor `gguf` (`attn_q`, …) as the file names it, without
    /// `.weight`; `family` gives the Hugging Face names of the tensors that
    /// are not the attention's and the feed-forward's matrices.
    pub fn block(self, i: usize, gguf: &str, family: fn(&str) -> Option<&'static str>) -> String {
        match self {
            Names::Gguf => format!("blk.{i}.{gguf}"),
            Names::HuggingFace => {
                let hf = match gguf {
                    "attn_q" => "self_attn.q_proj",
                    "attn_k" => "self_attn.k_proj",
                    "attn_v" => "self_attn.v_proj",
                    "attn_output" => "self_attn.o_proj",
                    "ffn_gate" => "mlp.gate_proj",
                    "ffn_up" => "mlp.up_proj",
                    "ffn_down" => "mlp.down_proj",
                    other => family(other).unwrap_or(other),
                };
                format!("model.layers.{i}.{hf}")
            }
        }
    }

    /// A tensor outside the blocks (`token_embd`, `output_norm`, `output`), with `.weight`.
    pub fn top(self, gguf: &str) -> &'static str {
        match (self, gguf) {
            (Names::Gguf, "token_embd") => "token_embd.weight",
            (Names::Gguf, "output_norm") => "output_norm.weight",
            (Names::Gguf, _) => "output.weight",
            (Names::HuggingFace, "token_embd") => "model.embed_tokens.weight",
            (Names::HuggingFace, "output_norm") => "model.norm.weight",
            (Names::HuggingFace, _) => "lm_head.weight",
        }
    }
}

/// The rows of `token_embd` (vocabulary × d_model) for tokens `ids`, as f32.
pub fn embed_rows(token_embd: &QMatrix, ids: &[u32]) -> Matrix {
    let mut h = Matrix::zeros(ids.len(), token_embd.cols);
    for (r, &id) in ids.iter().enumerate() {
        token_embd.dequantize_row(id as usize, h.row_mut(r));
    }
    h
}

/// Self-attention's four matrices, named as in a GGUF (`blk.N.attn_q`, …).
#[derive(Clone, Debug)]
pub struct Attn {
    pub attn_q: Linear,
    pub attn_k: Linear,
    pub attn_v: Linear,
    pub attn_output: Linear,
}

impl Attn {
    /// The four from `linear(name, rows, cols)`, for `n_heads` query heads
    /// over `n_kv_heads` key/value heads of `d_head`.
    pub fn load(
        linear: impl Fn(&str, usize, usize) -> Result<Linear>,
        d_model: usize,
        n_heads: usize,
        n_kv_heads: usize,
        d_head: usize,
    ) -> Result<Attn> {
        let (q, kv) = (n_heads * d_head, n_kv_heads * d_head);
        Ok(Attn {
            attn_q: linear("attn_q", q, d_model)?,
            attn_k: linear("attn_k", kv, d_model)?,
            attn_v: linear("attn_v", kv, d_model)?,
            attn_output: linear("attn_output", d_model, q)?,
        })
    }

    /// Q, K and V of the normed input `x`.
    pub fn qkv(&self, x: &Matrix, mm: &mut Products) -> [Matrix; 3] {
        mm.linear([&self.attn_q, &self.attn_k, &self.attn_v], x)
    }

    /// The heads' concatenated outputs projected back: [A V]_heads W_oᵀ + b.
    pub fn output(&self, concat: &Matrix, mm: &mut Products) -> Matrix {
        let [out] = mm.linear([&self.attn_output], concat);
        out
    }
}

/// A gated feed-forward, W_down (act(W_gate y) ⊙ W_up y), named as in a GGUF.
#[derive(Clone, Debug)]
pub struct GatedFfn {
    pub ffn_gate: Linear,
    pub ffn_up: Linear,
    pub ffn_down: Linear,
}

impl GatedFfn {
    pub fn load(
        linear: impl Fn(&str, usize, usize) -> Result<Linear>,
        d_model: usize,
        d_ff: usize,
    ) -> Result<GatedFfn> {
        Ok(GatedFfn {
            ffn_gate: linear("ffn_gate", d_ff, d_model)?,
            ffn_up: linear("ffn_up", d_ff, d_model)?,
            ffn_down: linear("ffn_down", d_model, d_ff)?,
        })
    }

    /// The feed-forward of `y`, with `gate_times(gate, up)` putting act(gate) ⊙ up into `gate`.
    pub fn forward(
        &self,
        y: &Matrix,
        gate_times: fn(&mut Matrix, &Matrix),
        mm: &mut Products,
    ) -> Matrix {
        let [mut gate, up] = mm.linear([&self.ffn_gate, &self.ffn_up], y);
        gate_times(&mut gate, &up);
        let [down] = mm.linear([&self.ffn_down], &gate);
        down
    }
}

/// The weight matrices of a block made of [`Attn`] and [`GatedFfn`], in
/// the order it multiplies by them: the attention's, then the feed-forward's.
pub const GATED_BLOCK_MATRICES: usize = ATTENTION_MATRICES + 3;

/// The weight matrices of [`Attn`]: W_Q, W_K, W_V and W_O.
pub const ATTENTION_MATRICES: usize = 4;

/// [`GATED_BLOCK_MATRICES`] of `attn` and `ffn`, in that order.
pub fn gated_block_matrices<'a>(
    attn: &'a Attn,
    ffn: &'a GatedFfn,
) -> [&'a QMatrix; GATED_BLOCK_MATRICES] {
    [
        &attn.attn_q,
        &attn.attn_k,
        &attn.attn_v,
        &attn.attn_output,
        &ffn.ffn_gate,
        &ffn.ffn_up,
        &ffn.ffn_down,
    ]
    .map(|l| &l.weight)
}

pub use crate::models::two_threads::Products;

/// A decoder's linear layers: the quantized matrix's products, then its bias.
impl Products<'_> {
    /// `[x Wᵀ + b for each of ls]`, all from the same input.
    pub fn linear<const N: usize>(&mut self, ls: [&Linear; N], x: &Matrix) -> [Matrix; N] {
        let mut outs = self.matrices(ls.map(|l| &l.weight), x);
        for (out, l) in outs.iter_mut().zip(ls) {
            if let Some(b) = &l.bias {
                out.add_row_vector(b);
            }
        }
        outs
    }
}

/// How a checkpoint stretches its rotary frequencies for long contexts.
#[derive(Clone, Debug, PartialEq)]
pub enum RopeScaling {
    None,
    /// Every frequency divided by `factor` (Gemma 3's global layers in the larger models).
    Linear(f64),
    /// Llama 3.1's: low frequencies divided by `factor`, high ones kept,
    /// those between blended.
    Llama3 {
        factor: f64,
        low_freq_factor: f64,
        high_freq_factor: f64,
        original_max_position_embeddings: f64,
    },
}

impl RopeScaling {
    /// `rope_scaling` (or `rope_parameters`) of a `config.json`.
    pub fn from_hf(h: &Hparams, value: Option<&serde_json::Value>) -> Result<RopeScaling> {
        let Some(v) = value.filter(|v| v.is_object()) else { return Ok(RopeScaling::None) };
        let kind = v
            .get("rope_type")
            .or_else(|| v.get("type"))
            .and_then(|t| t.as_str())
            .unwrap_or("default");
        let number = |key: &str| -> Result<f64> {
            v.get(key).and_then(|x| x.as_f64()).filter(|x| x.is_finite() && *x > 0.0).ok_or_else(
                || {
                    h.bad(
                        "rope_scaling",
                        format!("has {key} = {:?}: a positive number is needed", v.get(key)),
                    )
                },
            )
        };
        match kind {
            "default" => Ok(RopeScaling::None),
            "linear" => Ok(RopeScaling::Linear(number("factor")?)),
            "llama3" => Ok(RopeScaling::Llama3 {
                factor: number("factor")?,
                low_freq_factor: number("low_freq_factor")?,
                high_freq_factor: number("high_freq_factor")?,
                original_max_position_embeddings: number("original_max_position_embeddings")?,
            }),
            other => Err(h.bad(
                "rope_scaling",
                format!("is of type {other:?}; only \"linear\" and \"llama3\" are implemented"),
            )),
        }
    }
}

/// The rotary base θ and scaling of a `config.json`: from transformers 5's
/// `rope_parameters` (for one layer type, `of`, when it holds one per
/// type), else from the older `rope_theta` (`theta_key`) and `rope_scaling`.
pub fn rope_from_hf(
    h: &Hparams,
    of: Option<&str>,
    theta_key: &str,
    default_theta: f64,
) -> Result<(f64, RopeScaling)> {
    if let Some(params) = h.json("rope_parameters").filter(|p| p.is_object()) {
        let p = of.and_then(|t| params.get(t)).unwrap_or(params);
        let theta = match p.get("rope_theta") {
            None => default_theta,
            Some(t) => t.as_f64().filter(|t| t.is_finite() && *t > 0.0).ok_or_else(|| {
                h.bad("rope_parameters", format!("has rope_theta = {t}: must be a positive number"))
            })?,
        };
        return Ok((theta, RopeScaling::from_hf(h, Some(p))?));
    }
    Ok((h.positive_or(theta_key, default_theta)?, RopeScaling::from_hf(h, h.json("rope_scaling"))?))
}

/// Rotary position embedding, in the Hugging Face layout: dimension i of a
/// head turns together with dimension i + d_head/2 by angle pos · θ^(−2i/d_head).
#[derive(Clone, Debug)]
pub struct Rope {
    inv_freq: Vec<f32>,
}

impl Rope {
    pub fn new(d_head: usize, theta: f64, scaling: &RopeScaling) -> Rope {
        let base = (0..d_head / 2).map(|i| 1.0 / theta.powf((2 * i) as f64 / d_head as f64));
        let inv_freq = base
            .map(|f| match *scaling {
                RopeScaling::None => f,
                RopeScaling::Linear(factor) => f / factor,
                RopeScaling::Llama3 {
                    factor,
                    low_freq_factor,
                    high_freq_factor,
                    original_max_position_embeddings: old,
                } => {
                    let wavelen = 2.0 * std::f64::consts::PI / f;
                    let (low_wavelen, high_wavelen) =
                        (old / low_freq_factor, old / high_freq_factor);
                    if wavelen > low_wavelen {
                        f / factor
                    } else if wavelen < high_wavelen {
                        f
                    } else {
                        let smooth = (old / wavelen - low_freq_factor)
                            / (high_freq_factor - low_freq_factor);
                        (1.0 - smooth) * f / factor + smooth * f
                    }
                }
            })
            .map(|f| f as f32)
            .collect();
        Rope { inv_freq }
    }

    /// Rotates every head of `x` (n × heads·d_head); row r is position `start + r`.
    pub fn apply(&self, x: &mut Matrix, d_head: usize, start: usize) {
        for r in 0..x.rows {
            self.rotate(x.row_mut(r), d_head, start + r);
        }
    }

    /// Rotates every head of `x` (runs of `n` rows, each run positions 0 .. n).
    pub fn apply_in_runs(&self, x: &mut Matrix, d_head: usize, n: usize) {
        for r in 0..x.rows {
            self.rotate(x.row_mut(r), d_head, r % n.max(1));
        }
    }

    /// Rotates every head of one row at position `pos`.
    fn rotate(&self, row: &mut [f32], d_head: usize, pos: usize) {
        let (half, pos) = (d_head / 2, pos as f32);
        let (cos, sin): (Vec<f32>, Vec<f32>) =
            self.inv_freq.iter().map(|f| ((pos * f).cos(), (pos * f).sin())).unzip();
        for head in row.chunks_exact_mut(d_head) {
            let (a, b) = head.split_at_mut(half);
            for i in 0..half {
                let (x1, x2) = (a[i], b[i]);
                a[i] = x1 * cos[i] - x2 * sin[i];
                b[i] = x2 * cos[i] + x1 * sin[i];
            }
        }
    }
}

/// GELU_tanh(g) ⊙ u, into `gate` (Gemma's feed-forward).
pub fn gelu_tanh_times(gate: &mut Matrix, up: &Matrix) {
    for (g, u) in gate.data.iter_mut().zip(&up.data) {
        *g = gelu_tanh(*g) * u;
    }
}

/// SiLU(g) ⊙ u, into `gate` (Llama's feed-forward).
pub fn silu_times(gate: &mut Matrix, up: &Matrix) {
    silu_times_slices(tensor::loop_constants(tensor::EXP), &mut gate.data, &up.data);
}

/// [`silu_times`] on slices, with exp's constants by value: with them in
/// memory and the matrices' values behind a `Vec`'s pointer, the compiler
/// could not tell that writing `gate` leaves the constants alone, read them
/// again for every value and never vectorized the loop.
#[inline(never)]
fn silu_times_slices(e: tensor::Exp, gate: &mut [f32], up: &[f32]) {
    for (g, u) in gate.iter_mut().zip(up) {
        *g = *g / (1.0 + e.exp(-*g)) * u;
    }
}

/// GELU, tanh approximation (GPT-2's `gelu_new`, Gemma's `gelu_pytorch_tanh`):
/// ½x(1 + tanh(√(2/π)(x + 0.044715x³))), with tanh(y) = 1 − 2/(e^{2y} + 1).
pub fn gelu_tanh(x: f32) -> f32 {
    let y = 0.797_884_6 * (x + 0.044715 * x * x * x);
    let t = 1.0 - 2.0 / (tensor::exp(2.0 * y) + 1.0);
    0.5 * x * (1.0 + t)
}

/// Attention of the new rows' queries `new.q` over the cached keys and values
/// of `past` (the first positions) and the new ones (`new.k`, `new.v`): `past` lends its K and
/// V heads, which grow by the new rows in place (`cache::join` hands them
/// back). The trace's K and V hold all positions, its scores all keys. A
/// long text's run from its first token shares its heads with `mm`'s
/// helper, if it has one ([`helper::shared_heads`]).
pub fn attend_cached(
    new: Projections<'_>,
    past: Option<&mut LayerTrace>,
    mask: Mask,
    scale: Scale,
    mm: &Products,
) -> MultiHeadTrace {
    let Projections { q, n_heads, n_kv_heads, .. } = new;
    let (mut k, mut v) = (split_heads(new.k, n_kv_heads), split_heads(new.v, n_kv_heads));
    let from_the_start = past.is_none();
    if let Some(p) = past {
        let a = &mut p.attention;
        for (cached, new) in a.k.iter_mut().zip(&k).chain(a.v.iter_mut().zip(&v)) {
            cached.push_rows(new);
        }
        (k, v) = (std::mem::take(&mut a.k), std::mem::take(&mut a.v));
    }
    SUMS.with(|sums| {
        let mut sums = sums.borrow_mut();
        let Some((sums, next)) = sums.as_mut() else {
            return multi_head(q, n_heads, k, v, AttendHeads::new(mask, scale));
        };
        if let Some(helper) = mm.helper().filter(|_| from_the_start && *next == 0) {
            let heads = Heads { p: new, mask, scale: scale.factor(q.cols / n_heads) };
            let qs = split_heads(q, n_heads);
            if let Some(shared) = shared_heads(helper, &heads, &qs, &k, &v) {
                let (traces, summaries): (Vec<HeadTrace>, Vec<HeadSummary>) =
                    shared.into_iter().unzip();
                (*sums, *next) = (summaries, n_heads);
                return gather(qs, k, v, traces);
            }
        }
        // Each head by the fused kernel: its A added to its sums, never stored.
        let (qs, scale) = (split_heads(q, n_heads), scale.factor(q.cols / n_heads));
        let kv = kv_head_of(n_heads, n_kv_heads);
        let traces = (0..n_heads)
            .map(|h| {
                if sums.len() <= *next {
                    sums.push(HeadSummary::empty());
                }
                let summary = &mut sums[*next];
                *next += 1;
                let z = fused::attend_summed(&qs[h], &k[kv[h]], &v[kv[h]], mask, scale, summary);
                HeadTrace::output_only(z, scale, mask)
            })
            .collect();
        gather(qs, k, v, traces)
    })
}

thread_local! {
    /// Some while [`summing_heads`] runs: each head's sums, in the order
    /// [`attend_cached`] computes the heads, and the next head's place.
    static SUMS: RefCell<Option<(Vec<HeadSummary>, usize)>> = const { RefCell::new(None) };
}

/// Runs `block` (one block of a long text) with each head's weights of the
/// new rows added to its sums so far (`sums`, head by head; empty for a run
/// from the start) and let go of as soon as [`attend_cached`] has computed
/// them, so that a layer never holds all its heads' S and A at once (4 MB
/// each at 1,000 tokens, 17 MB at 2,048). Returns the block's result, its
/// heads without S and A, and the sums.
pub fn summing_heads<T>(
    sums: Vec<HeadSummary>,
    block: impl FnOnce() -> T,
) -> (T, Vec<HeadSummary>) {
    SUMS.with(|s| *s.borrow_mut() = Some((sums, 0)));
    let out = block();
    (out, SUMS.with(|s| s.borrow_mut().take()).map(|(sums, _)| sums).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rope_rotates_halves_and_keeps_position_zero() {
        let rope = Rope::new(4, 10000.0, &RopeScaling::None);
        let mut x = Matrix::from_rows(&[[1.0, 2.0, 3.0, 4.0], [1.0, 0.0, 0.0, 0.0]]);
        rope.apply(&mut x, 4, 0);
        assert_eq!(x.row(0), &[1.0, 2.0, 3.0, 4.0]);
        // Position 1, frequency 1 for the first pair: (1, 0) turns by 1 radian.
        assert!((x[(1, 0)] - 1f32.cos()).abs() < 1e-6 && (x[(1, 2)] - 1f32.sin()).abs() < 1e-6);
    }

    #[test]
    fn gelu_tanh_is_the_tanh_approximation() {
        for x in [-6.0f32, -2.0, -0.5, 0.0, 0.3, 1.0, 3.0, 9.0] {
            let y = x as f64;
            let want = 0.5
                * y
                * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (y + 0.044715 * y.powi(3))).tanh());
            assert!(
                (gelu_tanh(x) as f64 - want).abs() < 2e-6,
                "gelu_tanh({x}) = {} vs {want}",
                gelu_tanh(x)
            );
        }
    }
}
