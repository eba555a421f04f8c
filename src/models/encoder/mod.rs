//! The BERT family of encoders: BERT, RoBERTa, DistilBERT and MPNet, from
//! a Hugging Face folder. all-MiniLM-L6-v2 and all-mpnet-base-v2 are two
//! checkpoints of it.
//!
//! ```text
//!   E₀ = LayerNorm(word[id] + position[i + offset] + token_type[0])
//!   per layer:  Q, K, V = E Wqᵀ + bq, E Wkᵀ + bk, E Wvᵀ + bv
//!               Z       = multi_head(Q, K, V, B)      no mask: every token sees every token
//!               ΔE      = Z Woᵀ + bo
//!               H       = LayerNorm(E + ΔE)
//!               E_next  = LayerNorm(H + GELU(H W1ᵀ + b1) W2ᵀ + b2)
//!   embedding = normalize(mean over tokens of E_last)   (sentence-transformers' pooling)
//! ```
//!
//! The variants differ only in data: their tensors' names (DistilBERT's
//! `attention.q_lin` is BERT's `attention.self.query`), where position ids
//! start (RoBERTa and MPNet count from the padding id + 1), whether there
//! is a token-type table, and MPNet's relative position bias B
//! ([`relative`]), added to every layer's scaled scores. Struct fields
//! carry BERT's names (`encoder.layer.3.attention.self.query.weight` is
//! `layer[3].attention.self_attention.query`); [`Variant::names`] says what
//! each is called in the other variants' files.

mod config;
mod layered;
pub mod relative;

pub use config::{Activation, Config, LayerNames, Variant};

use crate::attention::{multi_head, split_heads, AttendHeads, Mask, Scale};
use crate::error::{Error, Result};
use crate::formats::tokenizer::{Encoded, TextTokenizer};
use crate::formats::weights::Weights;
use crate::kernels::packed::PackedLinear;
use crate::models::norm::LayerNorm;
use crate::models::two_threads::{BoxedHelper, Helper, Products, Shard, SharedRef, Shares};
use crate::tensor::{self, Matrix};
use crate::trace::{LayerTrace, ModelInfo, ModelTrace, KEEP_WEIGHTS_UP_TO};

/// y = x Wᵀ + b, with W stored as PyTorch does (out × in). The weights are
/// packed at load for the product (see [`PackedLinear`]); the file's layout is
/// not kept.
#[derive(Clone, Debug)]
struct Linear {
    weight_and_bias: PackedLinear,
}

impl Linear {
    fn load(w: &Weights, prefix: &str, d_in: usize, d_out: usize) -> Result<Self> {
        let (weight, bias) = (
            w.matrix(&format!("{prefix}.weight"), d_out, d_in)?,
            w.vector(&format!("{prefix}.bias"), d_out)?,
        );
        Ok(Self { weight_and_bias: PackedLinear::new(&weight, &bias) })
    }

    fn forward(&self, x: &Matrix) -> Matrix {
        self.weight_and_bias.forward(x)
    }
}

/// Matrices a layer shares with a helper thread, in the order it multiplies
/// by them: query, key, value, W_O, the feed-forward's two.
const SHARED_PER_LAYER: usize = 6;

#[derive(Clone, Debug)]
struct Embeddings {
    word_embeddings: Matrix,
    position_embeddings: Matrix,
    token_type_embeddings: Option<Matrix>,
    layer_norm: LayerNorm,
    position_offset: usize,
}

impl Embeddings {
    fn load(w: &Weights, p: &str, c: &Config) -> Result<Self> {
        let d = c.d_model;
        Ok(Self {
            word_embeddings: w.matrix(
                &format!("{p}embeddings.word_embeddings.weight"),
                c.vocab_size,
                d,
            )?,
            position_embeddings: w.matrix(
                &format!("{p}embeddings.position_embeddings.weight"),
                c.max_positions,
                d,
            )?,
            token_type_embeddings: match c.type_vocab_size {
                0 => None,
                n => {
                    Some(w.matrix(&format!("{p}embeddings.token_type_embeddings.weight"), n, d)?)
                }
            },
            layer_norm: LayerNorm::load(w, &format!("{p}embeddings.LayerNorm"), d, c.eps)?,
            position_offset: c.position_offset,
        })
    }

