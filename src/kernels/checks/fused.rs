//! The fused attention kernel ([`crate::kernels::fused`]) against the
//! formula (`attention::attend`) and the sums of its A (`HeadSummary::of`).

use crate::attention::{attend, Attend, Mask, Scale};
use crate::kernels::fused::attend_summed_on;
use crate::kernels::simd::Isa;
use crate::tensor::Matrix;
use crate::testing::matrix;
use crate::trace::summary::HeadSummary;

/// |a − b| within `tol` of b's size.
fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

/// The kernel on `n` queries over `n` keys, the first `cached` of them
/// computed first and the rest added after as a key/value cache adds them,
/// compared with the formula over all `n`.
fn compare(isa: Isa, n: usize, cached: usize, d: usize, dv: usize, mask: Mask, gain: f32) {
    let seed = (n * 7 + d * 3 + dv) as u32;
    let q = matrix(n, d, seed).map(|x| x * gain);
    let (k, v) = (matrix(n, d, seed + 1), matrix(n, dv, seed + 2));
    let scale = 1.0 / (d as f32).sqrt();
    let formula = attend(&q, &k, &v, Attend::new(mask, Scale::Factor(scale)));
    let mut summary = HeadSummary::empty();
    let mut z = Matrix::zeros(0, dv);
    for (from, to) in [(0, cached), (cached, n)] {
        let part = attend_summed_on(
            isa,
            &q.rows_range(from, to - from),
            &k.rows_range(0, to),
            &v.rows_range(0, to),
            mask,
            scale,
            Some(&mut summary),
        );
        z.push_rows(&part);
    }
    let case = format!("{isa:?}: n {n} (cached {cached}), d {d}, d_v {dv}, {mask:?}, gain {gain}");
    let dz = z.max_abs_diff(&formula.output);
    assert!(dz < 1e-5, "{case}: Z off by {dz}");
    let whole = HeadSummary::of(&formula.weights);
    let dt = summary.thumbnail(usize::MAX).max_abs_diff(&whole.thumbnail(usize::MAX));
    assert!(dt < 1e-5, "{case}: block sums off by {dt}");
    let (got, want) = (summary.sums.stats(0, 0), whole.sums.stats(0, 0));
    for (what, g, w) in [
        ("entropy", got.entropy_bits, want.entropy_bits),
        ("distance", got.mean_distance, want.mean_distance),
        ("first", got.first_token, want.first_token),
        ("previous", got.previous_token, want.previous_token),
        ("self", got.self_token, want.self_token),
    ] {
        assert!(close(g, w, 1e-5), "{case}: {what} {g} against {w}");
    }
}

check_each_isa! {
    /// Lengths that are and are not whole tiles (4 queries) and panels (16
    /// keys), widths with and without a tail of columns, every mask, the
    /// keys of a cache, scores peaked enough to underflow most weights.
    fn fused_attention_equals_the_formula_and_its_sums(isa) {
        let masks = [Mask::Causal, Mask::SlidingWindow(5), Mask::SlidingWindow(40), Mask::None];
        for mask in masks {
            for (n, d, dv) in [(1, 8, 8), (3, 8, 24), (6, 18, 16), (5, 32, 32), (17, 64, 64), (70, 64, 8), (129, 32, 40), (300, 64, 64)] {
                for gain in [1.0, 12.0] {
                    compare(isa, n, 0, d, dv, mask, gain);
                }
                if mask != Mask::None && n > 1 {
                    compare(isa, n, n - 1, d, dv, mask, 1.0); // a token appended
                    compare(isa, n, n / 2, d, dv, mask, 3.0); // a paragraph appended
                }
            }
        }
    }
}

check_each_isa! {
    /// A query that sees no key (a window of none is not a mask any model
    /// has, but the kernel must not divide by zero): Z is 0, as the formula's.
    fn fused_attention_of_no_keys_is_zero(isa) {
        let mut summary = HeadSummary::empty();
        let z = attend_summed_on(isa, &matrix(0, 8, 1), &matrix(0, 8, 2), &matrix(0, 8, 3), Mask::Causal, 1.0, Some(&mut summary));
        assert_eq!(z.shape(), (0, 8));
        let z = attend_summed_on(isa, &matrix(3, 8, 1), &matrix(3, 8, 2), &matrix(3, 8, 3), Mask::SlidingWindow(0), 1.0, Some(&mut summary));
        assert!(z.data.iter().all(|&x| x == 0.0));
    }
}
