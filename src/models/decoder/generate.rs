//! Writing: a decoder appends one token at a time. Each step chooses from
//! the logits after the last token ([`sampling::choose`]), appends the
//! token, and runs the new token alone on top of the key/value cache: one
//! new row of Q, K and V per layer, every earlier K and V reused.
//!
//! ```text
//!   ids    = prompt (or the start token)
//!   repeat:  chosen = choose(logits(ids), settings, step)
//!            ids   += chosen;  logits, trace = forward(chosen | cache of ids)
//!   until  an end-of-text token, the context's end, or N tokens
//! ```

use super::{Decoder, DecoderSession, Tokens};
use crate::error::{Error, Result};
use crate::models::sampling::{self, Sampling};
pub use crate::models::sampling::{Written, MAX_WRITE, SHOWN};
use crate::trace::ModelTrace;

impl Decoder {
    /// The tokens of `ids` as shown, as [`Decoder::tokenize`] makes them.
    pub fn tokens_of(&self, ids: &[u32]) -> Result<Tokens> {
        let vocab = self.shape().vocab_size;
        if let Some(&bad) = ids.iter().find(|&&id| id as usize >= vocab) {
            return Err(Error::Invalid(format!("token id {bad} is outside the vocabulary")));
        }
        let text = |id| self.token_text(id).unwrap_or_else(|| "?".into());
        let piece = |id| self.tokenizer.inner().id_to_token(id).unwrap_or_default();
        Ok(Tokens {
            ids: ids.to_vec(),
            tokens: ids.iter().map(|&id| text(id)).collect(),
            pieces: ids.iter().map(|&id| piece(id)).collect(),
            notice: None,
        })
    }

    /// The ids writing starts from: `text`'s tokens, or the start token for
    /// an empty text.
    pub fn prompt_ids(&self, text: &str) -> Result<Vec<u32>> {
        if !text.is_empty() {
            return Ok(self.tokenize(text)?.ids);
        }
        self.tokenizer.start_token().map(|id| vec![id]).ok_or_else(|| {
            Error::Invalid(format!(
                "{} names no start token, so it cannot write from an empty text: type a word first",
                self.identity.name
            ))
        })
    }

    /// The text of generated `ids`, special tokens left out.
    pub fn decode(&self, ids: &[u32]) -> Result<String> {
        self.tokenizer.decode(ids)
    }

    /// The model's tokenizer.
    pub fn tokenizer(&self) -> &crate::formats::tokenizer::TextTokenizer {
        &self.tokenizer
    }

    /// Whether `id` ends a text.
    pub fn is_end(&self, id: u32) -> bool {
        self.tokenizer.is_end(id)
    }
}

impl DecoderSession {
    /// Runs `ids` (the cache gives every token they share with the latest run).
    pub fn run_ids(&mut self, ids: &[u32], temperature: f32) -> Result<&ModelTrace> {
        let t = self.model().tokens_of(ids)?;
        self.run_tokens(t, temperature)
    }

    /// Step `step` of writing after the latest run: chooses a token (or
    /// takes `forced`), appends it, and runs it on top of the cache. The
    /// latest trace is then the text with the token, and its next-token
    /// list is at the settings' temperature.
    pub fn write_step(
        &mut self,
        settings: &Sampling,
        step: u64,
        forced: Option<u32>,
    ) -> Result<Written> {
        let (Some(trace), Some(logits)) = (self.latest(), self.latest_logits()) else {
            return Err(Error::Invalid("there is no text to continue yet".into()));
        };
        let mut ids = trace.token_ids.clone().unwrap_or_default();
        let max = self.model().info().max_tokens;
        if ids.len() >= max {
            return Err(Error::Invalid(format!(
                "the text has reached {}'s limit of {max} tokens: there is no room to write more",
                self.model().info().name
            )));
        }
        let choice = sampling::choose(logits, settings, step, SHOWN, forced)?;
        let model = self.model();
        let text = |id| model.token_text(id).unwrap_or_else(|| "?".into());
        let (token, candidates) =
            (text(choice.id), choice.candidates.iter().map(|c| text(c.id)).collect());
        let stop = model.is_end(choice.id).then(|| {
            format!("{} wrote {token:?}, which ends a text: writing stops here.", model.info().name)
        });
        ids.push(choice.id);
        self.run_ids(&ids, settings.shown_temperature())?;
        Ok(Written { step, choice, token, candidates, stop })
    }

    /// Writes up to `n` tokens after `text` (the CLI's `generate`): the
    /// steps, stopping early at an end-of-text token or the context's end
    /// (which the last step's `stop` then says).
    pub fn generate(&mut self, text: &str, n: usize, settings: &Sampling) -> Result<Vec<Written>> {
        settings.check()?;
        let ids = self.model().prompt_ids(text)?;
        self.run_ids(&ids, settings.shown_temperature())?;
        let max = self.model().info().max_tokens;
        let mut steps: Vec<Written> = Vec::new();
        for step in 0..n.min(MAX_WRITE) as u64 {
            if self.latest().map_or(0, |t| t.tokens.len()) >= max {
                if let Some(last) = steps.last_mut() {
                    last.stop = Some(format!("the context's limit of {max} tokens is reached"));
                }
                break;
            }
            let written = self.write_step(settings, step, None)?;
            let end = written.stop.is_some();
            steps.push(written);
            if end {
                break;
            }
        }
        Ok(steps)
    }
}
