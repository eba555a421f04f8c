//! The matrix products: the `gemm` crate (AVX2/FMA natively, simd128 in the
//! browser), or in the `fma` worker a kernel of our own with relaxed SIMD's
//! fused multiply-add ([`super::relaxed`]), which gemm's simd128 kernels lack.

use super::Matrix;

impl Matrix {
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
    #[cfg(all(target_arch = "wasm32", not(feature = "pretrained")))]
    plain_product(out, lhs, lhs_t, rhs, rhs_t);
    #[cfg(not(all(target_arch = "wasm32", not(feature = "pretrained"))))]
    kernel_product(out, lhs, lhs_t, rhs, rhs_t);
}

/// out = lhs · (rhs or rhsᵀ) by gemm or, in the fma worker, our relaxed-SIMD kernel.
///
/// # Safety
/// As [`gemm_into`].
#[cfg(not(all(target_arch = "wasm32", not(feature = "pretrained"))))]
unsafe fn kernel_product(out: &mut Matrix, lhs: &Matrix, lhs_t: bool, rhs: &Matrix, rhs_t: bool) {
    let (m, n) = (out.rows, out.cols);
    let k = if lhs_t { lhs.rows } else { lhs.cols };
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
    if !lhs_t {
        return super::relaxed::product(out, lhs, rhs, rhs_t);
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

/// out = lhs · (rhs or rhsᵀ) by the definition. The page's own wasm (built
/// without the models) multiplies only the teaching model's and the worked
/// example's few small matrices: a loop keeps gemm's kernels, some 15 kB
/// gzipped, out of the page's download.
#[cfg(all(target_arch = "wasm32", not(feature = "pretrained")))]
fn plain_product(out: &mut Matrix, lhs: &Matrix, lhs_t: bool, rhs: &Matrix, rhs_t: bool) {
    let k = if lhs_t { lhs.rows } else { lhs.cols };
    let at = |m: &Matrix, t: bool, r: usize, c: usize| {
        if t {
            m.data[c * m.cols + r]
        } else {
            m.data[r * m.cols + c]
        }
    };
    for i in 0..out.rows {
        for j in 0..out.cols {
            out.data[i * out.cols + j] =
                (0..k).map(|p| at(lhs, lhs_t, i, p) * at(rhs, rhs_t, p, j)).sum();
        }
    }
}
