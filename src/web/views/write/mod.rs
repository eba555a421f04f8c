//! Writing: a decoder continues the text one token at a time. The card
//! (`card.rs`) starts, steps, pauses and stops it and holds the settings; each
//! step is a `ToWorker::Write` whose reply is a run like any other, so every
//! view follows the text as it grows. The bars (`bars.rs`) draw the step's
//! distribution and its top-k / top-p cut, the key/value cache panel counts
//! what the step computed and reused, and the timeline (`timeline.rs`) shows
//! any earlier step again (`ToWorker::Show`).
//!
//! ```text
//!   Write ─▶ Write{ids, step}  ─▶ Result{written}  ─▶ record, text = reply.text
//!                 ▲                                        │ more to write?
//!                 └────────────────────────────────────────┘
//! ```

pub mod bars;
pub mod card;
pub mod follow;
pub mod timeline;

#[cfg(test)]
mod tests;

use crate::compute::Engine;
use crate::state::{Results, Selection, Step, WriteState, Writing};
use attnscope::attention::Mask;
use attnscope::models::sampling::MAX_WRITE;
use attnscope::session::{ModelId, RunSummary, ToWorker, WriteRequest};
use leptos::prelude::*;

/// Whether a model writes here; otherwise why not (None: nothing is said,
/// as for the teaching model, which has no vocabulary to continue with).
pub fn offered(model: ModelId, mask: Option<Mask>) -> Result<(), Option<String>> {
    match (model, mask) {
        (ModelId::SmolLm2, _) | (ModelId::Custom, Some(Mask::Causal | Mask::SlidingWindow(_))) => {
            Ok(())
        }
        (ModelId::Custom, None) | (ModelId::Teaching, _) => Err(None),
        (ModelId::MiniLm | ModelId::Custom, _) => Err(Some(tr!("write-not-encoder"))),
        (ModelId::Trace, _) => Err(Some(tr!("write-not-trace"))),
        _ => Err(Some(tr!("write-not-translator"))),
    }
}

/// What a press asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ask {
    /// Up to the count's tokens, one at a time.
    Write,
    /// One token.
    Step,
    /// One token: the next-token list's entry of this rank.
    Pick(usize),
}

/// Writing's hands on the page's state, from context.
#[derive(Clone, Copy)]
pub struct Flow {
    pub sel: Selection,
    pub res: Results,
    pub engine: Engine,
    pub w: Writing,
}

impl Flow {
    pub fn from_context() -> Self {
        Self {
            sel: expect_context(),
            res: expect_context(),
            engine: expect_context(),
            w: expect_context(),
        }
    }

    /// Whether the model shown writes.
    pub fn offered(&self) -> bool {
        let mask = self.res.summary.with(|s| s.as_ref().map(|s| s.info.mask));
        offered(self.sel.model.get(), mask).is_ok()
    }

    /// A press of Write, Step or a next token: starts a generation from the
    /// text, or goes on with the one written.
    pub fn begin(&self, ask: Ask) {
        let (w, res) = (self.w, self.res);
        if w.state.get_untracked() == WriteState::Writing {
            return;
        }
        let done = w.steps.with_untracked(Vec::len);
        if done == 0 {
            w.prompt.set(self.sel.text.get_untracked());
            w.prompt_tokens.set(0);
            w.ids.set_value(Vec::new());
        }
        let n = if ask == Ask::Write { w.count.get_untracked().clamp(1, MAX_WRITE) } else { 1 };
        // The context left: the model's longest text less the tokens it has.
        let (max, now) = res.summary.with_untracked(|s| {
            s.as_ref().map_or((usize::MAX, 0), |s| (s.info.max_tokens, s.tokens.len()))
        });
        let now = w.steps.with_untracked(|s| s.last().map_or(now, |s| s.tokens));
        let target = (done + n).min(MAX_WRITE).min(done + max.saturating_sub(now));
        if target <= done {
            let why = if done >= MAX_WRITE {
                tr!("write-at-most", tokens = MAX_WRITE)
            } else {
                tr!("write-context-full")
            };
            res.error.set(why);
            w.state.set(WriteState::Done);
            return;
        }
        w.target.set_value((target, ask == Ask::Write));
        w.message.set(String::new());
        w.state.set(WriteState::Writing);
        self.send(match ask {
            Ask::Pick(rank) => Some(rank),
            _ => None,
        });
    }

