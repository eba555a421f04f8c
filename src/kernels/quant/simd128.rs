//! The kernels in wasm simd128 (the browser): the batch product on weights
//! expanded a few rows at a time, and the product for one to three tokens
//! on the inputs' 16-bit integer parts (what it shares with the `relaxed`
//! kernel is in `wasm_rows.rs`).
//!
//! No fused multiply-add in plain wasm: each product is rounded, then added,
//! as the portable code does (with the `fma` feature, [`madd`] fuses them).
//! The expanded weights are bit-identical to the portable ones; the batch
//! product keeps four running sums per output, not eight, and so differs from
//! the portable one by rounding, about 1e-7 relative.

use super::blocks::{
    Block, BlockQ4K, BlockQ4_0, BlockQ4_1, BlockQ5K, BlockQ5_0, BlockQ6K, BlockQ8_0, BLOCK, F16,
};
use super::wasm_rows::{each_block, each_row, row_scales, BlockStats};
use super::QuantizedRows;
use super::{padded_blocks, scales_per_row};
use crate::kernels::simd::wasm::{lanes_sum, madd};
use std::arch::wasm32::*;

/// A block format's values in simd128 registers.
pub trait Simd128Block: Block {
    /// The 32 integers i of block `b` (of [`Block::BLOCKS`]) of the block at
    /// `p` as four i16x8, in weight order: its weights are d·i + m, (d, m)
    /// = [`Block::scales`]`(b)`.
    ///
    /// # Safety
    /// `p` must point to a readable block and `b` be below `BLOCKS`.
    unsafe fn integers(p: *const Self, b: usize) -> [v128; 4];

    /// The 32 weights of block `b` of the block at `p`, as eight vectors of
    /// four, bit for bit [`Block::dequantize`]'s: d·i is exact, so rounding
    /// it, then adding m, rounds as the reference does.
    ///
    /// # Safety
    /// `p` must point to a readable block and `b` be below `BLOCKS`.
    #[inline(always)]
    unsafe fn weights(p: *const Self, b: usize) -> [v128; 8] {
        let (d, m) = (*p).scales(b);
        Self::weights_with(p, b, f32x4_splat(d), f32x4_splat(m))
    }

    /// [`Simd128Block::weights`], with d and m (each in all four lanes)
    /// given, as [`super::block_scales`] keeps them: decoding a block's
    /// f16 (and a K-quant's 6-bit) scales was a large share of the batch
    /// product's expansion.
    ///
    /// # Safety
    /// `p` must point to a readable block and `b` be below `BLOCKS`.
    #[inline(always)]
    unsafe fn weights_with(p: *const Self, b: usize, d: v128, m: v128) -> [v128; 8] {
        let [q0, q1, q2, q3] = Self::integers(p, b);
        let [w0, w1, w2, w3] = widen(q0, q1, true);
        let [w4, w5, w6, w7] = widen(q2, q3, true);
        // Without an offset nothing is added: −0 + 0 would lose a zero's sign.
        [w0, w1, w2, w3, w4, w5, w6, w7].map(|q| {
            if Self::HAS_OFFSET {
                f32x4_add(f32x4_mul(q, d), m)
            } else {
                f32x4_mul(q, d)
            }
        })
    }
}

/// The f16 at `d` and the one after it (Q4_1's m; for Q8_0 its first two
/// weights, which the caller ignores), each in all four lanes, converted as
/// [`F16::to_f32`] does, with a few vector shifts rather than a dozen scalar
/// operations and a splat each.
///
/// # Safety
/// Four bytes must be readable at `d`.
#[inline(always)]
unsafe fn scale_pair(d: *const F16) -> (v128, v128) {
    let both = v128_load32_splat(d as *const u32); // second·2¹⁶ + first
                                                   // Sign-extending a half's 16 bits from the top
                                                   // of the lane puts its sign at bit 31 and its
                                                   // magnitude at bits 13..28, as `to_f32` does.
    let keep = u32x4_splat(0x8fff_e000);
    let rebias = f32x4_splat(f32::from_bits((127 + 112) << 23));
    let first = v128_and(i32x4_shr(i32x4_shl(both, 16), 3), keep);
    let second = v128_and(i32x4_shr(both, 3), keep);
    (f32x4_mul(first, rebias), f32x4_mul(second, rebias))
}

