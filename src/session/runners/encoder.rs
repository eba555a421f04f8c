//! An encoder's runner: MiniLM, and an encoder of the BERT family opened
//! from the visitor's files. The scaling switches are a what-if on each
//! head of its trace, applied within the run.

use super::super::runner::{apply_what_if, Ran, Runner};
use super::super::RunOptions;
use crate::error::Result;
use crate::models::encoder::Encoder;
use crate::trace::layered::Layered;
use crate::trace::ModelInfo;

/// An encoder, with whether its weights are the published f32 ones
/// (MiniLM may load from an f16 copy).
pub struct EncoderRunner<M> {
    model: M,
    exact: Option<bool>,
}

impl EncoderRunner<crate::checkpoint::minilm::MiniLm> {
    pub fn minilm(model: crate::checkpoint::minilm::MiniLm) -> Self {
        let exact = Some(model.exact());
        Self { model, exact }
    }
}

#[cfg(feature = "extras")]
impl EncoderRunner<Box<Encoder>> {
    /// An encoder opened from files.
    pub fn opened(model: Box<Encoder>) -> Self {
        Self { model, exact: None }
    }
}

impl<M: std::ops::Deref<Target = Encoder>> Runner for EncoderRunner<M> {
    fn info(&self) -> ModelInfo {
        self.model.info()
    }

    fn run(&mut self, text: &str, options: &RunOptions, _cached: bool) -> Result<Ran> {
        let mut trace = self.model.run(text)?;
        apply_what_if(&mut trace, options)?;
        Ok(Ran::trace(trace))
    }

    fn threads(&self, _cached: bool, _tokens: usize) -> (usize, Option<String>) {
        (self.model.threads(), self.model.alone())
    }

    fn layered(&self) -> Result<&dyn Layered> {
        Ok(&*self.model as &dyn Layered)
    }

    fn loaded_as(&self, exact: bool) -> bool {
        self.exact.is_none_or(|e| e == exact)
    }
}
