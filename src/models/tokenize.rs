//! Text → token ids with the Hugging Face `tokenizers` crate, from the
//! `tokenizer.json` a model ships with.

use crate::error::{Error, Result};
use tokenizers::{Tokenizer, TruncationParams};

/// One text, tokenized as the model sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    pub ids: Vec<u32>,
    pub tokens: Vec<String>,
    pub type_ids: Vec<u32>,
    /// True when the text had more tokens than fit and was cut.
    pub truncated: bool,
}

/// Builds a tokenizer from `tokenizer.json` bytes, cutting every encoding to
/// `max_tokens` (special tokens included) and never padding: a single text
/// needs no padding, and a padded one would change a mean-pooled embedding.
pub fn from_json(json: &[u8], max_tokens: usize) -> Result<Tokenizer> {
    let mut tokenizer = Tokenizer::from_bytes(json)
        .map_err(|e| Error::ModelFile(format!("tokenizer.json could not be read as a Hugging Face tokenizer: {e}")))?;
    tokenizer.with_padding(None);
    tokenizer
        .with_truncation(Some(TruncationParams { max_length: max_tokens, ..Default::default() }))
        .map_err(|e| Error::ModelFile(format!("tokenizer.json: cannot cut to {max_tokens} tokens: {e}")))?;
    Ok(tokenizer)
}

/// Tokenizes `text` with the model's special tokens (e.g. [CLS] … [SEP]).
pub fn encode(tokenizer: &Tokenizer, text: &str) -> Result<Encoded> {
    let encoding = tokenizer.encode(text, true).map_err(|e| Error::Tokenizer(format!("could not tokenize the text: {e}")))?;
    Ok(Encoded {
        ids: encoding.get_ids().to_vec(),
        tokens: encoding.get_tokens().to_vec(),
        type_ids: encoding.get_type_ids().to_vec(),
        truncated: !encoding.get_overflowing().is_empty(),
    })
}
