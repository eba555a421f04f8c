//! The kernels in wasm simd128 (the browser).

use super::{finish, Product, LANES};
use std::arch::wasm32::*;

pub fn product(p: &Product, y: &mut [f32]) {
    // Two tokens' sixteen lanes and four widened weights fit the sixteen
    // vector registers an x86 browser has; four tokens would spill.
    drive!(p, y, 2, dots)
}

/// Lanes 0–3, 4–7, 8–11, 12–15 in four registers, per token.
#[inline(always)]
pub fn dots<const T: usize>(xs: [&[f32]; T], w: &[i8]) -> [f32; T] {
    let whole = w.len() / LANES * LANES;
    let mut acc = [[f32x4_splat(0.0); 4]; T];
    for k in (0..whole).step_by(LANES) {
        // SAFETY: k + 16 ≤ whole ≤ w.len(), and each x row has w.len() values.
        let q = unsafe { v128_load(w.as_ptr().add(k).cast()) };
        let (lo, hi) = (i16x8_extend_low_i8x16(q), i16x8_extend_high_i8x16(q));
        let wf = [
            f32x4_convert_i32x4(i32x4_extend_low_i16x8(lo)),
            f32x4_convert_i32x4(i32x4_extend_high_i16x8(lo)),
            f32x4_convert_i32x4(i32x4_extend_low_i16x8(hi)),
            f32x4_convert_i32x4(i32x4_extend_high_i16x8(hi)),
        ];
        for (acc, x) in acc.iter_mut().zip(&xs) {
            for j in 0..4 {
                let xv = unsafe { v128_load(x.as_ptr().add(k + 4 * j).cast()) };
                acc[j] = f32x4_add(acc[j], f32x4_mul(xv, wf[j]));
            }
        }
    }
    let mut sums = [0.0f32; T];
    for ((sum, acc), x) in sums.iter_mut().zip(&acc).zip(&xs) {
        let mut lanes = [0.0f32; LANES];
        for (j, v) in acc.iter().enumerate() {
            // SAFETY: lanes holds 16 f32, four registers' worth.
            unsafe { v128_store(lanes.as_mut_ptr().add(4 * j).cast(), *v) };
        }
        *sum = finish(lanes, &x[whole..], &w[whole..]);
    }
    sums
}
