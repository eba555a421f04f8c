//! The kernels with AVX2, FMA and F16C (x86-64, checked at run time).

use super::blocks::{Block, BlockQ4_1, BlockQ8_0, BLOCK};
use std::arch::x86_64::*;

/// A block format's weights in AVX2 registers.
pub trait Avx2Block: Block {
    /// The 32 weights of the block at `p`, as four vectors of eight. Written
    /// without closures: a closure has no target features of its own, and an
    /// intrinsic inside one can stay a call instead of becoming an instruction.
    ///
    /// # Safety
    /// `p` must point to a readable block; the CPU must have AVX2, FMA and F16C.
    unsafe fn weights(p: *const Self) -> [__m256; 4];
}

/// A block's d and its following f16 (Q4_1's m; for Q8_0 the first two
/// weights, which the caller ignores), f16 → f32 in one instruction, each
/// in all eight lanes.
#[inline(always)]
unsafe fn scale_pair<B: Block>(p: *const B) -> (__m256, __m256) {
    let h = _mm_cvtph_ps(_mm_cvtsi32_si128((B::scale_word(p) as *const i32).read_unaligned()));
    (_mm256_set1_ps(_mm_cvtss_f32(h)), _mm256_set1_ps(_mm_cvtss_f32(_mm_shuffle_ps(h, h, 1))))
}

impl Avx2Block for BlockQ4_1 {
    /// w = q·d + m. The product q·d is exact in f32 (4 bits times an 11-bit
    /// mantissa), so one fused multiply-add rounds exactly as the
    /// reference's multiply-then-add does.
    #[inline(always)]
    unsafe fn weights(p: *const Self) -> [__m256; 4] {
        let (d, m) = scale_pair(p);
        let qs = _mm_loadu_si128((*p).qs.as_ptr() as *const __m128i);
        let mask = _mm_set1_epi8(0x0f);
        let lo = _mm_and_si128(qs, mask);
        let hi = _mm_and_si128(_mm_srli_epi16(qs, 4), mask);
        [
            _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(lo)), d, m),
            _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8))), d, m),
            _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(hi)), d, m),
            _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8))), d, m),
        ]
    }
}

impl Avx2Block for BlockQ8_0 {
    #[inline(always)]
    unsafe fn weights(p: *const Self) -> [__m256; 4] {
        let (d, _) = scale_pair(p);
        let qs = (*p).qs.as_ptr() as *const __m128i;
        [
            _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(qs))), d),
            _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(qs.byte_add(8)))), d),
            _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(qs.byte_add(16)))), d),
            _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64(qs.byte_add(24)))), d),
        ]
    }
}

/// `bytes`: whole blocks; `out`: 32 weights per block.
#[target_feature(enable = "avx2,fma,f16c")]
pub unsafe fn dequantize<B: Avx2Block>(bytes: &[u8], out: &mut [f32]) {
    let blocks = B::slice(bytes);
    let n = blocks.len().min(out.len() / BLOCK);
    for i in 0..n {
        let o = out.as_mut_ptr().add(i * BLOCK);
        for (k, v) in B::weights(blocks.as_ptr().add(i)).into_iter().enumerate() {
            _mm256_storeu_ps(o.add(8 * k), v);
        }
    }
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
    for b in 0..cols / BLOCK {
        for r in 0..R {
            let p = (w.add(r * row_bytes) as *const B).add(b);
            // The same block of the next tile's row: with one token
            // each weight feeds a single product, so the loop runs as
            // fast as memory delivers and must ask ahead. A prefetch
            // never faults, even past the matrix's end.
            _mm_prefetch::<_MM_HINT_T0>((p as *const i8).wrapping_add(R * row_bytes));
            let wv = B::weights(p);
            for (g, wg) in wv.into_iter().enumerate() {
                for (t, at) in acc.iter_mut().enumerate() {
                    at[r] = _mm256_fmadd_ps(wg, _mm256_loadu_ps(x.add(t * cols + BLOCK * b + 8 * g)), at[r]);
                }
            }
        }
    }
    acc
}

/// out[t][k] = Σ_c W[k][c]·x[t][c] for the `rows` quantized rows in `bytes`
/// (`row_bytes` each) and `T` tokens, four rows at a time, then one by one.
#[target_feature(enable = "avx2,fma,f16c")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn dots_quantized<const T: usize, B: Avx2Block>(
    bytes: &[u8],
    row_bytes: usize,
    rows: usize,
    x: &[f32],
    cols: usize,
    out: &mut [f32],
    width: usize,
) {
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
            out[t * width + k] = _mm_cvtss_f32(hsum4(a[0], _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()));
        }
        k += 1;
    }
}

/// [Σa0, Σa1, Σa2, Σa3]: four dot products finished at once, each vector's
/// eight lanes summed in the tree order of [`crate::models::simd::hsum`].
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
#[allow(clippy::too_many_arguments)]
pub unsafe fn dots(w: &[f32], r: usize, x: &[f32], n: usize, cols: usize, out: &mut [f32], width: usize, col0: usize) {
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
