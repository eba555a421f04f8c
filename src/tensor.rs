//! A small row-major f32 matrix: just enough to write attention like the
//! formula. Its matrix products go to the `gemm` crate, whose kernels use
//! AVX2/FMA natively and simd128 in the browser, except in the browsers with
//! relaxed SIMD, where a small kernel of its own (`fused`) has the fused
//! multiply-add that gemm's simd128 kernels lack. (The models' weight products
//! have kernels of their own, shaped for a few tokens against weights that
//! never change: `models::packed` and `models::quant`.)

use serde::{Deserialize, Serialize};

/// `rows × cols` numbers, stored row by row. In attention, rows are tokens.
///
/// Serialized (between the page and its worker) with the numbers as the
/// base64 of their little-endian bytes: exact, ∞ included, and quick. As
/// decimal JSON one head's detail at 128 MiniLM tokens (its residual stream
/// included) was 2.4 MB (1.1 MB as base64), printed in the worker and
/// parsed on the page after each keystroke, about 15 ms in all. (The CLI's
/// JSON export writes decimal numbers of its own, in `export.rs`.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    #[serde(with = "base64_le")]
    pub data: Vec<f32>,
}

/// Numbers that cross between the page and its worker as the base64 of
/// their little-endian bytes (`#[serde(with = "crate::tensor::base64_le")]`):
/// [`Matrix`] data, and the overview's 16-bit thumbnail levels.
pub(crate) mod base64_le {
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    /// A number with a fixed-size little-endian form.
    pub trait Le: Sized {
        const BYTES: usize;
        fn put(&self, out: &mut Vec<u8>);
        fn get(bytes: &[u8]) -> Self;
    }

    impl Le for f32 {
        const BYTES: usize = 4;
        fn put(&self, out: &mut Vec<u8>) {
            out.extend(self.to_le_bytes());
        }
        fn get(b: &[u8]) -> Self {
            f32::from_le_bytes([b[0], b[1], b[2], b[3]])
        }
    }

    impl Le for u16 {
        const BYTES: usize = 2;
        fn put(&self, out: &mut Vec<u8>) {
            out.extend(self.to_le_bytes());
        }
        fn get(b: &[u8]) -> Self {
            u16::from_le_bytes([b[0], b[1]])
        }
    }

    pub fn serialize<T: Le, S: Serializer>(xs: &[T], s: S) -> Result<S::Ok, S::Error> {
        let mut bytes = Vec::with_capacity(xs.len() * T::BYTES);
        xs.iter().for_each(|x| x.put(&mut bytes));
        s.serialize_str(&STANDARD.encode(bytes))
    }

    pub fn deserialize<'de, T: Le, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        let text = <std::borrow::Cow<str>>::deserialize(d)?;
        let bytes = STANDARD.decode(text.as_bytes()).map_err(D::Error::custom)?;
        if bytes.len() % T::BYTES != 0 {
            return Err(D::Error::custom(format!("{} bytes are not a whole number of {}-byte numbers", bytes.len(), T::BYTES)));
        }
        Ok(bytes.chunks_exact(T::BYTES).map(T::get).collect())
    }
}

