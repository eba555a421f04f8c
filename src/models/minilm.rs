//! all-MiniLM-L6-v2 (sentence-transformers): a 6-layer BERT encoder, 12 heads
//! of width 32, whose mean-pooled last layer is a sentence embedding.
//!
//! ```text
//!   E₀ = LayerNorm(word[id] + position[i] + token_type[0])
//!   per layer:  Q, K, V = E Wqᵀ + bq, E Wkᵀ + bk, E Wvᵀ + bv
//!               Z       = multi_head(Q, K, V)          no mask: every token sees every token
//!               ΔE      = Z Woᵀ + bo
//!               H       = LayerNorm(E + ΔE)
//!               E_next  = LayerNorm(H + GELU(H W1ᵀ + b1) W2ᵀ + b2)
//!   embedding = normalize(mean over tokens of E₆)
//! ```
//!
//! Struct and field names follow the tensor names in `model.safetensors`
//! (`encoder.layer.3.attention.self.query.weight` is
//! `encoder.layer[3].attention.self_attention.query.weight`), so each `load`
//! reads like the file.

use crate::attention::{multi_head, Mask, Projections, Scale};
use crate::error::{Error, Result};
use crate::models::packed::PackedLinear;
use crate::models::tokenize::{self, Encoded};
use crate::models::{LayerTrace, ModelInfo, ModelTrace};
use crate::tensor::{self, Matrix};
use safetensors::{Dtype, SafeTensors};
use serde::Deserialize;

/// sentence-transformers' `max_seq_length` for this model: the position table
/// has 512 rows, but the model was trained on (and its embeddings are defined
/// for) at most 256 tokens.
pub const MAX_TOKENS: usize = 256;

/// The fields of `config.json` the forward pass needs.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Config {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    pub layer_norm_eps: f64,
    pub hidden_act: String,
}

impl Config {
    pub fn from_json(bytes: &[u8]) -> Result<Config> {
        let config: Config =
            serde_json::from_slice(bytes).map_err(|e| Error::ModelFile(format!("config.json is not a BERT configuration: {e}")))?;
        let bad = |why: &str| Err(Error::ModelFile(format!("config.json: {why}")));
        if config.num_attention_heads == 0 || config.hidden_size == 0 || !config.hidden_size.is_multiple_of(config.num_attention_heads) {
            return bad("hidden_size must be a positive multiple of num_attention_heads");
        }
        if config.max_position_embeddings < 2 || config.type_vocab_size == 0 || config.vocab_size == 0 {
            return bad("the vocabulary, position and token-type tables must not be empty");
        }
        if config.hidden_act != "gelu" {
            return bad(&format!("hidden_act is {:?}; only \"gelu\" (erf) is implemented", config.hidden_act));
        }
        Ok(config)
    }

    pub fn d_head(&self) -> usize {
        self.hidden_size / self.num_attention_heads
    }

    /// Longest input: sentence-transformers' limit, or the position table if smaller.
    pub fn max_tokens(&self) -> usize {
        MAX_TOKENS.min(self.max_position_embeddings)
    }
}

/// The tensors of a safetensors file, checked by name, shape and type as they
/// are taken, and widened to f32 (the file may hold f32, f16 or bf16).
struct Weights<'a>(SafeTensors<'a>);

impl<'a> Weights<'a> {
    fn parse(bytes: &'a [u8]) -> Result<Self> {
        SafeTensors::deserialize(bytes).map(Weights).map_err(|e| {
            Error::ModelFile(format!(
                "model.safetensors is not a complete safetensors file ({e}); fetch it again with `python3 scripts/fetch_models.py`"
            ))
        })
    }

    fn values(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let view = self
            .0
            .tensor(name)
            .map_err(|_| Error::ModelFile(format!("model.safetensors has no tensor `{name}`: is it the all-MiniLM-L6-v2 file?")))?;
        if view.shape() != shape {
            return Err(Error::ModelFile(format!("tensor `{name}` has shape {:?}, config.json implies {shape:?}", view.shape())));
        }
        let bytes = view.data();
        Ok(match view.dtype() {
            Dtype::F32 => bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect(),
            Dtype::F16 => bytes.chunks_exact(2).map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
            Dtype::BF16 => bytes.chunks_exact(2).map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32()).collect(),
            other => return Err(Error::ModelFile(format!("tensor `{name}` is {other:?}; expected F32, F16 or BF16"))),
        })
    }

    fn matrix(&self, name: &str, rows: usize, cols: usize) -> Result<Matrix> {
        Ok(Matrix::from_vec(rows, cols, self.values(name, &[rows, cols])?))
    }

    fn vector(&self, name: &str, len: usize) -> Result<Vec<f32>> {
        self.values(name, &[len])
    }
}

