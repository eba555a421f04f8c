//! One transformer block of SmolLM2 and its parts, fields named as in the
//! GGUF file (`blk.N.attn_q.weight`, …).

use super::Config;
use crate::attention::{multi_head_split, split_heads, Mask, Scale};
use crate::error::{Error, Result};
use crate::models::gguf::Gguf;
use crate::models::helper::{self, Helper};
use crate::models::quant::{QMatrix, QType};
use crate::models::LayerTrace;
use crate::tensor::{self, Matrix};

/// RMSNorm: x / √(mean(x²) + ε) · weight, row by row.
#[derive(Clone, Debug)]
pub(super) struct RmsNorm {
    weight: Vec<f32>,
    eps: f32,
}

impl RmsNorm {
    pub(super) fn forward(&self, x: &Matrix) -> Matrix {
        let mut out = x.clone();
        for i in 0..x.rows {
            let row = out.row_mut(i);
            let mean_sq = tensor::dot(row, row) / row.len() as f32;
            let inv = 1.0 / (mean_sq + self.eps).sqrt();
            for (v, w) in row.iter_mut().zip(&self.weight) {
                *v = w * (*v * inv);
            }
        }
        out
    }
}

/// Rotary position embedding, in the Hugging Face layout: dimension i of a
/// head turns together with dimension i + d_head/2 by angle pos · θ^(−2i/d_head).
#[derive(Clone, Debug)]
pub(super) struct Rope {
    inv_freq: Vec<f32>,
}

impl Rope {
    pub(super) fn new(d_head: usize, theta: f32) -> Rope {
        Rope { inv_freq: (0..d_head / 2).map(|i| 1.0 / theta.powf((2 * i) as f32 / d_head as f32)).collect() }
    }

    /// Rotates every head of `x` (n × heads·d_head); row r is position `start + r`.
    pub(super) fn apply(&self, x: &mut Matrix, d_head: usize, start: usize) {
        let half = d_head / 2;
        for r in 0..x.rows {
            let pos = (start + r) as f32;
            let (cos, sin): (Vec<f32>, Vec<f32>) = self.inv_freq.iter().map(|f| ((pos * f).cos(), (pos * f).sin())).unzip();
            for head in x.row_mut(r).chunks_exact_mut(d_head) {
                let (a, b) = head.split_at_mut(half);
                for i in 0..half {
                    let (x1, x2) = (a[i], b[i]);
                    a[i] = x1 * cos[i] - x2 * sin[i];
                    b[i] = x2 * cos[i] + x1 * sin[i];
                }
            }
        }
    }
}

/// One transformer block, fields named as in the GGUF file (`blk.N.*`).
#[derive(Clone, Debug)]
pub(super) struct Block {
    attn_norm: RmsNorm,
    attn_q: QMatrix,
    attn_k: QMatrix,
    attn_v: QMatrix,
    attn_output: QMatrix,
    ffn_norm: RmsNorm,
    ffn_gate: QMatrix,
    ffn_up: QMatrix,
    ffn_down: QMatrix,
}

/// Reads a `rows × cols` weight (GGUF dims `[cols, rows]`).
pub(super) fn load_matrix(g: &Gguf, bytes: &[u8], name: &str, rows: usize, cols: usize) -> Result<QMatrix> {
    let t = g.tensor(name)?;
    if t.dims != [cols as u64, rows as u64] {
        return Err(Error::ModelFile(format!("tensor `{name}` has shape {:?}, expected [{cols}, {rows}]", t.dims)));
    }
    let qtype = QType::from_ggml(t.ggml_type).ok_or_else(|| {
        Error::ModelFile(format!(
            "tensor `{name}` has GGML type {}, which this reader does not know (F32, Q4_1 and Q8_0 are supported)",
            t.ggml_type
        ))
    })?;
    let len = qtype
        .bytes_for(rows * cols)
        .ok_or_else(|| Error::ModelFile(format!("tensor `{name}`: {cols} columns do not split into blocks")))?;
    QMatrix::new(rows, cols, qtype, g.tensor_bytes(bytes, name, len)?.to_vec())
}

pub(super) fn load_norm(g: &Gguf, bytes: &[u8], name: &str, d: usize, eps: f32) -> Result<RmsNorm> {
    let t = g.tensor(name)?;
    if t.dims != [d as u64] || t.ggml_type != 0 {
        return Err(Error::ModelFile(format!("tensor `{name}` should be {d} f32 values, it is {:?} of GGML type {}", t.dims, t.ggml_type)));
    }
    let weight = g.tensor_bytes(bytes, name, d * 4)?.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    Ok(RmsNorm { weight, eps })
}

/// Row order that undoes llama.cpp's Q/K permutation: HF row h·d + p·d/2 + i
/// is GGUF row h·d + 2i + p (p ∈ {0, 1}).
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

