//! The product for one to three tokens in the browsers that have relaxed
//! SIMD (the `fma` worker), for the formats whose integers fit in 7 bits
//! once made unsigned ([`Int7Block`]: the 4- and 5-bit ones): each token's
//! block of 32 inputs as three 8-bit integer parts rather than two 16-bit
//! ones ([`super::simd128`]),
//!
//! ```text
//!   x ≈ s·(p₀ + p₁/254 + p₂/254²),   s = max|x| / 127,   |pᵢ| ≤ 127,
//! ```
//!
//! so a weight meets its inputs without any widening:
//! `i16x8.relaxed_dot_i8x16_i7x16_s` (x86's pmaddubsw) multiplies sixteen
//! bytes by sixteen 7-bit values and adds neighbours, in one instruction,
//! twice the products of `i32x4.dot_i16x8_s`. Unsigned 5-bit integers (0 to
//! 31) are valid 7-bit operands, so the result is the same on every CPU,
//! and the sums, at most 4·127·31 per 16-bit lane, cannot saturate. A
//! format whose integers are signed (Q4_0, Q5_0) gives them plus a bias,
//! which the offset term takes back: d·Σ(u − bias)·x = d·Σu·x − bias·d·Σx. The parts are off by
//! at most s/(2·254²), 2⁻²⁴ of the block's largest value: f32's own
//! rounding of it. Two parts would be as coarse as one 16-bit part (2⁻¹⁶),
//! too coarse for SmolLM2's attention.
//!
//! The three parts' sums are combined as integers, 254²·Σp₀ + 254·Σp₁ +
//! Σp₂, exact in 32 bits, and converted once; the block scales are read as
//! f32 from the matrix's expanded scales.

use super::blocks::{Block, BlockQ4K, BlockQ4_0, BlockQ4_1, BlockQ5K, BlockQ5_0, BLOCK};
use super::wasm_rows::{each_block, each_row, row_scales, BlockStats};
use super::QuantizedRows;
use super::{padded_blocks, scales_per_row};
use crate::kernels::simd::wasm::lanes_sum;
use std::arch::wasm32::*;

/// A format whose integers, plus [`Int7Block::BIAS`], are 0 to 31.
pub trait Int7Block: Block {
    /// What the integers are raised by.
    const BIAS: f32;

    /// Block `b`'s 32 integers plus the bias, weights 0-15 then 16-31, as bytes.
    ///
    /// # Safety
    /// `p` must point to a readable block and `b` be below `BLOCKS`.
    unsafe fn unsigned(p: *const Self, b: usize) -> [v128; 2];
}

/// The low and the high nibbles of the sixteen bytes at `p`.
#[inline(always)]
unsafe fn nibbles(p: *const u8) -> [v128; 2] {
    let (qs, mask) = (v128_load(p as *const v128), u8x16_splat(0x0f));
    // Shifting 16-bit lanes and masking is what i8x16.shr_u becomes on x86
    // anyway, but with the mask kept in a register.
    [v128_and(qs, mask), v128_and(u16x8_shr(qs, 4), mask)]
}

/// 16 in byte j where bit j of the 16 bits `bits` is set, 0 elsewhere.
#[inline(always)]
fn fifth_bits(bits: u32) -> v128 {
    let spread = u8x16_swizzle(
        u16x8_splat(bits as u16),
        u8x16(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1),
    );
    let select = u64x2_splat(0x8040_2010_0804_0201);
    v128_and(i8x16_eq(v128_and(spread, select), select), u8x16_splat(16))
}

/// K-quant block `b`'s nibbles (of its pair's 32 bytes: low for even b, high for odd).
#[inline(always)]
unsafe fn k_nibbles(qs: *const u8, b: usize) -> [v128; 2] {
    let (q, shift, mask) = (qs.add(BLOCK * (b / 2)), 4 * (b % 2) as u32, u8x16_splat(0x0f));
    [
        v128_and(u16x8_shr(v128_load(q as *const v128), shift), mask),
        v128_and(u16x8_shr(v128_load(q.add(16) as *const v128), shift), mask),
    ]
}

