//! What must hold for every Q, K and V, not just the fixtures: property tests
//! of `attention::attend` on random shapes and values (proptest shrinks any
//! failure to a small case and keeps it in tests/attention_properties.proptest-regressions),
//! then worked cases of a position bias, grouped-query and cross-attention,
//! heads handed on one by one and the visible keys alone.

use attnscope::attention::{
    attend, multi_head, softmax_rows, split_heads, Attend, AttendHeads, Mask, Scale,
};
use attnscope::kernels::fused;
use attnscope::trace::HeadSummary;
use attnscope::Matrix;
use proptest::prelude::*;

/// n × d matrices with entries large enough to saturate a softmax now and then.
fn matrix(n: usize, d: usize) -> impl Strategy<Value = Matrix> {
    proptest::collection::vec(-30.0f32..30.0, n * d)
        .prop_map(move |data| Matrix::from_vec(n, d, data))
}

/// n × d matrices of the size real queries and keys have (after their norms).
fn small(n: usize, d: usize) -> impl Strategy<Value = Matrix> {
    proptest::collection::vec(-4.0f32..4.0, n * d)
        .prop_map(move |data| Matrix::from_vec(n, d, data))
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
        let a = attend(&q, &k, &v, Attend::new(mask, Scale::InvSqrtDk)).weights;
        for i in 0..a.rows {
            let sum: f32 = a.row(i).iter().sum();
            prop_assert!((sum - 1.0).abs() <= 1e-5, "row {i} sums to {sum}");
            prop_assert!(a.row(i).iter().all(|w| (0.0..=1.0).contains(w)));
        }
    }

    #[test]
    fn masked_weights_are_exactly_zero((q, k, v) in qkv()) {
        let a = attend(&q, &k, &v, Attend::new(Mask::Causal, Scale::InvSqrtDk)).weights;
        for i in 0..a.rows {
            for j in i + 1..a.cols {
                prop_assert_eq!(a[(i, j)].to_bits(), 0.0f32.to_bits(), "A[{}][{}]", i, j);
            }
        }
    }

    /// AttentionViz's key translation (analysis::geometry): every key moved by
    /// mean(Q) − mean(K) adds q_i·c to all of row i's scores, which softmax does
    /// not see. Exact in real numbers; in f32 within 1e-5 for entries of the size
    /// real queries and keys have.
    #[test]
    fn translating_the_keys_leaves_every_weight_unchanged(
        (q, k) in (2usize..24, 1usize..65).prop_flat_map(|(n, d)| (small(n, d), small(n, d))),
        mask in mask(),
    ) {
        let (moved, _) = attnscope::analysis::geometry::translate_keys(&q, &k);
        let options = Attend::new(mask, Scale::InvSqrtDk);
        let before = attend(&q, &k, &k, options).weights;
        let after = attend(&q, &moved, &k, options).weights;
        prop_assert!(before.max_abs_diff(&after) <= 1e-5, "{}", before.max_abs_diff(&after));
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
        let a = attend(&q, &k, &v, Attend::new(Mask::Causal, Scale::InvSqrtDk));
        let b = attend(&q, &k_other, &v_other, Attend::new(Mask::Causal, Scale::InvSqrtDk));
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
        let full = attend(&q, &k, &v, Attend::new(Mask::Causal, Scale::InvSqrtDk));
        let last = attend(&q.rows_range(n - 1, 1), &k, &v, Attend::new(Mask::Causal, Scale::InvSqrtDk));
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
        let a = attend(&q, &k, &v, Attend::new(Mask::None, Scale::InvSqrtDk));
        let p = attend(&q.select_rows(&order), &k.select_rows(&order), &v.select_rows(&order), Attend::new(Mask::None, Scale::InvSqrtDk));
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

#[test]
fn a_position_bias_is_added_to_the_scaled_scores() {
    let (q, k) = (pseudo_random(4, 8, 11), pseudo_random(4, 8, 12));
    let bias = pseudo_random(4, 4, 13);
    let t = attend(&q, &k, &k, Attend { bias: Some(&bias), ..Attend::default() });
    let want = softmax_rows(q.matmul_t(&k).map(|s| s * t.scale).add(&bias));
    assert_eq!(t.weights, want);
    assert_eq!(t.masked(), t.scaled().add(&bias));
    assert_eq!(t.reweighed(Mask::None, t.scale), t.weights);
}

/// Values in (−2, 2) from the tests' seeded generator.
fn pseudo_random(rows: usize, cols: usize, seed: u32) -> Matrix {
    attnscope::testing::matrix(rows, cols, seed).map(|x| 2.0 * x)
}

#[test]
fn heads_of_one_gqa_group_share_k_and_v() {
    let (n, d_k) = (5, 4);
    let (q, k, v) =
        (pseudo_random(n, 4 * d_k, 1), pseudo_random(n, 2 * d_k, 2), pseudo_random(n, 2 * d_k, 3));
    let t = multi_head(
        &q,
        4,
        split_heads(&k, 2),
        split_heads(&v, 2),
        AttendHeads::new(Mask::Causal, Scale::InvSqrtDk),
    );
    assert_eq!(t.kv_head_of, vec![0, 0, 1, 1]);
    assert_eq!((t.k.len(), t.v.len()), (2, 2));
    for h in 0..4 {
        let g = t.kv_head_of[h];
        // Each head's scores are its own Q against its group's K.
        assert_eq!(t.heads[h].scores, t.q[h].matmul_t(&t.k[g]));
        assert_eq!(t.heads[h].output, t.heads[h].weights.matmul(&t.v[g]));
        for i in 0..n {
            assert!((t.heads[h].weights.row(i).iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }
    assert_eq!(t.k[0], k.cols_range(0, d_k));
    assert_eq!(t.concat.shape(), (n, 4 * d_k));
}

#[test]
fn cross_attention_is_n_q_by_n_kv() {
    let q = pseudo_random(3, 8, 4); // e.g. a decoder's 3 tokens
    let kv = pseudo_random(7, 8, 5); // attending to an encoder's 7
    let t = attend(&q, &kv, &kv, Attend::new(Mask::None, Scale::InvSqrtDk));
    assert_eq!(t.weights.shape(), (3, 7));
    assert_eq!(t.output.shape(), (3, 8));
}

#[test]
fn what_if_reweighing_equals_attending_with_that_mask() {
    let (q, k) = (pseudo_random(6, 4, 6), pseudo_random(6, 4, 7));
    let open = attend(&q, &k, &k, Attend::new(Mask::None, Scale::InvSqrtDk));
    let causal = attend(&q, &k, &k, Attend::new(Mask::Causal, Scale::InvSqrtDk));
    assert_eq!(open.reweighed(Mask::Causal, open.scale), causal.weights);
    assert_eq!(causal.masked()[(0, 5)], f32::NEG_INFINITY);
    assert_eq!(causal.weights[(0, 5)], 0.0);
}
#[test]
fn the_fused_kernel_over_the_visible_keys_gives_the_formulas_outputs_and_sums() {
    // Long enough for several blocks of queries; keys not a multiple of
    // 8 or 16; queries all the keys or the last ones (a cache's new rows).
    for (n_q, n_k) in [(300, 300), (150, 301), (129, 140), (700, 1015)] {
        let (q, k, v) =
            (pseudo_random(n_q, 16, 1), pseudo_random(n_k, 16, 2), pseudo_random(n_k, 16, 3));
        for mask in [Mask::Causal, Mask::SlidingWindow(37), Mask::SlidingWindow(100), Mask::None] {
            let whole = attend(&q, &k, &v, Attend::new(mask, Scale::InvSqrtDk));
            // Z, computed by blocks of queries over the keys each sees, is A V.
            let d = whole.output.max_abs_diff(&whole.weights.matmul(&v));
            assert!(d < 1e-6, "Z by blocks, {n_q} × {n_k}, {mask:?}: off by {d}");
            if mask == Mask::None && n_q != n_k {
                continue; // the sums are of self-attention: queries the last n_q of n_k positions
            }
            // The rows before the queries, as a key/value cache holds them.
            let earlier = n_k - n_q;
            let mut sums = HeadSummary::empty();
            let before = attend(
                &k.rows_range(0, earlier),
                &k.rows_range(0, earlier),
                &v.rows_range(0, earlier),
                Attend::new(mask, Scale::InvSqrtDk),
            );
            sums.add(&before.weights);
            let mut want = HeadSummary::of(&before.weights);
            want.add(&whole.weights);
            let z = fused::attend_summed(&q, &k, &v, mask, 0.25, &mut sums);
            let d = z.max_abs_diff(&whole.output);
            assert!(d < 1e-5, "fused Z, {n_q} × {n_k}, {mask:?}: off by {d}");
            let d = sums.thumbnail(usize::MAX).max_abs_diff(&want.thumbnail(usize::MAX));
            assert!(d < 1e-5, "fused sums, {n_q} × {n_k}, {mask:?}: off by {d}");
        }
    }
    // The keys a block of queries may see.
    assert_eq!(Mask::Causal.visible_keys(0, 64, 300, 300), 0..64);
    assert_eq!(Mask::Causal.visible_keys(64, 64, 150, 301), 0..279);
    assert_eq!(Mask::SlidingWindow(37).visible_keys(64, 64, 300, 300), 28..128);
}
