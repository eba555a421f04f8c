//! The int8 products of the translation models ([`crate::kernels::int8`]):
//! each kernel against the sum as defined, and bit for bit against the
//! portable kernel, which the module promises (same operations, same order).

use crate::kernels::int8::Int8Matrix;
use crate::kernels::simd::Isa;
use crate::tensor::Matrix;
use crate::testing::matrix;

/// `rows × cols` int8 weights covering the whole range −127…127.
fn weights(rows: usize, cols: usize) -> Vec<i8> {
    (0..rows * cols).map(|i| (((i * 37 + 11) % 255) as i32 - 127) as i8).collect()
}

/// y = x·(q·scale)ᵀ + b summed in f64: the product as the module defines it.
fn defined(x: &Matrix, q: &[i8], w: &Int8Matrix, bias: &[f32]) -> Matrix {
    let mut y = Matrix::zeros(x.rows, w.rows);
    for t in 0..x.rows {
        for j in 0..w.rows {
            let s: f64 = (0..w.cols).map(|k| x[(t, k)] as f64 * q[j * w.cols + k] as f64).sum();
            y[(t, j)] = (s * w.scale as f64) as f32 + bias[j];
        }
    }
    y
}

check_each_isa! {
    /// Widths below, at and past one 16-lane step, and token counts around
    /// every kernel's group of tokens (4 natively, 2 in wasm).
    fn int8_products_equal_the_definition(isa) {
        for (rows, cols) in [(7, 40), (33, 256), (3, 1), (5, 16)] {
            let q = weights(rows, cols);
            let w = Int8Matrix::new(rows, cols, &q, 153.83);
            let bias: Vec<f32> = (0..rows).map(|j| j as f32 * 0.25 - 1.0).collect();
            for n in [1, 2, 5, 9] {
                let x = matrix(n, cols, 3 + n as u32);
                let (got, want) = (w.forward_on(isa, &x, Some(&bias)), defined(&x, &q, &w, &bias));
                assert!(got.max_abs_diff(&want) < 1e-4, "{isa:?}, {rows}×{cols}, {n} tokens: {}", got.max_abs_diff(&want));
            }
        }
    }
}

check_each_isa! {
    /// The same bits as the portable kernel, and a token the same bits alone
    /// as among others, so a translation does not depend on the machine.
    fn int8_products_give_the_portable_bits_alone_or_among_others(isa) {
        let (rows, cols) = (40, 264);
        let w = Int8Matrix::new(rows, cols, &weights(rows, cols), 320.86);
        let x = matrix(7, cols, 11);
        let all = w.forward_on(isa, &x, None);
        assert_eq!(all.data, w.forward_on(Isa::Portable, &x, None).data, "{isa:?} and the portable kernel");
        for t in 0..7 {
            let alone = w.forward_on(isa, &x.rows_range(t, 1), None);
            assert_eq!(alone.data, all.row(t), "{isa:?}, token {t}");
        }
    }
}

check_each_isa! {
    /// A shortlist's rows are those rows of the whole product, bit for bit.
    fn int8_listed_rows_are_those_rows_of_the_whole_product(isa) {
        let (rows, cols) = (50, 64);
        let w = Int8Matrix::new(rows, cols, &weights(rows, cols), 99.5);
        let bias: Vec<f32> = (0..rows).map(|j| j as f32).collect();
        let x: Vec<f32> = (0..cols).map(|i| (i as f32 * 0.11).cos()).collect();
        let whole = w.forward_on(isa, &Matrix::from_vec(1, cols, x.clone()), Some(&bias));
        let picked = [0u32, 7, 8, 49];
        let some = w.forward_rows_on(isa, &x, &picked, &bias);
        for (y, &r) in some.iter().zip(&picked) {
            assert_eq!(y.to_bits(), whole.data[r as usize].to_bits(), "{isa:?}, row {r}");
        }
    }
}
