//! Helpers for the models' two-thread runs ([`attnscope::models::two_threads`]):
//! the library's native helper thread, and one that never delivers; and the
//! check that two runs are the same bit for bit.

#[allow(unused_imports)] // each test binary uses some of these
pub use attnscope::models::two_threads::thread::ThreadHelper;
use attnscope::models::two_threads::Helper;
use attnscope::tensor::Matrix;
use attnscope::ModelTrace;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A helper that claims every piece and never delivers one; it counts the
/// requests it is given.
pub struct Stuck(pub Arc<AtomicUsize>);

impl Helper for Stuck {
    fn begin(&self, _: usize, _: &[(usize, usize)], _: &Matrix) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
    fn claim(&self, _: usize) -> bool {
        false
    }
    fn collect(&self, _: usize, _: f64) -> Option<Matrix> {
        None
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

pub fn assert_same(a: &ModelTrace, b: &ModelTrace, what: &str) {
    assert_eq!(a.token_ids, b.token_ids, "{what}: tokens");
    for (l, (la, lb)) in a.layers.iter().zip(&b.layers).enumerate() {
        assert!(
            la.input.data == lb.input.data
                && la.delta.data == lb.delta.data
                && la.residual.data == lb.residual.data,
            "{what}: layer {l} differs"
        );
        for (h, (ha, hb)) in la.attention.heads.iter().zip(&lb.attention.heads).enumerate() {
            assert!(
                ha.scores.data == hb.scores.data && ha.weights.data == hb.weights.data,
                "{what}: layer {l} head {h} differs"
            );
        }
    }
    assert_eq!(a.top_next, b.top_next, "{what}: next tokens");
    assert_eq!(a.sentence_embedding, b.sentence_embedding, "{what}: sentence embedding");
}
