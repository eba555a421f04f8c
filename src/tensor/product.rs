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
