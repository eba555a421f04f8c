//! A trace file's attention as the JSON export (`crate::export`), the same
//! for the CLI's `attention --trace F --json` and the page's export button.

use super::{MaskSpec, TraceDescription};
use crate::attention::Mask;
use crate::export::{AttentionExport, LayerMask, NextToken};

impl TraceDescription {
    /// The export of `attentions` [layer][head][query][key] of this trace:
    /// as stored, or recomputed under the what-if mask `what_if`.
    pub fn export(
        &self,
        attentions: Vec<Vec<Vec<Vec<f32>>>>,
        what_if: Option<Mask>,
    ) -> AttentionExport {
        let uniform = self.uniform_mask();
        let mask = match (what_if, uniform) {
            (Some(m), _) => m.name().into(),
            (None, Some(m)) => m.name(),
            (None, None) => {
                (0..self.n_layers).map(|l| self.mask(l).name()).collect::<Vec<_>>().join(",")
            }
        };
        let layer_masks = (what_if.is_none() && uniform.is_none())
            .then(|| (0..self.n_layers).map(|l| layer_mask(self.mask(l))).collect());
        AttentionExport {
            model: self.model.name.clone(),
            tokens: self.tokens.clone(),
            token_ids: self.token_ids.clone(),
            mask,
            layer_masks,
            attentions,
            kv_head_of: (self.n_kv_heads != self.n_heads)
                .then(|| (0..self.n_heads).map(|h| self.kv_head_of(h)).collect()),
            sentence_embedding: None,
            top5_next: self.top_next.as_ref().map(|top| {
                top.iter()
                    .take(5)
                    .map(|t| NextToken { token: t.token.clone(), probability: t.probability })
                    .collect()
            }),
            notice: None,
        }
    }
}

fn layer_mask(spec: MaskSpec) -> LayerMask {
    match spec {
        MaskSpec::SlidingWindow { window } => LayerMask {
            mask: Mask::SlidingWindow(0).name().into(),
            window: usize::try_from(window).ok(),
        },
        spec => LayerMask { mask: spec.name(), window: None },
    }
}