/// y = x Wᵀ + b, with W stored as PyTorch does (out × in). The weights are
/// packed at load for the product (see [`PackedLinear`]); the file's layout is
/// not kept.
#[derive(Clone, Debug)]
struct Linear {
    weight_and_bias: PackedLinear,
}

impl Linear {
    fn load(w: &Weights, prefix: &str, d_in: usize, d_out: usize) -> Result<Self> {
        let (weight, bias) = (w.matrix(&format!("{prefix}.weight"), d_out, d_in)?, w.vector(&format!("{prefix}.bias"), d_out)?);
        Ok(Self { weight_and_bias: PackedLinear::new(&weight, &bias) })
    }

    fn forward(&self, x: &Matrix) -> Matrix {
        self.weight_and_bias.forward(x)
    }
}

/// Each row rescaled to mean 0 and variance 1, then by `weight` and shifted by `bias`.
#[derive(Clone, Debug)]
struct LayerNorm {
    weight: Vec<f32>,
    bias: Vec<f32>,
    eps: f32,
}

impl LayerNorm {
    fn load(w: &Weights, prefix: &str, d: usize, eps: f64) -> Result<Self> {
        Ok(Self { weight: w.vector(&format!("{prefix}.weight"), d)?, bias: w.vector(&format!("{prefix}.bias"), d)?, eps: eps as f32 })
    }

    fn forward_in_place(&self, x: &mut Matrix) {
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
}

#[derive(Clone, Debug)]
struct Embeddings {
    word_embeddings: Matrix,
    position_embeddings: Matrix,
    token_type_embeddings: Matrix,
    layer_norm: LayerNorm,
}

impl Embeddings {
    fn load(w: &Weights, c: &Config) -> Result<Self> {
        let d = c.hidden_size;
        Ok(Self {
            word_embeddings: w.matrix("embeddings.word_embeddings.weight", c.vocab_size, d)?,
            position_embeddings: w.matrix("embeddings.position_embeddings.weight", c.max_position_embeddings, d)?,
            token_type_embeddings: w.matrix("embeddings.token_type_embeddings.weight", c.type_vocab_size, d)?,
            layer_norm: LayerNorm::load(w, "embeddings.LayerNorm", d, c.layer_norm_eps)?,
        })
    }

