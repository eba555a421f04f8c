//! The kernels with AVX2, FMA and F16C (x86-64, checked at run time).

use super::blocks::{
    Block, BlockQ4K, BlockQ4_0, BlockQ4_1, BlockQ5K, BlockQ5_0, BlockQ6K, BlockQ8_0, BLOCK, F16,
};
use super::{QType, QuantizedRows, TileShape};
use std::arch::x86_64::*;

/// A block format's weights in AVX2 registers.
pub trait Avx2Block: Block {
    /// The 32 weights of block `b` (of [`Block::BLOCKS`]) of the block at
    /// `p`, as four vectors of eight, bit for bit [`Block::dequantize`]'s.
    /// Written without closures: a closure has no target features of its
    /// own, and an intrinsic inside one can stay a call instead of becoming
    /// an instruction.
    ///
    /// # Safety
    /// `p` must point to a readable block and `b` be below `BLOCKS`; the CPU
    /// must have AVX2, FMA and F16C.
    unsafe fn weights(p: *const Self, b: usize) -> [__m256; 4];
}

/// The f16 at `d` and the one after it (Q4_1's m, Q4_K's dmin; for the
/// others the first bytes of their weights, which the caller ignores),
/// f16 → f32 in one instruction, each in all eight lanes.
#[inline(always)]
unsafe fn scale_pair(d: *const F16) -> (__m256, __m256) {
    let h = _mm_cvtph_ps(_mm_cvtsi32_si128((d as *const i32).read_unaligned()));
    (_mm256_set1_ps(_mm_cvtss_f32(h)), _mm256_set1_ps(_mm_cvtss_f32(_mm_shuffle_ps(h, h, 1))))
}

/// Sixteen bytes as two vectors of eight f32, signed or not.
#[inline(always)]
unsafe fn widen<const SIGNED: bool>(v: __m128i) -> [__m256; 2] {
    let high = _mm_srli_si128(v, 8);
    if SIGNED {
        [
            _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(v)),
            _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(high)),
        ]
    } else {
        [
            _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v)),
            _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(high)),
        ]
    }
}

/// The low and the high nibbles of sixteen bytes.
#[inline(always)]
unsafe fn nibbles(qs: __m128i) -> (__m128i, __m128i) {
    let mask = _mm_set1_epi8(0x0f);
    (_mm_and_si128(qs, mask), _mm_and_si128(_mm_srli_epi16(qs, 4), mask))
}

/// 16 where bit j of the 16 bits `bits` is set, 0 elsewhere, in byte j.
#[inline(always)]
unsafe fn fifth_bits(bits: u32) -> __m128i {
    let spread = _mm_shuffle_epi8(
        _mm_set1_epi32(bits as i32),
        _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1),
    );
    let select = _mm_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    _mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(spread, select), select), _mm_set1_epi8(16))
}

/// Four vectors of weights d·q (each product exact, so as the reference rounds).
#[inline(always)]
unsafe fn scaled([a, b]: [__m256; 2], [c, e]: [__m256; 2], d: __m256) -> [__m256; 4] {
    [_mm256_mul_ps(a, d), _mm256_mul_ps(b, d), _mm256_mul_ps(c, d), _mm256_mul_ps(e, d)]
}

/// Four vectors of weights d·q + m in one fused multiply-add each: d·q is
/// exact, so this rounds once, as the reference's multiply-then-add does.
#[inline(always)]
unsafe fn scaled_offset(
    [a, b]: [__m256; 2],
    [c, e]: [__m256; 2],
    d: __m256,
    m: __m256,
) -> [__m256; 4] {
    [
        _mm256_fmadd_ps(a, d, m),
        _mm256_fmadd_ps(b, d, m),
        _mm256_fmadd_ps(c, d, m),
        _mm256_fmadd_ps(e, d, m),
    ]
}

impl Avx2Block for BlockQ4_0 {
    #[inline(always)]
    unsafe fn weights(p: *const Self, _: usize) -> [__m256; 4] {
        let (d, _) = scale_pair(&raw const (*p).d);
        let (lo, hi) = nibbles(_mm_loadu_si128((*p).qs.as_ptr() as *const __m128i));
        let eight = _mm_set1_epi8(8);
        scaled(widen::<true>(_mm_sub_epi8(lo, eight)), widen::<true>(_mm_sub_epi8(hi, eight)), d)
    }
}

impl Avx2Block for BlockQ4_1 {
    #[inline(always)]
    unsafe fn weights(p: *const Self, _: usize) -> [__m256; 4] {
        let (d, m) = scale_pair(&raw const (*p).d);
        let (lo, hi) = nibbles(_mm_loadu_si128((*p).qs.as_ptr() as *const __m128i));
        scaled_offset(widen::<false>(lo), widen::<false>(hi), d, m)
    }
}

