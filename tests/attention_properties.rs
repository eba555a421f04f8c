//! What must hold for every Q, K and V, not just the fixtures: property tests
//! of `attention::attend` on random shapes and values (proptest shrinks any
//! failure to a small case and keeps it in tests/attention_properties.proptest-regressions).

use attnscope::attention::{attend, Mask, Scale};
use attnscope::Matrix;
use proptest::prelude::*;

/// n × d matrices with entries large enough to saturate a softmax now and then.
fn matrix(n: usize, d: usize) -> impl Strategy<Value = Matrix> {
    proptest::collection::vec(-30.0f32..30.0, n * d).prop_map(move |data| Matrix::from_vec(n, d, data))
}

/// Q, K, V for one head of self-attention: n tokens, width d.
fn qkv() -> impl Strategy<Value = (Matrix, Matrix, Matrix)> {
    (1usize..24, 1usize..17).prop_flat_map(|(n, d)| (matrix(n, d), matrix(n, d), matrix(n, d)))
}

fn mask() -> impl Strategy<Value = Mask> {
    prop_oneof![Just(Mask::None), Just(Mask::Causal)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_row_of_weights_sums_to_one((q, k, v) in qkv(), mask in mask()) {
        let a = attend(&q, &k, &v, mask, Scale::InvSqrtDk).weights;
        for i in 0..a.rows {
            let sum: f32 = a.row(i).iter().sum();
            prop_assert!((sum - 1.0).abs() <= 1e-5, "row {i} sums to {sum}");
            prop_assert!(a.row(i).iter().all(|w| (0.0..=1.0).contains(w)));
        }
    }

    #[test]
    fn masked_weights_are_exactly_zero((q, k, v) in qkv()) {
        let a = attend(&q, &k, &v, Mask::Causal, Scale::InvSqrtDk).weights;
        for i in 0..a.rows {
            for j in i + 1..a.cols {
                prop_assert_eq!(a[(i, j)].to_bits(), 0.0f32.to_bits(), "A[{}][{}]", i, j);
            }
        }
    }

    /// Whatever the later tokens' keys and values are, a causal query's
    /// weights and output do not change, bit for bit.
    #[test]
    fn causal_attention_never_looks_ahead((q, k, v) in qkv(), k2 in matrix(24, 16), v2 in matrix(24, 16), cut in 0usize..24) {
        let n = q.rows;
        let cut = cut % n;
        let (mut k_other, mut v_other) = (k.clone(), v.clone());
        for i in cut + 1..n {
            k_other.row_mut(i).copy_from_slice(&k2.row(i)[..k.cols]);
            v_other.row_mut(i).copy_from_slice(&v2.row(i)[..v.cols]);
        }
        let a = attend(&q, &k, &v, Mask::Causal, Scale::InvSqrtDk);
        let b = attend(&q, &k_other, &v_other, Mask::Causal, Scale::InvSqrtDk);
        for i in 0..=cut {
            prop_assert_eq!(a.weights.row(i), b.weights.row(i), "weights of query {}", i);
            prop_assert_eq!(a.output.row(i), b.output.row(i), "output of query {}", i);
        }
    }

    /// The last query alone against every cached key and value (a key/value
    /// cache append) gives the last row of the full causal run.
    #[test]
    fn a_cache_append_equals_the_full_recompute((q, k, v) in qkv()) {
        let n = q.rows;
        let full = attend(&q, &k, &v, Mask::Causal, Scale::InvSqrtDk);
        let last = attend(&q.rows_range(n - 1, 1), &k, &v, Mask::Causal, Scale::InvSqrtDk);
        prop_assert_eq!(last.weights.shape(), (1, n));
        // The two products may round each score differently, by at most
        // d·ε times the sum of |q_i k_i| (scaled) behind it; softmax moves a
        // weight by at most twice the largest change of a score. With
        // entries up to 30 the scores reach thousands, and that rounding
        // alone moves a weight by more than 1e-5.
        let d = q.cols as f32;
        let score_rounding = (0..n)
            .map(|j| q.row(n - 1).iter().zip(k.row(j)).map(|(a, b)| (a * b).abs()).sum::<f32>() / d.sqrt())
            .fold(0f32, f32::max)
            * d
            * f32::EPSILON;
        let (w_last, w_full) = (last.weights.row(0), full.weights.row(n - 1));
        prop_assert!(
            w_last.iter().zip(w_full).all(|(a, b)| (a - b).abs() <= 1e-5 * (1.0 + a.abs()) + 2.0 * score_rounding),
            "{:?} vs {:?}",
            w_last,
            w_full
        );
        // Z = A·V: the weights' rounding, times the values' size (the one-row
        // and the full product round differently).
        let v_max = v.data.iter().fold(0f32, |m, x| m.max(x.abs()));
        let (z_last, z_full) = (last.output.row(0), full.output.row(n - 1));
        // And each weight's move from the scores' rounding, times the values.
        let from_weights = n as f32 * 2.0 * score_rounding * v_max;
        prop_assert!(
            z_last.iter().zip(z_full).all(|(a, b)| (a - b).abs() <= 1e-5 * (2.0 * (1.0 + v_max) + a.abs()) + from_weights),
            "{:?} vs {:?}",
            z_last,
            z_full
        );
    }

    /// Without positions and without a mask, attention cannot tell the order
    /// of its tokens: permuting them permutes A's rows and columns and Z's rows.
    #[test]
    fn without_positions_attention_is_permutation_equivariant((q, k, v) in qkv(), seed in any::<u64>()) {
        let n = q.rows;
        let mut order: Vec<usize> = (0..n).collect();
        let mut state = seed | 1;
        for i in (1..n).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let a = attend(&q, &k, &v, Mask::None, Scale::InvSqrtDk);
        let p = attend(&q.select_rows(&order), &k.select_rows(&order), &v.select_rows(&order), Mask::None, Scale::InvSqrtDk);
        for (i, &oi) in order.iter().enumerate() {
            for (j, &oj) in order.iter().enumerate() {
                prop_assert!((p.weights[(i, j)] - a.weights[(oi, oj)]).abs() <= 1e-5);
            }
            for c in 0..v.cols {
                prop_assert!((p.output[(i, c)] - a.output[(oi, c)]).abs() <= 1e-4 * (1.0 + a.output[(oi, c)].abs()));
            }
        }
    }
}
