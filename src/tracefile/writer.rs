//! Writes a trace file from one of our own models' [`ModelTrace`]: the
//! weights, the queries and keys, the thumbnails the page would draw.

use super::format::{
    MaskSpec, Masks, ModelDescription, NextToken, QueriesKeys, TraceDescription, FORMAT,
};
use super::index::Element;
use super::{attention_name, keys_name, queries_name, TraceFileError, THUMBNAILS_NAME};
use crate::attention::{apply_mask, softmax_rows};
use crate::tensor::Matrix;
use crate::trace::ModelTrace;
use crate::trace::{pool, Thumbnail, THUMB_MAX};
use safetensors::{Dtype, View};
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::Path;

/// What to put in the file besides the weights.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// Element type of weights, queries and keys: F16 (half the size) or F32.
    pub element: Element,
    /// Store every layer's queries and keys (for step by step).
    pub queries_keys: bool,
    /// Store the overview's thumbnails.
    pub thumbnails: bool,
    /// The text the trace was computed from.
    pub text: Option<String>,
    /// How positions reach Q and K (`rope`, `input`, `none`).
    pub positions: Option<String>,
}

impl Default for WriteOptions {
    fn default() -> Self {
        Self {
            element: Element::F16,
            queries_keys: true,
            thumbnails: true,
            text: None,
            positions: None,
        }
    }
}

/// The model's class in transformers' terms, for our own models.
fn model_description(id: &str, name: &str) -> ModelDescription {
    let (architecture, model_type) = match id {
        "minilm" => ("BertModel", Some("bert")),
        "smollm2" => ("LlamaForCausalLM", Some("llama")),
        _ => ("attnscope", None),
    };
    ModelDescription {
        name: name.to_string(),
        architecture: architecture.into(),
        model_type: model_type.map(String::from),
    }
}

/// The description of `trace` as a trace file would carry it.
pub fn describe(
    trace: &ModelTrace,
    options: &WriteOptions,
) -> Result<TraceDescription, TraceFileError> {
    let info = &trace.info;
    let first = trace
        .layers
        .first()
        .ok_or_else(|| TraceFileError::Invalid(format!("{} has no layers to write", info.name)))?;
    if trace.tokens.is_empty() {
        return Err(TraceFileError::Invalid(
            "the text has no tokens: there is no attention to write".into(),
        ));
    }
    let masks: Vec<MaskSpec> = trace
        .layers
        .iter()
        .map(|l| l.attention.heads.first().map_or(info.mask, |h| h.mask).into())
        .collect();
    let mask = if masks.iter().all(|m| *m == masks[0]) {
        Masks::All(masks[0])
    } else {
        Masks::PerLayer(masks)
    };
    let queries_keys = if options.queries_keys {
        let scale = first.attention.heads.first().map_or(1.0, |h| h.scale);
        if trace.layers.iter().flat_map(|l| &l.attention.heads).any(|h| h.scale != scale) {
            return Err(TraceFileError::Invalid(
                "the heads were scaled differently; a trace file has one scale".into(),
            ));
        }
        Some(QueriesKeys {
            scale,
            positions: options.positions.clone(),
            max_abs_error: Some(recompute_error(trace, scale)),
        })
    } else {
        None
    };
    Ok(TraceDescription {
        model: model_description(&info.id, &info.name),
        n_layers: trace.layers.len(),
        n_heads: first.attention.heads.len(),
        n_kv_heads: first.attention.k.len(),
        mask,
        text: options.text.clone(),
        tokens: trace.tokens.clone(),
        token_ids: trace.token_ids.clone(),
        top_next: trace.top_next.as_ref().map(|top| {
            top.iter()
                .map(|(token, p)| NextToken { token: token.clone(), id: None, probability: *p })
                .collect()
        }),
        queries_keys,
        writer: Some(format!("attnscope {}", env!("CARGO_PKG_VERSION"))),
        patches: None,
    })
}

/// The largest difference between a stored weight and the same weight
/// recomputed from the stored Q and K, as a reader would.
fn recompute_error(trace: &ModelTrace, scale: f32) -> f32 {
    let mut worst = 0.0f32;
    for layer in &trace.layers {
        let att = &layer.attention;
        for h in 0..att.heads.len() {
            let head = att.head(h);
            let scores = att.q[h].matmul_t(&att.k[att.kv_head_of[h]]); //  S = Q Kᵀ
            let again = softmax_rows(apply_mask(scores.map(|s| s * scale), head.mask)); // softmax(S·scale + M)
            worst = worst.max(again.max_abs_diff(&head.weights));
        }
    }
    worst
}