impl Avx2Block for BlockQ5_0 {
    #[inline(always)]
    unsafe fn weights(p: *const Self, _: usize) -> [__m256; 4] {
        let (d, _) = scale_pair(&raw const (*p).d);
        let (lo, hi) = nibbles(_mm_loadu_si128((*p).qs.as_ptr() as *const __m128i));
        let qh = u32::from_le_bytes((*p).qh);
        let sixteen = _mm_set1_epi8(16);
        let lo = _mm_sub_epi8(_mm_or_si128(lo, fifth_bits(qh)), sixteen);
        let hi = _mm_sub_epi8(_mm_or_si128(hi, fifth_bits(qh >> 16)), sixteen);
        scaled(widen::<true>(lo), widen::<true>(hi), d)
    }
}

impl Avx2Block for BlockQ8_0 {
    #[inline(always)]
    unsafe fn weights(p: *const Self, _: usize) -> [__m256; 4] {
        let (d, _) = scale_pair(&raw const (*p).d);
        let qs = (*p).qs.as_ptr() as *const __m128i;
        scaled(widen::<true>(_mm_loadu_si128(qs)), widen::<true>(_mm_loadu_si128(qs.add(1))), d)
    }
}

/// Sixteen bytes at `p` shifted right by `shift` bits and masked by `mask`.
#[inline(always)]
unsafe fn bits_at(p: *const u8, shift: usize, mask: i8) -> __m128i {
    _mm_and_si128(
        _mm_srl_epi16(_mm_loadu_si128(p as *const __m128i), _mm_cvtsi32_si128(shift as i32)),
        _mm_set1_epi8(mask),
    )
}

/// 16 in each byte of the sixteen at `p` that has `bit` set, 0 elsewhere.
#[inline(always)]
unsafe fn bit_at(p: *const u8, bit: u8) -> __m128i {
    let bit = _mm_set1_epi8(bit as i8);
    _mm_and_si128(
        _mm_cmpeq_epi8(_mm_and_si128(_mm_loadu_si128(p as *const __m128i), bit), bit),
        _mm_set1_epi8(16),
    )
}

impl Avx2Block for BlockQ4K {
    #[inline(always)]
    unsafe fn weights(p: *const Self, b: usize) -> [__m256; 4] {
        let (d, m) = (*p).scales(b);
        // Block b's nibbles: the low ones of its pair's 32 bytes for even b, the high ones for odd.
        let qs = (*p).qs.as_ptr().add(BLOCK * (b / 2));
        let (lo, hi) = (bits_at(qs, 4 * (b % 2), 0x0f), bits_at(qs.add(16), 4 * (b % 2), 0x0f));
        scaled_offset(widen::<false>(lo), widen::<false>(hi), _mm256_set1_ps(d), _mm256_set1_ps(m))
    }
}

impl Avx2Block for BlockQ5K {
    #[inline(always)]
    unsafe fn weights(p: *const Self, b: usize) -> [__m256; 4] {
        let (d, m) = (*p).scales(b);
        let (qs, qh) = ((*p).qs.as_ptr().add(BLOCK * (b / 2)), (*p).qh.as_ptr());
        let lo = _mm_or_si128(bits_at(qs, 4 * (b % 2), 0x0f), bit_at(qh, 1 << b));
        let hi = _mm_or_si128(bits_at(qs.add(16), 4 * (b % 2), 0x0f), bit_at(qh.add(16), 1 << b));
        scaled_offset(widen::<false>(lo), widen::<false>(hi), _mm256_set1_ps(d), _mm256_set1_ps(m))
    }
}

impl Avx2Block for BlockQ6K {
    /// (d·scale)·(q − 32): d·scale and the product are exact, in either order.
    #[inline(always)]
    unsafe fn weights(p: *const Self, b: usize) -> [__m256; 4] {
        let (h, g) = (b / 4, b % 4);
        let ql = (*p).ql.as_ptr().add(64 * h + 32 * (g % 2));
        let qh = (*p).qh.as_ptr().add(32 * h);
        let thirty_two = _mm_set1_epi8(32);
        let q0 =
            _mm_or_si128(bits_at(ql, 4 * (g / 2), 0x0f), _mm_slli_epi16(bits_at(qh, 2 * g, 3), 4));
        let q1 = _mm_or_si128(
            bits_at(ql.add(16), 4 * (g / 2), 0x0f),
            _mm_slli_epi16(bits_at(qh.add(16), 2 * g, 3), 4),
        );
        let d = (*p).d.to_f32();
        let [a, c] = widen::<true>(_mm_sub_epi8(q0, thirty_two));
        let [e, f] = widen::<true>(_mm_sub_epi8(q1, thirty_two));
        let (d0, d1) = (
            _mm256_set1_ps(d * (*p).scales[2 * b] as f32),
            _mm256_set1_ps(d * (*p).scales[2 * b + 1] as f32),
        );
        [_mm256_mul_ps(a, d0), _mm256_mul_ps(c, d0), _mm256_mul_ps(e, d1), _mm256_mul_ps(f, d1)]
    }
}

