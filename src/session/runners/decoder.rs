//! A cached decoder's runner: SmolLM2, and a decoder opened from the
//! visitor's files. It keeps a key/value cache, so typing at the end
//! computes only the new tokens, and the latest typed run's trace stays in
//! that cache. The next-token temperature goes into the forward; the scaling
//! switches are a what-if on each head, applied within the run to a copy
//! (the cache keeps the model's own numbers).

use std::borrow::Cow;

use super::super::messages::{WriteReply, WriteRequest};
use super::super::runner::{apply_what_if, check_what_if, lost_input, what_if, Ran, Runner};
use super::super::RunOptions;
use crate::error::{Error, Result};
use crate::models::decoder::{top_k, Decoder, DecoderSession};
use crate::models::sampling;
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use crate::trace::{LayerTrace, ModelInfo, ModelTrace};

/// A decoder with its key/value cache.
pub struct DecoderRunner {
    session: DecoderSession,
}

impl DecoderRunner {
    pub fn new(model: impl Into<Decoder>) -> Self {
        Self { session: DecoderSession::new(model) }
    }
}

impl Runner for DecoderRunner {
    fn info(&self) -> ModelInfo {
        self.session.model().info()
    }

    fn run(&mut self, text: &str, options: &RunOptions, cached: bool) -> Result<Ran> {
        let mut trace = if text.is_empty() {
            // An emptied box: shown as empty, as with the other models, and
            // the cache is kept for the text typed next.
            ModelTrace::empty(self.session.model().info())
        } else if cached {
            let kept = self.session.run_with_temperature(text, options.next_token_temperature)?;
            check_what_if(kept, options)?;
            if !what_if(options) {
                return Ok(Ran::kept());
            }
            kept.clone()
        } else {
            self.session.model().run_with_temperature(text, options.next_token_temperature)?
        };
        apply_what_if(&mut trace, options)?;
        Ok(Ran::trace(trace))
    }

    fn latest(&self) -> Option<&ModelTrace> {
        self.session.latest()
    }

    fn reused_tokens(&self) -> usize {
        self.session.reused_tokens()
    }

    fn clear(&mut self) {
        self.session.clear();
    }

    fn write(&mut self, request: &WriteRequest) -> Result<WriteReply> {
        let model = self.session.model();
        let (ids, prompt_tokens) = match request.ids.is_empty() {
            true => {
                let ids = model.prompt_ids(&request.prompt)?;
                let n = ids.len();
                (ids, n)
            }
            false => (request.ids.clone(), request.prompt_tokens.min(request.ids.len())),
        };
        let t = request.settings.shown_temperature();
        // The tokens shown: the cache holds them, so this computes nothing.
        self.session.run_ids(&ids, t)?;
        let forced = match request.pick {
            Some(rank) => {
                let logits = self.session.latest_logits().unwrap_or(&[]);
                let picked = top_k(logits, t, rank + 1).get(rank).map(|&(id, _)| id);
                Some(
                    picked
                        .ok_or_else(|| Error::Invalid(format!("no next token of rank {rank}")))?,
                )
            }
            None => match request.follow {
                Some(id) => {
                    let logits = self.session.latest_logits().unwrap_or(&[]);
                    let drawn = sampling::choose(logits, &request.settings, request.step, 1, None)?;
                    (drawn.id != id).then_some(id)
                }
                None => None,
            },
        };
        let written = self.session.write_step(&request.settings, request.step, forced)?;
        let all = self.session.latest().and_then(|t| t.token_ids.as_deref()).unwrap_or(&[]);
        // The written part as the whole decodes it (a SentencePiece decoder
        // drops the space before a text's first word, not before a later one).
        let (model, cut) = (self.session.model(), prompt_tokens.min(all.len()));
        let (whole, before) = (model.decode(all)?, model.decode(&all[..cut])?);
        let after = match whole.strip_prefix(&before) {
            Some(after) => after.to_string(),
            None => model.decode(&all[cut..])?,
        };
        Ok(WriteReply { written, text: format!("{}{after}", request.prompt), prompt_tokens })
    }

    fn latest_upto(&self, n: usize) -> Option<ModelTrace> {
        self.session.latest_upto(n)
    }

    fn threads(&self, cached: bool, tokens: usize) -> (usize, Option<String>) {
        let model = self.session.model();
        (if cached { self.session.threads() } else { model.threads_for(tokens) }, model.alone())
    }

    fn layered(&self) -> Result<&dyn Layered> {
        Ok(self.session.model() as &dyn Layered)
    }

    fn layer_input<'a>(&self, l: usize, layer: &'a LayerTrace) -> Option<Result<Cow<'a, Matrix>>> {
        Some(self.session.model().layer_input(l, layer).ok_or_else(|| lost_input(l)))
    }
}