impl Matrix {
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Self { rows, cols, data: vec![0.0; rows * cols] }
    }

    /// Panics if `data.len() != rows * cols`: a shape bug, never user input.
    pub fn from_vec(rows: usize, cols: usize, data: Vec<f32>) -> Self {
        assert_eq!(data.len(), rows * cols, "Matrix::from_vec: {rows}×{cols} needs {} values", rows * cols);
        Self { rows, cols, data }
    }

    /// Builds a matrix from equal-length rows (handy for worked examples).
    pub fn from_rows<R: AsRef<[f32]>>(rows: &[R]) -> Self {
        let cols = rows.first().map_or(0, |r| r.as_ref().len());
        let mut data = Vec::with_capacity(rows.len() * cols);
        for r in rows {
            assert_eq!(r.as_ref().len(), cols, "Matrix::from_rows: ragged rows");
            data.extend_from_slice(r.as_ref());
        }
        Self { rows: rows.len(), cols, data }
    }

    pub fn identity(n: usize) -> Self {
        let mut m = Self::zeros(n, n);
        for i in 0..n {
            m[(i, i)] = 1.0;
        }
        m
    }

    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    pub fn row_mut(&mut self, i: usize) -> &mut [f32] {
        &mut self.data[i * self.cols..(i + 1) * self.cols]
    }

    pub fn to_rows(&self) -> Vec<Vec<f32>> {
        (0..self.rows).map(|i| self.row(i).to_vec()).collect()
    }

    /// `self · rhs`: (n × k)·(k × m) → n × m.
    pub fn matmul(&self, rhs: &Matrix) -> Matrix {
        assert_eq!(self.cols, rhs.rows, "matmul: {:?}·{:?}", self.shape(), rhs.shape());
        let mut out = Matrix::zeros(self.rows, rhs.cols);
        // SAFETY: strides describe the row-major buffers above, whose sizes match the shapes.
        unsafe { gemm_into(&mut out, self, false, rhs, false) };
        out
    }

    /// `self · rhsᵀ`: (n × k)·(m × k)ᵀ → n × m, without materialising the transpose.
    pub fn matmul_t(&self, rhs: &Matrix) -> Matrix {
        assert_eq!(self.cols, rhs.cols, "matmul_t: {:?}·{:?}ᵀ", self.shape(), rhs.shape());
        let mut out = Matrix::zeros(self.rows, rhs.rows);
        // SAFETY: as in `matmul`; the transpose is only a swap of strides.
        unsafe { gemm_into(&mut out, self, false, rhs, true) };
        out
    }

    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                t[(j, i)] = self[(i, j)];
            }
        }
        t
    }

    pub fn map(&self, f: impl Fn(f32) -> f32) -> Matrix {
        Matrix { rows: self.rows, cols: self.cols, data: self.data.iter().map(|&x| f(x)).collect() }
    }

    pub fn add(&self, rhs: &Matrix) -> Matrix {
        assert_eq!(self.shape(), rhs.shape(), "add: shapes differ");
        let data = self.data.iter().zip(&rhs.data).map(|(a, b)| a + b).collect();
        Matrix { rows: self.rows, cols: self.cols, data }
    }

    /// Adds `bias` (length `cols`) to every row.
    pub fn add_row_vector(&mut self, bias: &[f32]) {
        assert_eq!(bias.len(), self.cols, "add_row_vector: length differs");
        for i in 0..self.rows {
            for (x, b) in self.row_mut(i).iter_mut().zip(bias) {
                *x += b;
            }
        }
    }

    /// Columns `start .. start + width`: one head's slice of a projection.
    pub fn cols_range(&self, start: usize, width: usize) -> Matrix {
        assert!(start + width <= self.cols, "cols_range out of bounds");
        let mut out = Matrix::zeros(self.rows, width);
        for i in 0..self.rows {
            out.row_mut(i).copy_from_slice(&self.row(i)[start..start + width]);
        }
        out
    }

    /// Rows `start .. start + count`.
    pub fn rows_range(&self, start: usize, count: usize) -> Matrix {
        assert!(start + count <= self.rows, "rows_range out of bounds");
        Matrix::from_vec(count, self.cols, self.data[start * self.cols..(start + count) * self.cols].to_vec())
    }

    /// Side by side: [A | B | …], all with the same number of rows.
    pub fn concat_cols(parts: &[Matrix]) -> Matrix {
        let rows = parts.first().map_or(0, |p| p.rows);
        let cols = parts.iter().map(|p| p.cols).sum();
        let mut out = Matrix::zeros(rows, cols);
        for i in 0..rows {
            let mut at = 0;
            for p in parts {
                assert_eq!(p.rows, rows, "concat_cols: row counts differ");
                out.row_mut(i)[at..at + p.cols].copy_from_slice(p.row(i));
                at += p.cols;
            }
        }
        out
    }

    /// One above the other: [A; B], all with the same number of columns.
    pub fn concat_rows(parts: &[Matrix]) -> Matrix {
        let cols = parts.first().map_or(0, |p| p.cols);
        let mut data = Vec::new();
        for p in parts {
            assert_eq!(p.cols, cols, "concat_rows: column counts differ");
            data.extend_from_slice(&p.data);
        }
        Matrix::from_vec(data.len() / cols.max(1), cols, data)
    }

    /// [self; below], in place: the rows already here are not copied (their
    /// storage grows as a `Vec` does, so appending row by row stays cheap).
    pub fn push_rows(&mut self, below: &Matrix) {
        if self.rows == 0 {
            self.cols = below.cols;
        }
        assert!(below.cols == self.cols || below.rows == 0, "push_rows: column counts differ");
        self.data.extend_from_slice(&below.data);
        self.rows += below.rows;
    }

    /// [self | right], in place. Each row moves once to its wider place,
    /// last row first, so no row is overwritten before it has moved.
    pub fn push_cols(&mut self, right: &Matrix) {
        assert_eq!(right.rows, self.rows, "push_cols: row counts differ");
        let (old, wide) = (self.cols, self.cols + right.cols);
        self.data.resize(self.rows * wide, 0.0);
        for i in (0..self.rows).rev() {
            self.data.copy_within(i * old..(i + 1) * old, i * wide);
            self.data[i * wide + old..(i + 1) * wide].copy_from_slice(right.row(i));
        }
        self.cols = wide;
    }

    /// Room to grow by `rows` rows and `cols` columns without moving the
    /// storage (see [`Matrix::push_rows`], [`Matrix::push_cols`]).
    pub fn reserve(&mut self, rows: usize, cols: usize) {
        let wanted = (self.rows + rows) * (self.cols + cols);
        self.data.reserve(wanted.saturating_sub(self.data.len()));
    }

    /// Keeps the first `n` rows, in place.
    pub fn truncate_rows(&mut self, n: usize) {
        self.rows = self.rows.min(n);
        self.data.truncate(self.rows * self.cols);
    }

    /// Keeps the first `n` columns, in place: each row moves once to its
    /// narrower place, first row first.
    pub fn truncate_cols(&mut self, n: usize) {
        if n >= self.cols {
            return;
        }
        for i in 1..self.rows {
            self.data.copy_within(i * self.cols..i * self.cols + n, i * n);
        }
        self.data.truncate(self.rows * n);
        self.cols = n;
    }

    /// Permutes rows: row `i` of the result is row `order[i]` of `self`.
    pub fn select_rows(&self, order: &[usize]) -> Matrix {
        let mut out = Matrix::zeros(order.len(), self.cols);
        for (i, &src) in order.iter().enumerate() {
            out.row_mut(i).copy_from_slice(self.row(src));
        }
        out
    }

    pub fn max_abs_diff(&self, other: &Matrix) -> f32 {
        assert_eq!(self.shape(), other.shape(), "max_abs_diff: shapes differ");
        self.data.iter().zip(&other.data).map(|(a, b)| if a == b { 0.0 } else { (a - b).abs() }).fold(0.0, f32::max)
    }
}