impl Block {
    pub(super) fn load(g: &Gguf, bytes: &[u8], i: usize, c: &Config) -> Result<Block> {
        let n = |s: &str| format!("blk.{i}.{s}.weight");
        let (d, kv) = (c.d_model, c.n_kv_heads * c.d_head);
        Ok(Block {
            attn_norm: load_norm(g, bytes, &n("attn_norm"), d, c.rms_eps)?,
            attn_q: load_matrix(g, bytes, &n("attn_q"), d, d)?.permute_rows(&unpermute_order(c.n_heads, c.d_head)),
            attn_k: load_matrix(g, bytes, &n("attn_k"), kv, d)?.permute_rows(&unpermute_order(c.n_kv_heads, c.d_head)),
            attn_v: load_matrix(g, bytes, &n("attn_v"), kv, d)?,
            attn_output: load_matrix(g, bytes, &n("attn_output"), d, d)?,
            ffn_norm: load_norm(g, bytes, &n("ffn_norm"), d, c.rms_eps)?,
            ffn_gate: load_matrix(g, bytes, &n("ffn_gate"), c.d_ff, d)?,
            ffn_up: load_matrix(g, bytes, &n("ffn_up"), c.d_ff, d)?,
            ffn_down: load_matrix(g, bytes, &n("ffn_down"), d, c.d_ff)?,
        })
    }

    /// The block on new rows `h` (positions `start..`), attending to the
    /// cached keys and values of `past` (the first `start` positions) and to
    /// their own. `past` lends its K and V heads, which grow by the new rows.
    /// Returns this block's trace for the new rows only (its K and V hold
    /// all positions, its scores all keys; [`join`] puts them back into
    /// `past`) and the block's output:
    /// for every new row, or with `last_only` for the last row alone (the
    /// trace stops before the feed-forward, so after the last block only
    /// the last position, which predicts the next token, needs it).
    /// With a `helper`, each product's rows are shared with it; the helper
    /// has this block's matrices as shard matrices `first .. first + 7`, in
    /// field order.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn forward(
        &self,
        h: &Matrix,
        start: usize,
        past: Option<&mut LayerTrace>,
        c: &Config,
        rope: &Rope,
        last_only: bool,
        helper: Option<&dyn Helper>,
        first: usize,
    ) -> (LayerTrace, Matrix) {
        let x = self.attn_norm.forward(h);
        let [mut q, mut k, v] = helper::products(helper, first, [&self.attn_q, &self.attn_k, &self.attn_v], &x);
        rope.apply(&mut q, c.d_head, start);
        rope.apply(&mut k, c.d_head, start);
        let (mut k, mut v) = (split_heads(&k, c.n_kv_heads), split_heads(&v, c.n_kv_heads));
        if let Some(p) = past {
            // The cached heads take the new rows in place; `join` hands them back.
            let a = &mut p.attention;
            for (cached, new) in a.k.iter_mut().zip(&k).chain(a.v.iter_mut().zip(&v)) {
                cached.push_rows(new);
            }
            (k, v) = (std::mem::take(&mut a.k), std::mem::take(&mut a.v));
        }
        let attention = multi_head_split(&q, c.n_heads, k, v, Mask::Causal, Scale::InvSqrtDk);
        let [delta] = helper::products(helper, first + 3, [&self.attn_output], &attention.concat);
        let residual = h.add(&delta);
        let r = if last_only { residual.rows_range(residual.rows - 1, 1) } else { residual.clone() };
        let y = self.ffn_norm.forward(&r);
        let [mut gate, up] = helper::products(helper, first + 4, [&self.ffn_gate, &self.ffn_up], &y);
        let e = tensor::loop_constants(tensor::EXP);
        for (g, u) in gate.data.iter_mut().zip(&up.data) {
            *g = *g / (1.0 + e.exp(-*g)) * u; // SiLU(g) ⊙ u
        }
        let [down] = helper::products(helper, first + 6, [&self.ffn_down], &gate);
        let out = r.add(&down);
        (LayerTrace { input: x, attention, delta, residual }, out)
    }

    /// The block's weight matrices, in the order `forward` numbers them.
    pub(super) fn matrices(&self) -> [&QMatrix; MATRICES_PER_BLOCK] {
        [&self.attn_q, &self.attn_k, &self.attn_v, &self.attn_output, &self.ffn_gate, &self.ffn_up, &self.ffn_down]
    }
}

pub(super) const MATRICES_PER_BLOCK: usize = 7;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpermute_turns_pairs_into_halves() {
        // GGUF rows (per head of 4): 0 1 2 3 hold x0 x2 x1 x3 in HF terms.
        assert_eq!(unpermute_order(1, 4), vec![0, 2, 1, 3]);
        assert_eq!(unpermute_order(2, 4)[4..], [4, 6, 5, 7]);
    }

    #[test]
    fn rope_rotates_halves_and_keeps_position_zero() {
        let rope = Rope::new(4, 10000.0);
        let mut x = Matrix::from_rows(&[[1.0, 2.0, 3.0, 4.0], [1.0, 0.0, 0.0, 0.0]]);
        rope.apply(&mut x, 4, 0);
        assert_eq!(x.row(0), &[1.0, 2.0, 3.0, 4.0]);
        // Position 1, frequency 1 for the first pair: (1, 0) turns by 1 radian.
        assert!((x[(1, 0)] - 1f32.cos()).abs() < 1e-6 && (x[(1, 2)] - 1f32.sin()).abs() < 1e-6);
    }
}
