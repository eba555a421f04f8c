//! The logit lens (nostalgebraist 2020): the residual stream after each
//! layer read as if it were the last, through the final norm and the output
//! matrix: what the model would predict if it stopped there.

use super::{forward, top_tokens, TokenProb};
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::{Layered, Readout};
use crate::trace::ModelTrace;
use serde::{Deserialize, Serialize};

/// One line, for the page and the CLI's help.
pub const DEFINITION: &str = "logit lens (decoders): softmax(final_norm(h_l) · W_outᵀ), h_l the residual stream after layer l, read at one position; the grid gives each position's top token per layer";

/// The lens at one position, and optionally at every position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogitLens {
    pub tokens: Vec<String>,
    pub position: usize,
    /// `layers[l]`: the top tokens after layer l at `position`, most likely first.
    pub layers: Vec<Vec<TokenProb>>,
    /// `grid[l][i]`: the top token after layer l at position i, when asked for.
    pub grid: Option<Vec<Vec<TokenProb>>>,
}

/// `position` among `n` tokens (the last when None), or why it is not one.
fn position_in(n: usize, position: Option<usize>) -> Result<usize> {
    let position = position.unwrap_or(n.saturating_sub(1));
    if position >= n {
        return Err(Error::Invalid(format!(
            "position {position}: the text has {n} tokens (0 to {})",
            n.saturating_sub(1)
        )));
    }
    Ok(position)
}

fn encoder_error(model: &dyn Layered) -> Error {
    Error::Invalid(format!(
        "{} is an encoder: the logit lens reads a decoder's output matrix",
        model.info().name
    ))
}

/// The lens for `text` at `position` (the last token when None), `k` tokens per layer.
pub fn logit_lens(
    model: &dyn Layered,
    text: &str,
    position: Option<usize>,
    k: usize,
    grid: bool,
) -> Result<LogitLens> {
    let (ids, tokens) = model.tokens(text)?;
    let n = ids.len();
    let position = position_in(n, position)?;
    let run = forward(model, &ids, tokens)?;
    let n_layers = run.layers.len();
    let encoder = || encoder_error(model);
    // Every layer's row at `position` in one product, so the output matrix is read once.
    let rows: Vec<&[f32]> = (0..n_layers).map(|l| run.after(l).row(position)).collect();
    let Readout::Logits(logits) = model.readout(&Matrix::from_rows(&rows)) else {
        return Err(encoder());
    };
    let layers = (0..n_layers).map(|l| top_tokens(model, logits.row(l), k)).collect();
    let mut cells = Vec::new();
    if grid {
        for l in 0..n_layers {
            let Readout::Logits(logits) = model.readout(run.after(l)) else {
                return Err(encoder());
            };
            cells.push((0..n).map(|i| top_tokens(model, logits.row(i), 1).remove(0)).collect());
        }
    }
    Ok(LogitLens { tokens: run.tokens, position, layers, grid: grid.then_some(cells) })
}

/// The lens at `position` of a run already made (`trace`, of `model`): the
/// residual stream after each layer is its trace's E + ΔE at that row
/// through the rest of the layer, so only each layer's feed-forward on one
/// row is computed, not a forward. None where the model cannot finish a
/// layer from its trace (then use [`logit_lens`]).
pub fn logit_lens_of_trace(
    model: &dyn Layered,
    trace: &ModelTrace,
    position: Option<usize>,
    k: usize,
) -> Result<Option<LogitLens>> {
    let position = position_in(trace.tokens.len(), position)?;
    let mut rows = Matrix::zeros(0, 0); // (n_layers, d_model)
    for (l, layer) in trace.layers.iter().enumerate() {
        let Some(after) = model.after_attention(l, &layer.residual_rows(position, 1)) else {
            return Ok(None);
        };
        rows.push_rows(&after?);
    }
    let Readout::Logits(logits) = model.readout(&rows) else { return Err(encoder_error(model)) };
    let layers = (0..trace.layers.len()).map(|l| top_tokens(model, logits.row(l), k)).collect();
    Ok(Some(LogitLens { tokens: trace.tokens.clone(), position, layers, grid: None }))
}
