//! The messages between the page and its worker, and what they carry.

mod analysis;
mod speech;
mod translation;
mod writing;

pub use analysis::{AnalysisReply, AnalysisRequest};
pub use speech::{
    HeardWord, Recording, SpeechStep, SpeechSummary, StepFrame, MAX_SECONDS, STEP_FRAMES,
};
pub use translation::{CrossHead, TranslationSummary};
pub use writing::{WriteReply, WriteRequest};

use crate::analysis::HeadStats;
use crate::attention::Mask;
use crate::tensor::Matrix;
use crate::trace::{ModelId, ModelInfo, PatchGrid, Thumbnail};
use serde::{Deserialize, Serialize};

/// Switches that change the computation (lessons flip them).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    /// Teaching model: include the positional encoding.
    pub positional_encoding: bool,
    /// Multiplies the scaled scores before the softmax (1 = the model's own).
    pub temperature_factor: f32,
    /// Drop the 1/√d_k factor.
    pub unscaled: bool,
    /// Temperature for the next-token distribution (decoders).
    pub next_token_temperature: f32,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            positional_encoding: true,
            temperature_factor: 1.0,
            unscaled: false,
            next_token_temperature: 1.0,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunSummary {
    pub id: u64,
    pub info: ModelInfo,
    pub tokens: Vec<String>,
    pub token_ids: Option<Vec<u32>>,
    pub notice: Option<String>,
    /// [layer][head]: A pooled to at most THUMB_MAX × THUMB_MAX (every cell
    /// its own when the text is short).
    pub overview: Vec<Vec<Thumbnail>>,
    /// kv_head_of[h] per query head (grouped-query models mark their groups).
    pub kv_head_of: Vec<usize>,
    pub catalog: Vec<HeadStats>,
    /// What each head was designed to do (teaching model; empty for learned models).
    pub head_notes: Vec<String>,
    pub top_next: Option<Vec<(String, f32)>>,
    pub sentence_embedding_norm: Option<f32>,
    /// Time spent computing, measured where it ran.
    pub compute_ms: f64,
    /// The worker's wasm memory (which only grows, so also its peak), with
    /// its helper's if it has one; set by the worker shell, None where it is
    /// not measured.
    #[serde(default)]
    pub memory_bytes: Option<u64>,
    /// Workers `memory_bytes` counts (2 with SmolLM2's helper).
    #[serde(default = "one")]
    pub memory_workers: usize,
    /// Threads the products ran on (2 when a decoder's helper took part).
    #[serde(default = "one")]
    pub threads: usize,
    /// Why a decoder ran on one thread where it had asked for two (its
    /// helper worker could not start, or stopped).
    #[serde(default)]
    pub alone: Option<String>,
    /// Translation models: the translation and its cross-attention (the
    /// trace above is then the encoder's self-attention).
    #[serde(default)]
    pub translation: Option<Box<TranslationSummary>>,
    /// A step of writing: what it chose, and the text with it.
    #[serde(default)]
    pub written: Option<Box<WriteReply>>,
    /// A vision trace: its picture and the patch grid (the Image tab).
    #[serde(default)]
    pub vision: Option<Box<VisionSummary>>,
}

/// A vision trace's picture and how its tokens tile it: what the page's
/// Image tab draws the chosen head's weights over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VisionSummary {
    pub grid: PatchGrid,
    pub width: usize,
    pub height: usize,
    /// `height` rows of `width` pixels, 3 bytes each (red, green, blue).
    #[serde(with = "crate::tensor::wire")]
    pub rgb: Vec<u8>,
}

fn one() -> usize {
    1
}

/// Everything the head, dot-grid and step-by-step views need for one head.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadDetail {
    pub id: u64,
    pub layer: usize,
    pub head: usize,
    pub kv_head: usize,
    pub scale: f32,
    /// The mask the model uses, and the other one as a what-if.
    pub mask: Mask,
    pub what_if_mask: Mask,
    pub scores: Matrix,
    pub weights: Matrix,
    pub what_if_weights: Matrix,
    /// This head's Q and its key/value group's K and V.
    pub q: Matrix,
    pub k: Matrix,
    pub v: Matrix,
    pub output: Matrix,
    /// E entering the layer and E + ΔE after it (rows are tokens).
    pub input: Matrix,
    pub residual: Matrix,
    pub delta: Matrix,
    /// `input`, `residual` and `delta` are left out (empty): the page asked
    /// without them, holding this run's layer from the head before
    /// (`ToWorker::Head`'s `with_layer`); a long text's are 7 MB.
    #[serde(default)]
    pub layer_left_out: bool,
}