impl std::ops::Index<(usize, usize)> for Matrix {
    type Output = f32;
    fn index(&self, (i, j): (usize, usize)) -> &f32 {
        &self.data[i * self.cols + j]
    }
}

impl std::ops::IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f32 {
        &mut self.data[i * self.cols + j]
    }
}

/// out = lhs · (rhs or rhsᵀ), single-threaded.
///
/// # Safety
/// Shapes must agree; callers assert them.
unsafe fn gemm_into(out: &mut Matrix, lhs: &Matrix, lhs_t: bool, rhs: &Matrix, rhs_t: bool) {
    let (m, n) = (out.rows, out.cols);
    let k = if lhs_t { lhs.rows } else { lhs.cols };
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        return; // an empty sum: `out` is already zeros
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
    if !lhs_t {
        return fused::product(out, lhs, rhs, rhs_t);
    }
    // gemm takes (column stride, row stride) for each operand.
    let (lhs_cs, lhs_rs) = if lhs_t { (lhs.cols as isize, 1) } else { (1, lhs.cols as isize) };
    let (rhs_cs, rhs_rs) = if rhs_t { (rhs.cols as isize, 1) } else { (1, rhs.cols as isize) };
    gemm::gemm(
        m,
        n,
        k,
        out.data.as_mut_ptr(),
        1,
        n as isize,
        false,
        lhs.data.as_ptr(),
        lhs_cs,
        lhs_rs,
        rhs.data.as_ptr(),
        rhs_cs,
        rhs_rs,
        0.0,
        1.0,
        false,
        false,
        false,
        gemm::Parallelism::None,
    );
}