    /// Asks for the next step (the teacher's token for it, when following a class's teacher).
    fn send(&self, pick: Option<usize>) {
        let (w, sel) = (self.w, self.sel);
        let id = self.engine.next_run();
        self.res.asked.set(id);
        let temperature = sel.options.with_untracked(|o| o.next_token_temperature);
        let step = w.steps.with_untracked(Vec::len);
        let request = WriteRequest {
            ids: w.ids.get_value(),
            prompt: w.prompt.get_untracked(),
            prompt_tokens: w.prompt_tokens.get_untracked(),
            settings: w.sampling(temperature),
            step: step as u64,
            pick,
            follow: w.following.with_untracked(|f| f.as_ref()?.ids.get(step).copied()),
        };
        self.engine.send(ToWorker::Write { id, model: sel.model.get_untracked(), request });
    }

    /// Pause, or Resume: on to the end of the run (or N more after a single step).
    pub fn pause(&self) {
        let w = self.w;
        match w.state.get_untracked() {
            WriteState::Writing => w.state.set(WriteState::Paused),
            WriteState::Paused => {
                let ((target, _), done) = (w.target.get_value(), w.steps.with_untracked(Vec::len));
                if done < target {
                    w.at.set(None);
                    w.state.set(WriteState::Writing);
                    self.send(None);
                } else {
                    self.begin(Ask::Write);
                }
            }
            _ => {}
        }
    }

    /// Stop: a step computing is still shown when it comes, nothing more is asked.
    pub fn stop(&self) {
        let w = self.w;
        if matches!(w.state.get_untracked(), WriteState::Writing | WriteState::Paused) {
            w.state.set(WriteState::Done);
            w.message.set(tr!("write-stopped"));
        }
    }

    /// A run's reply: a step of writing is recorded, its text goes into the
    /// text box, and the next step is asked for (after the head detail the
    /// reply handler asked for first, so each token's picture is drawn while
    /// the next one computes).
    pub fn take(&self, s: &RunSummary) {
        let Some(reply) = &s.written else { return };
        let (w, sel) = (self.w, self.sel);
        w.prompt_tokens.set(reply.prompt_tokens);
        w.ids.set_value(s.token_ids.clone().unwrap_or_default());
        w.steps.update(|v| v.push(Step { written: reply.written.clone(), tokens: s.tokens.len() }));
        w.at.set(None);
        w.produced.set_value(Some(reply.text.clone()));
        sel.text.set(reply.text.clone());
        let ((target, whole), done) = (w.target.get_value(), w.steps.with_untracked(Vec::len));
        // The worker's one reason to stop is a token that ends a text (`write_step`):
        // said here in the page's language rather than as the worker wrote it.
        let stop = reply.written.stop.is_some();
        if stop {
            let token = format!("{:?}", reply.written.token);
            w.message.set(tr!(
                "write-end-of-text",
                model = crate::compute::run_name(&s.info),
                token = token
            ));
        }
        if w.state.get_untracked() != WriteState::Writing {
            return;
        }
        if stop || (done >= target && whole) {
            w.state.set(WriteState::Done);
        } else if done >= target {
            w.state.set(WriteState::Paused);
        } else {
            self.send(None);
        }
    }

    /// An error while writing stops it (the page's error line says why).
    pub fn failed(&self) {
        if self.w.state.get_untracked() == WriteState::Writing {
            self.w.state.set(WriteState::Done);
        }
    }

    /// A run the writing did not ask for (typing, another model or
    /// option): another text or model ends the generation; the same text
    /// keeps it, paused, since that run supersedes any step in flight.
    pub fn interrupt(&self, text: &str, same_model: bool) {
        let w = self.w;
        if w.steps.with_untracked(Vec::is_empty) {
            w.state.set(WriteState::Idle);
        } else if !same_model || w.produced.with_value(|p| p.as_deref() != Some(text)) {
            w.clear();
        } else if w.state.get_untracked() == WriteState::Writing {
            w.state.set(WriteState::Paused);
        }
    }

    /// Shows the text as it was when step `at` (from 1) was chosen; None: now.
    pub fn show(&self, at: Option<usize>) {
        let w = self.w;
        let Some(tokens) = w.steps.with_untracked(|v| match at {
            Some(s) => v.get(s.checked_sub(1)?).map(|s| s.tokens - 1),
            None => v.last().map(|s| s.tokens),
        }) else {
            return;
        };
        if w.state.get_untracked() == WriteState::Writing {
            w.state.set(WriteState::Paused);
        }
        w.at.set(at);
        let id = self.engine.next_run();
        self.res.asked.set(id);
        self.engine.send(ToWorker::Show { id, model: self.sel.model.get_untracked(), tokens });
    }
}
