//! A checkpoint from its files: a Hugging Face folder (`config.json`, a
//! tokenizer, `model.safetensors` or its shards) or one GGUF file. This is
//! where the architecture is recognised, every hyper-parameter checked
//! (`hparams`), the model described before it is loaded ([`Description`])
//! and then loaded into its family: the BERT-family [`Encoder`], or a
//! [`Decoder`] of the Llama, GPT-2 or Gemma 3 family.
//!
//! The built-in checkpoints are here too: [`minilm`] (an encoder) and
//! [`smollm2`] (a Llama-family decoder).
//!
//! Files are read through a [`Source`] by range, header first, so that a
//! description costs a header and a model its weights, never a second copy
//! of the file.

mod architecture;
mod memory;
pub mod minilm;
#[cfg(not(target_arch = "wasm32"))]
mod native;
pub mod smollm2;

use crate::error::{Error, Result};
use crate::formats::gguf::Gguf;
use crate::formats::hparams::{parse_json, Hparams};
use crate::formats::safetensors::SafetensorsFile;
use crate::formats::source::Source;
use crate::formats::tokenizer::{self, TextTokenizer};
use crate::formats::weights::Weights;
use crate::kernels::quant::QType;
use crate::models::decoder::{self, Decoder, Identity as DecoderIdentity};
use crate::models::encoder::{self, Encoder, Identity as EncoderIdentity};
use crate::models::{gemma3, gpt2, llama};
use crate::trace::{ModelInfo, ModelTrace};
pub use architecture::Architecture;
use memory::{longest_that_fits, memory_needed, TraceDims};

/// A tokenizer as a Hugging Face folder ships it.
pub enum TokenizerFiles {
    /// `tokenizer.json`.
    Json(Vec<u8>),
    /// GPT-2's `vocab.json` and `merges.txt`.
    VocabAndMerges(Vec<u8>, Vec<u8>),
    /// Neither.
    Missing,
}

/// The files of a Hugging Face folder.
pub struct Folder<'s> {
    /// The folder's name, shown for the model.
    pub name: String,
    pub config: Vec<u8>,
    pub tokenizer: TokenizerFiles,
    /// `sentence_bert_config.json`, whose `max_seq_length` an encoder keeps to.
    pub sentence_bert_config: Option<Vec<u8>>,
    /// `model.safetensors`, or each shard its index lists.
    pub weights: Vec<Box<dyn Source + 's>>,
}

/// A checkpoint's files, not yet read.
pub enum Checkpoint<'s> {
    Folder(Folder<'s>),
    Gguf(Box<dyn Source + 's>),
}

/// What a checkpoint is, read from its header and configuration alone.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Description {
    /// The architecture as found (`qwen2`, `BertModel`) and as named here.
    pub found: String,
    pub architecture: String,
    /// How positions reach Q and K: `rope`, `input` or `relative_bias`.
    pub positions: String,
    /// The checkpoint's own name, where it states one.
    pub name: String,
    pub n_layers: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub d_model: usize,
    pub d_head: usize,
    pub vocab_size: usize,
    pub parameters: u64,
    /// Bytes of the files.
    pub file_bytes: u64,
    /// Bytes the weights take once loaded (kept quantized from a GGUF,
    /// widened to f32 from safetensors).
    pub weight_bytes: u64,
    /// Bytes of one trace (every layer's Q, K, V, S, A, …) at `max_tokens`.
    pub trace_bytes: u64,
    pub max_tokens: usize,
    /// How the weights are stored: `GGUF Q5_0 ×133, F32 ×121, …` or `safetensors F32`.
    pub weights_format: String,
}

impl Description {
    /// What the model will need in memory: its weights and two traces (the
    /// one shown and the one being extended as the text grows).
    pub fn memory_bytes(&self) -> u64 {
        memory_needed(self.weight_bytes, self.trace_bytes)
    }
}

/// A model loaded from a checkpoint.
pub enum Model {
    Encoder(Box<Encoder>),
    Decoder(Box<Decoder>),
}

impl Model {
    pub fn info(&self) -> ModelInfo {
        match self {
            Model::Encoder(e) => e.info(),
            Model::Decoder(d) => d.info(),
        }
    }

