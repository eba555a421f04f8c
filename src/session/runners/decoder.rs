//! A cached decoder's runner: SmolLM2, and a decoder opened from the
//! visitor's files. It keeps a key/value cache, so typing at the end
//! computes only the new tokens, and the latest typed run's trace stays in
//! that cache. The next-token temperature goes into the forward; the scaling
//! switches are a what-if on each head, applied within the run to a copy
//! (the cache keeps the model's own numbers).

use std::borrow::Cow;

use super::super::runner::{apply_what_if, check_what_if, lost_input, what_if, Ran, Runner};
use super::super::RunOptions;
use crate::error::Result;
use crate::models::decoder::{Decoder, DecoderSession};
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