impl Int7Block for BlockQ4_0 {
    const BIAS: f32 = 8.0;

    #[inline(always)]
    unsafe fn unsigned(p: *const Self, _: usize) -> [v128; 2] {
        nibbles((*p).qs.as_ptr())
    }
}

impl Int7Block for BlockQ4_1 {
    const BIAS: f32 = 0.0;

    #[inline(always)]
    unsafe fn unsigned(p: *const Self, _: usize) -> [v128; 2] {
        nibbles((*p).qs.as_ptr())
    }
}

impl Int7Block for BlockQ5_0 {
    const BIAS: f32 = 16.0;

    #[inline(always)]
    unsafe fn unsigned(p: *const Self, _: usize) -> [v128; 2] {
        let [lo, hi] = nibbles((*p).qs.as_ptr());
        let qh = u32::from_le_bytes((*p).qh);
        [v128_or(lo, fifth_bits(qh)), v128_or(hi, fifth_bits(qh >> 16))]
    }
}

impl Int7Block for BlockQ4K {
    const BIAS: f32 = 0.0;

    #[inline(always)]
    unsafe fn unsigned(p: *const Self, b: usize) -> [v128; 2] {
        k_nibbles((*p).qs.as_ptr(), b)
    }
}

impl Int7Block for BlockQ5K {
    const BIAS: f32 = 0.0;

    #[inline(always)]
    unsafe fn unsigned(p: *const Self, b: usize) -> [v128; 2] {
        let [lo, hi] = k_nibbles((*p).qs.as_ptr(), b);
        let (qh, bit) = ((*p).qh.as_ptr(), u8x16_splat(1 << b));
        let fifth = |h: usize| {
            v128_and(
                i8x16_eq(v128_and(v128_load(qh.add(16 * h) as *const v128), bit), bit),
                u8x16_splat(16),
            )
        };
        [v128_or(lo, fifth(0)), v128_or(hi, fifth(1))]
    }
}

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
            let v: [v128; 8] = unsafe {
                std::array::from_fn(|k| v128_load(xb.as_ptr().add(4 * k) as *const v128))
            };
            let amax = lanes_max(v.map(|x| f32x4_abs(x)));
            stats.sums[at] =
                lanes_sum(v.into_iter().fold(f32x4_splat(0.0), |a, b| f32x4_add(a, b)));
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
                    i8x16_narrow_i16x8(
                        i16x8_narrow_i32x4(int[4 * h], int[4 * h + 1]),
                        i16x8_narrow_i32x4(int[4 * h + 2], int[4 * h + 3]),
                    )
                });
                for (h, b) in bytes.into_iter().enumerate() {
                    // SAFETY: 16 bytes within this block's part.
                    unsafe {
                        v128_store(
                            parts.as_mut_ptr().add(PARTS * BLOCK * i + BLOCK * p + 16 * h)
                                as *mut v128,
                            b,
                        )
                    };
                }
                r = std::array::from_fn(|k| f32x4_mul(f32x4_sub(r[k], q[k]), f32x4_splat(STEP)));
            }
        }
        Int8Parts { parts, stats }
    }
}

fn lanes_max(v: [v128; 8]) -> f32 {
    let m = v.into_iter().fold(f32x4_splat(0.0), |a, b| f32x4_pmax(a, b));
    let lanes = [
        f32x4_extract_lane::<0>(m),
        f32x4_extract_lane::<1>(m),
        f32x4_extract_lane::<2>(m),
        f32x4_extract_lane::<3>(m),
    ];
    lanes.into_iter().fold(0.0, f32::max)
}