    fn forward(&self, ids: &[u32], type_ids: &[u32]) -> Result<Matrix> {
        let mut e = Matrix::zeros(ids.len(), self.word_embeddings.cols);
        for (i, (&id, &ty)) in ids.iter().zip(type_ids).enumerate() {
            let (id, ty) = (id as usize, ty as usize);
            // A tokenizer.json from another model could hand out ids the table lacks.
            if id >= self.word_embeddings.rows || ty >= self.token_type_embeddings.rows || i >= self.position_embeddings.rows {
                return Err(Error::ModelFile(format!("token id {id} (type {ty}) at position {i} is outside the embedding tables: tokenizer.json does not match model.safetensors")));
            }
            let (word, position, token_type) =
                (self.word_embeddings.row(id), self.position_embeddings.row(i), self.token_type_embeddings.row(ty));
            for (j, x) in e.row_mut(i).iter_mut().enumerate() {
                *x = word[j] + position[j] + token_type[j];
            }
        }
        self.layer_norm.forward_in_place(&mut e);
        Ok(e)
    }
}

/// `attention.self`: the projections to queries, keys and values.
#[derive(Clone, Debug)]
struct SelfAttention {
    query: Linear,
    key: Linear,
    value: Linear,
}

/// `attention.output`: W_O, then the residual and its LayerNorm.
#[derive(Clone, Debug)]
struct SelfOutput {
    dense: Linear,
    layer_norm: LayerNorm,
}

#[derive(Clone, Debug)]
struct Attention {
    /// `attention.self` (`self` is a Rust keyword).
    self_attention: SelfAttention,
    output: SelfOutput,
}

#[derive(Clone, Debug)]
struct Intermediate {
    dense: Linear,
}

/// `output`: the feed-forward's second half, then the residual and its LayerNorm.
#[derive(Clone, Debug)]
struct Output {
    dense: Linear,
    layer_norm: LayerNorm,
}

#[derive(Clone, Debug)]
struct Layer {
    attention: Attention,
    intermediate: Intermediate,
    output: Output,
}

impl Layer {
    fn load(w: &Weights, c: &Config, i: usize) -> Result<Self> {
        let (d, ff, eps) = (c.hidden_size, c.intermediate_size, c.layer_norm_eps);
        let p = format!("encoder.layer.{i}");
        Ok(Self {
            attention: Attention {
                self_attention: SelfAttention {
                    query: Linear::load(w, &format!("{p}.attention.self.query"), d, d)?,
                    key: Linear::load(w, &format!("{p}.attention.self.key"), d, d)?,
                    value: Linear::load(w, &format!("{p}.attention.self.value"), d, d)?,
                },
                output: SelfOutput {
                    dense: Linear::load(w, &format!("{p}.attention.output.dense"), d, d)?,
                    layer_norm: LayerNorm::load(w, &format!("{p}.attention.output.LayerNorm"), d, eps)?,
                },
            },
            intermediate: Intermediate { dense: Linear::load(w, &format!("{p}.intermediate.dense"), d, ff)? },
            output: Output {
                dense: Linear::load(w, &format!("{p}.output.dense"), ff, d)?,
                layer_norm: LayerNorm::load(w, &format!("{p}.output.LayerNorm"), d, eps)?,
            },
        })
    }

    /// One post-LayerNorm BERT layer; returns its trace and the next hidden state.
    fn forward(&self, e: Matrix, n_heads: usize) -> (LayerTrace, Matrix) {
        let sa = &self.attention.self_attention;
        let (q, k, v) = (sa.query.forward(&e), sa.key.forward(&e), sa.value.forward(&e));
        let attention = multi_head(Projections { q: &q, k: &k, v: &v, n_heads, n_kv_heads: n_heads }, Mask::None, Scale::InvSqrtDk);
        let delta = self.attention.output.dense.forward(&attention.concat);
        let residual = e.add(&delta);

        let mut h = residual.clone();
        self.attention.output.layer_norm.forward_in_place(&mut h);
        let mut ff = self.intermediate.dense.forward(&h);
        gelu_in_place(&mut ff.data);
        let mut out = self.output.dense.forward(&ff);
        out.data.iter_mut().zip(&h.data).for_each(|(o, h)| *o += h);
        self.output.layer_norm.forward_in_place(&mut out);

        (LayerTrace { input: e, attention, delta, residual }, out)
    }
}

/// GELU with erf, as BERT's `hidden_act: "gelu"` means (not the tanh approximation).
#[cfg(test)]
fn gelu(x: f32) -> f32 {
    tensor::ERF.gelu(x)
}

/// [`gelu`] of every value, the constants taken through
/// [`tensor::loop_constants`], which Chromium otherwise rebuilds at every use.
fn gelu_in_place(xs: &mut [f32]) {
    let erf = tensor::loop_constants(tensor::ERF);
    xs.iter_mut().for_each(|x| *x = erf.gelu(*x));
}

#[derive(Clone, Debug)]
struct Encoder {
    layer: Vec<Layer>,
}

/// all-MiniLM-L6-v2, loaded and ready to run on any text.
#[derive(Clone)]
pub struct MiniLm {
    config: Config,
    tokenizer: tokenizers::Tokenizer,
    embeddings: Embeddings,
    encoder: Encoder,
}

impl std::fmt::Debug for MiniLm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniLm").field("config", &self.config).finish_non_exhaustive()
    }
}

