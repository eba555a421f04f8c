//! The kernels in plain Rust, on every target: the formats' definitions
//! ([`Block::dequantize`]) and dot products kept in eight running sums per
//! output, reduced in the tree order of the AVX2 kernels ([`hsum`]).

use super::blocks::{Block, F16};
use super::{QType, QuantizedRows, TileShape};
use crate::kernels::simd::hsum;

/// `bytes`: whole blocks; `out`: their weights.
pub fn dequantize<B: Block>(bytes: &[u8], out: &mut [f32]) {
    for (o, b) in out.chunks_exact_mut(B::WEIGHTS).zip(B::slice(bytes)) {
        b.dequantize(o);
    }
}

/// Plain values (f32, f16 or bf16, little-endian) as f32, exactly.
pub fn dequantize_plain(qtype: QType, bytes: &[u8], out: &mut [f32]) {
    match qtype {
        QType::F32 => {
            for (o, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                *o = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        QType::F16 => {
            for (o, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                *o = F16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f32();
            }
        }
        QType::BF16 => {
            for (o, b) in out.iter_mut().zip(bytes.chunks_exact(2)) {
                *o = f32::from_bits((u16::from_le_bytes([b[0], b[1]]) as u32) << 16);
            }
        }
        _ => unreachable!("{qtype} is not a plain type"),
    }
}

/// As [`dots`] on the rows [`dequantize`] would give, one block at a time
/// through a scratch of one block's weights (at most 256) that stays in L1.
pub fn dots_quantized<B: Block>(
    rows: &QuantizedRows,
    x: &[f32],
    n: usize,
    cols: usize,
    out: &mut [f32],
    width: usize,
) {
    let QuantizedRows { bytes, row_bytes, count: rows, .. } = *rows;
    let mut scratch = [0.0f32; 256];
    let w = &mut scratch[..B::WEIGHTS];
    for k in 0..rows {
        let row = &bytes[k * row_bytes..(k + 1) * row_bytes];
        let mut acc = [[0.0f32; 8]; 3];
        for (b, block) in B::slice(row).iter().enumerate() {
            block.dequantize(w);
            for (t, at) in acc.iter_mut().enumerate().take(n) {
                let xb = &x[t * cols + B::WEIGHTS * b..][..B::WEIGHTS];
                for (a, xc) in w.chunks_exact(8).zip(xb.chunks_exact(8)) {
                    for l in 0..8 {
                        at[l] += a[l] * xc[l];
                    }
                }
            }
        }
        for (t, at) in acc.iter().enumerate().take(n) {
            out[t * width + k] = hsum(*at);
        }
    }
}

/// out[t][col0 + k] = Σ_c w[k][c] · x[t][c] for the first `r` rows of `w`
/// and `n` tokens: eight running sums per dot product, as the vector kernels keep.
pub fn dots(w: &[f32], x: &[f32], out: &mut [f32], shape: TileShape) {
    let TileShape { r, n, cols, width, col0 } = shape;
    for t in 0..n {
        let xt = &x[t * cols..(t + 1) * cols];
        for k in 0..r {
            let wk = &w[k * cols..(k + 1) * cols];
            let mut acc = [0.0f32; 8];
            let mut wc = wk.chunks_exact(8);
            let mut xc = xt.chunks_exact(8);
            for (a, b) in (&mut wc).zip(&mut xc) {
                for l in 0..8 {
                    acc[l] += a[l] * b[l];
                }
            }
            let mut s = hsum(acc);
            for (a, b) in wc.remainder().iter().zip(xc.remainder()) {
                s += a * b;
            }
            out[t * width + col0 + k] = s;
        }
    }
}
