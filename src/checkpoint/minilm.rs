//! all-MiniLM-L6-v2 (sentence-transformers), the page's built-in encoder: a
//! checkpoint of the BERT family ([`crate::models::encoder`]), 6 layers of
//! 12 heads of width 32, whose mean-pooled last layer is a sentence
//! embedding. Everything it computes is the family's; this file gives the
//! checkpoint its name, its id on the page and its limit.

use crate::error::Result;
use crate::formats::hparams::{parse_json, Hparams};
use crate::formats::safetensors::{Dtype, SafetensorsFile};
use crate::formats::source::Bytes;
use crate::formats::weights::Weights;
use crate::models::encoder::{Config, Encoder, Identity, Variant};

/// sentence-transformers' `max_seq_length` for this model: the position table
/// has 512 rows, but the model was trained on (and its embeddings are defined
/// for) at most 256 tokens.
pub const MAX_TOKENS: usize = 256;

/// all-MiniLM-L6-v2, loaded and ready to run on any text.
#[derive(Debug)]
pub struct MiniLm {
    encoder: Encoder,
    /// Loaded from the f32 weights as published, not from the page's f16
    /// copy (made by scripts/fetch_models.py; widened to f32 as it loads).
    exact: bool,
}

impl MiniLm {
    /// From the bytes of `model.safetensors` (or its f16 copy),
    /// `tokenizer.json` and `config.json` (as the browser downloads them).
    pub fn from_bytes(weights: &[u8], tokenizer_json: &[u8], config_json: &[u8]) -> Result<MiniLm> {
        let config = Config::from_hf(
            &Hparams::Json(parse_json(config_json, "config.json")?),
            Variant::Bert,
        )?;
        let src = Bytes::new("model.safetensors", weights);
        let file = SafetensorsFile::read(&src)?;
        let exact = file.tensors.values().all(|t| t.dtype == Some(Dtype::F32) || t.dtype.is_none());
        let w = Weights::Safetensors(vec![file]);
        let identity = Identity {
            id: "minilm".into(),
            name: "all-MiniLM-L6-v2".into(),
            max_tokens: MAX_TOKENS.min(config.positions()),
        };
        Ok(MiniLm { encoder: Encoder::load(identity, config, &w, tokenizer_json)?, exact })
    }

    /// Whether every weight is the published f32 value (not the f16 copy's).
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// From a folder holding `model.safetensors`, `tokenizer.json` and `config.json`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn load_dir(dir: &std::path::Path) -> Result<MiniLm> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|e| {
                crate::error::Error::ModelFile(format!(
                    "cannot read {} ({e}); run `python3 scripts/fetch_models.py` to fetch the MiniLM files",
                    path.display()
                ))
            })
        };
        MiniLm::from_bytes(
            &read("model.safetensors")?,
            &read("tokenizer.json")?,
            &read("config.json")?,
        )
    }
}

impl std::ops::DerefMut for MiniLm {
    fn deref_mut(&mut self) -> &mut Encoder {
        &mut self.encoder
    }
}

impl std::ops::Deref for MiniLm {
    type Target = Encoder;
    fn deref(&self) -> &Encoder {
        &self.encoder
    }
}