impl HeadDetail {
    /// Head `head` of `l`, layer `layer` of run `id`, with the layer's E, E + ΔE and ΔE
    /// (`parts`) or without them.
    pub fn of(
        id: u64,
        l: &crate::trace::LayerTrace,
        (layer, head): (usize, usize),
        parts: Option<(Matrix, Matrix, Matrix)>,
    ) -> crate::error::Result<HeadDetail> {
        if head >= l.attention.heads.len() {
            return Err(crate::error::Error::Invalid(format!("no head {head}")));
        }
        // A long text's head is computed again from its Q and K (and is then
        // moved, not copied, into the detail).
        let h = l.attention.head(head).into_owned();
        let kv = l.attention.kv_head_of[head];
        let what_if_mask = if h.mask == Mask::None { Mask::Causal } else { Mask::None };
        let layer_left_out = parts.is_none();
        let (input, residual, delta) = parts
            .unwrap_or_else(|| (Matrix::zeros(0, 0), Matrix::zeros(0, 0), Matrix::zeros(0, 0)));
        Ok(HeadDetail {
            id,
            layer,
            head,
            kv_head: kv,
            scale: h.scale,
            mask: h.mask,
            what_if_mask,
            what_if_weights: h.reweighed(what_if_mask, h.scale),
            q: l.attention.q[head].clone(),
            k: l.attention.k[kv].clone(),
            v: l.attention.v[kv].clone(),
            output: h.output,
            scores: h.scores,
            weights: h.weights,
            input,
            residual,
            delta,
            layer_left_out,
        })
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ToWorker {
    /// Download (or read from the cache) and load a real model; answered by
    /// Progress reports, then Loaded or LoadFailed.
    Load {
        model: ModelId,
        /// The weights as published, not a smaller copy (`ModelId::files_for`).
        #[serde(default)]
        exact: bool,
    },
    Run {
        id: u64,
        model: ModelId,
        text: String,
        options: RunOptions,
    },
    Head {
        id: u64,
        layer: usize,
        head: usize,
        /// With the layer's E, E + ΔE and ΔE; false when the page holds
        /// them from this run's head before, in the same layer.
        with_layer: bool,
    },
    /// The latest run's attention as the CLI's JSON (`attnscope attention --json`).
    Export {
        id: u64,
    },
    /// Ranks every head of the latest run by the weight token `query` gives
    /// token `key` (computed from the full A, not the pooled overview).
    FindHeads {
        id: u64,
        query: usize,
        key: usize,
    },
    /// Row `query` of every head's A in `layer` of the latest run: where
    /// one query looks in each head (the Image tab's heads side by side).
    QueryRows {
        id: u64,
        layer: usize,
        query: usize,
    },
    /// Another text through the same model and options, for a side-by-side
    /// view of one head; the latest run stays the latest.
    Compare {
        id: u64,
        model: ModelId,
        text: String,
        options: RunOptions,
        layer: usize,
        head: usize,
    },
    /// About a model opened from the visitor's files (`session::custom`).
    Custom(super::custom::CustomRequest),
    /// One step of writing (decoders): a token chosen and appended, run on
    /// top of the key/value cache; answered by a `Result` with `written`.
    Write {
        id: u64,
        model: ModelId,
        request: WriteRequest,
    },
    /// The latest run as it was at its first `tokens` tokens (a step of a
    /// generation, on its timeline); answered by a `Result`. The views'
    /// questions then go to that cut trace, until the next run.
    Show {
        id: u64,
        model: ModelId,
        tokens: usize,
    },
    /// Beyond the weights (`session/analysis.rs`): about run `id` of `model` on `text`.
    Analyze {
        id: u64,
        model: ModelId,
        text: String,
        request: AnalysisRequest,
    },
    /// A clip for a speech model (Whisper) to transcribe; answered by `Heard`.
    Listen {
        id: u64,
        model: ModelId,
        recording: Recording,
    },
    /// One token of the latest clip through one cross-attention head, step
    /// by step (`id`: the clip's); answered by `SpeechStep`.
    SpeechStep {
        id: u64,
        model: ModelId,
        layer: usize,
        head: usize,
        token: usize,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum FromWorker {
    Ready,
    Progress {
        model: ModelId,
        loaded: u64,
        total: u64,
    },
    Loaded {
        model: ModelId,
    },
    LoadFailed {
        model: ModelId,
        message: String,
    },
    /// How far run `id` is: `done` of its `blocks` (layers), on a text of
    /// `tokens`; sent during long runs only (`decoder::REPORT_FROM`).
    Computing {
        id: u64,
        done: usize,
        blocks: usize,
        tokens: usize,
    },
    Result(Box<RunSummary>),
    Head(Box<HeadDetail>),
    Export {
        id: u64,
        json: String,
    },
    /// The answer to `FindHeads`, strongest head first.
    Heads {
        id: u64,
        query: usize,
        key: usize,
        heads: Vec<crate::analysis::HeadMatch>,
    },
    /// The answer to `QueryRows`: [head][key], one row per head of the layer.
    QueryRows {
        id: u64,
        layer: usize,
        query: usize,
        rows: Matrix,
    },
    /// The answer to `Compare`: the other text's tokens and that head.
    Compared {
        id: u64,
        tokens: Vec<String>,
        detail: Box<HeadDetail>,
    },
    Failed {
        id: u64,
        message: String,
    },
    Custom(super::custom::CustomReply),
    /// The answer to `Analyze` (several for an importance map: its progress, then the map).
    Analysis {
        id: u64,
        reply: Box<super::AnalysisReply>,
    },
    /// The answer to `Listen`: the transcript and its attention.
    Heard {
        id: u64,
        speech: Box<SpeechSummary>,
    },
    /// The answer to `SpeechStep`.
    SpeechStep {
        id: u64,
        step: Box<SpeechStep>,
    },
}
