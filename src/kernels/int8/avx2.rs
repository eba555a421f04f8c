//! The kernels with AVX2 (x86-64, checked at run time).

use super::{finish, Product, LANES};
use std::arch::x86_64::*;

/// # Safety
/// The CPU must have AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn product(p: &Product, y: &mut [f32]) {
    drive!(p, y, 4, dots)
}

/// Lanes 0–7 in one register, 8–15 in the other, per token.
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn dots<const T: usize>(xs: [&[f32]; T], w: &[i8]) -> [f32; T] {
    let whole = w.len() / LANES * LANES;
    let mut acc = [[_mm256_setzero_ps(); 2]; T];
    for k in (0..whole).step_by(LANES) {
        // SAFETY: k + 16 ≤ whole ≤ w.len(), and each x row has w.len() values.
        let q = _mm_loadu_si128(w.as_ptr().add(k).cast());
        let lo = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(q));
        let hi = _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128::<8>(q)));
        for (acc, x) in acc.iter_mut().zip(&xs) {
            acc[0] = _mm256_add_ps(acc[0], _mm256_mul_ps(_mm256_loadu_ps(x.as_ptr().add(k)), lo));
            acc[1] =
                _mm256_add_ps(acc[1], _mm256_mul_ps(_mm256_loadu_ps(x.as_ptr().add(k + 8)), hi));
        }
    }
    let mut sums = [0.0f32; T];
    for ((sum, acc), x) in sums.iter_mut().zip(&acc).zip(&xs) {
        let mut lanes = [0.0f32; LANES];
        // SAFETY: lanes holds 16 f32, two registers' worth.
        _mm256_storeu_ps(lanes.as_mut_ptr(), acc[0]);
        _mm256_storeu_ps(lanes.as_mut_ptr().add(8), acc[1]);
        *sum = finish(lanes, &x[whole..], &w[whole..]);
    }
    sums
}
