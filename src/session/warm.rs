//! Warming a model up as it loads, so that the first run a user sees is as
//! fast as the ones after it.

use super::{FromWorker, Latest, ModelId, RunOptions, Session};

/// About sixteen tokens, the length of a sentence typed in class; two of
/// them, differing in their first word, taken in turn: a decoder keeps the
/// last text's keys and values, and would answer the same text again, or a
/// part of its last, from its cache without computing anything.
const WARM_TEXTS: [&str; 2] =
    ["The quick brown fox jumps over the lazy dog while the cat sleeps", "A quick brown fox jumps over the lazy dog while the cat sleeps"];
/// What typing one more word adds to it (decoders compute only that token).
const WARM_APPEND: &str = " nearby";
/// The warm-up goes on for at least this long: V8 first runs wasm from its
/// baseline compiler and optimizes each hot function in the background
/// while the baseline code keeps running, and on two busy cores that takes
/// far more than a few runs of a short text.
const AT_LEAST_MS: f64 = 300.0;
/// ... and stops after this long, settled or not (a slow machine, a noisy
/// one): for a built-in model, whose load is mostly its download...
pub const BUILT_IN_MS: f64 = 1500.0;
/// ... and for a model opened from files, whose opening the visitor
/// watches: its larger runs settle in fewer rounds, and the time is added to
/// the opening (for Qwen2.5 0.5B, about 2.2 s without it).
pub const OPENED_MS: f64 = 700.0;
/// ... or after this many rounds, whatever the clock says (one that stands still).
const AT_MOST_ROUNDS: usize = 100;
/// Runs have settled once the fastest full run of the last [`LOOKBACK`]
/// rounds is no more than this factor faster than the fastest before them:
/// optimized code has replaced the baseline code. (The fastest, not the
/// latest: on two busy cores single runs vary by 2× either way.)
const SETTLED: f64 = 1.2;
const LOOKBACK: usize = 3;

impl Session {
    /// Runs a just-loaded `model` on a short text, as a user's keystrokes
    /// would (a full run, one appended word, a head's detail, the replies as
    /// JSON), until the runs have settled, and forgets the results. The first
    /// forward is otherwise several times slower than the ones after it:
    /// V8 first runs wasm from its baseline compiler, and memory is touched
    /// for the first time. Stops after `at_most_ms` whatever the runs do.
    /// Returns the rounds run.
    pub fn warm_up(&mut self, model: ModelId, at_most_ms: f64, now_ms: &dyn Fn() -> f64) -> usize {
        if model == ModelId::Teaching {
            return 0;
        }
        let kept = self.last.take();
        let start = now_ms();
        let mut settling = Settling { at_most_ms, ..Settling::default() };
        for text in WARM_TEXTS.iter().cycle() {
            let t0 = now_ms();
            self.warm_round(model, text, now_ms);
            let full = now_ms() - t0;
            self.warm_round(model, &format!("{text}{WARM_APPEND}"), now_ms);
            if settling.done_after(full, now_ms() - start) {
                break;
            }
        }
        // A trace in a decoder's cache was overwritten; one of our own is intact.
        self.last = kept.filter(|(_, latest)| matches!(latest, Latest::Here(_)));
        settling.rounds()
    }

    /// One run of `text` and the first head's detail, each made into the JSON it would be sent as.
    fn warm_round(&mut self, model: ModelId, text: &str, now_ms: &dyn Fn() -> f64) {
        if let Ok(summary) = self.run(0, model, text, RunOptions::default(), now_ms) {
            let _ = serde_json::to_string(&FromWorker::Result(Box::new(summary)));
        }
        if let Ok(detail) = self.head(0, 0) {
            let _ = serde_json::to_string(&FromWorker::Head(Box::new(detail)));
        }
    }
}

/// When the warm-up may stop.
#[derive(Default)]
struct Settling {
    /// The fastest full run up to each round.
    fastest: Vec<f64>,
    at_most_ms: f64,
}

impl Settling {
    fn rounds(&self) -> usize {
        self.fastest.len()
    }

    /// Counts a round whose full run took `full` ms, ending `elapsed` ms into
    /// the warm-up; true once the warm-up may stop.
    fn done_after(&mut self, full: f64, elapsed: f64) -> bool {
        let fastest = self.fastest.last().map_or(full, |f| f.min(full));
        self.fastest.push(fastest);
        let before = self.fastest.len().checked_sub(LOOKBACK + 1).map(|i| self.fastest[i]);
        let settled = before.is_some_and(|before| before <= SETTLED * fastest);
        (elapsed >= AT_LEAST_MS && settled) || elapsed >= self.at_most_ms || self.rounds() == AT_MOST_ROUNDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rounds a warm-up of these full-run times takes, each round lasting `round_ms`.
    fn rounds(fulls: &[f64], round_ms: f64) -> usize {
        let mut s = Settling { at_most_ms: BUILT_IN_MS, ..Settling::default() };
        fulls.iter().enumerate().position(|(i, &full)| s.done_after(full, round_ms * (i + 1) as f64)).map_or(usize::MAX, |i| i + 1)
    }

    #[test]
    fn warms_up_at_least_so_long_then_until_the_runs_settle() {
        // Settled from the start: stops at the first round past 300 ms.
        assert_eq!(rounds(&[10.0; 50], 20.0), 15);
        // However long the rounds, never before four of them.
        assert_eq!(rounds(&[10.0; 50], 400.0), 4);
        // Still getting faster at 300 ms (optimized code arriving): goes on
        // until three rounds bring nothing 1.2× faster.
        let fulls = [40.0, 32.0, 24.0, 18.0, 13.0, 10.0, 10.0, 10.0, 9.0, 10.0, 10.0];
        assert_eq!(rounds(&fulls, 100.0), 9);
        // Slow outliers do not hold it up.
        let fulls = [40.0, 10.0, 30.0, 20.0, 25.0, 10.0, 10.0];
        assert_eq!(rounds(&fulls, 100.0), 5);
        // Runs twice as slow every other time settle on the fastest.
        let noisy: Vec<f64> = (0..100).map(|i| if i % 2 == 0 { 15.0 } else { 5.0 }).collect();
        assert_eq!(rounds(&noisy, 100.0), 5);
        // Runs that keep getting faster: stops at 1.5 s.
        let faster: Vec<f64> = (0..100).map(|i| 100.0 * 0.9f64.powi(i)).collect();
        assert_eq!(rounds(&faster, 100.0), 15);
        // A clock that stands still: a hundred rounds.
        assert_eq!(rounds(&[10.0; 200], 0.0), AT_MOST_ROUNDS);
    }
}
