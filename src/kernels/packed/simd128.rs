//! The packed product in wasm simd128; in the `fma` build each product is
//! relaxed SIMD's multiply-add ([`madd`]).

use super::{groups, Line, Span, NR};
use crate::kernels::simd::wasm::madd;
use core::arch::wasm32::*;

#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
pub unsafe fn span(b: &mut Span) {
    let y = b.y.as_mut_ptr();
    for (t, tokens, ahead) in groups(b.tokens, b.next) {
        let y = y.add(t * b.ldy);
        match tokens {
            1 => tile::<1>(b, t, y, ahead),
            _ => tile::<2>(b, t, y, ahead),
        }
    }
}

/// C tokens from token t × 16 outputs in 4C registers; each product
/// is a multiply and an add, or one multiply-add ([`madd`]).
#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
unsafe fn tile<const C: usize>(b: &Span, t: usize, y: *mut f32, ahead: &[Line]) {
    let (w, x) = (b.w.as_ptr() as *const f32, b.x.as_ptr().add(t * b.ldx));
    let start = |c: usize, h: usize| {
        if b.first {
            f32x4_splat(0.0)
        } else {
            v128_load(y.add(c * b.ldy + 4 * h) as *const v128)
        }
    };
    let bias = |h: usize| {
        b.bias.map_or(f32x4_splat(0.0), |b| v128_load(b.as_ptr().add(4 * h) as *const v128))
    };
    let mut acc: [[v128; 4]; C] = std::array::from_fn(|c| std::array::from_fn(|h| start(c, h)));
    let step = |k: usize, acc: &mut [[v128; 4]; C]| {
        let wk = w.add(k * NR);
        let line = [
            v128_load(wk as *const v128),
            v128_load(wk.add(4) as *const v128),
            v128_load(wk.add(8) as *const v128),
            v128_load(wk.add(12) as *const v128),
        ];
        for (c, a) in acc.iter_mut().enumerate() {
            let xv = v128_load32_splat(x.add(c * b.ldx + k) as *const u32);
            for h in 0..4 {
                a[h] = madd(xv, line[h], a[h]);
            }
        }
    };
    // The group's share of the next span, one line every few k, as natively
    // but with a read: it starts the CPU's own prefetcher on the lines after
    // it, which then arrive while this group computes, rather than the first
    // group of each span waiting for the whole span.
    let n = b.w.len();
    let every = (n / ahead.len().max(1)).max(1);
    let mut k = 0;
    for line in ahead {
        // Volatile, or the unused read would be optimised away.
        let _ = std::ptr::read_volatile(line.0.as_ptr());
        let end = (k + every).min(n);
        while k < end {
            step(k, &mut acc);
            k += 1;
        }
    }
    while k < n {
        step(k, &mut acc);
        k += 1;
    }
    for (c, a) in acc.iter().enumerate() {
        for (h, v) in a.iter().enumerate() {
            v128_store(y.add(c * b.ldy + 4 * h) as *mut v128, f32x4_add(*v, bias(h)));
        }
    }
}