/// The matrix product in the browsers that have relaxed SIMD (the `fma`
/// worker), where it is attention's Q Kᵀ and A V: `gemm`'s simd128 kernels
/// multiply, then add (wasm has no fused multiply-add of its own), and
/// repack both operands on every call; at 128 tokens MiniLM's 144 products
/// per forward took 12 % of it. Here the right operand is copied once, row
/// by row and padded to a multiple of 8 columns (transposed for Q Kᵀ: n·32
/// values moved for n·n·32 multiply-adds), and each tile of 4 rows × 8
/// columns keeps its sums in 8 registers for the whole inner dimension.
/// Every output is one chain of fused multiply-adds in the order of the
/// inner index, whatever its tile, so a row computed alone (SmolLM2's
/// key/value cache) equals the same row computed with others.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
mod fused {
    use super::Matrix;
    use std::arch::wasm32::*;

    /// out = lhs · rhs, or lhs · rhsᵀ with `rhs_t`; `out` has the product's shape.
    pub fn product(out: &mut Matrix, lhs: &Matrix, rhs: &Matrix, rhs_t: bool) {
        let (m, n, k) = (out.rows, out.cols, lhs.cols);
        assert!(lhs.rows == m && rhs.data.len() == k * n, "fused::product: shapes differ");
        if rhs_t && n < 8 && m > n {
            // A few columns (the earlier queries' scores against a key just
            // appended): (lhs rhsᵀ)ᵀ = rhs lhsᵀ fills the 8-wide tiles that
            // would otherwise be mostly padding. Each output is the same
            // chain of multiply-adds of the same products, so the same number.
            let mut t = Matrix::zeros(n, m);
            product(&mut t, rhs, lhs, true);
            *out = t.transpose();
            return;
        }
        let wide = n.next_multiple_of(8);
        let mut b = vec![0.0f32; k * wide];
        if rhs_t {
            transpose_into(&mut b, wide, &rhs.data, n, k);
        } else {
            for (p, row) in b.chunks_exact_mut(wide).enumerate() {
                row[..n].copy_from_slice(&rhs.data[p * n..(p + 1) * n]);
            }
        }
        let (a, o) = (lhs.data.as_ptr(), out.data.as_mut_ptr());
        let mut i = 0;
        // SAFETY: the fma worker runs only where relaxed SIMD is (the page
        // checks). Rows i..i+R of lhs (k values each) and out (n each) are
        // in bounds (i + R ≤ m), and b holds k rows of `wide` values.
        unsafe {
            while i + 4 <= m {
                rows::<4>(a.add(i * k), k, &b, wide, o.add(i * n), n);
                i += 4;
            }
            match m - i {
                3 => rows::<3>(a.add(i * k), k, &b, wide, o.add(i * n), n),
                2 => rows::<2>(a.add(i * k), k, &b, wide, o.add(i * n), n),
                1 => rows::<1>(a.add(i * k), k, &b, wide, o.add(i * n), n),
                _ => {}
            }
        }
    }