    pub fn run(&self, text: &str) -> Result<ModelTrace> {
        match self {
            Model::Encoder(e) => e.run(text),
            Model::Decoder(d) => d.run(text),
        }
    }
}

/// A family's configuration, checked.
enum Family {
    Encoder(encoder::Config),
    Llama(llama::Config, bool),
    Gpt2(gpt2::Config),
    Gemma3(gemma3::Config),
}

impl Family {
    /// The sizes a trace grows with, and the vocabulary.
    fn sizes(&self) -> (TraceDims, usize) {
        let (n_layers, n_heads, n_kv_heads, d_model, d_head, vocab) = match self {
            Family::Encoder(c) => {
                (c.n_layers, c.n_heads, c.n_heads, c.d_model, c.d_head(), c.vocab_size)
            }
            Family::Llama(c, _) => {
                (c.n_layers, c.n_heads, c.n_kv_heads, c.d_model, c.d_head, c.vocab_size)
            }
            Family::Gpt2(c) => {
                (c.n_layers, c.n_heads, c.n_heads, c.d_model, c.d_head(), c.vocab_size)
            }
            Family::Gemma3(c) => {
                (c.n_layers, c.n_heads, c.n_kv_heads, c.d_model, c.d_head, c.vocab_size)
            }
        };
        let decoder = !matches!(self, Family::Encoder(_));
        (TraceDims { n_layers, n_heads, n_kv_heads, d_model, d_head, decoder }, vocab)
    }
}

/// What is read before any weight: the header(s) and configuration.
struct Header<'a> {
    architecture: Architecture,
    found: String,
    name: String,
    family: Family,
    weights: Weights<'a>,
    gguf: Option<&'a Gguf>,
}

/// The longest input an encoder takes: sentence-transformers' limit where
/// the folder states one, else its position table up to 512 tokens.
fn encoder_max_tokens(
    config: &encoder::Config,
    sentence_bert_config: Option<&[u8]>,
) -> Result<usize> {
    let stated = match sentence_bert_config {
        Some(bytes) => parse_json(bytes, "sentence_bert_config.json")?
            .get("max_seq_length")
            .and_then(|v| v.as_u64()),
        None => None,
    };
    Ok(stated.map_or(512, |n| n as usize).min(config.positions()))
}

impl<'s> Checkpoint<'s> {
    /// Reads what [`Checkpoint::describe`] and [`Checkpoint::load`] start from.
    fn header<'a>(&'a self, gguf: &'a mut Option<Gguf>) -> Result<Header<'a>> {
        match self {
            Checkpoint::Folder(folder) => {
                let h = Hparams::Json(parse_json(&folder.config, "config.json")?);
                let architecture = Architecture::from_hf(&h)?;
                let found = h.string_or("model_type", "")?;
                let files = folder
                    .weights
                    .iter()
                    .map(|src| SafetensorsFile::read(src.as_ref()))
                    .collect::<Result<Vec<_>>>()?;
                if files.is_empty() {
                    return Err(Error::ModelFile(
                        "the folder has no weights: model.safetensors (or its shards) is missing"
                            .into(),
                    ));
                }
                let family = match architecture {
                    Architecture::Encoder(v) => Family::Encoder(encoder::Config::from_hf(&h, v)?),
                    Architecture::Llama(v) => {
                        let tied = h.flag_or("tie_word_embeddings", false)?;
                        Family::Llama(llama::Config::from_hf(&h, v)?, tied)
                    }
                    Architecture::Gpt2 => Family::Gpt2(gpt2::Config::from_hf(&h)?),
                    Architecture::Gemma3 => Family::Gemma3(gemma3::Config::from_hf(&h)?),
                };
                Ok(Header {
                    architecture,
                    found,
                    name: folder.name.clone(),
                    family,
                    weights: Weights::Safetensors(files),
                    gguf: None,
                })
            }
            Checkpoint::Gguf(src) => {
                let g: &Gguf = gguf.insert(Gguf::read(src.as_ref())?);
                let architecture = Architecture::from_gguf(g)?;
                let found = g.get_str("general.architecture")?.to_string();
                let name = g
                    .metadata
                    .get("general.name")
                    .and_then(|v| v.as_str())
                    .unwrap_or(&found)
                    .to_string();
                let h = Hparams::gguf(g, &found);
                let weights = Weights::Gguf { gguf: g, src: src.as_ref() };
                // The embedding's rows are the vocabulary the weights were trained with.
                let vocab =
                    match weights.shape("token_embd.weight") {
                        Some(s) if s.len() == 2 => s[0],
                        _ => return Err(Error::ModelFile(
                            "the GGUF file has no 2-D `token_embd.weight`: not a model it can run"
                                .into(),
                        )),
                    };
                let family = match architecture {
                    Architecture::Llama(v) => Family::Llama(
                        llama::Config::from_gguf(&h, v, vocab)?,
                        !weights.has("output.weight"),
                    ),
                    Architecture::Gpt2 => Family::Gpt2(gpt2::Config::from_gguf(&h, vocab)?),
                    Architecture::Gemma3 => Family::Gemma3(gemma3::Config::from_gguf(&h, vocab)?),
                    Architecture::Encoder(_) => {
                        return Err(Error::ModelFile("a GGUF encoder cannot be read".into()))
                    }
                };
                Ok(Header { architecture, found, name, family, weights, gguf: Some(g) })
            }
        }
    }

