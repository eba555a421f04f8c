//! The pieces both halves of the model are built from, each named after its
//! tensors in the file: an affine map (`…_W*`, `…_b*`), a layer norm
//! (`…_ln_scale`, `…_ln_bias`), multi-head attention with its output
//! projection and post-norm (`…_self_*`, `…_context_*`), the feed-forward
//! (`…_ffn_*`), and the sinusoidal positions Marian adds to embeddings.

use crate::attention::{multi_head, split_heads, AttendHeads, Mask, Scale};
use crate::error::Result;
use crate::formats::marian::ModelFile;
use crate::kernels::int8::Int8Matrix;
use crate::tensor::{self, Matrix};
use crate::trace::LayerTrace;

/// Marian's layer-norm epsilon (`layerNorm(x, scale, bias, 1e-6)` in its transformer).
const LN_EPS: f32 = 1e-6;

/// y = x·W + b in Marian's terms (W is [in, out] there); stored as int8 rows
/// of W's transpose, see [`Int8Matrix`].
#[derive(Clone, Debug)]
pub struct Affine {
    pub w: Int8Matrix,
    pub b: Option<Vec<f32>>,
    /// `…_QuantMultA`: the largest activation Bergamot's int8 engine expects
    /// at this product's input (it quantizes x to round(x·127/alpha)). The
    /// f32 engine attnscope matches does not quantize, so it is only shown.
    pub activation_alpha: f32,
}

impl Affine {
    /// `w`: `{w}` ([d_in, d_out], intgemm8) and `{w}_QuantMultA`; `b`: `{b}` ([1, d_out]).
    pub fn load(
        f: &ModelFile,
        w: &str,
        b: Option<&str>,
        d_in: usize,
        d_out: usize,
    ) -> Result<Affine> {
        let (q, quant_mult) = f.intgemm8(w, &[d_in, d_out])?;
        Ok(Affine {
            w: Int8Matrix::new(d_out, d_in, q, quant_mult),
            b: b.map(|b| f.f32_values(b, &[1, d_out])).transpose()?,
            activation_alpha: f.f32_scalar(&format!("{w}_QuantMultA"))?,
        })
    }

    pub fn forward(&self, x: &Matrix) -> Matrix {
        self.w.forward(x, self.b.as_deref())
    }
}

/// Each row rescaled to mean 0 and variance 1, then by `ln_scale` and shifted by `ln_bias`.
#[derive(Clone, Debug)]
pub struct LayerNorm {
    pub ln_scale: Vec<f32>,
    pub ln_bias: Vec<f32>,
}

impl LayerNorm {
    pub fn load(f: &ModelFile, prefix: &str, d: usize) -> Result<LayerNorm> {
        Ok(LayerNorm {
            ln_scale: f.f32_values(&format!("{prefix}_ln_scale"), &[1, d])?,
            ln_bias: f.f32_values(&format!("{prefix}_ln_bias"), &[1, d])?,
        })
    }

    /// γ·(x − mean)/√(var + ε) + β, row by row, as Marian's CPU kernel computes it.
    pub fn forward_in_place(&self, x: &mut Matrix) {
        let n = x.cols as f32;
        for i in 0..x.rows {
            let row = x.row_mut(i);
            let mean = tensor::sum(row) / n;
            row.iter_mut().for_each(|v| *v -= mean);
            let sigma = (tensor::dot(row, row) / n + LN_EPS).sqrt();
            for ((v, g), b) in row.iter_mut().zip(&self.ln_scale).zip(&self.ln_bias) {
                *v = g * (*v / sigma) + b;
            }
        }
    }
}

/// Multi-head attention, its output projection, the residual and the
/// post-norm: `{prefix}_Wq, _bq, _Wk, _bk, _Wv, _bv, _Wo, _bo, _Wo_ln_*`.
#[derive(Clone, Debug)]
pub struct Attention {
    pub wq: Affine,
    pub wk: Affine,
    pub wv: Affine,
    pub wo: Affine,
    pub wo_ln: LayerNorm,
    pub heads: usize,
}

impl Attention {
    pub fn load(f: &ModelFile, prefix: &str, d: usize, heads: usize) -> Result<Attention> {
        let affine = |x: &str| {
            Affine::load(f, &format!("{prefix}_W{x}"), Some(&format!("{prefix}_b{x}")), d, d)
        };
        Ok(Attention {
            wq: affine("q")?,
            wk: affine("k")?,
            wv: affine("v")?,
            wo: affine("o")?,
            wo_ln: LayerNorm::load(f, &format!("{prefix}_Wo"), d)?,
            heads,
        })
    }

    /// K and V of `memory` (the keys and values every query will read), split into heads.
    pub fn keys_values(&self, memory: &Matrix) -> (Vec<Matrix>, Vec<Matrix>) {
        (
            split_heads(&self.wk.forward(memory), self.heads),
            split_heads(&self.wv.forward(memory), self.heads),
        )
    }

