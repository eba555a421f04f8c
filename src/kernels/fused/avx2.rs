//! The fused kernel's products with AVX2 and FMA (x86-64, checked at run time).

use super::{KeyTile, ScoreTile, Tile, ValueTile, PANEL, ROWS};
use crate::trace::summary::HeadSummary;
use std::arch::x86_64::*;

/// Keys whose values are multiplied for every column chunk before the next
/// keys: 64 rows of V (16 KB at d_v = 64) stay in L1 across the chunks.
const KEY_BLOCK: usize = 64;

/// The softmax's exp and the rows' sums ([`super::weigh`]) with AVX2:
/// eight lanes where the baseline build has four.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn weigh(t: &Tile, s: &mut [f32], summary: Option<&mut HeadSummary>) -> [f32; ROWS] {
    super::weigh(t, s, summary)
}

#[target_feature(enable = "avx2,fma")]
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

/// R query rows × one panel of 16 keys in 2R registers: each t is two
/// loads of the panel's line and R broadcasts feeding 2R FMAs.
#[target_feature(enable = "avx2,fma")]
unsafe fn scores_rows<const R: usize>(t: &mut ScoreTile) {
    let (d, ls, q) = (t.d, t.ls, t.q.as_ptr());
    let scale = _mm256_set1_ps(t.scale);
    let s = t.s.as_mut_ptr();
    for (p, panel) in t.panels.chunks_exact(d * PANEL).enumerate() {
        let k = panel.as_ptr();
        let mut acc = [[_mm256_setzero_ps(); 2]; R];
        for i in 0..d {
            let k0 = _mm256_loadu_ps(k.add(i * PANEL));
            let k1 = _mm256_loadu_ps(k.add(i * PANEL + 8));
            for (r, a) in acc.iter_mut().enumerate() {
                let x = _mm256_broadcast_ss(&*q.add(r * d + i));
                a[0] = _mm256_fmadd_ps(x, k0, a[0]);
                a[1] = _mm256_fmadd_ps(x, k1, a[1]);
            }
        }
        for (r, a) in acc.iter().enumerate() {
            let out = s.add(r * ls + p * PANEL);
            _mm256_storeu_ps(out, _mm256_mul_ps(a[0], scale));
            _mm256_storeu_ps(out.add(8), _mm256_mul_ps(a[1], scale));
        }
    }
}

#[target_feature(enable = "avx2,fma")]
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

/// R rows × 16 columns of Z in 2R registers over a block of keys: each key
/// is two loads of its value row and R broadcasts of its weights.
#[target_feature(enable = "avx2,fma")]
unsafe fn values_rows<const R: usize>(t: &mut ValueTile) {
    let (dv, ls, e, v, z) = (t.dv, t.ls, t.e.as_ptr(), t.v.as_ptr(), t.z.as_mut_ptr());
    let wide = dv / 16 * 16;
    t.z.fill(0.0);
    for block in (0..t.keys).step_by(KEY_BLOCK) {
        let end = (block + KEY_BLOCK).min(t.keys);
        for c in (0..wide).step_by(16) {
            let mut acc: [[__m256; 2]; R] = std::array::from_fn(|r| {
                [_mm256_loadu_ps(z.add(r * dv + c)), _mm256_loadu_ps(z.add(r * dv + c + 8))]
            });
            for j in block..end {
                let v0 = _mm256_loadu_ps(v.add(j * dv + c));
                let v1 = _mm256_loadu_ps(v.add(j * dv + c + 8));
                for (r, a) in acc.iter_mut().enumerate() {
                    let w = _mm256_broadcast_ss(&*e.add(r * ls + j));
                    a[0] = _mm256_fmadd_ps(w, v0, a[0]);
                    a[1] = _mm256_fmadd_ps(w, v1, a[1]);
                }
            }
            for (r, a) in acc.iter().enumerate() {
                _mm256_storeu_ps(z.add(r * dv + c), a[0]);
                _mm256_storeu_ps(z.add(r * dv + c + 8), a[1]);
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
/// four sums of eight lanes over d, then added across in one pass.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn keys_in_place(t: &mut KeyTile) {
    let keys = t.check();
    let (d, ls, wide) = (t.d, t.ls, t.d / 8 * 8);
    let k = t.k.as_ptr();
    for r in 0..t.rows {
        let q = t.q.as_ptr().add(r * d);
        let out = &mut t.s[r * ls..(r + 1) * ls];
        let dot = |j: usize| -> f32 { (0..d).map(|i| *q.add(i) * *k.add(j * d + i)).sum() };
        let mut j = 0;
        while j + 4 <= keys {
            let mut acc = [_mm256_setzero_ps(); 4];
            for i in (0..wide).step_by(8) {
                let x = _mm256_loadu_ps(q.add(i));
                for (c, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_fmadd_ps(x, _mm256_loadu_ps(k.add((j + c) * d + i)), *a);
                }
            }
            // Lanes added across: [Σ key j, Σ key j+1, Σ key j+2, Σ key j+3].
            let h = _mm256_hadd_ps(_mm256_hadd_ps(acc[0], acc[1]), _mm256_hadd_ps(acc[2], acc[3]));
            let sums = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps::<1>(h));
            let mut four = [0.0f32; 4];
            _mm_storeu_ps(four.as_mut_ptr(), sums);
            for (c, s) in four.iter().enumerate() {
                let tail: f32 = (wide..d).map(|i| *q.add(i) * *k.add((j + c) * d + i)).sum();
                out[j + c] = (s + tail) * t.scale;
            }
            j += 4;
        }
        for (j, s) in out.iter_mut().enumerate().skip(j) {
            *s = if j < keys { dot(j) * t.scale } else { 0.0 };
        }
    }
}