    /// The architecture, sizes and memory of the checkpoint, from its header
    /// and configuration alone (no weight is read).
    pub fn describe(&self) -> Result<Description> {
        let mut gguf = None;
        let header = self.header(&mut gguf)?;
        let w = &header.weights;
        let (dims, vocab_size) = header.family.sizes();
        let TraceDims { n_layers, n_heads, n_kv_heads, d_model, d_head, .. } = dims;
        let file_bytes = match self {
            Checkpoint::Folder(f) => {
                f.weights.iter().map(|s| s.len()).sum::<u64>() + f.config.len() as u64
            }
            Checkpoint::Gguf(src) => src.len(),
        };
        let parameters = w.parameters();
        let weight_bytes = self.weight_bytes(&header);
        let weights_format = match header.gguf {
            Some(g) => gguf_types(g),
            None => format!("safetensors {}", safetensors_types(&files_of(w))),
        };
        let max_tokens = self.max_tokens(&header)?;
        Ok(Description {
            found: header.found.clone(),
            architecture: header.architecture.label().to_string(),
            positions: header.architecture.positions().to_string(),
            name: header.name.clone(),
            n_layers,
            n_heads,
            n_kv_heads,
            d_model,
            d_head,
            vocab_size,
            parameters,
            file_bytes,
            weight_bytes,
            trace_bytes: dims.trace_bytes(max_tokens),
            max_tokens,
            weights_format,
        })
    }

    /// Bytes the weights take once loaded: kept quantized from a GGUF, widened to f32 from
    /// safetensors.
    fn weight_bytes(&self, header: &Header) -> u64 {
        match (header.gguf, self) {
            (Some(g), Checkpoint::Gguf(src)) => gguf_weight_bytes(g, src.len()),
            _ => header.weights.parameters().saturating_mul(4),
        }
    }

    /// The longest input the model will take: an encoder's stated limit, a
    /// decoder's [`longest_that_fits`].
    fn max_tokens(&self, header: &Header) -> Result<usize> {
        let context = match (&header.family, self) {
            (Family::Encoder(c), Checkpoint::Folder(f)) => {
                return encoder_max_tokens(c, f.sentence_bert_config.as_deref())
            }
            (Family::Encoder(_), _) => {
                return Err(Error::ModelFile("an encoder needs a Hugging Face folder".into()))
            }
            (Family::Gpt2(c), _) => Some(c.n_positions),
            (Family::Llama(c, _), _) => c.context,
            (Family::Gemma3(c), _) => c.context,
        };
        // The file's length bounds a GGUF's weights, and costs nothing to
        // know: the exact sum (`gguf_weight_bytes`) would put its code in the
        // page's default worker, which loads SmolLM2 alone.
        let weights = match self {
            Checkpoint::Gguf(src) => src.len(),
            Checkpoint::Folder(_) => header.weights.parameters().saturating_mul(4),
        };
        Ok(longest_that_fits(context, weights, header.family.sizes().0))
    }

