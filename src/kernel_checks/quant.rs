//! SmolLM2's quantized products ([`crate::models::quant`]).

use crate::models::quant::blocks::{Block, BlockQ4_1, BlockQ8_0, F16};
use crate::models::quant::{Input, QMatrix, QType};
use crate::models::simd::Isa;
use crate::tensor::Matrix;
use crate::testing::{matrix, q4_1_blocks, q8_0_blocks};

/// Whether `isa`'s products for one to three tokens sum exactly as its batch
/// product does (natively, and the portable kernels everywhere); wasm's
/// vector kernels multiply the inputs' integer parts instead.
fn sums_as_the_batch(isa: Isa) -> bool {
    isa == Isa::Portable || cfg!(not(target_arch = "wasm32"))
}

/// `rows × cols` matrices of both formats, their blocks from `seed`.
fn both_formats(rows: usize, cols: usize, seed: u32) -> [QMatrix; 2] {
    let blocks = rows * cols / 32;
    [
        QMatrix::new(rows, cols, QType::Q4_1, q4_1_blocks(blocks, seed)).unwrap(),
        QMatrix::new(rows, cols, QType::Q8_0, q8_0_blocks(blocks, seed + 1)).unwrap(),
    ]
}

/// The weights as the formats define them, one scalar at a time, with the
/// `half` crate's f16 conversion: Q4_1 w = d·q + m (low nibbles first), Q8_0
/// w = d·q. The block types give only where the fields are.
fn defined_weights(qtype: QType, bytes: &[u8]) -> Vec<f32> {
    let half = |h: F16| half::f16::from_bits(h.to_bits()).to_f32();
    match qtype {
        QType::Q4_1 => BlockQ4_1::slice(bytes)
            .iter()
            .flat_map(|b| (0..32).map(move |j| (if j < 16 { b.qs[j] & 15 } else { b.qs[j - 16] >> 4 }) as f32 * half(b.d) + half(b.m)))
            .collect(),
        QType::Q8_0 => BlockQ8_0::slice(bytes).iter().flat_map(|b| b.qs.iter().map(move |&q| q as f32 * half(b.d))).collect(),
        QType::F32 => unreachable!(),
    }
}

/// Where block `i`'s scale d starts in a run of `qtype` blocks.
fn scale_d_at(qtype: QType, i: usize) -> std::ops::Range<usize> {
    let (bytes, at) = match qtype {
        QType::Q4_1 => (BlockQ4_1::BYTES, std::mem::offset_of!(BlockQ4_1, d)),
        QType::Q8_0 => (BlockQ8_0::BYTES, std::mem::offset_of!(BlockQ8_0, d)),
        QType::F32 => unreachable!(),
    };
    i * bytes + at..i * bytes + at + std::mem::size_of::<F16>()
}

/// The matrix as the format defines it.
fn defined(w: &QMatrix) -> Matrix {
    Matrix::from_vec(w.rows, w.cols, defined_weights(w.qtype, w.bytes()))
}

/// The matrix's rows expanded to f32 and kept as an f32 `QMatrix`, whose
/// products go through the expanded-rows kernel for any number of tokens.
fn expanded(w: &QMatrix) -> QMatrix {
    let bytes = defined(w).data.iter().flat_map(|v| v.to_le_bytes()).collect();
    QMatrix::new(w.rows, w.cols, QType::F32, bytes).unwrap()
}

check_each_isa! {
    /// Expanding blocks gives the formats' weights bit for bit, including
    /// block scales that are subnormal, zero, negative or as large as f16 goes.
    fn dequantization_is_the_formats_definition(isa) {
        for w in both_formats(8, 64, 1) {
            let mut bytes = w.bytes().to_vec();
            for (i, bits) in [0x0001u16, 0x03ff, 0x0400, 0x0000, 0x8000, 0xbc00, 0x7bff, 0x8001].into_iter().enumerate() {
                bytes[scale_d_at(w.qtype, i)].copy_from_slice(&bits.to_le_bytes());
            }
            let w = QMatrix::new(w.rows, w.cols, w.qtype, bytes).unwrap();
            let want = defined_weights(w.qtype, w.bytes());
            assert_eq!(w.dequantize_on(isa).data, want, "{isa:?}: {:?}", w.qtype);
        }
    }
}

