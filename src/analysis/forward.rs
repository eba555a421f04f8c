//! A run kept layer by layer, so that an analysis can start again from any
//! layer's input (the layers below it are reused, not recomputed).

use crate::error::Result;
use crate::tensor::Matrix;
use crate::trace::layered::{Edit, Layered};
use crate::trace::LayerTrace;

/// The residual stream entering every layer, every layer's trace, and the
/// last layer's output.
pub struct Forward {
    pub ids: Vec<u32>,
    pub tokens: Vec<String>,
    /// `inputs[l]`: the residual entering layer l (n × d_model).
    pub inputs: Vec<Matrix>,
    pub layers: Vec<LayerTrace>,
    /// The last layer's output (n × d_model).
    pub output: Matrix,
}

impl Forward {
    /// The residual stream after layer `l`.
    pub fn after(&self, l: usize) -> &Matrix {
        self.inputs.get(l + 1).unwrap_or(&self.output)
    }
}

/// Runs `model` on token ids, keeping each layer's input.
pub fn forward(model: &dyn Layered, ids: &[u32], tokens: Vec<String>) -> Result<Forward> {
    let n_layers = model.info().n_layers;
    let mut h = model.embed(ids)?;
    let (mut inputs, mut layers) = (Vec::with_capacity(n_layers), Vec::with_capacity(n_layers));
    for l in 0..n_layers {
        let (trace, out) = model.layer(l, &h, None)?;
        inputs.push(std::mem::replace(&mut h, out));
        layers.push(trace);
    }
    Ok(Forward { ids: ids.to_vec(), tokens, inputs, layers, output: h })
}

/// Runs layers `from ..` on `h`, the input of layer `from`, with `edit(l)`
/// applied in each layer that has one; returns the last output and the
/// traces of the layers run.
pub fn run_from<'a>(
    model: &dyn Layered,
    from: usize,
    h: &Matrix,
    edit: impl Fn(usize) -> Option<Edit<'a>>,
) -> Result<(Matrix, Vec<LayerTrace>)> {
    let n_layers = model.info().n_layers;
    let mut h = h.clone();
    let mut traces = Vec::with_capacity(n_layers.saturating_sub(from));
    for l in from..n_layers {
        let (trace, out) = model.layer(l, &h, edit(l))?;
        traces.push(trace);
        h = out;
    }
    Ok((h, traces))
}