    fn forward(&self, ids: &[u32], type_ids: &[u32]) -> Result<Matrix> {
        let mut e = Matrix::zeros(ids.len(), self.word_embeddings.cols);
        for (i, (&id, &ty)) in ids.iter().zip(type_ids).enumerate() {
            let (id, ty, pos) = (id as usize, ty as usize, i + self.position_offset);
            let types = self.token_type_embeddings.as_ref().map_or(1, |t| t.rows);
            // A tokenizer.json from another model could hand out ids the table lacks.
            if id >= self.word_embeddings.rows
                || ty >= types
                || pos >= self.position_embeddings.rows
            {
                return Err(Error::ModelFile(format!("token id {id} (type {ty}) at position {i} is outside the embedding tables: tokenizer.json does not match model.safetensors")));
            }
            let (word, position) =
                (self.word_embeddings.row(id), self.position_embeddings.row(pos));
            let token_type = self.token_type_embeddings.as_ref().map(|t| t.row(ty));
            for (j, x) in e.row_mut(i).iter_mut().enumerate() {
                *x = word[j] + position[j] + token_type.map_or(0.0, |t| t[j]);
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
    fn load(w: &Weights, p: &str, c: &Config, i: usize) -> Result<Self> {
        let (d, ff, eps) = (c.d_model, c.d_ff, c.eps);
        let n = c.variant.names();
        let at = |name: &str| format!("{p}{}.{i}.{name}", n.layers);
        Ok(Self {
            attention: Attention {
                self_attention: SelfAttention {
                    query: Linear::load(w, &at(n.query), d, d)?,
                    key: Linear::load(w, &at(n.key), d, d)?,
                    value: Linear::load(w, &at(n.value), d, d)?,
                },
                output: SelfOutput {
                    dense: Linear::load(w, &at(n.attention_output), d, d)?,
                    layer_norm: LayerNorm::load(w, &at(n.attention_norm), d, eps)?,
                },
            },
            intermediate: Intermediate { dense: Linear::load(w, &at(n.intermediate), d, ff)? },
            output: Output {
                dense: Linear::load(w, &at(n.output), ff, d)?,
                layer_norm: LayerNorm::load(w, &at(n.output_norm), d, eps)?,
            },
        })
    }

    /// One post-LayerNorm layer, `edit` applied to the heads' outputs before
    /// W_O (head knockout); returns its trace and the next hidden state.
    fn forward(
        &self,
        e: Matrix,
        n_heads: usize,
        bias: Option<&[Matrix]>,
        activation: Activation,
        edit: Option<crate::trace::layered::Edit>,
        mm: &mut Products,
    ) -> (LayerTrace, Matrix) {
        let sa = &self.attention.self_attention;
        let [q, k, v] =
            mm.matrices([&sa.query, &sa.key, &sa.value].map(|l| &l.weight_and_bias), &e);
        let (k, v) = (split_heads(&k, n_heads), split_heads(&v, n_heads));
        let mut attention = multi_head(
            &q,
            n_heads,
            k,
            v,
            AttendHeads { biases: bias, ..AttendHeads::new(Mask::None, Scale::InvSqrtDk) },
        );
        if let Some(edit) = edit {
            edit(&mut attention.concat);
        }
        let [delta] =
            mm.matrices([&self.attention.output.dense.weight_and_bias], &attention.concat);
        let residual = e.add(&delta);

        let mut h = residual.clone();
        self.attention.output.layer_norm.forward_in_place(&mut h);
        let [mut ff] = mm.matrices([&self.intermediate.dense.weight_and_bias], &h);
        activate(&mut ff.data, activation);
        let [mut out] = mm.matrices([&self.output.dense.weight_and_bias], &ff);
        out.data.iter_mut().zip(&h.data).for_each(|(o, h)| *o += h);
        self.output.layer_norm.forward_in_place(&mut out);

        (LayerTrace::new(e, attention, delta, residual), out)
    }
}

/// GELU with erf, as BERT's `hidden_act: "gelu"` means (not the tanh approximation).
#[cfg(test)]
fn gelu(x: f32) -> f32 {
    tensor::ERF.gelu(x)
}

/// The activation of every value, GELU's constants taken through
/// [`tensor::loop_constants`], which Chromium otherwise rebuilds at every use.
fn activate(xs: &mut [f32], activation: Activation) {
    match activation {
        Activation::Gelu => {
            let erf = tensor::loop_constants(tensor::ERF);
            xs.iter_mut().for_each(|x| *x = erf.gelu(*x));
        }
        Activation::GeluTanh => {
            xs.iter_mut().for_each(|x| *x = crate::models::decoder::parts::gelu_tanh(*x))
        }
        Activation::Relu => xs.iter_mut().for_each(|x| *x = x.max(0.0)),
    }
}

/// Which checkpoint an encoder is: its id and name on the page, its length limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub id: String,
    pub name: String,
    pub max_tokens: usize,
}

/// A BERT-family encoder, loaded and ready to run on any text.
pub struct Encoder {
    identity: Identity,
    config: Config,
    tokenizer: TextTokenizer,
    embeddings: Embeddings,
    layer: Vec<Layer>,
    /// MPNet's `encoder.relative_attention_bias` (buckets × heads).
    relative_attention_bias: Option<Matrix>,
    /// Another thread sharing the products (`models::helper`), if any.
    helper: Option<BoxedHelper>,
    /// Why a helper was asked for and could not be had.
    alone: Option<String>,
}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Encoder")
            .field("identity", &self.identity)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Encoder {
    /// From the checkpoint's tensors and `tokenizer.json`; the tokenizer cuts
    /// every text to `identity.max_tokens` (special tokens included).
    pub fn load(
        identity: Identity,
        config: Config,
        w: &Weights,
        tokenizer_json: &[u8],
    ) -> Result<Encoder> {
        if identity.max_tokens > config.positions() {
            return Err(Error::ModelFile(format!(
                "{} tokens do not fit the {} positions of max_position_embeddings",
                identity.max_tokens,
                config.positions()
            )));
        }
        let tokenizer = TextTokenizer::from_json(tokenizer_json, Some(identity.max_tokens))?;
        let p = [config.variant.prefix(), ""]
            .into_iter()
            .find(|p| w.has(&format!("{p}embeddings.word_embeddings.weight")))
            .unwrap_or("");
        let embeddings = Embeddings::load(w, p, &config)?;
        let layer = (0..config.n_layers)
            .map(|i| Layer::load(w, p, &config, i))
            .collect::<Result<Vec<_>>>()?;
        let relative_attention_bias = match config.relative_buckets {
            Some(buckets) => Some(w.matrix(
                &format!("{p}encoder.relative_attention_bias.weight"),
                buckets,
                config.n_heads,
            )?),
            None => None,
        };
        Ok(Encoder {
            identity,
            config,
            tokenizer,
            embeddings,
            layer,
            relative_attention_bias,
            helper: None,
            alone: None,
        })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn info(&self) -> ModelInfo {
        let c = &self.config;
        ModelInfo {
            id: self.identity.id.clone(),
            name: self.identity.name.clone(),
            n_layers: c.n_layers,
            n_heads: c.n_heads,
            n_kv_heads: c.n_heads,
            d_model: c.d_model,
            d_head: c.d_head(),
            mask: Mask::None,
            max_tokens: self.identity.max_tokens,
        }
    }

    /// Layer `l`'s products, shared with the helper if there is one that is ready.
    fn products(&self, l: usize) -> Products<'_> {
        let helper = self.helper.as_deref().filter(|h| h.ready()).map(|h| h as &dyn Helper);
        Products::new(helper, l * SHARED_PER_LAYER)
    }

    /// Threads a run computes on: 2 with a helper that is ready.
    pub fn threads(&self) -> usize {
        if self.helper.as_deref().is_some_and(|h| h.ready()) {
            2
        } else {
            1
        }
    }

    /// Why the model runs on one thread although a second was asked for: a
    /// helper that could not start, or one that stopped; None otherwise.
    pub fn alone(&self) -> Option<String> {
        self.alone.clone().or_else(|| self.helper.as_ref().and_then(|h| h.lost()))
    }

    /// For a helper on another thread: its part of every shared matrix.
    pub fn shard(&self) -> Shard {
        Shard::of(self)
    }

    /// Shares every run's products with `helper`, which holds
    /// [`Encoder::shard`]; None runs alone. The results are the same bit for bit.
    pub fn set_helper(&mut self, helper: Option<BoxedHelper>) {
        self.helper = helper;
        self.alone = None;
    }

    /// The tokens the model would see for `text`, without running it.
    pub fn tokenize(&self, text: &str) -> Result<Encoded> {
        self.tokenizer.encode(text)
    }

    /// Tokenizes `text` ([CLS] … [SEP], cut to `max_tokens`) and runs the
    /// encoder, keeping every layer's attention and the sentence embedding.
    pub fn run(&self, text: &str) -> Result<ModelTrace> {
        let tokens = self.tokenize(text)?;
        let c = &self.config;
        let mut e = self.embeddings.forward(&tokens.ids, &tokens.type_ids)?;
        let bias = self
            .relative_attention_bias
            .as_ref()
            .map(|table| relative::bias(table, tokens.ids.len(), c.n_heads));
        let mut layers = Vec::with_capacity(self.layer.len());
        for (l, layer) in self.layer.iter().enumerate() {
            let (mut trace, next) = layer.forward(
                e,
                c.n_heads,
                bias.as_deref(),
                c.activation,
                None,
                &mut self.products(l),
            );
            if tokens.ids.len() > KEEP_WEIGHTS_UP_TO {
                trace.let_go_of_weights();
            }
            layers.push(trace);
            e = next;
        }
        let notice = tokens.truncated.then(|| {
            format!("Text cut to {} tokens (the model's limit).", self.identity.max_tokens)
        });
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

impl Shares for Encoder {
    fn shared(&self) -> Vec<SharedRef<'_>> {
        let mut out = Vec::with_capacity(self.layer.len() * SHARED_PER_LAYER);
        for l in &self.layer {
            let (sa, o) = (&l.attention.self_attention, &l.attention.output);
            let linears =
                [&sa.query, &sa.key, &sa.value, &o.dense, &l.intermediate.dense, &l.output.dense];
            out.extend(linears.map(|l| SharedRef::Packed(&l.weight_and_bias)));
        }
        out
    }
    fn limits(&self) -> (String, usize, usize) {
        (self.identity.name.clone(), self.identity.max_tokens, self.layer.len())
    }
    fn share_with(&mut self, helper: BoxedHelper) {
        self.set_helper(Some(helper));
    }
    fn run_alone(&mut self, why: String) {
        self.helper = None;
        self.alone = Some(why);
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
        activate(&mut ys, Activation::Gelu);
        for (x, y) in xs.iter().zip(&ys) {
            assert_eq!(y.to_bits(), gelu(*x).to_bits(), "gelu({x})");
        }
    }
}