    /// Queries from `x` against `k`, `v` (from `x` itself in the encoder, from
    /// the encoder's output in the decoder); returns the trace and
    /// LayerNorm(x + ΔE).
    pub fn forward(&self, x: Matrix, k: Vec<Matrix>, v: Vec<Matrix>) -> (LayerTrace, Matrix) {
        let q = self.wq.forward(&x); //                                                  Q = x Wq + bq        (n_q × d)
                                     // No mask: one sentence has no padding, and the encoder sees
                                     // both ways.
        let attention =
            multi_head(&q, self.heads, k, v, AttendHeads::new(Mask::None, Scale::InvSqrtDk)); // Z_h = softmax(Q_h K_hᵀ/√d_k) V_h
        let delta = self.wo.forward(&attention.concat); //                                ΔE = [Z_1 | … | Z_H] Wo + bo
        let residual = x.add(&delta); //                                                  x + ΔE
        let mut out = residual.clone();
        self.wo_ln.forward_in_place(&mut out); //                                         LayerNorm(x + ΔE)
        (LayerTrace::new(x, attention, delta, residual), out)
    }
}

/// The feed-forward block: LayerNorm(x + ReLU(x W1 + b1) W2 + b2), as
/// `{prefix}_ffn_W1, _ffn_b1, _ffn_W2, _ffn_b2, _ffn_ffn_ln_*`.
#[derive(Clone, Debug)]
pub struct Ffn {
    pub w1: Affine,
    pub w2: Affine,
    pub ffn_ln: LayerNorm,
}

impl Ffn {
    pub fn load(f: &ModelFile, prefix: &str, d: usize, d_ffn: usize) -> Result<Ffn> {
        Ok(Ffn {
            w1: Affine::load(
                f,
                &format!("{prefix}_ffn_W1"),
                Some(&format!("{prefix}_ffn_b1")),
                d,
                d_ffn,
            )?,
            w2: Affine::load(
                f,
                &format!("{prefix}_ffn_W2"),
                Some(&format!("{prefix}_ffn_b2")),
                d_ffn,
                d,
            )?,
            ffn_ln: LayerNorm::load(f, &format!("{prefix}_ffn_ffn"), d)?,
        })
    }

    pub fn forward(&self, x: &Matrix) -> Matrix {
        let mut h = self.w1.forward(x);
        h.data.iter_mut().for_each(|v| *v = v.max(0.0));
        let mut y = self.w2.forward(&h);
        y.data.iter_mut().zip(&x.data).for_each(|(y, x)| *y += x);
        self.ffn_ln.forward_in_place(&mut y);
        y
    }
}

/// Marian's sinusoidal positions for `n` positions from `start`: sin in the
/// first half of the row, cos in the second, at frequencies
/// 10000^(−i/(d/2 − 1)). The arguments are formed in f32 as Marian forms them;
/// sin, cos and exp are taken in f64 and rounded, so that every platform
/// (glibc, the browser's libm) gets the same numbers.
pub fn positions(start: usize, n: usize, d: usize) -> Matrix {
    let half = d / 2;
    let timescales = half as f32;
    let increment = (10000.0f64.ln() as f32) / (timescales - 1.0);
    let mut m = Matrix::zeros(n, d);
    for r in 0..n {
        let p = (start + r) as f32;
        let row = m.row_mut(r);
        for i in 0..half {
            let v = p * ((i as f32 * -increment) as f64).exp() as f32;
            row[i] = (v as f64).sin() as f32;
            row[half + i] = (v as f64).cos() as f32;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_follow_marians_formula() {
        let p = positions(0, 3, 8);
        // Position 0: sin 0 = 0, cos 0 = 1.
        assert_eq!(p.row(0), &[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
        // Position 2, timescale 1: sin 2, cos 2; the slowest: 2·10000^-1.
        assert!((p[(2, 0)] - 2f32.sin()).abs() < 1e-6 && (p[(2, 4)] - 2f32.cos()).abs() < 1e-6);
        assert!((p[(2, 3)] - (2e-4f32).sin()).abs() < 1e-7);
        assert_eq!(positions(2, 1, 8).row(0), p.row(2));
    }

    #[test]
    fn layer_norm_centres_and_scales() {
        let ln = LayerNorm { ln_scale: vec![2.0; 4], ln_bias: vec![1.0; 4] };
        let mut x = Matrix::from_rows(&[[1.0, 2.0, 3.0, 4.0]]);
        ln.forward_in_place(&mut x);
        let sd = 1.25f32.sqrt();
        for (got, raw) in x.row(0).iter().zip([-1.5f32, -0.5, 0.5, 1.5]) {
            assert!((got - (2.0 * raw / sd + 1.0)).abs() < 1e-5);
        }
    }
}
