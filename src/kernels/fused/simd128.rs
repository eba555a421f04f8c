//! The fused kernel's products in wasm simd128; in the `fma` build each
//! product is relaxed SIMD's multiply-add ([`madd`]).

use super::{KeyTile, ScoreTile, ValueTile, PANEL};
use crate::kernels::simd::wasm::madd;
use core::arch::wasm32::*;

/// Keys whose values are multiplied for every column chunk before the
/// next keys (as natively): their rows of V stay in L1.
const KEY_BLOCK: usize = 64;

#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
pub unsafe fn scores(t: &mut ScoreTile) {
    t.check();
    match t.rows {
        1 => scores_rows::<1>(t),
        2 => scores_rows::<2>(t),
        3 => scores_rows::<3>(t),
        4 => scores_rows::<4>(t),
        _ => {}
    }
}

/// R query rows × half a panel (8 keys) in 2R registers: V8 keeps no more
/// than about a dozen vectors in registers, so a panel is two passes.
#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
unsafe fn scores_rows<const R: usize>(t: &mut ScoreTile) {
    let (d, ls, q) = (t.d, t.ls, t.q.as_ptr());
    let scale = f32x4_splat(t.scale);
    let s = t.s.as_mut_ptr();
    for (p, panel) in t.panels.chunks_exact(d * PANEL).enumerate() {
        for half in [0, 8] {
            let k = panel.as_ptr().add(half);
            let mut acc = [[f32x4_splat(0.0); 2]; R];
            for i in 0..d {
                let k0 = v128_load(k.add(i * PANEL) as *const v128);
                let k1 = v128_load(k.add(i * PANEL + 4) as *const v128);
                for (r, a) in acc.iter_mut().enumerate() {
                    let x = v128_load32_splat(q.add(r * d + i) as *const u32);
                    a[0] = madd(x, k0, a[0]);
                    a[1] = madd(x, k1, a[1]);
                }
            }
            for (r, a) in acc.iter().enumerate() {
                let out = s.add(r * ls + p * PANEL + half);
                v128_store(out as *mut v128, f32x4_mul(a[0], scale));
                v128_store(out.add(4) as *mut v128, f32x4_mul(a[1], scale));
            }
        }
    }
}

#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
pub unsafe fn values(t: &mut ValueTile) {
    t.check();
    match t.rows {
        1 => values_rows::<1>(t),
        2 => values_rows::<2>(t),
        3 => values_rows::<3>(t),
        4 => values_rows::<4>(t),
        _ => {}
    }
}

/// R rows × 8 columns of Z in 2R registers over a block of keys.
#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
unsafe fn values_rows<const R: usize>(t: &mut ValueTile) {
    let (dv, ls, e, v, z) = (t.dv, t.ls, t.e.as_ptr(), t.v.as_ptr(), t.z.as_mut_ptr());
    let wide = dv / 8 * 8;
    t.z.fill(0.0);
    for block in (0..t.keys).step_by(KEY_BLOCK) {
        let end = (block + KEY_BLOCK).min(t.keys);
        for c in (0..wide).step_by(8) {
            let mut acc: [[v128; 2]; R] = std::array::from_fn(|r| {
                [
                    v128_load(z.add(r * dv + c) as *const v128),
                    v128_load(z.add(r * dv + c + 4) as *const v128),
                ]
            });
            for j in block..end {
                let v0 = v128_load(v.add(j * dv + c) as *const v128);
                let v1 = v128_load(v.add(j * dv + c + 4) as *const v128);
                for (r, a) in acc.iter_mut().enumerate() {
                    let w = v128_load32_splat(e.add(r * ls + j) as *const u32);
                    a[0] = madd(w, v0, a[0]);
                    a[1] = madd(w, v1, a[1]);
                }
            }
            for (r, a) in acc.iter().enumerate() {
                v128_store(z.add(r * dv + c) as *mut v128, a[0]);
                v128_store(z.add(r * dv + c + 4) as *mut v128, a[1]);
            }
        }
        for c in wide..dv {
            for r in 0..R {
                *z.add(r * dv + c) +=
                    (block..end).map(|j| *e.add(r * ls + j) * *v.add(j * dv + c)).sum::<f32>();
            }
        }
    }
    for r in 0..R {
        for x in &mut t.z[r * dv..(r + 1) * dv] {
            *x *= t.inv_l[r];
        }
    }
}

/// Each query's scores against four keys at a time, read where they are:
/// four sums of four lanes over d, then turned and added across.
#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
pub unsafe fn keys_in_place(t: &mut KeyTile) {
    let keys = t.check();
    let (d, ls, wide) = (t.d, t.ls, t.d / 4 * 4);
    let k = t.k.as_ptr();
    for r in 0..t.rows {
        let q = t.q.as_ptr().add(r * d);
        let out = &mut t.s[r * ls..(r + 1) * ls];
        let mut j = 0;
        while j + 4 <= keys {
            let mut acc = [f32x4_splat(0.0); 4];
            for i in (0..wide).step_by(4) {
                let x = v128_load(q.add(i) as *const v128);
                for (c, a) in acc.iter_mut().enumerate() {
                    *a = madd(x, v128_load(k.add((j + c) * d + i) as *const v128), *a);
                }
            }
            // The four sums turned so that lane c holds key j + c's.
            let (a, b, c, e) = (acc[0], acc[1], acc[2], acc[3]);
            let ab =
                f32x4_add(i32x4_shuffle::<0, 4, 1, 5>(a, b), i32x4_shuffle::<2, 6, 3, 7>(a, b));
            let ce =
                f32x4_add(i32x4_shuffle::<0, 4, 1, 5>(c, e), i32x4_shuffle::<2, 6, 3, 7>(c, e));
            let sums =
                f32x4_add(i32x4_shuffle::<0, 1, 4, 5>(ab, ce), i32x4_shuffle::<2, 3, 6, 7>(ab, ce));
            let lanes = [
                f32x4_extract_lane::<0>(sums),
                f32x4_extract_lane::<1>(sums),
                f32x4_extract_lane::<2>(sums),
                f32x4_extract_lane::<3>(sums),
            ];
            for (c, s) in lanes.iter().enumerate() {
                let tail: f32 = (wide..d).map(|i| *q.add(i) * *k.add((j + c) * d + i)).sum();
                out[j + c] = (s + tail) * t.scale;
            }
            j += 4;
        }
        for (j, s) in out.iter_mut().enumerate().skip(j) {
            *s = if j < keys {
                (0..d).map(|i| *q.add(i) * *k.add(j * d + i)).sum::<f32>() * t.scale
            } else {
                0.0
            };
        }
    }
}
