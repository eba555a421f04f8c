//! Which member of the family a checkpoint is, what its tensors are called,
//! and its configuration, read and checked from `config.json`.

use crate::error::Result;
use crate::formats::hparams::{split_evenly, Hparams};

/// Which member of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Bert,
    Roberta,
    DistilBert,
    MpNet,
}

/// A layer's tensors as one variant names them, after `{layers}.{i}.`.
pub struct LayerNames {
    pub layers: &'static str,
    pub query: &'static str,
    pub key: &'static str,
    pub value: &'static str,
    pub attention_output: &'static str,
    pub attention_norm: &'static str,
    pub intermediate: &'static str,
    pub output: &'static str,
    pub output_norm: &'static str,
}

impl Variant {
    pub fn names(self) -> LayerNames {
        match self {
            Variant::Bert | Variant::Roberta => LayerNames {
                layers: "encoder.layer",
                query: "attention.self.query",
                key: "attention.self.key",
                value: "attention.self.value",
                attention_output: "attention.output.dense",
                attention_norm: "attention.output.LayerNorm",
                intermediate: "intermediate.dense",
                output: "output.dense",
                output_norm: "output.LayerNorm",
            },
            Variant::DistilBert => LayerNames {
                layers: "transformer.layer",
                query: "attention.q_lin",
                key: "attention.k_lin",
                value: "attention.v_lin",
                attention_output: "attention.out_lin",
                attention_norm: "sa_layer_norm",
                intermediate: "ffn.lin1",
                output: "ffn.lin2",
                output_norm: "output_layer_norm",
            },
            Variant::MpNet => LayerNames {
                layers: "encoder.layer",
                query: "attention.attn.q",
                key: "attention.attn.k",
                value: "attention.attn.v",
                attention_output: "attention.attn.o",
                attention_norm: "attention.LayerNorm",
                intermediate: "intermediate.dense",
                output: "output.dense",
                output_norm: "output.LayerNorm",
            },
        }
    }

    /// The prefix a task model's checkpoint puts before the encoder's tensors (`bert.` in
    /// BertForMaskedLM).
    pub(super) fn prefix(self) -> &'static str {
        match self {
            Variant::Bert => "bert.",
            Variant::Roberta => "roberta.",
            Variant::DistilBert => "distilbert.",
            Variant::MpNet => "mpnet.",
        }
    }
}

/// The activation between the feed-forward's two products.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// GELU with erf, as `"gelu"` means.
    Gelu,
    /// GELU's tanh approximation (`"gelu_new"`, `"gelu_pytorch_tanh"`).
    GeluTanh,
    Relu,
}

/// Hyper-parameters, from `config.json`.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub variant: Variant,
    pub vocab_size: usize,
    pub d_model: usize,
    pub n_layers: usize,
    pub n_heads: usize,
    pub d_ff: usize,
    pub max_positions: usize,
    /// Rows of the token-type table (0: none, DistilBERT and MPNet).
    pub type_vocab_size: usize,
    pub eps: f32,
    pub activation: Activation,
    /// Position ids start here (RoBERTa, MPNet: the padding id + 1).
    pub position_offset: usize,
    /// MPNet's relative position buckets (None for the others).
    pub relative_buckets: Option<usize>,
}

impl Config {
    pub fn from_hf(h: &Hparams, variant: Variant) -> Result<Config> {
        let distil = variant == Variant::DistilBert;
        let key =
            |bert: &'static str, distilbert: &'static str| if distil { distilbert } else { bert };
        let (d_model, n_heads) =
            (h.count(key("hidden_size", "dim"))?, h.count(key("num_attention_heads", "n_heads"))?);
        split_evenly(
            h,
            key("hidden_size", "dim"),
            d_model,
            key("num_attention_heads", "n_heads"),
            n_heads,
        )?;
        let act_key = key("hidden_act", "activation");
        let activation = match h.string_or(act_key, "gelu")?.as_str() {
            "gelu" => Activation::Gelu,
            "gelu_new" | "gelu_pytorch_tanh" | "gelu_fast" => Activation::GeluTanh,
            "relu" => Activation::Relu,
            other => {
                return Err(h.bad(
                    act_key,
                    format!("is {other:?}; \"gelu\", \"gelu_new\" and \"relu\" are implemented"),
                ))
            }
        };
        let padding = match variant {
            Variant::Roberta | Variant::MpNet => h.integer("pad_token_id")?.unwrap_or(1),
            _ => 0,
        };
        let position_offset = match variant {
            Variant::Roberta | Variant::MpNet => usize::try_from(padding + 1)
                .map_err(|_| h.bad("pad_token_id", format!("= {padding}: must not be negative")))?,
            _ => 0,
        };
        let type_vocab_size = match variant {
            Variant::Bert | Variant::Roberta => h.count_or("type_vocab_size", 2)?,
            _ => 0,
        };
        let eps = if distil { 1e-12 } else { h.epsilon_or("layer_norm_eps", 1e-12)? };
        let c = Config {
            variant,
            vocab_size: h.count("vocab_size")?,
            d_model,
            n_layers: h.count(key("num_hidden_layers", "n_layers"))?,
            n_heads,
            d_ff: h.count(key("intermediate_size", "hidden_dim"))?,
            max_positions: h.count("max_position_embeddings")?,
            type_vocab_size,
            eps,
            activation,
            position_offset,
            relative_buckets: if variant == Variant::MpNet {
                Some(h.count_or("relative_attention_num_buckets", 32)?)
            } else {
                None
            },
        };
        if c.max_positions <= c.position_offset {
            return Err(h.bad(
                "max_position_embeddings",
                format!(
                    "= {}: leaves no position after the offset of {}",
                    c.max_positions, c.position_offset
                ),
            ));
        }
        Ok(c)
    }

    pub fn d_head(&self) -> usize {
        self.d_model / self.n_heads
    }

    /// Longest input the position table allows.
    pub fn positions(&self) -> usize {
        self.max_positions - self.position_offset
    }
}