/// Sixteen small integers (four vectors of i32, in order) as f32.
/// Widening with extends rather than moving bytes with shuffles:
/// V8 rebuilds each shuffle's constant on every use. The signed
/// conversion is exact for these values and one instruction on
/// x86-64, where V8 spells out the unsigned one in several.
#[inline(always)]
fn widen(lo: v128, hi: v128, signed: bool) -> [v128; 4] {
    let parts = if signed {
        [
            i32x4_extend_low_i16x8(lo),
            i32x4_extend_high_i16x8(lo),
            i32x4_extend_low_i16x8(hi),
            i32x4_extend_high_i16x8(hi),
        ]
    } else {
        [
            u32x4_extend_low_u16x8(lo),
            u32x4_extend_high_u16x8(lo),
            u32x4_extend_low_u16x8(hi),
            u32x4_extend_high_u16x8(hi),
        ]
    };
    parts.map(|v| f32x4_convert_i32x4(v))
}

/// Sixteen bytes as two i16x8, zero-extended.
#[inline(always)]
fn extend(v: v128) -> [v128; 2] {
    [u16x8_extend_low_u8x16(v), u16x8_extend_high_u8x16(v)]
}

/// The low and the high nibbles of the sixteen bytes at `p`. Shifting
/// 16-bit lanes and masking is what i8x16.shr_u becomes on x86 anyway, but
/// with the mask kept in a register.
#[inline(always)]
unsafe fn nibbles(p: *const u8) -> (v128, v128) {
    let qs = v128_load(p as *const v128);
    let mask = u8x16_splat(0x0f);
    (v128_and(qs, mask), v128_and(u16x8_shr(qs, 4), mask))
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

/// 16 in each of the sixteen bytes at `p` that has `bit` set, 0 elsewhere.
#[inline(always)]
unsafe fn bit_at(p: *const u8, bit: u8) -> v128 {
    let bit = u8x16_splat(bit);
    v128_and(i8x16_eq(v128_and(v128_load(p as *const v128), bit), bit), u8x16_splat(16))
}

impl Simd128Block for BlockQ4_0 {
    #[inline(always)]
    unsafe fn integers(p: *const Self, _: usize) -> [v128; 4] {
        let (lo, hi) = nibbles((*p).qs.as_ptr());
        let eight = i16x8_splat(8);
        let [a, b] = extend(lo);
        let [c, d] = extend(hi);
        [a, b, c, d].map(|q| i16x8_sub(q, eight))
    }
}

impl Simd128Block for BlockQ4_1 {
    #[inline(always)]
    unsafe fn weights(p: *const Self, b: usize) -> [v128; 8] {
        let (d, m) = scale_pair(&raw const (*p).d);
        Self::weights_with(p, b, d, m)
    }

    /// Low nibbles of bytes 0-15, then high nibbles.
    #[inline(always)]
    unsafe fn weights_with(p: *const Self, _: usize, d: v128, m: v128) -> [v128; 8] {
        let (lo, hi) = nibbles((*p).qs.as_ptr());
        let [a, b, c, e] = widen(u16x8_extend_low_u8x16(lo), u16x8_extend_high_u8x16(lo), false);
        let [f, g, h, i] = widen(u16x8_extend_low_u8x16(hi), u16x8_extend_high_u8x16(hi), false);
        [a, b, c, e, f, g, h, i].map(|q| f32x4_add(f32x4_mul(q, d), m))
    }

    #[inline(always)]
    unsafe fn integers(p: *const Self, _: usize) -> [v128; 4] {
        let (lo, hi) = nibbles((*p).qs.as_ptr());
        let [a, b] = extend(lo);
        let [c, d] = extend(hi);
        [a, b, c, d]
    }
}

impl Simd128Block for BlockQ5_0 {
    #[inline(always)]
    unsafe fn integers(p: *const Self, _: usize) -> [v128; 4] {
        let (lo, hi) = nibbles((*p).qs.as_ptr());
        let qh = u32::from_le_bytes((*p).qh);
        let sixteen = i16x8_splat(16);
        let [a, b] = extend(v128_or(lo, fifth_bits(qh)));
        let [c, d] = extend(v128_or(hi, fifth_bits(qh >> 16)));
        [a, b, c, d].map(|q| i16x8_sub(q, sixteen))
    }
}

impl Simd128Block for BlockQ8_0 {
    #[inline(always)]
    unsafe fn weights(p: *const Self, b: usize) -> [v128; 8] {
        let (d, _) = scale_pair(&raw const (*p).d);
        Self::weights_with(p, b, d, f32x4_splat(0.0))
    }

    #[inline(always)]
    unsafe fn weights_with(p: *const Self, _: usize, d: v128, _: v128) -> [v128; 8] {
        let qs = (*p).qs.as_ptr();
        let (qa, qb) = (v128_load(qs as *const v128), v128_load(qs.add(16) as *const v128));
        let [a, b, c, e] = widen(i16x8_extend_low_i8x16(qa), i16x8_extend_high_i8x16(qa), true);
        let [f, g, h, i] = widen(i16x8_extend_low_i8x16(qb), i16x8_extend_high_i8x16(qb), true);
        [a, b, c, e, f, g, h, i].map(|q| f32x4_mul(q, d))
    }

    #[inline(always)]
    unsafe fn integers(p: *const Self, _: usize) -> [v128; 4] {
        let qs = (*p).qs.as_ptr();
        let (a, c) = (v128_load(qs as *const v128), v128_load(qs.add(16) as *const v128));
        [
            i16x8_extend_low_i8x16(a),
            i16x8_extend_high_i8x16(a),
            i16x8_extend_low_i8x16(c),
            i16x8_extend_high_i8x16(c),
        ]
    }
}

/// K-quant block `b`'s 32 nibbles (the low ones of its pair's 32 bytes for
/// even b, the high ones for odd), as two vectors of sixteen bytes.
#[inline(always)]
unsafe fn k_nibbles(qs: *const u8, b: usize) -> [v128; 2] {
    let q = qs.add(BLOCK * (b / 2));
    let (shift, mask) = (4 * (b % 2) as u32, u8x16_splat(0x0f));
    [
        v128_and(u16x8_shr(v128_load(q as *const v128), shift), mask),
        v128_and(u16x8_shr(v128_load(q.add(16) as *const v128), shift), mask),
    ]
}

impl Simd128Block for BlockQ4K {
    #[inline(always)]
    unsafe fn integers(p: *const Self, b: usize) -> [v128; 4] {
        let [lo, hi] = k_nibbles((*p).qs.as_ptr(), b);
        let [a, c] = extend(lo);
        let [e, f] = extend(hi);
        [a, c, e, f]
    }
}

impl Simd128Block for BlockQ5K {
    #[inline(always)]
    unsafe fn integers(p: *const Self, b: usize) -> [v128; 4] {
        let [lo, hi] = k_nibbles((*p).qs.as_ptr(), b);
        let qh = (*p).qh.as_ptr();
        let [a, c] = extend(v128_or(lo, bit_at(qh, 1 << b)));
        let [e, f] = extend(v128_or(hi, bit_at(qh.add(16), 1 << b)));
        [a, c, e, f]
    }
}

impl Simd128Block for BlockQ6K {
    /// (q − 32)·scale: at most 32·128 in magnitude.
    #[inline(always)]
    unsafe fn integers(p: *const Self, b: usize) -> [v128; 4] {
        let (h, g) = (b / 4, b % 4);
        let ql = (*p).ql.as_ptr().add(64 * h + 32 * (g % 2));
        let qh = (*p).qh.as_ptr().add(32 * h);
        let (mask, three) = (u8x16_splat(0x0f), u8x16_splat(3));
        let q = |i: usize| {
            let low = v128_and(
                u16x8_shr(v128_load(ql.add(16 * i) as *const v128), 4 * (g / 2) as u32),
                mask,
            );
            let high =
                v128_and(u16x8_shr(v128_load(qh.add(16 * i) as *const v128), 2 * g as u32), three);
            i8x16_sub(v128_or(low, u16x8_shl(high, 4)), u8x16_splat(32))
        };
        let (q0, q1) = (q(0), q(1));
        let (s0, s1) =
            (i16x8_splat((*p).scales[2 * b] as i16), i16x8_splat((*p).scales[2 * b + 1] as i16));
        [
            i16x8_mul(i16x8_extend_low_i8x16(q0), s0),
            i16x8_mul(i16x8_extend_high_i8x16(q0), s0),
            i16x8_mul(i16x8_extend_low_i8x16(q1), s1),
            i16x8_mul(i16x8_extend_high_i8x16(q1), s1),
        ]
    }
}

#[inline(always)]
unsafe fn load(p: *const f32) -> v128 {
    v128_load(p as *const v128)
}

/// `bytes`: whole blocks; `out`: their weights.
pub unsafe fn dequantize<B: Simd128Block>(bytes: &[u8], out: &mut [f32]) {
    let blocks = B::slice(bytes);
    let n = blocks.len().min(out.len() / B::WEIGHTS);
    for i in 0..n * B::BLOCKS {
        let o = out.as_mut_ptr().add(i * BLOCK);
        for (g, v) in
            B::weights(blocks.as_ptr().add(i / B::BLOCKS), i % B::BLOCKS).into_iter().enumerate()
        {
            v128_store(o.add(4 * g) as *mut v128, v);
        }
    }
}

/// Rows of a tile, and tokens taken together: 4 × 2 = 8 accumulators beside
/// 4 rows, 2 tokens and a product, 15 vector registers, as many as V8 gives
/// wasm on x86-64 (a larger tile made V8 keep an accumulator on the stack).
const TILE_ROWS: usize = 4;
const TILE_TOKENS: usize = 2;

/// The weights of `r ≤ TILE_ROWS` rows (zeros past `r`) interleaved
/// four columns at a time, `out[4·TILE_ROWS·i + 4·k + l] =
/// W[k][4·i + l]`, so that a tile's loads all come from one moving
/// pointer at fixed offsets rather than one pointer per row. The rows'
/// block scales are read from `scales`, laid out as [`super::block_scales`]
/// keeps them.
unsafe fn dequantize_interleaved<B: Simd128Block>(
    bytes: &[u8],
    row_bytes: usize,
    r: usize,
    cols: usize,
    scales: &[f32],
    out: &mut [f32],
) {
    let (padded, per_row) = (padded_blocks(cols), scales_per_row(B::QTYPE, cols));
    assert!(
        bytes.len() >= r * row_bytes
            && scales.len() >= r * per_row
            && out.len() >= TILE_ROWS * cols
            && r <= TILE_ROWS
    );
    let o = out.as_mut_ptr();
    for k in 0..TILE_ROWS {
        for b in 0..cols / BLOCK {
            let row = bytes.as_ptr().add(k * row_bytes) as *const B;
            let v = if k >= r {
                [f32x4_splat(0.0); 8]
            } else {
                let d = scales.as_ptr().add(k * per_row + b);
                let m = if B::HAS_OFFSET {
                    v128_load32_splat(d.add(padded) as *const u32)
                } else {
                    f32x4_splat(0.0)
                };
                B::weights_with(
                    row.add(b / B::BLOCKS),
                    b % B::BLOCKS,
                    v128_load32_splat(d as *const u32),
                    m,
                )
            };
            for (g, v) in v.into_iter().enumerate() {
                v128_store(o.add(4 * TILE_ROWS * (8 * b + g) + 4 * k) as *mut v128, v);
            }
        }
    }
}

/// `TILE_ROWS` interleaved weight rows against `T` tokens whose
/// columns are interleaved likewise (`x[4·T·i + 4·t + l]`), one
/// vector (four running sums) per output; each chunk of four columns
/// costs TILE_ROWS + T loads for TILE_ROWS·T products. An output's
/// sum does not depend on T.
#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"), inline)]
#[cfg_attr(not(feature = "fma"), inline(always))]
unsafe fn tile<const T: usize>(
    w: *const f32,
    x: *const f32,
    chunks: usize,
) -> [[f32; TILE_ROWS]; T] {
    let mut acc = [[f32x4_splat(0.0); TILE_ROWS]; T];
    for i in 0..chunks {
        let wi = w.add(4 * TILE_ROWS * i);
        let wv: [v128; TILE_ROWS] = std::array::from_fn(|k| load(wi.add(4 * k)));
        for (t, at) in acc.iter_mut().enumerate() {
            let xv = load(x.add(4 * T * i + 4 * t));
            for (a, wr) in at.iter_mut().zip(wv) {
                *a = madd(wr, xv, *a);
            }
        }
    }
    acc.map(|at| at.map(lanes_sum))
}

/// out[t][k] = Σ_c W[k][c]·x[t][c] for the quantized `rows` (their block
/// scales as [`super::block_scales`] lays them out) and `n` tokens (out is
/// n × rows): `TILE_ROWS` rows expanded at a time (at most 24 KB, in L1),
/// multiplied by the tokens `TILE_TOKENS` at a time, then one by one.
pub unsafe fn forward<B: Simd128Block>(
    rows: &QuantizedRows,
    x: &[f32],
    n: usize,
    cols: usize,
    out: &mut [f32],
) {
    let QuantizedRows { bytes, scales, row_bytes, count: rows, .. } = *rows;
    let per_row = scales_per_row(B::QTYPE, cols);
    assert!(
        cols.is_multiple_of(B::WEIGHTS)
            && bytes.len() >= rows * row_bytes
            && scales.len() >= rows * per_row
            && x.len() >= n * cols
            && out.len() >= n * rows
    );
    let (groups, chunks) = (n / TILE_TOKENS, cols / 4);
    // Each group of tokens interleaved once, for all rows.
    let mut xg = vec![0.0f32; groups * TILE_TOKENS * cols];
    for g in 0..groups {
        for t in 0..TILE_TOKENS {
            for i in 0..chunks {
                let src = x.as_ptr().add((TILE_TOKENS * g + t) * cols + 4 * i);
                v128_store(
                    xg.as_mut_ptr().add(TILE_TOKENS * cols * g + 4 * TILE_TOKENS * i + 4 * t)
                        as *mut v128,
                    load(src),
                );
            }
        }
    }
    let mut w = vec![0.0f32; TILE_ROWS * cols];
    let mut k = 0;
    while k < rows {
        let r = TILE_ROWS.min(rows - k);
        dequantize_interleaved::<B>(
            &bytes[k * row_bytes..],
            row_bytes,
            r,
            cols,
            &scales[k * per_row..],
            &mut w,
        );
        let mut store = |t: usize, s: [f32; TILE_ROWS]| {
            out[t * rows + k..t * rows + k + r].copy_from_slice(&s[..r])
        };
        for g in 0..groups {
            for (t, s) in
                tile::<TILE_TOKENS>(w.as_ptr(), xg.as_ptr().add(TILE_TOKENS * cols * g), chunks)
                    .into_iter()
                    .enumerate()
            {
                store(TILE_TOKENS * g + t, s);
            }
        }
        for t in TILE_TOKENS * groups..n {
            let [s] = tile::<1>(w.as_ptr(), x.as_ptr().add(t * cols), chunks);
            store(t, s);
        }
        k += r;
    }
}

/// The inputs of one to three tokens as 16-bit integers, for the product
/// straight from the blocks.
///
/// With so few tokens every weight is used once or thrice, and the cost
/// is in turning each nibble into an f32 (two widenings and a conversion
/// per value, no fused multiply-add to follow) more than in the products.
/// `i32x4.dot_i16x8_s` (x86's pmaddwd) multiplies eight 16-bit pairs and
/// adds neighbours in one instruction, and a nibble needs a single
/// widening to be its operand. So each token's block of 32 inputs is
/// turned once into two 16-bit integer parts,
///
/// ```text
///   x ≈ s·(hi + lo/65536),   s = max|x| / 32767,   |hi|, |lo| ≤ 32767,
/// ```
///
/// and a row's sum is, block by block,
///
/// ```text
///   Σ_j (d·q_j + m)·x_j  ≈  d·s·(Σ_j q_j·hi_j + 2⁻¹⁶·Σ_j q_j·lo_j)  +  m·Σ_j x_j
/// ```
///
/// The integer sums are exact, and the parts lose at most 2⁻³² of the
/// block's largest value besides f32's rounding of hi's remainder, so
/// the sums keep f32's precision; Σ x stays in f32. One 16-bit part
/// alone moves SmolLM2's attention by more than the 1e-3 the reference
/// tests allow, so both are kept (except for
/// `QMatrix::with_16_bit_inputs`).
pub struct Int16Parts {
    hi: Vec<i16>,
    lo: Vec<i16>,
    /// s (the unit of hi) and Σ x per block.
    stats: BlockStats,
}

impl Int16Parts {
    /// The parts of `n` tokens of `cols` inputs, per block of 32.
    pub fn new(x: &[f32], n: usize, cols: usize) -> Int16Parts {
        let (mut hi, mut lo) = (vec![0i16; n * cols], vec![0i16; n * cols]);
        let mut stats = BlockStats::new(n, cols);
        for (i, xb) in x[..n * cols].chunks_exact(BLOCK).enumerate() {
            let at = stats.at(i);
            let amax = xb.iter().fold(0.0f32, |a, v| if v.abs() > a { v.abs() } else { a });
            stats.sums[at] = xb.iter().sum();
            if amax > 0.0 && amax.is_finite() {
                let (s, inv) = (amax / 32767.0, 32767.0 / amax);
                stats.unit[at] = s;
                for (j, &v) in xb.iter().enumerate() {
                    let h = (v * inv).round_ties_even();
                    // `as` saturates: a residual a hair over half a step stays in range.
                    hi[BLOCK * i + j] = h as i16;
                    lo[BLOCK * i + j] = ((v - s * h) * inv * 65536.0).round_ties_even() as i16;
                }
            }
        }
        Int16Parts { hi, lo, stats }
    }
}

/// One row (its blocks at `row`, their scales at `scales`) against the `T`
/// tokens of `parts`; `ds` is scratch for a scale per block and token.
#[inline(always)]
unsafe fn row_times_tokens<const T: usize, B: Simd128Block, const FINE: bool>(
    row: *const B,
    scales: *const f32,
    parts: &Int16Parts,
    ds: *mut f32,
) -> [f32; T] {
    let (blocks, padded) = (parts.stats.blocks, parts.stats.padded);
    let offset = row_scales::<T>(scales, B::HAS_OFFSET, 0.0, &parts.stats, ds);
    let mut acc = [f32x4_splat(0.0); T];
    // One sum per token: a second one for odd blocks, as the 8-bit kernel
    // keeps, does not pay here (docs/performance.md).
    let block = |b: usize, acc: &mut [v128; T]| {
        let q = B::integers(row.add(b / B::BLOCKS), b % B::BLOCKS);
        for (t, at) in acc.iter_mut().enumerate() {
            let i = t * blocks + b;
            let (hp, lp) = (parts.hi.as_ptr().add(BLOCK * i), parts.lo.as_ptr().add(BLOCK * i));
            let dot = |p: *const i16, c: usize| {
                i32x4_dot_i16x8(q[c], v128_load(p.add(8 * c) as *const v128))
            };
            let sum = |p: *const i16| {
                i32x4_add(i32x4_add(dot(p, 0), dot(p, 1)), i32x4_add(dot(p, 2), dot(p, 3)))
            };
            let coarse = f32x4_convert_i32x4(sum(hp));
            let f = if FINE {
                f32x4_add(
                    coarse,
                    f32x4_mul(f32x4_convert_i32x4(sum(lp)), f32x4_splat(1.0 / 65536.0)),
                )
            } else {
                coarse
            };
            *at = f32x4_add(
                *at,
                f32x4_mul(f, v128_load32_splat(ds.add(t * padded + b) as *const u32)),
            );
        }
    };
    each_block(blocks, |b, _| block(b, &mut acc));
    std::array::from_fn(|t| lanes_sum(acc[t]) + lanes_sum(offset[t]))
}

/// out[t][k] = Σ_c W[k][c]·x[t][c] for the quantized `rows` (their scales
/// as `super::block_scales` lays them out) and `T` tokens; without `fine`
/// from the inputs' 16-bit parts alone.
pub fn dots_quantized<const T: usize, B: Simd128Block>(
    rows: &QuantizedRows,
    parts: &Int16Parts,
    cols: usize,
    out: &mut [f32],
    width: usize,
) {
    let QuantizedRows { bytes, scales, row_bytes, count, fine, .. } = *rows;
    let (padded, per_row) = (padded_blocks(cols), scales_per_row(B::QTYPE, cols));
    assert!(
        cols.is_multiple_of(B::WEIGHTS)
            && row_bytes >= cols / B::WEIGHTS * B::BYTES
            && scales.len() >= count * per_row
    );
    assert!(
        bytes.len() >= count * row_bytes
            && parts.hi.len() >= T * cols
            && parts.stats.fits(T, cols)
            && out.len() >= (T - 1) * width + count
    );
    each_row::<T>(count, padded, out, width, |k, ds| {
        // SAFETY: simd128 is enabled for the whole build; the row's blocks
        // lie in `bytes`, its scales in `scales`, the tokens in `parts`, and
        // `ds` has a scale for each of their padded blocks (asserted above
        // and by `each_row`).
        unsafe {
            let (row, scales) =
                (bytes.as_ptr().add(k * row_bytes) as *const B, scales.as_ptr().add(k * per_row));
            if fine {
                row_times_tokens::<T, B, true>(row, scales, parts, ds)
            } else {
                row_times_tokens::<T, B, false>(row, scales, parts, ds)
            }
        }
    });
}
