//! MiniLM's packed linear layer ([`crate::kernels::packed`]).

use crate::kernels::packed::PackedLinear;
use crate::kernels::simd::Isa;
use crate::tensor::Matrix;
use crate::testing::matrix;

/// x Wᵀ + b summed in f64, so that no kernel's rounding is the yardstick.
fn reference(w: &Matrix, b: &[f32], x: &Matrix) -> Matrix {
    let mut y = Matrix::zeros(x.rows, w.rows);
    for t in 0..x.rows {
        for j in 0..w.rows {
            let dot: f64 = x.row(t).iter().zip(w.row(j)).map(|(&a, &b)| a as f64 * b as f64).sum();
            y[(t, j)] = (dot + b[j] as f64) as f32;
        }
    }
    y
}

check_each_isa! {
    /// Token counts around the group size (6 natively, 2 in wasm), widths
    /// that are and are not whole panels, inputs shorter and longer than one
    /// 256-wide span of the k loop (so that each group reads its share of
    /// the next span).
    fn packed_products_equal_x_times_w_transposed_plus_bias(isa) {
        let shapes = [(1, 8, 16), (1, 256, 16), (1, 257, 16), (1, 300, 1), (2, 384, 384), (5, 40, 17), (7, 300, 33), (13, 600, 48), (16, 1536, 8), (64, 257, 31)];
        let more = [(16, 8), (20, 300), (48, 600), (3, 1)].into_iter().flat_map(|(d_out, d_in)| [1, 2, 3, 7, 16].map(|n| (n, d_in, d_out)));
        for (n, d_in, d_out) in shapes.into_iter().chain(more) {
            let (w, x) = (matrix(d_out, d_in, 1 + n as u32), matrix(n, d_in, 2 + d_out as u32));
            let b: Vec<f32> = (0..d_out).map(|j| j as f32 * 0.25 - 1.0).collect();
            let got = PackedLinear::new(&w, &b).forward_on(isa, &x, 0..d_out);
            assert_eq!(got.shape(), (n, d_out));
            let d = got.max_abs_diff(&reference(&w, &b, &x));
            // f32 sums of up to 1536 terms of size ≤ 1 (gemm itself is 1.5e-5 off).
            assert!(d < 5e-5 && d as f64 <= 1e-5 * (1.0 + d_in as f64), "{isa:?}: {n}×{d_in} → {d_out}: off by {d}");
        }
    }
}

check_each_isa! {
    /// Every instruction set's kernel gives what the portable one does, to rounding.
    fn packed_products_equal_the_portable_ones(isa) {
        for &(n, d_in, d_out) in &[(1, 300, 16), (2, 384, 40), (7, 600, 33), (13, 257, 48)] {
            let (w, x) = (matrix(d_out, d_in, 5 + n as u32), matrix(n, d_in, 6 + d_out as u32));
            let b: Vec<f32> = (0..d_out).map(|j| 0.5 - j as f32 * 0.125).collect();
            let linear = PackedLinear::new(&w, &b);
            let d = linear.forward_on(Isa::Portable, &x, 0..d_out).max_abs_diff(&linear.forward_on(isa, &x, 0..d_out));
            assert!(d < 5e-5, "{isa:?}: {n}×{d_in} → {d_out}: off by {d}");
        }
    }
}