    /// Reads the weights and builds the model, under `id` on the page.
    pub fn load(&self, id: &str) -> Result<Model> {
        let mut gguf = None;
        let header = self.header(&mut gguf)?;
        let max_tokens = self.max_tokens(&header)?;
        let w = &header.weights;
        let name = header.name.clone();
        match (header.family, self) {
            (Family::Encoder(config), Checkpoint::Folder(folder)) => {
                let json = match &folder.tokenizer {
                    TokenizerFiles::Json(json) => json,
                    _ => {
                        return Err(Error::ModelFile(
                            "the folder has no tokenizer.json, which an encoder needs".into(),
                        ))
                    }
                };
                let identity = EncoderIdentity { id: id.to_string(), name, max_tokens };
                Ok(Model::Encoder(Box::new(Encoder::load(identity, config, w, json)?)))
            }
            (family, _) => {
                let tokenizer = match (self, header.gguf) {
                    (Checkpoint::Gguf(_), Some(g)) => tokenizer::gguf::build(g)?,
                    (Checkpoint::Folder(f), _) => match &f.tokenizer {
                        TokenizerFiles::Json(json) => TextTokenizer::from_json(json, None)?,
                        TokenizerFiles::VocabAndMerges(vocab, merges) => TextTokenizer::from_vocab_and_merges(vocab, merges)?,
                        TokenizerFiles::Missing => {
                            return Err(Error::ModelFile(
                                "the folder has no tokenizer: tokenizer.json (or vocab.json and merges.txt) is missing".into(),
                            ))
                        }
                    },
                    _ => return Err(Error::ModelFile("the GGUF header could not be read".into())),
                };
                let (start, ends) = match (self, header.gguf) {
                    (Checkpoint::Gguf(_), Some(g)) => gguf_ends(g),
                    (Checkpoint::Folder(f), _) => folder_ends(&f.config),
                    _ => (None, Vec::new()),
                };
                let tokenizer = tokenizer.with_ends(start, &ends);
                let hf = matches!(self, Checkpoint::Folder(_));
                let names = if hf {
                    decoder::parts::Names::HuggingFace
                } else {
                    decoder::parts::Names::Gguf
                };
                let net: Box<dyn decoder::Net> = match family {
                    Family::Llama(c, tied) => Box::new(llama::Llama::load(w, names, c, tied)?),
                    #[cfg(feature = "extras")]
                    Family::Gpt2(c) => {
                        let names =
                            if hf { gpt2::Names::hugging_face(w) } else { gpt2::Names::Gguf };
                        Box::new(gpt2::Gpt2::load(w, &names, c)?)
                    }
                    #[cfg(feature = "extras")]
                    Family::Gemma3(c) => Box::new(gemma3::Gemma3::load(w, names, c)?),
                    // The page's default worker loads SmolLM2 (Llama) only; opened models go to the
                    // other one.
                    #[cfg(not(feature = "extras"))]
                    Family::Gpt2(_) | Family::Gemma3(_) => return Err(Error::ModelFile(
                        "GPT-2 and Gemma 3 checkpoints need the build with the `extras` feature"
                            .into(),
                    )),
                    Family::Encoder(_) => {
                        return Err(Error::ModelFile(
                            "an encoder needs a Hugging Face folder".into(),
                        ))
                    }
                };
                if tokenizer.vocab_size() > net.shape().vocab_size + 1024 {
                    return Err(Error::ModelFile(format!(
                        "the tokenizer has {} tokens, far more than the {} rows of the token embedding: they do not belong together",
                        tokenizer.vocab_size(),
                        net.shape().vocab_size
                    )));
                }
                let identity = DecoderIdentity { id: id.to_string(), name, max_tokens };
                Ok(Model::Decoder(Box::new(Decoder::new(identity, tokenizer, net))))
            }
        }
    }
}

fn files_of<'a>(w: &'a Weights) -> Vec<&'a SafetensorsFile<'a>> {
    match w {
        Weights::Safetensors(files) => files.iter().collect(),
        Weights::Gguf { .. } => Vec::new(),
    }
}

/// The element types of safetensors files, e.g. `F32` or `BF16, F32`.
fn safetensors_types(files: &[&SafetensorsFile]) -> String {
    let mut types: Vec<&str> =
        files.iter().flat_map(|f| f.tensors.values().map(|t| t.dtype_name.as_str())).collect();
    types.sort_unstable();
    types.dedup();
    types.join(", ")
}

