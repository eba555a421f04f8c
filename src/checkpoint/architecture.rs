//! Which architecture a checkpoint holds: from `config.json`'s `model_type`
//! (or its `architectures`) or a GGUF's `general.architecture`.

use crate::error::{Error, Result};
use crate::formats::gguf::Gguf;
use crate::formats::hparams::Hparams;
use crate::models::{encoder, llama};

/// The architectures attnscope runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Architecture {
    Encoder(encoder::Variant),
    Llama(llama::Variant),
    Gpt2,
    Gemma3,
}

impl Architecture {
    /// From `config.json`'s `model_type`, else its `architectures`.
    pub(super) fn from_hf(h: &Hparams) -> Result<Architecture> {
        let model_type = h.string_or("model_type", "")?;
        let by_type = match model_type.as_str() {
            "bert" => Some(Architecture::Encoder(encoder::Variant::Bert)),
            "roberta" | "xlm-roberta" | "camembert" => {
                Some(Architecture::Encoder(encoder::Variant::Roberta))
            }
            "distilbert" => Some(Architecture::Encoder(encoder::Variant::DistilBert)),
            "mpnet" => Some(Architecture::Encoder(encoder::Variant::MpNet)),
            "gpt2" => Some(Architecture::Gpt2),
            "llama" => Some(Architecture::Llama(llama::Variant::Llama)),
            "mistral" => Some(Architecture::Llama(llama::Variant::Mistral)),
            "qwen2" => Some(Architecture::Llama(llama::Variant::Qwen2)),
            "gemma3_text" => Some(Architecture::Gemma3),
            _ => None,
        };
        let classes: Vec<String> = h
            .json("architectures")
            .and_then(|a| a.as_array())
            .map(|a| a.iter().filter_map(|c| c.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let by_class = |c: &str| {
            let family = |prefix: &str| c.starts_with(prefix);
            if family("DistilBert") {
                Some(Architecture::Encoder(encoder::Variant::DistilBert))
            } else if family("Bert") {
                Some(Architecture::Encoder(encoder::Variant::Bert))
            } else if family("Roberta") || family("XLMRoberta") {
                Some(Architecture::Encoder(encoder::Variant::Roberta))
            } else if family("MPNet") {
                Some(Architecture::Encoder(encoder::Variant::MpNet))
            } else if family("GPT2") {
                Some(Architecture::Gpt2)
            } else if family("LlamaFor") {
                Some(Architecture::Llama(llama::Variant::Llama))
            } else if family("MistralFor") {
                Some(Architecture::Llama(llama::Variant::Mistral))
            } else if family("Qwen2For") {
                Some(Architecture::Llama(llama::Variant::Qwen2))
            } else if c == "Gemma3ForCausalLM" {
                Some(Architecture::Gemma3)
            } else {
                None
            }
        };
        match by_type.or_else(|| if model_type.is_empty() { classes.iter().find_map(|c| by_class(c)) } else { None }) {
            Some(a) => Ok(a),
            None => Err(Error::ModelFile(format!(
                "config.json describes model_type {model_type:?} (architectures {classes:?}), which attnscope cannot run; it runs {SUPPORTED}"
            ))),
        }
    }

    /// From a GGUF's `general.architecture`.
    pub(super) fn from_gguf(g: &Gguf) -> Result<Architecture> {
        let arch = g.get_str("general.architecture")?;
        let name = g.metadata.get("general.name").and_then(|v| v.as_str()).unwrap_or("");
        Ok(match arch {
            "llama" if name.to_lowercase().contains("mistral") => Architecture::Llama(llama::Variant::Mistral),
            "llama" => Architecture::Llama(llama::Variant::Llama),
            "qwen2" => Architecture::Llama(llama::Variant::Qwen2),
            "gpt2" => Architecture::Gpt2,
            "gemma3" => Architecture::Gemma3,
            "bert" | "nomic-bert" | "jina-bert-v2" => {
                return Err(Error::ModelFile(format!(
                    "this GGUF holds a {arch:?} encoder; attnscope reads encoders from a Hugging Face folder (config.json, tokenizer.json, model.safetensors)"
                )))
            }
            other => return Err(Error::ModelFile(format!("this GGUF's general.architecture is {other:?}, which attnscope cannot run; it runs {SUPPORTED}"))),
        })
    }

    /// How positions reach Q and K, in the trace format's words
    /// (docs/trace-format.md): rotated (`rope`), added to the input
    /// (`input`), or MPNet's learned bias on the scores (`relative_bias`).
    pub fn positions(self) -> &'static str {
        match self {
            Architecture::Encoder(encoder::Variant::MpNet) => "relative_bias",
            Architecture::Encoder(_) | Architecture::Gpt2 => "input",
            Architecture::Llama(_) | Architecture::Gemma3 => "rope",
        }
    }

    /// As the page names it.
    pub fn label(self) -> &'static str {
        match self {
            Architecture::Encoder(encoder::Variant::Bert) => "BERT encoder",
            Architecture::Encoder(encoder::Variant::Roberta) => "RoBERTa encoder",
            Architecture::Encoder(encoder::Variant::DistilBert) => "DistilBERT encoder",
            Architecture::Encoder(encoder::Variant::MpNet) => "MPNet encoder",
            Architecture::Llama(llama::Variant::Llama) => "Llama decoder",
            Architecture::Llama(llama::Variant::Mistral) => "Mistral decoder",
            Architecture::Llama(llama::Variant::Qwen2) => "Qwen2 decoder",
            Architecture::Gpt2 => "GPT-2 decoder",
            Architecture::Gemma3 => "Gemma 3 decoder",
        }
    }
}

/// What the messages list as runnable.
const SUPPORTED: &str =
    "BERT, RoBERTa, DistilBERT, MPNet, GPT-2, Llama (SmolLM), Mistral, Qwen2 and Gemma 3";
