//! The packed product with AVX2 and FMA (x86-64, checked at run time).

use super::{groups, Line, Span, NR};
use std::arch::x86_64::*;

#[target_feature(enable = "avx2,fma")]
pub unsafe fn span(b: &mut Span) {
    let y = b.y.as_mut_ptr();
    for (t, tokens, ahead) in groups(b.tokens, b.next) {
        let y = y.add(t * b.ldy);
        match tokens {
            1 => tile::<1>(b, t, y, ahead),
            2 => tile::<2>(b, t, y, ahead),
            3 => tile::<3>(b, t, y, ahead),
            4 => tile::<4>(b, t, y, ahead),
            5 => tile::<5>(b, t, y, ahead),
            _ => tile::<6>(b, t, y, ahead),
        }
    }
}

/// C tokens from token t × 16 outputs in 2C registers; each k is two
/// loads of the panel (one cache line) and C broadcasts feeding 2C FMAs.
#[target_feature(enable = "avx2,fma")]
unsafe fn tile<const C: usize>(b: &Span, t: usize, y: *mut f32, ahead: &[Line]) {
    let (w, x) = (b.w.as_ptr() as *const f32, b.x.as_ptr().add(t * b.ldx));
    let start = |c: usize, h: usize| {
        if b.first {
            _mm256_setzero_ps()
        } else {
            _mm256_loadu_ps(y.add(c * b.ldy + 8 * h))
        }
    };
    let bias =
        |h: usize| b.bias.map_or(_mm256_setzero_ps(), |b| _mm256_loadu_ps(b.as_ptr().add(8 * h)));
    let mut acc: [[__m256; 2]; C] = std::array::from_fn(|c| [start(c, 0), start(c, 1)]);
    // The group's share of the next span, one line every few k, spread
    // over the whole loop: asked for all at once at its start, the lines
    // came in faster than memory delivers them, and the loop waited for the
    // requests to drain.
    let every = (b.w.len() / ahead.len().max(1)).max(1);
    let (mut due, mut fetched) = (0, 0);
    for k in 0..b.w.len() {
        let w0 = _mm256_load_ps(w.add(k * NR));
        let w1 = _mm256_load_ps(w.add(k * NR + 8));
        if k == due && fetched < ahead.len() {
            _mm_prefetch::<_MM_HINT_T0>(ahead.as_ptr().add(fetched) as *const i8);
            fetched += 1;
            due += every;
        }
        for (c, a) in acc.iter_mut().enumerate() {
            let xv = _mm256_broadcast_ss(&*x.add(c * b.ldx + k));
            a[0] = _mm256_fmadd_ps(xv, w0, a[0]);
            a[1] = _mm256_fmadd_ps(xv, w1, a[1]);
        }
    }
    for (c, a) in acc.iter().enumerate() {
        _mm256_storeu_ps(y.add(c * b.ldy), _mm256_add_ps(a[0], bias(0)));
        _mm256_storeu_ps(y.add(c * b.ldy + 8), _mm256_add_ps(a[1], bias(1)));
    }
}
