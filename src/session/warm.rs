//! Warming a model up as it loads, so that the first run a user sees is as
//! fast as the ones after it.

use super::{FromWorker, Latest, ModelId, RunOptions, Session};

/// About sixteen tokens, the length of a sentence typed in class.
const WARM_TEXT: &str = "The quick brown fox jumps over the lazy dog while the cat sleeps";
/// What typing one more word adds to it (decoders compute only that token).
const WARM_APPEND: &str = " nearby";
/// Rounds of a full run then an appended word: one is not enough, because
/// V8 optimizes a hot wasm function in the background while the baseline
/// code keeps running.
const WARM_ROUNDS: usize = 3;

impl Session {
    /// Runs a just-loaded `model` on a short text, as a user's keystrokes
    /// would (a full run, one appended word, a head's detail, the replies as
    /// JSON), and forgets the results. The first forward is otherwise several
    /// times slower than the ones after it: V8 first runs wasm from its
    /// baseline compiler, and memory is touched for the first time.
    pub fn warm_up(&mut self, model: ModelId, now_ms: &dyn Fn() -> f64) {
        if model == ModelId::Teaching {
            return;
        }
        let kept = self.last.take();
        for _ in 0..WARM_ROUNDS {
            for text in [WARM_TEXT.to_string(), format!("{WARM_TEXT}{WARM_APPEND}")] {
                if let Ok(summary) = self.run(0, model, &text, RunOptions::default(), now_ms) {
                    let _ = serde_json::to_string(&FromWorker::Result(Box::new(summary)));
                }
                if let Ok(detail) = self.head(0, 0) {
                    let _ = serde_json::to_string(&FromWorker::Head(Box::new(detail)));
                }
            }
        }
        // A trace in a decoder's cache was overwritten; one of our own is intact.
        self.last = kept.filter(|(_, latest)| matches!(latest, Latest::Here(_)));
    }
}
