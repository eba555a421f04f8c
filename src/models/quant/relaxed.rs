//! The product for one to three tokens in the browsers that have relaxed
//! SIMD (the `fma` worker), for Q4_1: each token's block of 32 inputs as
//! three 8-bit integer parts rather than two 16-bit ones ([`super::simd128`]),
//!
//! ```text
//!   x ≈ s·(p₀ + p₁/254 + p₂/254²),   s = max|x| / 127,   |pᵢ| ≤ 127,
//! ```
//!
//! so a nibble meets its inputs without any widening:
//! `i16x8.relaxed_dot_i8x16_i7x16_s` (x86's pmaddubsw) multiplies sixteen
//! bytes by sixteen 7-bit values and adds neighbours, in one instruction,
//! twice the products of `i32x4.dot_i16x8_s`. Nibbles (0 to 15) are valid
//! 7-bit operands, so the result is the same on every CPU, and the sums,
//! at most 4·127·15 per 16-bit lane, cannot saturate. The parts are off by
//! at most s/(2·254²), 2⁻²⁴ of the block's largest value: f32's own
//! rounding of it. Two parts would be as coarse as one 16-bit part (2⁻¹⁶),
//! too coarse for SmolLM2's attention.
//!
//! The three parts' sums are combined as integers, 254²·Σp₀ + 254·Σp₁ +
//! Σp₂, exact in 32 bits, and converted once; the block scales are read as
//! f32 from the matrix's expanded scales.

use super::blocks::{BlockQ4_1, BLOCK};
use super::simd128::{each_block, each_row, row_scales, BlockStats};
use super::{padded_blocks, scales_per_row, QType};
use crate::models::simd::wasm::lanes_sum;
use std::arch::wasm32::*;

const PARTS: usize = 3;
const STEP: f32 = 254.0;

/// `n` tokens of `cols` inputs: per block of 32, the three parts (32 bytes
/// each), the parts' unit s/254² and Σ x (for Q4_1's m term).
pub struct Int8Parts {
    parts: Vec<i8>,
    /// s/254² (the unit of the combined parts) and Σ x per block.
    stats: BlockStats,
}

impl Int8Parts {
    pub fn new(x: &[f32], n: usize, cols: usize) -> Int8Parts {
        let mut parts = vec![0i8; n * cols * PARTS];
        let mut stats = BlockStats::new(n, cols);
        for (i, xb) in x[..n * cols].chunks_exact(BLOCK).enumerate() {
            let at = stats.at(i);
            // SAFETY: simd128 is on for the whole build; `xb` has 32 values.
            let v: [v128; 8] = unsafe { std::array::from_fn(|k| v128_load(xb.as_ptr().add(4 * k) as *const v128)) };
            let amax = lanes_max(v.map(|x| f32x4_abs(x)));
            stats.sums[at] = lanes_sum(v.into_iter().fold(f32x4_splat(0.0), |a, b| f32x4_add(a, b)));
            if !(amax > 0.0 && amax.is_finite()) {
                continue;
            }
            let s = amax / 127.0;
            stats.unit[at] = s / (STEP * STEP);
            // |x/s| ≤ 127 (to f32's rounding); each remainder, at
            // most half a unit and exact, times 254 stays within
            // ±127. That product is rounded, to 2⁻²⁴ of a part.
            let mut r = v.map(|x| f32x4_div(x, f32x4_splat(s)));
            for p in 0..PARTS {
                let q = r.map(|x| f32x4_nearest(x));
                let int = q.map(|x| i32x4_trunc_sat_f32x4(x));
                let bytes = [0, 1].map(|h| {
                    i8x16_narrow_i16x8(i16x8_narrow_i32x4(int[4 * h], int[4 * h + 1]), i16x8_narrow_i32x4(int[4 * h + 2], int[4 * h + 3]))
                });
                for (h, b) in bytes.into_iter().enumerate() {
                    // SAFETY: 16 bytes within this block's part.
                    unsafe { v128_store(parts.as_mut_ptr().add(PARTS * BLOCK * i + BLOCK * p + 16 * h) as *mut v128, b) };
                }
                r = std::array::from_fn(|k| f32x4_mul(f32x4_sub(r[k], q[k]), f32x4_splat(STEP)));
            }
        }
        Int8Parts { parts, stats }
    }
}

fn lanes_max(v: [v128; 8]) -> f32 {
    let m = v.into_iter().fold(f32x4_splat(0.0), |a, b| f32x4_pmax(a, b));
    let lanes = [f32x4_extract_lane::<0>(m), f32x4_extract_lane::<1>(m), f32x4_extract_lane::<2>(m), f32x4_extract_lane::<3>(m)];
    lanes.into_iter().fold(0.0, f32::max)
}

