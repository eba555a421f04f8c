//! The quantized products ([`crate::kernels::quant`]): every format's
//! expansion against the `gguf` package's reference dequantizer on real
//! tensors, and every product against the plain product of the expansion.

use crate::kernels::quant::{Input, QMatrix, QType};
use crate::kernels::simd::Isa;
use crate::kernels::testing::quant_blocks;
use crate::tensor::Matrix;
use crate::testing::matrix;

/// Whether `isa`'s products for one to three tokens sum exactly as its batch
/// product does (natively, and the portable kernels everywhere); wasm's
/// vector kernels multiply the inputs' integer parts instead.
fn sums_as_the_batch(isa: Isa) -> bool {
    isa == Isa::Portable || cfg!(not(target_arch = "wasm32"))
}

/// Every quantized format.
const FORMATS: [QType; 7] =
    [QType::Q4_0, QType::Q4_1, QType::Q5_0, QType::Q8_0, QType::Q4K, QType::Q5K, QType::Q6K];

/// `rows × cols` matrices of every format (`cols` a multiple of 256),
/// their blocks from `seed`.
fn all_formats(rows: usize, cols: usize, seed: u32) -> Vec<QMatrix> {
    FORMATS
        .iter()
        .map(|&q| {
            QMatrix::new(
                rows,
                cols,
                q,
                quant_blocks(q, rows * cols / q.block_size().0, seed + q.ggml_id()),
            )
            .unwrap()
        })
        .collect()
}

/// The matrix as the format defines it: the portable expansion, which
/// `dequantization_equals_the_reference_on_real_tensors` checks bit for bit
/// against the `gguf` package's.
fn defined(w: &QMatrix) -> Matrix {
    w.dequantize_on(Isa::Portable)
}

/// The matrix's rows expanded to f32 and kept as an f32 `QMatrix`, whose
/// products go through the expanded-rows kernel for any number of tokens.
fn expanded(w: &QMatrix) -> QMatrix {
    let bytes = defined(w).data.iter().flat_map(|v| v.to_le_bytes()).collect();
    QMatrix::new(w.rows, w.cols, QType::F32, bytes).unwrap()
}

/// Rows of a real tensor and their values as `gguf.quants.dequantize` gives
/// them, written by `scripts/reference/quant_reference.py`.
struct Fixture {
    name: &'static str,
    qtype: QType,
    rows: usize,
    cols: usize,
    bytes: &'static [u8],
    values: &'static [u8],
}

macro_rules! fixture {
    ($name:literal, $qtype:ident, $rows:literal, $cols:literal) => {
        Fixture {
            name: $name,
            qtype: QType::$qtype,
            rows: $rows,
            cols: $cols,
            bytes: include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/quant/",
                $name,
                ".bin"
            )),
            values: include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/quant/",
                $name,
                ".f32"
            )),
        }
    };
}

/// Every fixture of `tests/fixtures/quant/index.json`.
fn fixtures() -> [Fixture; 13] {
    [
        fixture!("gemma_q8_0", Q8_0, 2, 640),
        fixture!("gemma_q5_0", Q5_0, 2, 640),
        fixture!("gemma_q4_k", Q4K, 2, 2048),
        fixture!("gemma_q6_k", Q6K, 2, 2048),
        fixture!("qwen_q8_0", Q8_0, 2, 896),
        fixture!("qwen_q5_0", Q5_0, 2, 896),
        fixture!("qwen_q4_k", Q4K, 2, 4864),
        fixture!("qwen_q6_k", Q6K, 2, 4864),
        fixture!("smollm2_q4_1", Q4_1, 2, 576),
        fixture!("made_q4_0", Q4_0, 2, 3584),
        fixture!("made_q5_k", Q5K, 2, 3584),
        fixture!("made_f16", F16, 2, 3584),
        fixture!("made_bf16", BF16, 2, 3584),
    ]
}

/// Bit for bit, except the sign of a zero weight: whether d·scale·q of a
/// zero q comes out −0 or 0 depends on the order of the products (the wasm
/// kernels take q·scale as one integer), and changes no product.
fn same(got: f32, want: f32) -> bool {
    got.to_bits() == want.to_bits() || (got == 0.0 && want == 0.0)
}

check_each_isa! {
    /// Expanding the blocks (or f16/bf16 values) of real tensors gives, bit
    /// for bit, the f32 the `gguf` package's reference dequantizer gives.
    fn dequantization_equals_the_reference_on_real_tensors(isa) {
        let index = include_str!("../../../tests/fixtures/quant/index.json");
        assert_eq!(index.matches("\"name\"").count(), fixtures().len(), "a fixture of index.json is not checked");
        for f in fixtures() {
            assert!(index.contains(&format!("\"name\": \"{}\",\n  \"type\": \"{}\"", f.name, f.qtype)), "{}: not {} in index.json", f.name, f.qtype);
            let w = QMatrix::new(f.rows, f.cols, f.qtype, f.bytes.to_vec()).unwrap();
            let got = w.dequantize_on(isa).data;
            let want: Vec<f32> = f.values.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            assert_eq!(got.len(), want.len(), "{}", f.name);
            for (i, (g, e)) in got.iter().zip(&want).enumerate() {
                assert!(same(*g, *e), "{isa:?}: {} ({}) value {i}: {g} against the reference's {e}", f.name, f.qtype);
            }
        }
    }
}

