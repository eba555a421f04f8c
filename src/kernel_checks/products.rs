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
