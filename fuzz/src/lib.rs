//! The fuzz targets' bodies, one module each (`run` takes one input), and what they assert
//! about anything the page would draw or export. The targets in fuzz_targets/ call `run` under
//! libFuzzer; tests/fuzz_corpus.rs includes this file and calls it on every committed seed.

pub mod classroom;
pub mod ctranslate2;
pub mod exports;
pub mod gguf;
pub mod safetensors;
pub mod session;
pub mod tokenizer;
pub mod url;

use attnscope::{Matrix, ModelTrace};

/// Every row of `a` sums to 1 and holds weights in [0, 1]; a key that the
/// mask hides from a query gets exactly 0.
pub fn assert_attention(a: &Matrix, mask: attnscope::Mask, what: &str) {
    for i in 0..a.rows {
        let row = a.row(i);
        if row.is_empty() {
            continue;
        }
        let sum: f32 = row.iter().sum();
        assert!((sum - 1.0).abs() < 1e-3, "{what}: row {i} sums to {sum}");
        assert!(
            row.iter().all(|w| (0.0..=1.0 + 1e-6).contains(w)),
            "{what}: row {i} has a weight outside [0, 1]: {row:?}"
        );
        for (j, &w) in row.iter().enumerate() {
            if !mask.allows(i, j, a.rows, a.cols) {
                assert_eq!(w, 0.0, "{what}: masked key {j} of query {i} has weight {w}");
            }
        }
    }
}

/// A trace the app accepts (its `check_finite` passes; the app shows the
/// error otherwise) is valid attention everywhere, with a label per row.
pub fn assert_drawable(t: &ModelTrace) {
    if t.check_finite().is_err() {
        return;
    }
    for (l, layer) in t.layers.iter().enumerate() {
        for (h, head) in layer.attention.heads.iter().enumerate() {
            assert_eq!(head.weights.rows, t.tokens.len(), "layer {l} head {h}: one row per token");
            assert_attention(&head.weights, head.mask, &format!("layer {l} head {h}"));
        }
    }
}

/// A trace that is finite, for the targets whose model cannot make NaN (the teaching model).
pub fn assert_finite_and_drawable(t: &ModelTrace) {
    t.check_finite().expect("the teaching model's numbers are always finite");
    assert_drawable(t);
}