check_each_isa! {
    /// Products for one to three tokens straight from the blocks equal the
    /// products of the expanded rows: bit for bit where the kernels promise
    /// it, and always within rounding of the plain product.
    fn products_from_the_blocks_equal_products_of_the_expanded_rows(isa) {
        // 6 rows (a group of 4 and two single rows) × 96 columns.
        for w in both_formats(6, 96, 2) {
            let x = matrix(3, 96, 3);
            let (dense, f32_rows) = (defined(&w), expanded(&w));
            for n in 1..=3 {
                let x = x.rows_range(0, n);
                let from_blocks = w.forward_on(isa, &Input::new(&x), 0..6);
                let from_rows = f32_rows.forward_on(isa, &Input::new(&x), 0..6);
                if sums_as_the_batch(isa) {
                    assert_eq!(from_blocks.data, from_rows.data, "{isa:?}: {:?}, {n} tokens", w.qtype);
                }
                let exact = x.matmul_t(&dense);
                for (f, e) in from_blocks.data.iter().zip(&exact.data) {
                    assert!((f - e).abs() < 1e-4, "{isa:?}: {:?}, {n} tokens: {f} against {e}", w.qtype);
                }
                if isa == Isa::best() {
                    assert_eq!(w.forward(&x).data, from_blocks.data, "forward runs the best kernel");
                }
            }
        }
    }
}

check_each_isa! {
    /// One token alone gives the outputs it gives in a batch (what the
    /// key/value cache relies on), and a few output columns those of the
    /// whole product.
    fn a_token_alone_gives_the_outputs_it_gives_in_a_batch(isa) {
        // 7 rows (a partial group of 4) × 64 columns, 5 tokens (an odd count).
        let w = QMatrix::new(7, 64, QType::Q4_1, q4_1_blocks(14, 4)).unwrap();
        let x = matrix(5, 64, 5);
        let batch = w.forward_on(isa, &Input::new(&x), 0..7);
        let plain = x.matmul_t(&defined(&w));
        assert!(batch.max_abs_diff(&plain) < 1e-5, "{isa:?}: {}", batch.max_abs_diff(&plain));
        if sums_as_the_batch(isa) {
            let alone = w.forward_on(isa, &Input::new(&x.rows_range(4, 1)), 0..7);
            assert_eq!(alone.row(0), batch.row(4), "{isa:?}");
        }
        assert_eq!(w.forward_on(isa, &Input::new(&x), 2..6).row(1), &batch.row(1)[2..6], "{isa:?}");
    }
}

check_each_isa! {
    /// Both formats, 1 to 7 tokens (the one-token cache append, the
    /// two-to-three-token products from the blocks, the batch with a token
    /// left over), a row count that leaves a partial tile, parts of the
    /// output columns, and inputs rounded to 16 bits.
    fn products_equal_the_plain_product_for_one_to_seven_tokens(isa) {
        let (rows, cols) = (7, 96);
        for w in both_formats(rows, cols, 6) {
            let dense = defined(&w);
            assert_eq!(w.dequantize_on(isa).data, dense.data, "{isa:?}: {:?}: the expansion differs from the format's definition", w.qtype);
            let x = matrix(7, cols, 7);
            for n in 1..=7 {
                let x = x.rows_range(0, n);
                let (got, want) = (w.forward_on(isa, &Input::new(&x), 0..rows), x.matmul_t(&dense));
                assert_eq!(got.shape(), (n, rows));
                let scale = want.data.iter().fold(1.0f32, |a, v| a.max(v.abs()));
                let off = got.max_abs_diff(&want);
                assert!(off <= 1e-5 * scale, "{isa:?}: {:?}, {n} tokens: {off} (largest output {scale})", w.qtype);
                // Output columns 2..6 alone, as the model asks for parts of a matrix.
                let part = w.forward_on(isa, &Input::new(&x), 2..6);
                assert!(part.max_abs_diff(&Matrix::from_vec(n, 4, (0..n).flat_map(|t| want.row(t)[2..6].to_vec()).collect())) <= 1e-5 * scale);
                // Inputs rounded to 16 bits (the output matrix's logits): each off
                // by at most half a step, 1/65534 of its block's largest (|x| ≤ 1).
                let coarse = w.clone().with_16_bit_inputs().forward_on(isa, &Input::new(&x), 0..rows);
                for t in 0..n {
                    for k in 0..rows {
                        let bound = dense.row(k).iter().map(|v| v.abs()).sum::<f32>() / 65534.0 + 1e-5 * scale;
                        let err = (coarse[(t, k)] - want[(t, k)]).abs();
                        assert!(err <= bound, "{isa:?}: {:?} with 16-bit inputs, {n} tokens, output ({t}, {k}): off by {err}, more than {bound}", w.qtype);
                    }
                }
            }
        }
    }
}
