//! Value-weighted attention (Kobayashi et al. 2020, "Attention is Not Only
//! a Weight"): how much token j actually moves token i through a head is
//! the length of a_ij f(x_j), not a_ij alone.

use crate::error::{Error, Result};
use crate::models::layered::Layered;
use crate::models::ModelTrace;
use serde::{Deserialize, Serialize};

/// One line, for the page and the CLI's help.
pub const DEFINITION: &str = "value-weighted attention (Kobayashi et al. 2020): ‖a_ij · f(x_j)‖ with f(x_j) = (x_j W_V^h + b_V^h) W_O^h, W_O^h the head's slice of the output matrix (W_O's bias is not per token and is left out)";

/// `layers[l][h][i][j]` = ‖a_ij f(x_j)‖ for layer l, (query) head h.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueNorms {
    pub layers: Vec<Vec<Vec<Vec<f32>>>>,
}

/// ‖f(x_j)‖ for every head of layer `l` and token j: `out[h][j]`.
pub fn value_lengths(trace: &ModelTrace, model: &dyn Layered, l: usize) -> Result<Vec<Vec<f32>>> {
    let layer = trace.layers.get(l).ok_or_else(|| Error::Invalid(format!("layer {l}: the trace has {}", trace.layers.len())))?;
    let att = &layer.attention;
    let w_o = model.output_weight(l)?; // d_model × H·d_head
    let mut out = Vec::with_capacity(att.heads.len());
    for (h, kv) in att.kv_head_of.iter().enumerate() {
        let v = &att.v[*kv]; //                                   x W_V^h + b_V^h        (n × d_head)
        let w_h = w_o.cols_range(h * v.cols, v.cols); //          W_O^h, as stored       (d_model × d_head)
        let f = v.matmul_t(&w_h); //                               f(x_j) per row         (n × d_model)
        out.push((0..f.rows).map(|j| f.row(j).iter().map(|x| x * x).sum::<f32>().sqrt()).collect());
    }
    Ok(out)
}

/// ‖a_ij f(x_j)‖ = a_ij ‖f(x_j)‖ for every head of the given layers (all when None).
pub fn value_norms(trace: &ModelTrace, model: &dyn Layered, layers: Option<&[usize]>) -> Result<ValueNorms> {
    let all: Vec<usize> = (0..trace.layers.len()).collect();
    let mut out = Vec::new();
    for &l in layers.unwrap_or(&all) {
        let lengths = value_lengths(trace, model, l)?;
        let heads = trace.layers[l].attention.heads.iter().zip(&lengths);
        out.push(
            heads
                .map(|(head, f)| (0..head.weights.rows).map(|i| head.weights.row(i).iter().zip(f).map(|(a, f)| a * f).collect()).collect())
                .collect(),
        );
    }
    Ok(ValueNorms { layers: out })
}