impl MiniLm {
    /// From the bytes of `model.safetensors`, `tokenizer.json` and
    /// `config.json` (as the browser downloads them).
    pub fn from_bytes(weights: &[u8], tokenizer_json: &[u8], config_json: &[u8]) -> Result<MiniLm> {
        let config = Config::from_json(config_json)?;
        let tokenizer = tokenize::from_json(tokenizer_json, config.max_tokens())?;
        let w = Weights::parse(weights)?;
        let embeddings = Embeddings::load(&w, &config)?;
        let layer = (0..config.num_hidden_layers).map(|i| Layer::load(&w, &config, i)).collect::<Result<Vec<_>>>()?;
        Ok(MiniLm { config, tokenizer, embeddings, encoder: Encoder { layer } })
    }

    /// From a folder holding `model.safetensors`, `tokenizer.json` and `config.json`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn load_dir(dir: &std::path::Path) -> Result<MiniLm> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read(&path).map_err(|e| {
                Error::ModelFile(format!(
                    "cannot read {} ({e}); run `python3 scripts/fetch_models.py` to fetch the MiniLM files",
                    path.display()
                ))
            })
        };
        MiniLm::from_bytes(&read("model.safetensors")?, &read("tokenizer.json")?, &read("config.json")?)
    }

    pub fn info(&self) -> ModelInfo {
        let c = &self.config;
        ModelInfo {
            id: "minilm".into(),
            name: "all-MiniLM-L6-v2".into(),
            n_layers: c.num_hidden_layers,
            n_heads: c.num_attention_heads,
            n_kv_heads: c.num_attention_heads,
            d_model: c.hidden_size,
            d_head: c.d_head(),
            mask: Mask::None,
            max_tokens: c.max_tokens(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The tokens the model would see for `text`, without running it.
    pub fn tokenize(&self, text: &str) -> Result<Encoded> {
        tokenize::encode(&self.tokenizer, text)
    }

    /// Tokenizes `text` ([CLS] … [SEP], cut to `max_tokens`) and runs the
    /// encoder, keeping every layer's attention and the sentence embedding.
    pub fn run(&self, text: &str) -> Result<ModelTrace> {
        let tokens = self.tokenize(text)?;
        let n_heads = self.config.num_attention_heads;
        let mut e = self.embeddings.forward(&tokens.ids, &tokens.type_ids)?;
        let mut layers = Vec::with_capacity(self.encoder.layer.len());
        for layer in &self.encoder.layer {
            let (trace, next) = layer.forward(e, n_heads);
            layers.push(trace);
            e = next;
        }
        let notice = tokens.truncated.then(|| format!("Text cut to {} tokens (the model's limit).", self.config.max_tokens()));
        Ok(ModelTrace {
            info: self.info(),
            tokens: tokens.tokens,
            token_ids: Some(tokens.ids),
            layers,
            notice,
            sentence_embedding: Some(mean_pool_normalized(&e)),
            top_next: None,
        })
    }
}

/// What sentence-transformers computes: the mean of the token vectors,
/// divided by its length (F.normalize's floor of 1e-12 keeps 0 at 0).
fn mean_pool_normalized(e: &Matrix) -> Vec<f32> {
    let mut mean = vec![0.0f32; e.cols];
    for i in 0..e.rows {
        mean.iter_mut().zip(e.row(i)).for_each(|(m, x)| *m += x);
    }
    let n = e.rows.max(1) as f32;
    mean.iter_mut().for_each(|m| *m /= n);
    let norm = mean.iter().map(|m| m * m).sum::<f32>().sqrt().max(1e-12);
    mean.iter_mut().for_each(|m| *m /= norm);
    mean
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gelu_is_exact_gelu() {
        for x in [-6.0f32, -3.0, -1.0, -0.1, 0.0, 0.5, 1.0, 2.5, 8.0] {
            let exact = 0.5 * x as f64 * (1.0 + libm::erf(x as f64 / std::f64::consts::SQRT_2));
            assert!((gelu(x) as f64 - exact).abs() < 1e-6, "gelu({x}) = {} vs {exact}", gelu(x));
        }
    }

    #[test]
    fn gelu_in_place_is_gelu_of_each_value() {
        // 1001 values, not a whole number of vectors, from −8 to 8.
        let xs: Vec<f32> = (0..1001).map(|i| i as f32 / 62.5 - 8.0).collect();
        let mut ys = xs.clone();
        gelu_in_place(&mut ys);
        for (x, y) in xs.iter().zip(&ys) {
            assert_eq!(y.to_bits(), gelu(*x).to_bits(), "gelu({x})");
        }
    }
}
