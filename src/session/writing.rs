//! Writing in the session: a step of a decoder's generation, and an
//! earlier step shown again from the timeline. Both leave a latest trace
//! that every view then asks about, as a typed run does. And listening: a
//! clip transcribed, which leaves the latest trace as it was.

use super::messages::{Recording, RunSummary, SpeechSummary, WriteRequest};
use super::summary::Summarize;
use super::{runners, Latest, Session};
use crate::error::{Error, Result};
use crate::trace::ModelId;

impl Session {
    /// One step of writing with `model` ([`WriteRequest`]).
    pub(super) fn write(
        &mut self,
        id: u64,
        model: ModelId,
        request: WriteRequest,
        now_ms: &dyn Fn() -> f64,
    ) -> Result<RunSummary> {
        let start = now_ms();
        let runner = self.runners.get_mut(&model).ok_or_else(|| runners::missing(model))?;
        let reply = runner.write(&request)?;
        self.last = Some((id, Latest::InRunner(model)));
        let mut summary = self.summarize(model, Summarize::cached(id, start), now_ms)?;
        summary.written = Some(Box::new(reply));
        Ok(summary)
    }

    /// A clip transcribed by `model` (a speech model), timed.
    pub(super) fn listen(
        &mut self,
        model: ModelId,
        recording: &Recording,
        now_ms: &dyn Fn() -> f64,
    ) -> Result<SpeechSummary> {
        let start = now_ms();
        let runner = self.runners.get_mut(&model).ok_or_else(|| runners::missing(model))?;
        let mut heard = runner.listen(recording)?;
        heard.compute_ms = now_ms() - start;
        Ok(heard)
    }

    /// `model`'s latest run as it was at its first `tokens` tokens; all of
    /// them shows the run itself again.
    pub(super) fn show(
        &mut self,
        id: u64,
        model: ModelId,
        tokens: usize,
        now_ms: &dyn Fn() -> f64,
    ) -> Result<RunSummary> {
        let start = now_ms();
        let runner = self.runners.get(&model).ok_or_else(|| runners::missing(model))?;
        let whole = runner.latest().map_or(0, |t| t.tokens.len());
        let latest = if tokens == whole && whole > 0 {
            Latest::InRunner(model)
        } else {
            let cut = runner.latest_upto(tokens).ok_or_else(|| {
                Error::Invalid(format!(
                    "there is no step with {tokens} tokens to show (the text has {whole})"
                ))
            })?;
            Latest::Here(Box::new(cut))
        };
        self.last = Some((id, latest));
        self.summarize(model, Summarize::cached(id, start), now_ms)
    }
}