/// GGML's name for a type id (for the description).
fn ggml_type_name(id: u32) -> String {
    let name = match id {
        0 => "F32",
        1 => "F16",
        2 => "Q4_0",
        3 => "Q4_1",
        6 => "Q5_0",
        7 => "Q5_1",
        8 => "Q8_0",
        9 => "Q8_1",
        10 => "Q2_K",
        11 => "Q3_K",
        12 => "Q4_K",
        13 => "Q5_K",
        14 => "Q6_K",
        15 => "Q8_K",
        30 => "BF16",
        other => return format!("type {other}"),
    };
    name.to_string()
}

/// Bytes of a GGUF's tensors as loaded, each kept as stored.
fn gguf_weight_bytes(g: &Gguf, file_len: u64) -> u64 {
    let mut starts: Vec<(usize, &str)> =
        g.tensors.iter().map(|(n, t)| (t.start, n.as_str())).collect();
    starts.sort_unstable();
    let mut bytes = 0u64;
    for (i, &(start, name)) in starts.iter().enumerate() {
        let t = &g.tensors[name];
        let values = t.dims.iter().fold(1u64, |n, &d| n.saturating_mul(d));
        // A known type's size; otherwise up to the next tensor (its size with some alignment
        // padding).
        let known = QType::from_ggml(t.ggml_type)
            .and_then(|q| usize::try_from(values).ok().and_then(|v| q.bytes_for(v)));
        let next = starts.get(i + 1).map_or(file_len, |&(s, _)| s as u64);
        bytes = bytes.saturating_add(known.map_or(next.saturating_sub(start as u64), |b| b as u64));
    }
    bytes
}

/// The tensor types of a GGUF, most frequent first: `GGUF Q4_K ×100, F32 ×50`.
fn gguf_types(g: &Gguf) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for t in g.tensors.values() {
        let name = ggml_type_name(t.ggml_type);
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, c)) => *c += 1,
            None => counts.push((name, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let summary = counts.iter().map(|(n, c)| format!("{n} ×{c}")).collect::<Vec<_>>().join(", ");
    format!("GGUF {summary}")
}

/// A GGUF decoder's start token and the tokens that end its text (end of
/// sequence, end of turn), as its metadata names them.
fn gguf_ends(g: &Gguf) -> (Option<u32>, Vec<u32>) {
    let id = |key: &str| g.get_u64(key).ok().and_then(|v| u32::try_from(v).ok());
    let ends = ["tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id"];
    (id("tokenizer.ggml.bos_token_id"), ends.iter().filter_map(|k| id(k)).collect())
}

/// A Hugging Face decoder's start and end tokens from `config.json`
/// (`eos_token_id` may be one id or a list).
fn folder_ends(config: &[u8]) -> (Option<u32>, Vec<u32>) {
    let v: serde_json::Value = serde_json::from_slice(config).unwrap_or_default();
    let id = |v: &serde_json::Value| v.as_u64().and_then(|x| u32::try_from(x).ok());
    let ends = match &v["eos_token_id"] {
        serde_json::Value::Array(a) => a.iter().filter_map(id).collect(),
        other => id(other).into_iter().collect(),
    };
    (id(&v["bos_token_id"]), ends)
}

/// The shard files `model.safetensors.index.json` (its bytes) names, each
/// once, in order: names beside the index, never a path elsewhere.
pub fn index_shards(index: &[u8]) -> Result<Vec<String>> {
    let index = parse_json(index, "model.safetensors.index.json")?;
    let map = index
        .get("weight_map")
        .and_then(|m| m.as_object())
        .ok_or_else(|| Error::ModelFile("model.safetensors.index.json has no weight_map".into()))?;
    let mut shards: Vec<&str> = map.values().filter_map(|v| v.as_str()).collect();
    shards.sort_unstable();
    shards.dedup();
    if let Some(shard) =
        shards.iter().find(|s| s.contains('/') || s.contains('\\') || s.starts_with('.'))
    {
        return Err(Error::ModelFile(format!(
            "model.safetensors.index.json names a shard outside the folder: {shard:?}"
        )));
    }
    Ok(shards.into_iter().map(String::from).collect())
}
