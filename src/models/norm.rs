//! The normalisations the families share, row by row: LayerNorm (the BERT
//! family, GPT-2) and RMSNorm (Llama, Gemma 3).

use crate::error::Result;
use crate::formats::weights::Weights;
use crate::tensor::{self, Matrix};

/// Each row rescaled to mean 0 and variance 1, then by `weight` and shifted by `bias`.
#[derive(Clone, Debug)]
pub struct LayerNorm {
    weight: Vec<f32>,
    bias: Vec<f32>,
    eps: f32,
}

impl LayerNorm {
    /// `{prefix}.weight` and `{prefix}.bias`, `d` values each.
    pub fn load(w: &Weights, prefix: &str, d: usize, eps: f32) -> Result<Self> {
        Self::load_named(w, &format!("{prefix}.weight"), &format!("{prefix}.bias"), d, eps)
    }

    pub fn load_named(w: &Weights, weight: &str, bias: &str, d: usize, eps: f32) -> Result<Self> {
        Ok(Self::new(w.vector(weight, d)?, w.vector(bias, d)?, eps))
    }

    /// From values read elsewhere (CTranslate2 names them gamma and beta).
    pub fn new(weight: Vec<f32>, bias: Vec<f32>, eps: f32) -> Self {
        Self { weight, bias, eps }
    }

    pub fn forward_in_place(&self, x: &mut Matrix) {
        let n = x.cols as f32;
        for i in 0..x.rows {
            let row = x.row_mut(i);
            let mean = tensor::sum(row) / n;
            row.iter_mut().for_each(|v| *v -= mean);
            let var = tensor::dot(row, row) / n;
            let inv_std = 1.0 / (var + self.eps).sqrt();
            for ((v, g), b) in row.iter_mut().zip(&self.weight).zip(&self.bias) {
                *v = *v * inv_std * g + b;
            }
        }
    }

    pub fn forward(&self, x: &Matrix) -> Matrix {
        let mut out = x.clone();
        self.forward_in_place(&mut out);
        out
    }
}

/// RMSNorm: x / √(mean(x²) + ε) · weight, row by row.
#[derive(Clone, Debug)]
pub struct RmsNorm {
    weight: Vec<f32>,
    eps: f32,
}

impl RmsNorm {
    /// `name`, `d` values; `plus_one` for Gemma's checkpoints, whose
    /// norms multiply by 1 + weight (a GGUF stores the sum already).
    pub fn load(w: &Weights, name: &str, d: usize, eps: f32, plus_one: bool) -> Result<Self> {
        let mut weight = w.vector(name, d)?;
        if plus_one {
            weight.iter_mut().for_each(|x| *x += 1.0);
        }
        Ok(Self { weight, eps })
    }

    pub fn forward(&self, x: &Matrix) -> Matrix {
        let mut out = x.clone();
        self.forward_chunks(&mut out, x.cols);
        out
    }

    /// Normalises each `width`-wide chunk of each row on its own (Gemma 3's
    /// query and key norms, one per head).
    pub fn forward_chunks(&self, x: &mut Matrix, width: usize) {
        for chunk in x.data.chunks_exact_mut(width.max(1)) {
            let mean_sq = tensor::dot(chunk, chunk) / chunk.len() as f32;
            let inv = 1.0 / (mean_sq + self.eps).sqrt();
            for (v, w) in chunk.iter_mut().zip(&self.weight) {
                *v = w * (*v * inv);
            }
        }
    }
}