    /// b[p][j] = rhs[j][p] (b has rows of `wide` ≥ n values; rhs is n × k),
    /// four by four through registers: one value at a time, K's transpose
    /// for Q Kᵀ took a third of SmolLM2's attention products when a token
    /// is appended (a query against 17 keys).
    fn transpose_into(b: &mut [f32], wide: usize, rhs: &[f32], n: usize, k: usize) {
        assert!(wide >= n && b.len() >= k * wide && rhs.len() >= n * k);
        let (n4, k4) = (n / 4 * 4, k / 4 * 4);
        for j in (0..n4).step_by(4) {
            for p in (0..k4).step_by(4) {
                // SAFETY: rows j..j+4 of rhs have k ≥ p + 4 values each, and
                // rows p..p+4 of b have wide ≥ j + 4 (asserted above).
                unsafe {
                    let r: [v128; 4] = std::array::from_fn(|c| v128_load(rhs.as_ptr().add((j + c) * k + p) as *const v128));
                    let (t0, t1) = (i32x4_shuffle::<0, 4, 1, 5>(r[0], r[1]), i32x4_shuffle::<2, 6, 3, 7>(r[0], r[1]));
                    let (t2, t3) = (i32x4_shuffle::<0, 4, 1, 5>(r[2], r[3]), i32x4_shuffle::<2, 6, 3, 7>(r[2], r[3]));
                    let columns = [
                        i32x4_shuffle::<0, 1, 4, 5>(t0, t2),
                        i32x4_shuffle::<2, 3, 6, 7>(t0, t2),
                        i32x4_shuffle::<0, 1, 4, 5>(t1, t3),
                        i32x4_shuffle::<2, 3, 6, 7>(t1, t3),
                    ];
                    for (q, c) in columns.into_iter().enumerate() {
                        v128_store(b.as_mut_ptr().add((p + q) * wide + j) as *mut v128, c);
                    }
                }
            }
            for p in k4..k {
                for c in j..j + 4 {
                    b[p * wide + c] = rhs[c * k + p];
                }
            }
        }
        for c in n4..n {
            for p in 0..k {
                b[p * wide + c] = rhs[c * k + p];
            }
        }
    }

    /// `R` rows of the product: a (R × k) times b (k × wide), into out (R × n).
    #[target_feature(enable = "relaxed-simd")]
    unsafe fn rows<const R: usize>(a: *const f32, k: usize, b: &[f32], wide: usize, out: *mut f32, n: usize) {
        for j in (0..wide).step_by(8) {
            let mut acc = [[f32x4_splat(0.0); 2]; R];
            let mut col = b.as_ptr().add(j);
            for p in 0..k {
                let (b0, b1) = (v128_load(col as *const v128), v128_load(col.add(4) as *const v128));
                for (r, at) in acc.iter_mut().enumerate() {
                    let x = v128_load32_splat(a.add(r * k + p) as *const u32);
                    at[0] = f32x4_relaxed_madd(x, b0, at[0]);
                    at[1] = f32x4_relaxed_madd(x, b1, at[1]);
                }
                col = col.add(wide);
            }
            for (r, at) in acc.iter().enumerate() {
                let dst = out.add(r * n + j);
                if j + 8 <= n {
                    v128_store(dst as *mut v128, at[0]);
                    v128_store(dst.add(4) as *mut v128, at[1]);
                } else {
                    let lanes: [f32; 8] = std::mem::transmute(*at);
                    std::ptr::copy_nonoverlapping(lanes.as_ptr(), dst, n - j);
                }
            }
        }
    }
}