/// Writes `trace` to `path` as a trace file (docs/trace-format.md). Each
/// tensor's bytes are made as the file is written, one tensor at a time.
pub fn write_model_trace(
    trace: &ModelTrace,
    options: &WriteOptions,
    path: &Path,
) -> Result<(), TraceFileError> {
    if matches!(options.element, Element::U16 | Element::U8) {
        return Err(TraceFileError::Invalid("weights are written as F16 or F32".into()));
    }
    let description = describe(trace, options)?;
    let t = trace.tokens.len();
    let mut tensors: Vec<(String, Tensor)> = Vec::new();
    for (l, layer) in trace.layers.iter().enumerate() {
        let att = &layer.attention;
        if layer.summaries.is_some() {
            return Err(TraceFileError::Invalid(format!(
                "a trace file is written for texts of up to {} tokens (the trace of a longer one keeps Q and K, not every head's weights)",
                crate::trace::KEEP_WEIGHTS_UP_TO
            )));
        }
        let weights: Vec<&Matrix> = att.heads.iter().map(|h| &h.weights).collect();
        if weights.iter().any(|w| w.shape() != (t, t)) {
            return Err(TraceFileError::Invalid(format!("layer {l}'s weights are not {t} × {t}")));
        }
        tensors.push((attention_name(l), Tensor::floats(weights, options.element)));
        if options.queries_keys {
            let d = att.q.first().map_or(0, |q| q.cols);
            if att.q.iter().chain(&att.k).any(|m| m.shape() != (t, d)) {
                return Err(TraceFileError::Invalid(format!(
                    "layer {l}'s queries and keys are not all {t} × {d}"
                )));
            }
            tensors
                .push((queries_name(l), Tensor::floats(att.q.iter().collect(), options.element)));
            tensors.push((keys_name(l), Tensor::floats(att.k.iter().collect(), options.element)));
        }
    }
    if options.thumbnails {
        let s = t.min(THUMB_MAX);
        // Pooled from the weights as stored, as a reader without thumbnails would.
        let stored = |w: &Matrix| match options.element {
            Element::F16 => w.map(|x| half::f16::from_f32(x).to_f32()),
            _ => w.clone(),
        };
        let levels = trace
            .layers
            .iter()
            .flat_map(|l| &l.attention.heads)
            .flat_map(|h| Thumbnail::new(&pool(&stored(&h.weights), THUMB_MAX)).levels)
            .collect();
        let shape = vec![trace.layers.len(), description.n_heads, s, s];
        tensors.push((THUMBNAILS_NAME.to_string(), Tensor { shape, body: Body::Levels(levels) }));
    }
    let trace_json =
        serde_json::to_string(&description).expect("strings and numbers always serialise");
    let metadata = HashMap::from([
        ("format".to_string(), FORMAT.to_string()),
        ("format_version".to_string(), description.version().to_string()),
        ("trace".to_string(), trace_json),
    ]);
    safetensors::serialize_to_file(tensors, Some(metadata), path).map_err(|e| {
        let _ = std::fs::remove_file(path);
        TraceFileError::Io(format!("cannot write {}: {e}", path.display()))
    })
}

/// A tensor whose bytes are made when the file writer asks for them.
struct Tensor<'a> {
    shape: Vec<usize>,
    body: Body<'a>,
}

enum Body<'a> {
    /// Equal-shaped matrices, one after the other.
    Floats(Vec<&'a Matrix>, Element),
    Levels(Vec<u16>),
}

impl<'a> Tensor<'a> {
    fn floats(matrices: Vec<&'a Matrix>, element: Element) -> Self {
        let (rows, cols) = matrices.first().map_or((0, 0), |m| m.shape());
        Self { shape: vec![matrices.len(), rows, cols], body: Body::Floats(matrices, element) }
    }
}

impl View for Tensor<'_> {
    fn dtype(&self) -> Dtype {
        match &self.body {
            Body::Floats(_, e) => e.dtype(),
            Body::Levels(_) => Dtype::U16,
        }
    }

    fn shape(&self) -> &[usize] {
        &self.shape
    }

    fn data(&self) -> Cow<'_, [u8]> {
        let bytes = match &self.body {
            Body::Floats(ms, Element::F16) => ms
                .iter()
                .flat_map(|m| &m.data)
                .flat_map(|&x| half::f16::from_f32(x).to_le_bytes())
                .collect(),
            Body::Floats(ms, _) => {
                ms.iter().flat_map(|m| &m.data).flat_map(|x| x.to_le_bytes()).collect()
            }
            Body::Levels(levels) => levels.iter().flat_map(|l| l.to_le_bytes()).collect(),
        };
        Cow::Owned(bytes)
    }

    fn data_len(&self) -> usize {
        self.shape.iter().product::<usize>() * (self.dtype().bitsize() / 8)
    }
}