check_each_isa! {
    /// Every instruction set expands blocks as the portable kernels do, bit
    /// for bit, including block scales that are subnormal, zero, negative or
    /// as large as f16 goes.
    fn dequantization_is_the_same_on_every_instruction_set(isa) {
        for w in all_formats(2, 1024, 1) {
            let (at, size) = w.qtype.block_halves().unwrap();
            let mut bytes = w.bytes().to_vec();
            for (i, bits) in [0x0001u16, 0x03ff, 0x0400, 0x0000, 0x8000, 0xbc00, 0x7bff, 0x8001].into_iter().enumerate() {
                bytes[i * size + at.start..][..2].copy_from_slice(&bits.to_le_bytes());
            }
            let w = QMatrix::new(w.rows, w.cols, w.qtype, bytes).unwrap();
            let (got, want) = (w.dequantize_on(isa).data, defined(&w).data);
            assert!(got.iter().zip(&want).all(|(g, e)| same(*g, *e)), "{isa:?}: {}", w.qtype);
        }
    }
}

check_each_isa! {
    /// Products of real tensors' rows equal the plain product of their
    /// expansion within f32 rounding, relative to the largest output.
    fn products_of_real_tensors_equal_the_plain_product(isa) {
        for f in fixtures() {
            let w = QMatrix::new(f.rows, f.cols, f.qtype, f.bytes.to_vec()).unwrap();
            let dense = defined(&w);
            for n in [1, 3, 5] {
                let x = matrix(n, f.cols, 9);
                let (got, want) = (w.forward_on(isa, &Input::new(&x), 0..f.rows), x.matmul_t(&dense));
                let scale = want.data.iter().fold(1e-3f32, |a, v| a.max(v.abs()));
                let off = got.max_abs_diff(&want);
                assert!(off <= 1e-5 * scale, "{isa:?}: {} ({}), {n} tokens: {off} (largest output {scale})", f.name, f.qtype);
            }
        }
    }
}

check_each_isa! {
    /// Products for one to three tokens straight from the blocks equal the
    /// products of the expanded rows: bit for bit where the kernels promise
    /// it, and always within rounding of the plain product.
    fn products_from_the_blocks_equal_products_of_the_expanded_rows(isa) {
        // 6 rows (a group of 4 and two single rows) × 512 columns.
        for w in all_formats(6, 512, 2) {
            let x = matrix(3, 512, 3);
            let (dense, f32_rows) = (defined(&w), expanded(&w));
            for n in 1..=3 {
                let x = x.rows_range(0, n);
                let from_blocks = w.forward_on(isa, &Input::new(&x), 0..6);
                let from_rows = f32_rows.forward_on(isa, &Input::new(&x), 0..6);
                if sums_as_the_batch(isa) {
                    assert_eq!(from_blocks.data, from_rows.data, "{isa:?}: {:?}, {n} tokens", w.qtype);
                }
                let exact = x.matmul_t(&dense);
                let scale = exact.data.iter().fold(1.0f32, |a, v| a.max(v.abs()));
                for (f, e) in from_blocks.data.iter().zip(&exact.data) {
                    assert!((f - e).abs() < 1e-5 * scale, "{isa:?}: {:?}, {n} tokens: {f} against {e}", w.qtype);
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
        // 7 rows (a partial group of 4) × 256 columns, 5 tokens (an odd count).
        for w in all_formats(7, 256, 4) {
            let x = matrix(5, 256, 5);
            let batch = w.forward_on(isa, &Input::new(&x), 0..7);
            let plain = x.matmul_t(&defined(&w));
            let scale = plain.data.iter().fold(1.0f32, |a, v| a.max(v.abs()));
            assert!(batch.max_abs_diff(&plain) < 1e-5 * scale, "{isa:?}: {}: {}", w.qtype, batch.max_abs_diff(&plain));
            if sums_as_the_batch(isa) {
                let alone = w.forward_on(isa, &Input::new(&x.rows_range(4, 1)), 0..7);
                assert_eq!(alone.row(0), batch.row(4), "{isa:?}: {}", w.qtype);
            }
            assert_eq!(w.forward_on(isa, &Input::new(&x), 2..6).row(1), &batch.row(1)[2..6], "{isa:?}: {}", w.qtype);
        }
    }
}

check_each_isa! {
    /// Every format, 1 to 7 tokens (the one-token cache append, the
    /// two-to-three-token products from the blocks, the batch with a token
    /// left over), a row count that leaves a partial tile, parts of the
    /// output columns, and inputs rounded to 16 bits.
    fn products_equal_the_plain_product_for_one_to_seven_tokens(isa) {
        let (rows, cols) = (7, 512);
        for w in all_formats(rows, cols, 6) {
            let dense = defined(&w);
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
