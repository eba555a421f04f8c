//! SmolLM2-135M, the page's built-in decoder: a checkpoint of the Llama
//! family ([`crate::models::llama`]) from its Q4_1 GGUF file, 30 blocks of
//! 9 query heads over 3 key/value heads, tied embeddings, the byte-level
//! BPE stored in the file. Everything it computes is the family's; this
//! file gives the checkpoint its name, its id on the page and its limit.

use crate::checkpoint::{Checkpoint, Model};
use crate::error::{Error, Result};
use crate::formats::source::Bytes;
use crate::models::decoder::{Decoder, Identity};

pub use crate::models::decoder::{top_k, DecoderSession as SmolLm2Session, Tokens, TOP_K};

/// Longest input, in tokens: every decoder's limit (its context is 8,192).
/// docs/performance.md has the trace's sizes at this length.
pub const MAX_TOKENS: usize = crate::models::decoder::MAX_TOKENS;

/// SmolLM2-135M with its tokenizer, weights quantized in memory.
#[derive(Debug)]
pub struct SmolLm2(Decoder);

impl SmolLm2 {
    /// Builds the model from the bytes of the GGUF file (the browser passes
    /// what it downloaded). The quantized weights are copied; `bytes` may be
    /// dropped afterwards.
    pub fn from_gguf_bytes(bytes: &[u8]) -> Result<SmolLm2> {
        SmolLm2::from_checkpoint(Checkpoint::Gguf(Box::new(Bytes::new("the GGUF file", bytes))))
    }

    /// Reads the GGUF file from disk, a tensor at a time (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn load(path: &std::path::Path) -> Result<SmolLm2> {
        if !path.is_file() {
            return Err(Error::ModelFile(format!(
                "cannot read {}: no such file (run `python3 scripts/fetch_models.py` to fetch it)",
                path.display()
            )));
        }
        let src = crate::formats::source::File::open(path).map_err(|e| {
            Error::ModelFile(format!("{e} (run `python3 scripts/fetch_models.py` to fetch it)"))
        })?;
        SmolLm2::from_checkpoint(Checkpoint::Gguf(Box::new(src)))
    }

    fn from_checkpoint(checkpoint: Checkpoint) -> Result<SmolLm2> {
        match checkpoint.load("smollm2")? {
            Model::Decoder(d) => Ok(SmolLm2(d.with_identity(Identity {
                id: "smollm2".into(),
                name: "SmolLM2-135M".into(),
                max_tokens: MAX_TOKENS,
            }))),
            Model::Encoder(_) => Err(Error::ModelFile("expected SmolLM2's GGUF, a decoder".into())),
        }
    }
}

impl std::ops::Deref for SmolLm2 {
    type Target = Decoder;
    fn deref(&self) -> &Decoder {
        &self.0
    }
}

impl std::ops::DerefMut for SmolLm2 {
    fn deref_mut(&mut self) -> &mut Decoder {
        &mut self.0
    }
}

impl From<SmolLm2> for Decoder {
    fn from(m: SmolLm2) -> Decoder {
        m.0
    }
}
