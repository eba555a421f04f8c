//! Value-weighted attention (Kobayashi et al. 2020, "Attention is Not Only
//! a Weight"): how much token j actually moves token i through a head is
//! the length of a_ij f(x_j), not a_ij alone.

use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use crate::trace::ModelTrace;
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
    let layer = trace.layers.get(l).ok_or_else(|| {
        Error::Invalid(format!("layer {l}: the trace has {}", trace.layers.len()))
    })?;
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

/// One head's ‖a_ij f(x_j)‖ = a_ij ‖f(x_j)‖, from its weights and `lengths[j]` = ‖f(x_j)‖.
pub fn head_norms(weights: &Matrix, lengths: &[f32]) -> Matrix {
    let mut norms = weights.clone(); //                          a_ij                   (n × n)
    for i in 0..norms.rows {
        norms.row_mut(i).iter_mut().zip(lengths).for_each(|(a, f)| *a *= f); // a_ij ‖f(x_j)‖
    }
    norms
}

/// ‖a_ij f(x_j)‖ of every head of layer `l`, as matrices: `out[h]`.
pub fn layer_norms(trace: &ModelTrace, model: &dyn Layered, l: usize) -> Result<Vec<Matrix>> {
    let lengths = value_lengths(trace, model, l)?;
    Ok(trace.layers[l]
        .attention
        .heads
        .iter()
        .zip(&lengths)
        .map(|(head, f)| head_norms(&head.weights, f))
        .collect())
}

/// ‖a_ij f(x_j)‖ = a_ij ‖f(x_j)‖ for every head of the given layers (all when None).
pub fn value_norms(
    trace: &ModelTrace,
    model: &dyn Layered,
    layers: Option<&[usize]>,
) -> Result<ValueNorms> {
    let all: Vec<usize> = (0..trace.layers.len()).collect();
    let mut out = Vec::new();
    for &l in layers.unwrap_or(&all) {
        out.push(layer_norms(trace, model, l)?.iter().map(Matrix::to_rows).collect());
    }
    Ok(ValueNorms { layers: out })
}

/// Each row divided by its largest value, for a colour (a row of zeros stays zero).
pub fn per_row(m: &Matrix) -> Matrix {
    let mut out = m.clone();
    for i in 0..out.rows {
        let row = out.row_mut(i);
        let top = row.iter().copied().fold(0.0f32, f32::max);
        if top > 0.0 {
            row.iter_mut().for_each(|x| *x /= top);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_norms_scale_each_key_by_its_length_and_per_row_tops_each_row_at_one() {
        let a = Matrix::from_rows(&[vec![0.5, 0.5, 0.0], vec![0.2, 0.3, 0.5]]);
        let n = head_norms(&a, &[2.0, 0.0, 4.0]);
        assert_eq!(n.to_rows(), vec![vec![1.0, 0.0, 0.0], vec![0.4, 0.0, 2.0]]);
        assert_eq!(per_row(&n).to_rows(), vec![vec![1.0, 0.0, 0.0], vec![0.2, 0.0, 1.0]]);
        assert_eq!(per_row(&Matrix::zeros(1, 2)).to_rows(), vec![vec![0.0, 0.0]]);
    }
}