/// One Q4_1 row (its blocks at `row`, their d and m as f32 at `scales`)
/// against the `T` tokens of `parts`; `ds` is scratch for a scale per block
/// and token. Each token keeps one sum for even blocks and one for odd
/// blocks ([`each_block`]).
#[target_feature(enable = "relaxed-simd")]
unsafe fn row_times_tokens<const T: usize>(row: *const BlockQ4_1, scales: *const f32, parts: &Int8Parts, ds: *mut f32) -> [f32; T] {
    let (blocks, padded) = (parts.stats.blocks, parts.stats.padded);
    let offset = row_scales::<T>(scales, true, &parts.stats, ds);
    let mut acc = [[f32x4_splat(0.0); 2]; T];
    let mask = u8x16_splat(0x0f);
    // 254² is beyond 16 bits; half of it is not.
    let (half_square, step) = (i16x8_splat((STEP * STEP / 2.0) as i16), i16x8_splat(STEP as i16));
    let block = |b: usize, odd: usize, acc: &mut [[v128; 2]; T]| {
        let qs = v128_load((*row.add(b)).qs.as_ptr() as *const v128);
        // Weights 0-15 are the low nibbles, 16-31 the high ones.
        let (lo, hi) = (v128_and(qs, mask), v128_and(u16x8_shr(qs, 4), mask));
        for (t, at) in acc.iter_mut().map(|a| &mut a[odd]).enumerate() {
            let a = parts.parts.as_ptr().add(PARTS * BLOCK * (t * blocks + b)) as *const v128;
            // Each 16-bit lane: four products, at most 4·127·15.
            let part = |k: usize| {
                i16x8_add(
                    i16x8_relaxed_dot_i8x16_i7x16(v128_load(a.add(2 * k)), lo),
                    i16x8_relaxed_dot_i8x16_i7x16(v128_load(a.add(2 * k + 1)), hi),
                )
            };
            // 254²·p₀ + 254·p₁ + p₂ summed in 32-bit integers, exact:
            // at most 4·127·15·(254² + 254 + 1) < 2³¹ per lane; 2·p₀'s
            // lanes stay within 16 bits (8·127·15).
            let p0 = part(0);
            let high = i32x4_add(i32x4_dot_i16x8(i16x8_add(p0, p0), half_square), i32x4_dot_i16x8(part(1), step));
            let sum = i32x4_add(high, i32x4_extadd_pairwise_i16x8(part(2)));
            *at = f32x4_relaxed_madd(f32x4_convert_i32x4(sum), v128_load32_splat(ds.add(t * padded + b) as *const u32), *at);
        }
    };
    each_block(blocks, |b, odd| block(b, odd, &mut acc));
    std::array::from_fn(|t| lanes_sum(f32x4_add(acc[t][0], acc[t][1])) + lanes_sum(offset[t]))
}

/// out[t][k] = Σ_c W[k][c]·x[t][c] for the `rows` Q4_1 rows in `bytes`
/// (`row_bytes` each, their d and m in `scales` as `super::block_scales`
/// lays them out) and `T` tokens.
#[allow(clippy::too_many_arguments)]
pub fn dots_quantized<const T: usize>(
    bytes: &[u8],
    scales: &[f32],
    row_bytes: usize,
    rows: usize,
    parts: &Int8Parts,
    cols: usize,
    out: &mut [f32],
    width: usize,
) {
    let (blocks, padded, per_row) = (cols / BLOCK, padded_blocks(cols), scales_per_row(QType::Q4_1, cols));
    assert!(cols.is_multiple_of(BLOCK) && row_bytes >= blocks * std::mem::size_of::<BlockQ4_1>() && scales.len() >= rows * per_row);
    assert!(
        bytes.len() >= rows * row_bytes
            && parts.parts.len() >= T * cols * PARTS
            && parts.stats.fits(T, cols)
            && out.len() >= (T - 1) * width + rows
    );
    each_row::<T>(rows, padded, out, width, |k, ds| {
        // SAFETY: the fma worker runs only where relaxed SIMD is (the page
        // checks); the row's blocks lie in `bytes`, its scales in `scales`,
        // the tokens in `parts` and `ds` has a scale for each of their padded
        // blocks (asserted above and by `each_row`).
        unsafe { row_times_tokens::<T>(bytes.as_ptr().add(k * row_bytes) as *const BlockQ4_1, scales.as_ptr().add(k * per_row), parts, ds) }
    });
}