/// One row (its blocks at `row`, their d and m as f32 at `scales`)
/// against the `T` tokens of `parts`; `ds` is scratch for a scale per block
/// and token. Each token keeps one sum for even blocks and one for odd
/// blocks ([`each_block`]).
#[target_feature(enable = "relaxed-simd")]
unsafe fn row_times_tokens<const T: usize, B: Int7Block>(
    row: *const B,
    scales: *const f32,
    parts: &Int8Parts,
    ds: *mut f32,
) -> [f32; T] {
    let (blocks, padded) = (parts.stats.blocks, parts.stats.padded);
    let offset = row_scales::<T>(scales, B::HAS_OFFSET, B::BIAS, &parts.stats, ds);
    let mut acc = [[f32x4_splat(0.0); 2]; T];
    // 254² is beyond 16 bits; half of it is not.
    let (half_square, step) = (i16x8_splat((STEP * STEP / 2.0) as i16), i16x8_splat(STEP as i16));
    let block = |b: usize, odd: usize, acc: &mut [[v128; 2]; T]| {
        let [lo, hi] = B::unsigned(row.add(b / B::BLOCKS), b % B::BLOCKS);
        for (t, at) in acc.iter_mut().map(|a| &mut a[odd]).enumerate() {
            let a = parts.parts.as_ptr().add(PARTS * BLOCK * (t * blocks + b)) as *const v128;
            // Each 16-bit lane: four products, at most 4·127·31.
            let part = |k: usize| {
                i16x8_add(
                    i16x8_relaxed_dot_i8x16_i7x16(v128_load(a.add(2 * k)), lo),
                    i16x8_relaxed_dot_i8x16_i7x16(v128_load(a.add(2 * k + 1)), hi),
                )
            };
            // 254²·p₀ + 254·p₁ + p₂ summed in 32-bit integers, exact:
            // at most 4·127·31·(254² + 254 + 1) < 2³¹ per lane; 2·p₀'s
            // lanes stay within 16 bits (8·127·31).
            let p0 = part(0);
            let high = i32x4_add(
                i32x4_dot_i16x8(i16x8_add(p0, p0), half_square),
                i32x4_dot_i16x8(part(1), step),
            );
            let sum = i32x4_add(high, i32x4_extadd_pairwise_i16x8(part(2)));
            *at = f32x4_relaxed_madd(
                f32x4_convert_i32x4(sum),
                v128_load32_splat(ds.add(t * padded + b) as *const u32),
                *at,
            );
        }
    };
    each_block(blocks, |b, odd| block(b, odd, &mut acc));
    std::array::from_fn(|t| lanes_sum(f32x4_add(acc[t][0], acc[t][1])) + lanes_sum(offset[t]))
}

/// out[t][k] = Σ_c W[k][c]·x[t][c] for the quantized `rows` (their d and
/// m in `scales` as `super::block_scales` lays them out) and `T` tokens.
pub fn dots_quantized<const T: usize, B: Int7Block>(
    rows: &QuantizedRows,
    parts: &Int8Parts,
    cols: usize,
    out: &mut [f32],
    width: usize,
) {
    let QuantizedRows { bytes, scales, row_bytes, count, .. } = *rows;
    let (padded, per_row) = (padded_blocks(cols), scales_per_row(B::QTYPE, cols));
    assert!(
        cols.is_multiple_of(B::WEIGHTS)
            && row_bytes >= cols / B::WEIGHTS * B::BYTES
            && scales.len() >= count * per_row
    );
    assert!(
        bytes.len() >= count * row_bytes
            && parts.parts.len() >= T * cols * PARTS
            && parts.stats.fits(T, cols)
            && out.len() >= (T - 1) * width + count
    );
    each_row::<T>(count, padded, out, width, |k, ds| {
        // SAFETY: the fma worker runs only where relaxed SIMD is (the page
        // checks); the row's blocks lie in `bytes`, its scales in `scales`,
        // the tokens in `parts` and `ds` has a scale for each of their padded
        // blocks (asserted above and by `each_row`).
        unsafe {
            row_times_tokens::<T, B>(
                bytes.as_ptr().add(k * row_bytes) as *const B,
                scales.as_ptr().add(k * per_row),
                parts,
                ds,
            )
        }
    });
}
