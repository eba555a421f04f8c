//! The last check of every run: a number that is not finite (from weights
//! that parse but make no sense, or a what-if scale pushed too far) is an
//! error the user reads, never a picture or an export made of NaN.

use super::ModelTrace;
use crate::error::{Error, Result};
use crate::tensor::{all_finite, sum};

impl ModelTrace {
    /// Every head's raw scores S, scale and weights A must be finite and each
    /// row of A must sum to 1 (a fast exp clamps where a NaN went in, so a
    /// broken row can come out finite but empty); every layer's residual
    /// stream (which feeds the next layer's Q, K and V), the sentence
    /// embedding and the next-token probabilities must be finite. The error
    /// names the first place that is not.
    pub fn check_finite(&self) -> Result<()> {
        self.check_finite_from(0)
    }

    /// [`Self::check_finite`] for the rows from `first` on: a run that
    /// reused a key/value cache checks only the rows it computed (the others
    /// were checked when they were), and typing at the end of a long text
    /// does not go over every layer's residual stream again.
    pub fn check_finite_from(&self, first: usize) -> Result<()> {
        let bad = |what: String| {
            Err(Error::Invalid(format!(
                "the {} model computed numbers that are not valid attention ({what} not finite or not summing to 1): its weights or settings do not make sense for this text",
                self.info.id
            )))
        };
        for (l, layer) in self.layers.iter().enumerate() {
            for (h, head) in layer.attention.heads.iter().enumerate() {
                if !head.scale.is_finite() || !all_finite(rows_from(&head.scores, first)) {
                    return bad(format!("scores of layer {l}, head {h}"));
                }
                if !all_finite(rows_from(&head.weights, first)) {
                    return bad(format!("attention weights of layer {l}, head {h}"));
                }
                let a = &head.weights;
                if let Some(i) = (first.min(a.rows)..a.rows)
                    .find(|&i| a.cols > 0 && (sum(a.row(i)) - 1.0).abs() > 1e-3)
                {
                    return bad(format!("attention weights of layer {l}, head {h}, row {i}"));
                }
            }
            if let Some(h) = layer
                .summaries
                .as_ref()
                .and_then(|heads| heads.iter().position(|s| !s.is_finite_from(first)))
            {
                return bad(format!("attention weights of layer {l}, head {h}"));
            }
            // E + ΔE, or h + ΔE where a long text keeps h (summed here, not kept).
            let residual_finite = match &layer.stream {
                Some(h) if !layer.holds_input() => rows_from(h, first)
                    .iter()
                    .zip(rows_from(&layer.delta, first))
                    .all(|(a, b)| (a + b).is_finite()),
                _ => all_finite(rows_from(&layer.residual, first)),
            };
            if !residual_finite {
                return bad(format!("residual stream after layer {l}"));
            }
        }
        if self.sentence_embedding.as_deref().is_some_and(|e| !all_finite(e)) {
            return bad("sentence embedding".into());
        }
        if self.top_next.as_ref().is_some_and(|t| t.iter().any(|(_, p)| !p.is_finite())) {
            return bad("next-token probabilities".into());
        }
        Ok(())
    }
}

/// The numbers of `m`'s rows from `first` on.
fn rows_from(m: &crate::tensor::Matrix, first: usize) -> &[f32] {
    &m.data[(first * m.cols).min(m.data.len())..]
}