/// Σ xs. A single running total is a chain of dependent additions, one
/// rounding and one add latency per element, which the compiler may not
/// reorder; eight interleaved totals let each step be one vector add (and
/// round less, being a partial pairwise sum).
#[inline]
pub fn sum(xs: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let chunks = xs.chunks_exact(8);
    let tail: f32 = chunks.remainder().iter().sum();
    for chunk in chunks {
        for (lane, x) in lanes.iter_mut().zip(chunk) {
            *lane += x;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Σ aᵢbᵢ, in eight interleaved lanes like [`sum`].
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "dot: lengths differ");
    let mut lanes = [0.0f32; 8];
    let (chunks_a, chunks_b) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = chunks_a.remainder().iter().zip(chunks_b.remainder()).map(|(x, y)| x * y).sum();
    for (ca, cb) in chunks_a.zip(chunks_b) {
        for ((lane, x), y) in lanes.iter_mut().zip(ca).zip(cb) {
            *lane += x * y;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The largest of xs (−∞ for none), in eight interleaved lanes like [`sum`].
/// NaN is passed over, as `f32::max` does.
#[inline]
pub fn max(xs: &[f32]) -> f32 {
    // A compare and select rather than `f32::max`, which in wasm is a call.
    let bigger = |m: f32, x: f32| if x > m { x } else { m };
    let mut lanes = [f32::NEG_INFINITY; 8];
    let chunks = xs.chunks_exact(8);
    let tail = chunks.remainder().iter().copied().fold(f32::NEG_INFINITY, bigger);
    for chunk in chunks {
        for (lane, &x) in lanes.iter_mut().zip(chunk) {
            *lane = bigger(*lane, x);
        }
    }
    lanes.into_iter().fold(tail, bigger)
}

/// `constants`, hidden from the optimiser, for a vector loop with many of
/// them (a polynomial's coefficients): it then computes each once, before
/// the loop, rather than writing it into the loop as a constant. Chromium's
/// wasm compiler, short of registers, rebuilds such a vector constant at every
/// use, in three or four instructions, where a value computed before the loop
/// is reloaded in one. In Chromium, GELU over MiniLM's feed-forward took half
/// as long this way, and softmax's exp a fifth less. The arithmetic is the same.
/// Natively it is the identity: there LLVM keeps such constants in
/// registers or folds them into the instructions, and hiding them made
/// SmolLM2's 16-token forward 58 → 63 ms (criterion).
#[inline(always)]
pub fn loop_constants<T>(constants: T) -> T {
    #[cfg(target_arch = "wasm32")]
    return std::hint::black_box(constants);
    #[cfg(not(target_arch = "wasm32"))]
    constants
}

/// The numbers [`exp`] is made of (see there), for loops that take them
/// through [`loop_constants`]: `let e = loop_constants(EXP);` then `e.exp(x)`.
#[derive(Clone, Copy, Debug)]
pub struct Exp {
    lowest: f32,
    highest: f32,
    log2_e: f32,
    round: f32,
    ln2_hi: f32,
    ln2_lo: f32,
    /// Cephes' expf coefficients, highest power first.
    c: [f32; 6],
    one: f32,
    biased_round: f32,
}

// eˣ = 2ⁿ · eʳ with n = round(x / ln 2) and |r| ≤ ln 2 / 2; ln 2 is split in
// two (LN2_HI + LN2_LO) so that r = x − n·ln 2 keeps all its bits (Cody and
// Waite). Adding and removing 1.5·2²³ (ROUND) rounds to the nearest integer
// (ties to even) in plain arithmetic; `round_ties_even` would be a call to
// libm's `rintf` on x86-64 without SSE4.1.
pub const EXP: Exp = Exp {
    lowest: -87.3,
    highest: 88.7,
    log2_e: std::f32::consts::LOG2_E,
    round: 12_582_912.0,
    ln2_hi: 0.693_359_4,
    ln2_lo: -2.121_944_4e-4,
    c: [1.987_569_2e-4, 1.398_2e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 0.5],
    one: 1.0,
    biased_round: 12_582_912.0 + 127.0,
};

impl Exp {
    /// eˣ: see [`exp`].
    #[inline(always)]
    pub fn exp(&self, x: f32) -> f32 {
        let clamped = x.clamp(self.lowest, self.highest);
        let n = (clamped * self.log2_e + self.round) - self.round;
        let r = clamped - n * self.ln2_hi - n * self.ln2_lo;
        // The Taylor series of eʳ − 1 − r with minimax-adjusted coefficients
        // (Cephes' expf), by Estrin's scheme rather than Horner's: three short
        // products side by side instead of one chain of five, so that a
        // vector's exp waits less for itself.
        let c = &self.c;
        let r2 = r * r;
        let p = ((c[0] * r + c[1]) * r2 + (c[2] * r + c[3])) * r2 + (c[4] * r + c[5]);
        let er = p * r2 + (r + self.one);
        // 2ⁿ from its bits: n + 127 is the biased exponent (1 ..= 255 after
        // the clamp). Added to 1.5·2²³ it lands in the low mantissa bits, and
        // the shift moves it into the exponent field. An `as i32` cast would
        // do the same, but saturates, which SSE2 cannot do four lanes at a time.
        let two_n = f32::from_bits((n + self.biased_round).to_bits() << 23);
        let y = er * two_n;
        // Above the clamp n is 128, whose biased exponent (255) makes 2ⁿ and
        // so y infinite: overflow needs no test of its own, only underflow.
        if x < self.lowest {
            0.0
        } else {
            y
        }
    }
}

/// eˣ in f32, within 2 ulp of the exact value, written so that a loop over a
/// slice vectorizes: no branches and no library call. (`f32::exp` is a call
/// to libm's `expf`; in wasm that is a scalar, branchy function, and it was a
/// tenth of MiniLM's forward at 128 tokens.) Below −87.3, where eˣ leaves the
/// normal f32 range, it gives 0, so a masked score (−∞) still weighs exactly 0.
/// A loop over many values is faster in the browser with [`Exp::exp`] on
/// [`loop_constants`]`(EXP)`.
#[inline]
pub fn exp(x: f32) -> f32 {
    EXP.exp(x)
}

/// log₂ x in f32 for x > 0, within 2 ulp of the exact value outside [½, 2)
/// (within 2.4e-7 inside it), written like [`exp`] so that a loop over a
/// slice vectorizes: a head's entropy takes one per weight, and libm's
/// `log2f`, a call each, took longer than the model's forward on a long text.
/// Subnormal x (below 1.2e-38) come out wrong, by at most 23 (their
/// mantissa's leading zeros), harmless to p · log₂ p; x ≤ 0 gives garbage
/// (callers skip it).
#[inline]
pub fn log2(x: f32) -> f32 {
    // x = 2ᵉ · m with m in [√½, √2), so that ln m is near 0 where the series
    // is good. Measured from √½'s bits, the exponent field is e and the
    // mantissa field, put back on √½, is m (musl's way: integer steps only,
    // no branch, so four lanes at a time).
    const SQRT_HALF: u32 = 0x3f35_04f3;
    let t = x.to_bits().wrapping_sub(SQRT_HALF);
    let e = (t as i32) >> 23;
    let m = f32::from_bits((t & 0x007f_ffff) + SQRT_HALF);
    // ln(1 + f) = f − f²/2 + f³·P(f), with Cephes' logf coefficients.
    let f = m - 1.0;
    let z = f * f;
    let poly = ((((((((7.037_683_6e-2 * f - 1.151_461e-1) * f + 1.167_699_9e-1) * f - 1.242_014_1e-1) * f + 1.424_932_3e-1) * f
        - 1.666_805_8e-1)
        * f
        + 2.000_071_4e-1)
        * f
        - 2.499_999_4e-1)
        * f
        + 3.333_333e-1)
        * f
        * z;
    let ln_m = f - 0.5 * z + poly;
    e as f32 + ln_m * std::f32::consts::LOG2_E
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_and_transposed_product_agree_with_hand_computation() {
        let a = Matrix::from_rows(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        let b = Matrix::from_rows(&[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
        assert_eq!(a.matmul(&b), Matrix::from_rows(&[[4.0, 5.0], [10.0, 11.0]]));
        assert_eq!(a.matmul_t(&a), Matrix::from_rows(&[[14.0, 32.0], [32.0, 77.0]]));
        assert_eq!(a.matmul_t(&a), a.matmul(&a.transpose()));
    }

    #[test]
    fn empty_shapes_do_not_panic() {
        let a = Matrix::zeros(0, 4);
        let b = Matrix::zeros(3, 4);
        assert_eq!(a.matmul_t(&b).shape(), (0, 3));
        assert_eq!(Matrix::zeros(2, 0).matmul(&Matrix::zeros(0, 2)), Matrix::zeros(2, 2));
    }

    #[test]
    fn growing_and_shrinking_in_place_equal_copying() {
        let m = |r: usize, c: usize, s: f32| Matrix::from_vec(r, c, (0..r * c).map(|i| i as f32 + s).collect());
        let (a, right, below) = (m(3, 2, 0.0), m(3, 4, 100.0), m(2, 6, 200.0));
        let mut grown = a.clone();
        grown.push_cols(&right);
        grown.push_rows(&below);
        assert_eq!(grown, Matrix::concat_rows(&[Matrix::concat_cols(&[a, right]), below]));
        grown.truncate_cols(2);
        grown.truncate_rows(3);
        assert_eq!(grown, m(3, 2, 0.0));
        let mut empty = Matrix::zeros(0, 0);
        empty.push_rows(&m(1, 3, 0.0));
        assert_eq!(empty, m(1, 3, 0.0));
    }

    #[test]
    fn lane_sum_dot_and_max_equal_the_plain_ones() {
        for n in [0, 1, 7, 8, 9, 16, 31, 128, 1000] {
            let xs: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 / 7.0 - 6.0).collect();
            let plain: f64 = xs.iter().map(|&x| x as f64).sum();
            assert!((sum(&xs) as f64 - plain).abs() < 1e-4 * (1.0 + plain.abs()), "sum of {n}");
            assert_eq!(max(&xs), xs.iter().copied().fold(f32::NEG_INFINITY, f32::max), "max of {n}");
            let squares: f64 = xs.iter().map(|&x| x as f64 * x as f64).sum();
            assert!((dot(&xs, &xs) as f64 - squares).abs() < 1e-4 * (1.0 + squares), "dot of {n}");
        }
        assert_eq!(max(&[f32::NAN, 2.0, f32::NEG_INFINITY]), 2.0);
        assert_eq!(max(&[f32::NEG_INFINITY; 9]), f32::NEG_INFINITY);
    }

    #[test]
    fn log2_is_within_two_ulp_of_libm_away_from_one() {
        let (mut worst_ulp, mut worst_abs) = (0u32, 0.0f32);
        for i in 0..=2_000_000 {
            // 1e-37 to 1e4, evenly in the exponent.
            let x = 10f32.powf(-37.0 + 41.0 * i as f32 / 2_000_000.0);
            let (got, want) = (log2(x), x.log2());
            if (0.5..2.0).contains(&x) {
                worst_abs = worst_abs.max((got - want).abs());
            } else {
                worst_ulp = worst_ulp.max(got.to_bits().abs_diff(want.to_bits()));
            }
        }
        assert!(worst_ulp <= 2, "{worst_ulp} ulp");
        assert!(worst_abs < 2.4e-7, "{worst_abs}"); // 2 ulp of 1
        assert_eq!((log2(1.0), log2(2.0), log2(0.25)), (0.0, 1.0, -2.0));
    }

    #[test]
    fn exp_is_within_two_ulp_of_libm_and_exact_at_the_ends() {
        let mut worst = 0u32;
        for i in 0..=2_000_000 {
            let x = -87.0 + 175.0 * i as f32 / 2_000_000.0;
            let (got, want) = (exp(x), x.exp());
            worst = worst.max(got.to_bits().abs_diff(want.to_bits()));
        }
        assert!(worst <= 2, "{worst} ulp");
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(-100.0), 0.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert!(exp(f32::NAN).is_nan());
    }

    #[test]
    fn a_matrix_crosses_json_exactly() {
        let m = Matrix::from_vec(2, 3, vec![0.1, -0.0, f32::NEG_INFINITY, f32::MIN_POSITIVE, 3.4e38, f32::NAN]);
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"rows":2,"cols":3,"data":"{}"}}"#,
                base64::Engine::encode(
                    &base64::engine::general_purpose::STANDARD,
                    m.data.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()
                )
            )
        );
        let back: Matrix = serde_json::from_str(&text).unwrap();
        assert_eq!((back.rows, back.cols), (2, 3));
        assert!(back.data.iter().zip(&m.data).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert!(serde_json::from_str::<Matrix>(r#"{"rows":1,"cols":1,"data":"AAA="}"#).is_err(), "two bytes are no f32");
    }

    #[test]
    fn exp_with_loop_constants_is_exp() {
        let e = loop_constants(EXP);
        for i in 0..=200_000 {
            let x = -100.0 + 200.0 * i as f32 / 200_000.0;
            assert_eq!(e.exp(x).to_bits(), exp(x).to_bits(), "exp({x})");
        }
        assert_eq!(e.exp(f32::NEG_INFINITY), 0.0);
    }
}
