//! A translation's cross-attention as it travels to the page beside the
//! encoder's trace (`super::super::translate` makes it).

use crate::export::TranslationExport;
use crate::tensor::Matrix;
use crate::trace::ModelId;
use serde::{Deserialize, Serialize};

/// One decoder layer's head over the source: what step by step needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossHead {
    /// One row per target token, from the decoder (n_target × d_head).
    pub q: Matrix,
    /// One row per source token, from the encoder's output (n_source × d_head).
    pub k: Matrix,
    pub v: Matrix,
    /// S = Q Kᵀ (n_target × n_source).
    pub scores: Matrix,
    /// A = softmax(S / √d_k) (n_target × n_source); rows sum to 1.
    pub weights: Matrix,
    /// Z = A V (n_target × d_head).
    pub output: Matrix,
}

/// What the page draws of one translation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TranslationSummary {
    /// Source pieces as the model reads them, `</s>` last.
    pub source_tokens: Vec<String>,
    /// Target pieces in the order produced (`</s>` last unless the length limit stopped it).
    pub target_tokens: Vec<String>,
    pub translation: String,
    /// [layer][head]: the decoder's cross-attention.
    pub heads: Vec<Vec<CrossHead>>,
    /// [layer]: the mean of that layer's heads (target × source).
    pub layer_mean: Vec<Matrix>,
    /// The mean over every layer and head (target × source).
    pub mean: Option<Matrix>,
    /// The factor applied to the scores (1/√d_k).
    pub scale: f32,
    /// [step]: the most likely tokens with their probabilities.
    pub top: Vec<Vec<(String, f32)>>,
    /// The length limit, not `</s>`, ended the translation.
    pub length_limit: bool,
    pub notices: Vec<String>,
    /// Where the model comes from and its license.
    pub provenance: String,
    pub license: String,
}

impl TranslationSummary {
    /// The weights of one layer and head; `None` for either means their mean.
    pub fn weights(&self, layer: Option<usize>, head: Option<usize>) -> Option<Matrix> {
        match (layer, head) {
            (Some(l), Some(h)) => Some(self.heads.get(l)?.get(h)?.weights.clone()),
            (Some(l), None) => self.layer_mean.get(l).cloned(),
            (None, None) => self.mean.clone(),
            (None, Some(h)) => {
                let picked: Vec<&Matrix> =
                    self.heads.iter().filter_map(|l| l.get(h)).map(|c| &c.weights).collect();
                Matrix::mean_of(&picked)
            }
        }
    }
}

impl TranslationSummary {
    /// The JSON export of this translation of `text` by `model` (the CLI's
    /// `translate --json` fields; the token ids and encoder attention are
    /// not kept in a summary, and the encoder's heads export from the panel).
    pub fn export_json(&self, model: ModelId, text: &str) -> Option<String> {
        let (from, to) = model.languages()?;
        let cross =
            self.heads.iter().map(|l| l.iter().map(|c| c.weights.to_rows()).collect()).collect();
        let e = TranslationExport {
            model: model.slug(),
            from,
            to,
            text,
            translation: &self.translation,
            source_tokens: &self.source_tokens,
            source_ids: None,
            target_tokens: &self.target_tokens,
            target_ids: None,
            cross_attentions: cross,
            encoder_attentions: None,
            stop: TranslationExport::stop_name(self.length_limit),
            notices: &self.notices,
        };
        Some(e.to_json())
    }
}