/// `bytes`: whole blocks; `out`: their weights.
#[target_feature(enable = "avx2,fma,f16c")]
pub unsafe fn dequantize<B: Avx2Block>(bytes: &[u8], out: &mut [f32]) {
    let blocks = B::slice(bytes);
    let n = blocks.len().min(out.len() / B::WEIGHTS);
    for i in 0..n {
        for b in 0..B::BLOCKS {
            let o = out.as_mut_ptr().add(i * B::WEIGHTS + b * BLOCK);
            for (k, v) in B::weights(blocks.as_ptr().add(i), b).into_iter().enumerate() {
                _mm256_storeu_ps(o.add(8 * k), v);
            }
        }
    }
}

/// Plain values (f32, f16 or bf16) as f32, eight at a time.
#[target_feature(enable = "avx2,fma,f16c")]
pub unsafe fn dequantize_plain(qtype: QType, bytes: &[u8], out: &mut [f32]) {
    let width = if qtype == QType::F32 { 4 } else { 2 };
    let n = out.len().min(bytes.len() / width);
    let (src, dst) = (bytes.as_ptr(), out.as_mut_ptr());
    let mut i = 0;
    match qtype {
        QType::F16 => {
            while i + 8 <= n {
                _mm256_storeu_ps(
                    dst.add(i),
                    _mm256_cvtph_ps(_mm_loadu_si128(src.add(2 * i) as *const __m128i)),
                );
                i += 8;
            }
        }
        QType::BF16 => {
            while i + 8 <= n {
                let v = _mm256_slli_epi32(
                    _mm256_cvtepu16_epi32(_mm_loadu_si128(src.add(2 * i) as *const __m128i)),
                    16,
                );
                _mm256_storeu_ps(dst.add(i), _mm256_castsi256_ps(v));
                i += 8;
            }
        }
        _ => {}
    }
    super::portable::dequantize_plain(qtype, &bytes[width * i..width * n], &mut out[i..n]);
}

/// `R` rows (starting at `w`, `row_bytes` apart) against `T` tokens,
/// one accumulator each, every block expanded once and used by all
/// tokens. Four rows keep enough independent sums in flight to hide
/// the latency of the fused multiply-adds.
#[inline(always)]
unsafe fn quantized_tile<const R: usize, const T: usize, B: Avx2Block>(
    w: *const u8,
    row_bytes: usize,
    x: *const f32,
    cols: usize,
) -> [[__m256; R]; T] {
    let mut acc = [[_mm256_setzero_ps(); R]; T];
    for i in 0..cols / B::WEIGHTS {
        for r in 0..R {
            let p = (w.add(r * row_bytes) as *const B).add(i);
            for b in 0..B::BLOCKS {
                // The same place in the next tile's row: with one token
                // each weight feeds a single product, so the loop runs as
                // fast as memory delivers and must ask ahead. A prefetch
                // never faults, even past the matrix's end.
                _mm_prefetch::<_MM_HINT_T0>(
                    (p as *const i8).wrapping_add(R * row_bytes + b * B::BYTES / B::BLOCKS),
                );
                let wv = B::weights(p, b);
                let xb = x.add(B::WEIGHTS * i + BLOCK * b);
                for (g, wg) in wv.into_iter().enumerate() {
                    for (t, at) in acc.iter_mut().enumerate() {
                        at[r] =
                            _mm256_fmadd_ps(wg, _mm256_loadu_ps(xb.add(t * cols + 8 * g)), at[r]);
                    }
                }
            }
        }
    }
    acc
}

