//! Warming a model up as it loads, so that the first run a user sees is as
//! fast as the ones after it.

use super::{FromWorker, Latest, ModelId, RunOptions, Session};

/// How long a warm-up may take, and on what: two texts differing in their
/// first word, taken in turn (a decoder keeps the last text's keys and
/// values, and would answer the same text again, or a part of its last,
/// from its cache without computing anything), each then typed on by a word
/// (decoders compute only that token).
pub struct Warming {
    /// The warm-up stops before a round that would end past this, settled
    /// or not (a slow machine, a noisy one), after one round at least.
    at_most_ms: f64,
    texts: [&'static str; 2],
}

/// A built-in model, whose load is mostly its download: texts of about
/// sixteen tokens, the length of a sentence typed in class.
pub const BUILT_IN: Warming = Warming {
    at_most_ms: 1500.0,
    texts: [
        "The quick brown fox jumps over the lazy dog while the cat sleeps",
        "A quick brown fox jumps over the lazy dog while the cat sleeps",
    ],
};

/// A model opened from files, whose opening the visitor watches and which
/// may be several times SmolLM2's size: shorter texts (still past the
/// few-token kernels, so that the batch product warms up too) and less
/// time, added to the opening (for Qwen2.5 0.5B about 2.2 s without it).
pub const OPENED: Warming = Warming {
    at_most_ms: 400.0,
    texts: ["The quick brown fox jumps over", "A quick brown fox jumps over"],
};

/// What typing one more word adds to a text.
const WARM_APPEND: &str = " nearby";
/// The warm-up goes on for at least this long (within its budget): V8
/// first runs wasm from its baseline compiler and optimizes each hot
/// function in the background while the baseline code keeps running, and
/// on two busy cores that takes far more than a few runs of a short text.
const AT_LEAST_MS: f64 = 300.0;
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
    /// for the first time. Stops within `warming`'s time whatever the runs
    /// do. Returns the rounds run.
    pub fn warm_up(
        &mut self,
        model: ModelId,
        warming: &Warming,
        now_ms: &dyn Fn() -> f64,
    ) -> usize {
        if model == ModelId::Teaching {
            return 0;
        }
        let kept = self.last.take();
        let start = now_ms();
        let mut settling = Settling { at_most_ms: warming.at_most_ms, ..Settling::default() };
        for text in warming.texts.iter().cycle() {
            let t0 = now_ms();
            self.warm_round(model, text, now_ms);
            let full = now_ms() - t0;
            self.warm_round(model, &format!("{text}{WARM_APPEND}"), now_ms);
            if settling.done_after(full, now_ms() - t0, now_ms() - start) {
                break;
            }
        }
        // A trace in a decoder's cache was overwritten; one of our own is
        // intact, and so is a trace file, which is read, not run.
        self.last = kept.filter(|(_, latest)| match latest {
            Latest::Here(_) => true,
            Latest::InRunner(m) => self.runners.get(m).is_some_and(|r| r.latest().is_none()),
        });
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

    /// Counts a round of `round` ms whose full run took `full` ms, ending
    /// `elapsed` ms into the warm-up; true once the warm-up may stop.
    fn done_after(&mut self, full: f64, round: f64, elapsed: f64) -> bool {
        let fastest = self.fastest.last().map_or(full, |f| f.min(full));
        self.fastest.push(fastest);
        let before = self.fastest.len().checked_sub(LOOKBACK + 1).map(|i| self.fastest[i]);
        let settled = before.is_some_and(|before| before <= SETTLED * fastest);
        (elapsed >= AT_LEAST_MS && settled)
            || elapsed + round > self.at_most_ms
            || self.rounds() == AT_MOST_ROUNDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rounds a warm-up of `warming` takes whose rounds' full runs take
    /// `fulls` and whose rounds take `round_ms` each.
    fn rounds_of(warming: &Warming, fulls: &[f64], round_ms: &dyn Fn(usize) -> f64) -> usize {
        let mut s = Settling { at_most_ms: warming.at_most_ms, ..Settling::default() };
        let mut elapsed = 0.0;
        fulls
            .iter()
            .enumerate()
            .position(|(i, &full)| {
                elapsed += round_ms(i);
                s.done_after(full, round_ms(i), elapsed)
            })
            .map_or(usize::MAX, |i| i + 1)
    }

    /// A built-in model's, every round lasting `round_ms`.
    fn rounds(fulls: &[f64], round_ms: f64) -> usize {
        rounds_of(&BUILT_IN, fulls, &|_| round_ms)
    }

    #[test]
    fn warms_up_at_least_so_long_then_until_the_runs_settle() {
        // Settled from the start: stops at the first round past 300 ms.
        assert_eq!(rounds(&[10.0; 50], 20.0), 15);
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
        // A clock that stands still: a hundred rounds.
        assert_eq!(rounds(&[10.0; 200], 0.0), AT_MOST_ROUNDS);
    }

    #[test]
    fn never_starts_a_round_that_would_end_past_its_time() {
        // Runs that keep getting faster: the last round ends at 1.5 s.
        let faster: Vec<f64> = (0..100).map(|i| 100.0 * 0.9f64.powi(i)).collect();
        assert_eq!(rounds(&faster, 100.0), 15);
        // Long rounds: as many as end within 1.5 s, unsettled.
        assert_eq!(rounds(&[10.0; 50], 400.0), 3);
        // An opened model as large as Qwen2.5 0.5B, its first round cold:
        // one round, whose end is already past 0.4 s.
        assert_eq!(rounds_of(&OPENED, &[300.0; 10], &|i| if i == 0 { 350.0 } else { 150.0 }), 1);
        // One like Gemma 3 270M: the rounds that end within 0.4 s.
        assert_eq!(rounds_of(&OPENED, &[100.0; 10], &|i| if i == 0 { 200.0 } else { 80.0 }), 3);
    }
}
