//! Attention's matrix products (Q Kᵀ and A V): `gemm`, or in the `fma` wasm
//! build a kernel of our own (`tensor::relaxed`).

use crate::tensor::Matrix;
use crate::testing::matrix;

check! {
    /// Matrix products against a plain sum in f64, for shapes that leave
    /// partial tiles of rows and columns and an empty inner dimension.
    fn matrix_products_equal_the_plain_product() {
        for (m, n, k) in [
            (1, 1, 1),
            (2, 3, 4),
            (4, 8, 32),
            (5, 9, 3),
            (7, 17, 33),
            (1, 17, 64),
            (16, 1, 64),
            (9, 2, 33),
            (9, 16, 128),
            (3, 5, 0),
            (128, 128, 32),
            (128, 32, 128),
        ] {
            let (a, b) = (matrix(m, k, 1 + m as u32), matrix(k, n, 2 + n as u32));
            let bt = b.transpose();
            let plain = |i: usize, j: usize| (0..k).map(|p| a[(i, p)] as f64 * b[(p, j)] as f64).sum::<f64>();
            // The relaxed SIMD kernel copies the right operand into one layout
            // whichever way it is stored, so both give the same numbers
            // (gemm, everywhere else, packs the two layouts differently).
            if cfg!(all(target_arch = "wasm32", feature = "fma")) {
                assert_eq!(a.matmul(&b).data, a.matmul_t(&bt).data, "A·B and A·(Bᵀ)ᵀ for {m}×{k}·{k}×{n}");
            }
            for (name, got) in [("A·B", a.matmul(&b)), ("A·(Bᵀ)ᵀ", a.matmul_t(&bt))] {
                assert_eq!(got.shape(), (m, n), "{name} for {m}×{k}·{k}×{n}");
                for i in 0..m {
                    for j in 0..n {
                        let want = plain(i, j);
                        assert!(
                            (got[(i, j)] as f64 - want).abs() <= 1e-5 * (1.0 + k as f64),
                            "{name} for {m}×{k}·{k}×{n} at ({i}, {j}): {} against {want}",
                            got[(i, j)]
                        );
                    }
                }
            }
        }
    }
}

check! {
    /// A token appended to a key/value cache: its scores against every key
    /// (Q Kᵀ) and its output (A V), computed alone or with 1 or 2 others, are
    /// the rows of the product of all the queries, bit for bit in the fma
    /// build (every output one chain of multiply-adds, whatever the path),
    /// close to them everywhere.
    fn rows_alone_or_among_others_are_the_rows_of_the_whole_product() {
        for (n, k) in [(1, 64), (7, 64), (8, 64), (61, 64), (1015, 64), (19, 12), (33, 6)] {
            let (q, keys, values) = (matrix(9, k, 3), matrix(n, k, 4), matrix(n, k, 5));
            let (scores, weights) = (q.matmul_t(&keys), matrix(9, n, 6));
            let outputs = weights.matmul(&values);
            for (first, m) in [(8, 1), (7, 2), (6, 3), (0, 1)] {
                let alone = q.rows_range(first, m).matmul_t(&keys);
                let out = weights.rows_range(first, m).matmul(&values);
                for (name, got, whole) in [("Q Kᵀ", &alone, &scores), ("A V", &out, &outputs)] {
                    let want = whole.rows_range(first, m);
                    if cfg!(all(target_arch = "wasm32", feature = "fma")) {
                        assert_eq!(got.data, want.data, "{name}: rows {first}.. of {m} against {n} × {k}");
                    }
                    let d = got.max_abs_diff(&want);
                    assert!(d <= 1e-5 * k as f32, "{name}: rows {first}.. of {m} against {n} × {k}: off by {d}");
                }
            }
        }
    }
}

check! {
    /// The product's simplest cases, computed by hand.
    fn matrix_products_agree_with_hand_computation() {
        let a = Matrix::from_rows(&[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        let b = Matrix::from_rows(&[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
        assert_eq!(a.matmul(&b), Matrix::from_rows(&[[4.0, 5.0], [10.0, 11.0]]));
        assert_eq!(a.matmul_t(&a), Matrix::from_rows(&[[14.0, 32.0], [32.0, 77.0]]));
        assert_eq!(a.matmul_t(&a), a.matmul(&a.transpose()));
    }
}

check! {
    fn empty_shapes_do_not_panic() {
        let a = Matrix::zeros(0, 4);
        let b = Matrix::zeros(3, 4);
        assert_eq!(a.matmul_t(&b).shape(), (0, 3));
        assert_eq!(Matrix::zeros(2, 0).matmul(&Matrix::zeros(0, 2)), Matrix::zeros(2, 2));
    }
}