/// out[t][k] = Σ_c W[k][c]·x[t][c] for the `count` quantized rows of `rows`
/// and `T` tokens, four rows at a time, then one by one.
#[target_feature(enable = "avx2,fma,f16c")]
pub unsafe fn dots_quantized<const T: usize, B: Avx2Block>(
    rows: &QuantizedRows,
    x: &[f32],
    cols: usize,
    out: &mut [f32],
    width: usize,
) {
    let QuantizedRows { bytes, row_bytes, count: rows, .. } = *rows;
    let (wp, xp) = (bytes.as_ptr(), x.as_ptr());
    let mut k = 0;
    while k + 4 <= rows {
        let acc = quantized_tile::<4, T, B>(wp.add(k * row_bytes), row_bytes, xp, cols);
        for (t, a) in acc.iter().enumerate() {
            _mm_storeu_ps(out.as_mut_ptr().add(t * width + k), hsum4(a[0], a[1], a[2], a[3]));
        }
        k += 4;
    }
    while k < rows {
        let acc = quantized_tile::<1, T, B>(wp.add(k * row_bytes), row_bytes, xp, cols);
        for (t, a) in acc.iter().enumerate() {
            out[t * width + k] = _mm_cvtss_f32(hsum4(
                a[0],
                _mm256_setzero_ps(),
                _mm256_setzero_ps(),
                _mm256_setzero_ps(),
            ));
        }
        k += 1;
    }
}

/// [Σa0, Σa1, Σa2, Σa3]: four dot products finished at once, each vector's
/// eight lanes summed in the tree order of [`crate::kernels::simd::hsum`].
#[inline(always)]
unsafe fn hsum4(a0: __m256, a1: __m256, a2: __m256, a3: __m256) -> __m128 {
    let s = _mm256_hadd_ps(_mm256_hadd_ps(a0, a1), _mm256_hadd_ps(a2, a3));
    _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1))
}

/// Three weight rows against `T` tokens: 3·T accumulators. With T = 4
/// that is 12 of the 16 vector registers, and each chunk of 8 columns
/// costs 7 loads for 12 fused multiply-adds. Every accumulator sums
/// its lanes in the same order whatever T is.
#[inline(always)]
unsafe fn tile<const T: usize>(wp: *const f32, xp: *const f32, cols: usize) -> [__m128; T] {
    let mut a = [[_mm256_setzero_ps(); 3]; T];
    let mut c = 0;
    while c < cols {
        let w0 = _mm256_load_ps(wp.add(c));
        let w1 = _mm256_load_ps(wp.add(cols + c));
        let w2 = _mm256_load_ps(wp.add(2 * cols + c));
        for (t, at) in a.iter_mut().enumerate() {
            let xv = _mm256_load_ps(xp.add(t * cols + c));
            at[0] = _mm256_fmadd_ps(w0, xv, at[0]);
            at[1] = _mm256_fmadd_ps(w1, xv, at[1]);
            at[2] = _mm256_fmadd_ps(w2, xv, at[2]);
        }
        c += 8;
    }
    std::array::from_fn(|t| hsum4(a[t][0], a[t][1], a[t][2], _mm256_setzero_ps()))
}

/// `w` holds 3 expanded rows (zeros past `r`), `x` `n` tokens, both 32-byte
/// aligned with `cols` a multiple of 8. Tokens go four at a time, then two,
/// then one.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn dots(w: &[f32], x: &[f32], out: &mut [f32], shape: TileShape) {
    let TileShape { r, n, cols, width, col0 } = shape;
    assert!(
        cols.is_multiple_of(8)
            && w.len() >= 3 * cols
            && x.len() >= n * cols
            && r <= 3
            && (n == 0 || out.len() >= (n - 1) * width + col0 + r)
    );
    assert!((w.as_ptr() as usize).is_multiple_of(32) && (x.as_ptr() as usize).is_multiple_of(32));
    let wp = w.as_ptr();
    let mut store = |t: usize, s: __m128| {
        let mut v = [0.0f32; 4];
        _mm_storeu_ps(v.as_mut_ptr(), s);
        let o = &mut out[t * width + col0..t * width + col0 + r];
        // A whole tile's three sums copied as a fixed size: with a length
        // known only at run time each store called memcpy for 12 bytes.
        if r == 3 {
            o.copy_from_slice(&v[..3]);
        } else {
            o.copy_from_slice(&v[..r]);
        }
    };
    let mut t = 0;
    while t + 4 <= n {
        for (i, s) in tile::<4>(wp, x.as_ptr().add(t * cols), cols).into_iter().enumerate() {
            store(t + i, s);
        }
        t += 4;
    }
    if t + 2 <= n {
        for (i, s) in tile::<2>(wp, x.as_ptr().add(t * cols), cols).into_iter().enumerate() {
            store(t + i, s);
        }
        t += 2;
    }
    if t < n {
        let [s] = tile::<1>(wp, x.as_ptr().add(t * cols), cols);
        store(t, s);
    }
}
