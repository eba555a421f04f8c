//! The matrix product in the browsers that have relaxed SIMD (the `fma`
//! worker), where it is attention's Q Kᵀ and A V: `gemm`'s simd128 kernels
//! multiply, then add (wasm has no fused multiply-add of its own), and
//! repack both operands on every call. Here the right operand is copied once, row
//! by row and padded to a multiple of 8 columns (transposed for Q Kᵀ: n·32
//! values moved for n·n·32 multiply-adds), and each tile of 4 rows × 8
//! columns keeps its sums in 8 registers for the whole inner dimension.
//! Every output is one chain of fused multiply-adds in the order of the
//! inner index, whatever its tile, so a row computed alone (SmolLM2's
//! key/value cache) equals the same row computed with others.

use super::Matrix;
use std::arch::wasm32::*;

/// out = lhs · rhs, or lhs · rhsᵀ with `rhs_t`; `out` has the product's shape.
pub fn product(out: &mut Matrix, lhs: &Matrix, rhs: &Matrix, rhs_t: bool) {
    let (m, n, k) = (out.rows, out.cols, lhs.cols);
    assert!(lhs.rows == m && rhs.data.len() == k * n, "relaxed::product: shapes differ");
    if rhs_t && n < 8 && m > n {
        // A few columns (the earlier queries' scores against a key just
        // appended): (lhs rhsᵀ)ᵀ = rhs lhsᵀ fills the 8-wide tiles that
        // would otherwise be mostly padding. Each output is the same
        // chain of multiply-adds of the same products, so the same number.
        let mut t = Matrix::zeros(n, m);
        product(&mut t, rhs, lhs, true);
        *out = t.transpose();
        return;
    }
    if rhs_t && m < 4 && k.is_multiple_of(4) {
        // A few queries (a token appended to a key/value cache) against
        // every key: the keys are read where they are, four columns of
        // eight keys at a time turned in registers, instead of being
        // copied transposed first (as many values moved as multiplied).
        return few_rows_against_keys(out, lhs, rhs);
    }
    if !rhs_t && n.is_multiple_of(8) {
        // Rows already a multiple of 8 wide (A V): read where they are.
        return tiles(out, lhs, &rhs.data, n);
    }
    let wide = n.next_multiple_of(8);
    let mut b = vec![0.0f32; k * wide];
    if rhs_t {
        transpose_into(&mut b, wide, &rhs.data, n, k);
    } else {
        for (p, row) in b.chunks_exact_mut(wide).enumerate() {
            row[..n].copy_from_slice(&rhs.data[p * n..(p + 1) * n]);
        }
    }
    tiles(out, lhs, &b, wide);
}

/// out = lhs · b, b being k rows of `wide` ≥ out.cols values, by tiles of
/// 4 rows (then 3, 2 or 1) × 8 columns.
fn tiles(out: &mut Matrix, lhs: &Matrix, b: &[f32], wide: usize) {
    let (m, n, k) = (out.rows, out.cols, lhs.cols);
    assert!(wide >= n && b.len() >= k * wide);
    let (a, o) = (lhs.data.as_ptr(), out.data.as_mut_ptr());
    let mut i = 0;
    // SAFETY: the fma worker runs only where relaxed SIMD is (the page
    // checks). Rows i..i+R of lhs (k values each) and out (n each) are
    // in bounds (i + R ≤ m), and b holds k rows of `wide` values.
    unsafe {
        while i + 4 <= m {
            rows::<4>(a.add(i * k), k, b, wide, o.add(i * n), n, n);
            i += 4;
        }
        match m - i {
            3 => rows::<3>(a.add(i * k), k, b, wide, o.add(i * n), n, n),
            2 => rows::<2>(a.add(i * k), k, b, wide, o.add(i * n), n, n),
            1 => rows::<1>(a.add(i * k), k, b, wide, o.add(i * n), n, n),
            _ => {}
        }
    }
}

/// out = lhs · rhsᵀ for 1 to 3 rows of lhs (k a multiple of 4): each
/// output the same chain of multiply-adds, in the order of the inner
/// index, as [`tiles`] makes it.
fn few_rows_against_keys(out: &mut Matrix, lhs: &Matrix, rhs: &Matrix) {
    let (m, n, k) = (out.rows, out.cols, lhs.cols);
    assert!(m < 4 && k.is_multiple_of(4) && rhs.data.len() == n * k);
    let whole = n / 8 * 8;
    let (a, o) = (lhs.data.as_ptr(), out.data.as_mut_ptr());
    // SAFETY: relaxed SIMD as in `tiles`; keys_t reads keys 0..whole (k
    // values each) of rhs and writes m rows of n outputs.
    unsafe {
        match m {
            3 => keys_t::<3>(a, k, rhs.data.as_ptr(), whole, o, n),
            2 => keys_t::<2>(a, k, rhs.data.as_ptr(), whole, o, n),
            1 => keys_t::<1>(a, k, rhs.data.as_ptr(), whole, o, n),
            _ => {}
        }
    }
    if whole < n {
        // The last keys, fewer than 8: through a small transposed copy.
        let mut b = vec![0.0f32; k * 8];
        transpose_into(&mut b, 8, &rhs.data[whole * k..], n - whole, k);
        // SAFETY: as above; out's rows have n ≥ whole + (n − whole) values.
        unsafe {
            match m {
                3 => rows::<3>(a, k, &b, 8, o.add(whole), n, n - whole),
                2 => rows::<2>(a, k, &b, 8, o.add(whole), n, n - whole),
                1 => rows::<1>(a, k, &b, 8, o.add(whole), n, n - whole),
                _ => {}
            }
        }
    }
}

/// `R` rows of a (R × k) times the transpose of keys 0..`whole` (a
/// multiple of 8) of `keys` (k values each, k a multiple of 4), into out
/// (rows `stride` apart).
#[target_feature(enable = "relaxed-simd")]
unsafe fn keys_t<const R: usize>(
    a: *const f32,
    k: usize,
    keys: *const f32,
    whole: usize,
    out: *mut f32,
    stride: usize,
) {
    for j in (0..whole).step_by(8) {
        let mut acc = [[f32x4_splat(0.0); 2]; R];
        for p in (0..k).step_by(4) {
            // Columns p..p+4 of keys j..j+4 and j+4..j+8.
            let [lo, hi] = [0, 4].map(|half| {
                transpose4(std::array::from_fn(|c| {
                    v128_load(keys.add((j + half + c) * k + p) as *const v128)
                }))
            });
            for q in 0..4 {
                for (r, at) in acc.iter_mut().enumerate() {
                    let x = v128_load32_splat(a.add(r * k + p + q) as *const u32);
                    at[0] = f32x4_relaxed_madd(x, lo[q], at[0]);
                    at[1] = f32x4_relaxed_madd(x, hi[q], at[1]);
                }
            }
        }
        for (r, at) in acc.iter().enumerate() {
            let dst = out.add(r * stride + j);
            v128_store(dst as *mut v128, at[0]);
            v128_store(dst.add(4) as *mut v128, at[1]);
        }
    }
}

/// The columns of four rows of four values.
#[inline(always)]
fn transpose4(r: [v128; 4]) -> [v128; 4] {
    let (t0, t1) =
        (i32x4_shuffle::<0, 4, 1, 5>(r[0], r[1]), i32x4_shuffle::<2, 6, 3, 7>(r[0], r[1]));
    let (t2, t3) =
        (i32x4_shuffle::<0, 4, 1, 5>(r[2], r[3]), i32x4_shuffle::<2, 6, 3, 7>(r[2], r[3]));
    [
        i32x4_shuffle::<0, 1, 4, 5>(t0, t2),
        i32x4_shuffle::<2, 3, 6, 7>(t0, t2),
        i32x4_shuffle::<0, 1, 4, 5>(t1, t3),
        i32x4_shuffle::<2, 3, 6, 7>(t1, t3),
    ]
}

/// b[p][j] = rhs[j][p] (b has rows of `wide` ≥ n values; rhs is n × k),
/// four by four through registers, since one value at a time the transpose
/// of K for Q Kᵀ costs as much as the product itself when a single query
/// is appended.
fn transpose_into(b: &mut [f32], wide: usize, rhs: &[f32], n: usize, k: usize) {
    assert!(wide >= n && b.len() >= k * wide && rhs.len() >= n * k);
    let (n4, k4) = (n / 4 * 4, k / 4 * 4);
    for j in (0..n4).step_by(4) {
        for p in (0..k4).step_by(4) {
            // SAFETY: rows j..j+4 of rhs have k ≥ p + 4 values each, and
            // rows p..p+4 of b have wide ≥ j + 4 (asserted above).
            unsafe {
                let columns = transpose4(std::array::from_fn(|c| {
                    v128_load(rhs.as_ptr().add((j + c) * k + p) as *const v128)
                }));
                for (q, c) in columns.into_iter().enumerate() {
                    v128_store(b.as_mut_ptr().add((p + q) * wide + j) as *mut v128, c);
                }
            }
        }
        for p in k4..k {
            for c in j..j + 4 {
                b[p * wide + c] = rhs[c * k + p];
            }
        }
    }
    for c in n4..n {
        for p in 0..k {
            b[p * wide + c] = rhs[c * k + p];
        }
    }
}

/// `R` rows of the product: a (R × k) times b (k × wide), into the first
/// n ≤ wide columns of out (rows `stride` apart).
#[target_feature(enable = "relaxed-simd")]
unsafe fn rows<const R: usize>(
    a: *const f32,
    k: usize,
    b: &[f32],
    wide: usize,
    out: *mut f32,
    stride: usize,
    n: usize,
) {
    for j in (0..wide).step_by(8) {
        let mut acc = [[f32x4_splat(0.0); 2]; R];
        let mut col = b.as_ptr().add(j);
        for p in 0..k {
            let (b0, b1) = (v128_load(col as *const v128), v128_load(col.add(4) as *const v128));
            for (r, at) in acc.iter_mut().enumerate() {
                let x = v128_load32_splat(a.add(r * k + p) as *const u32);
                at[0] = f32x4_relaxed_madd(x, b0, at[0]);
                at[1] = f32x4_relaxed_madd(x, b1, at[1]);
            }
            col = col.add(wide);
        }
        for (r, at) in acc.iter().enumerate() {
            let dst = out.add(r * stride + j);
            if j + 8 <= n {
                v128_store(dst as *mut v128, at[0]);
                v128_store(dst.add(4) as *mut v128, at[1]);
            } else {
                let lanes: [f32; 8] = std::mem::transmute(*at);
                std::ptr::copy_nonoverlapping(lanes.as_ptr(), dst, n - j);
            }
        }
    }
}
