//! What the page's Web Worker does, minus the browser: it holds the models
//! and the latest trace, runs text, and answers the views' questions with
//! just the numbers they draw. Messages are plain serde types, so this logic
//! is tested natively and the worker itself is a thin shell.
//!
//! The whole trace stays here: the page receives an overview (every head's
//! A, pooled down when the text is long) and, on request, the full detail of
//! one head. That keeps messages small however many heads a model has.

use crate::analysis::{catalog, HeadStats};
use crate::attention::{Mask, Scale};
use crate::error::{Error, Result};
#[cfg(feature = "pretrained")]
use crate::models::minilm::MiniLm;
#[cfg(feature = "pretrained")]
use crate::models::smollm2::{SmolLm2, SmolLm2Session};
use crate::models::teaching::{TeachingModel, TeachingOptions};
use crate::models::{ModelInfo, ModelTrace};
use crate::tensor::Matrix;
use serde::{Deserialize, Serialize};

/// The models the page offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum ModelId {
    #[default]
    Teaching,
    MiniLm,
    SmolLm2,
}

impl ModelId {
    pub const ALL: [ModelId; 3] = [ModelId::Teaching, ModelId::MiniLm, ModelId::SmolLm2];

    /// The short name used in URLs and on the command line.
    pub fn slug(self) -> &'static str {
        match self {
            ModelId::Teaching => "teaching",
            ModelId::MiniLm => "minilm",
            ModelId::SmolLm2 => "smollm2",
        }
    }

    pub fn from_slug(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.slug() == s)
    }
}

/// One file a model needs, as pinned in models/manifest.json (which
/// scripts/fetch_models.py also reads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelFile {
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
}

#[derive(Deserialize)]
struct ManifestEntry {
    files: Vec<ModelFile>,
}

impl ModelId {
    /// The files to download, with sizes and hashes; empty for the built-in model.
    pub fn files(self) -> Vec<ModelFile> {
        if self == ModelId::Teaching {
            return Vec::new();
        }
        let manifest: std::collections::HashMap<String, ManifestEntry> =
            serde_json::from_str(include_str!("../models/manifest.json")).expect("models/manifest.json is valid (checked by tests)");
        manifest.get(self.slug()).map(|e| e.files.clone()).unwrap_or_default()
    }

    /// Total download size in bytes.
    pub fn download_bytes(self) -> u64 {
        self.files().iter().map(|f| f.bytes).sum()
    }

    /// Where the page finds a file: dist/models/<slug>/<name>.
    pub fn url(self, file: &ModelFile) -> String {
        format!("models/{}/{}", self.slug(), file.name)
    }
}

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
        Self { positional_encoding: true, temperature_factor: 1.0, unscaled: false, next_token_temperature: 1.0 }
    }
}

/// Longest side of an overview thumbnail, in cells.
pub const THUMB_MAX: usize = 48;

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
    /// Threads the products ran on (2 when SmolLM2's helper took part).
    #[serde(default = "one")]
    pub threads: usize,
}

fn one() -> usize {
    1
}

/// Everything the head, dot-grid and step-by-step views need for one head.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ToWorker {
    /// Download (or read from the cache) and load a real model; answered by
    /// Progress reports, then Loaded or LoadFailed.
    Load {
        model: ModelId,
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
}

/// Average-pools `a` to at most `max × max` cells, so a long text's head
/// still fits a thumbnail (and a message) while keeping its pattern.
pub fn pool(a: &Matrix, max: usize) -> Matrix {
    if a.rows <= max && a.cols <= max {
        return a.clone();
    }
    // Row i falls in cell row i·r / rows, column j in cell column j·c / cols.
    let (r, c) = (a.rows.min(max), a.cols.min(max));
    // Cell column pj spans columns starts[pj] .. starts[pj + 1].
    let starts: Vec<usize> = (0..=c).map(|pj| (pj * a.cols).div_ceil(c)).collect();
    let mut row_count = vec![0.0f32; r];
    let mut out = Matrix::zeros(r, c);
    for i in 0..a.rows {
        let pi = i * r / a.rows;
        row_count[pi] += 1.0;
        let row = a.row(i);
        for (o, span) in out.row_mut(pi).iter_mut().zip(starts.windows(2)) {
            *o += row[span[0]..span[1]].iter().sum::<f32>();
        }
    }
    for (pi, cells) in out.data.chunks_exact_mut(c).enumerate() {
        for (o, span) in cells.iter_mut().zip(starts.windows(2)) {
            *o /= (row_count[pi] * (span[1] - span[0]) as f32).max(1.0);
        }
    }
    out
}

/// One head's pooled attention for the overview, as 16-bit levels
/// (weight ≈ level / 65535). A thumbnail only picks a colour, and a step of
/// 1/65535 is far finer than a colour can show. As decimal floats SmolLM2's
/// 270 thumbnails of a long text were 5 MB of JSON, encoded in the worker and
/// parsed on the page's main thread on every keystroke; as base64 levels they
/// are about a third of that, with no float to print or parse.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Thumbnail {
    pub rows: usize,
    pub cols: usize,
    /// Row-major, `rows × cols` of them.
    #[serde(with = "crate::tensor::base64_le")]
    pub levels: Vec<u16>,
}

impl Thumbnail {
    /// The level of a weight of 1.
    pub const ONE: f32 = 65535.0;

    /// Weights outside [0, 1] (none come from a softmax) are clamped; NaN is 0.
    pub fn new(a: &Matrix) -> Self {
        let levels = a.data.iter().map(|&w| (w.clamp(0.0, 1.0) * Self::ONE).round() as u16).collect();
        Self { rows: a.rows, cols: a.cols, levels }
    }

    /// The weight cell (i, j) stands for, or None outside the thumbnail.
    pub fn weight(&self, i: usize, j: usize) -> Option<f32> {
        (i < self.rows && j < self.cols).then(|| self.levels.get(i * self.cols + j)).flatten().map(|&l| l as f32 / Self::ONE)
    }

    /// The rows of levels (never more than the levels hold, whatever a
    /// message claimed its shape was).
    pub fn rows(&self) -> impl Iterator<Item = &[u16]> {
        self.levels.chunks_exact(self.cols.max(1)).take(self.rows)
    }
}

/// Holds the models and the latest trace.
pub struct Session {
    #[cfg(feature = "pretrained")]
    minilm: Option<MiniLm>,
    /// Keeps a key/value cache, so typing at the end computes only new tokens.
    #[cfg(feature = "pretrained")]
    smollm2: Option<SmolLm2Session>,
    last: Option<(u64, Latest)>,
}

/// Where the latest run's trace is.
enum Latest {
    Here(Box<ModelTrace>),
    /// In SmolLM2's key/value cache, which holds it anyway: a copy of every
    /// layer on each keystroke would cost more than the new token.
    #[cfg(feature = "pretrained")]
    InSmolLm2Cache,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    pub fn new() -> Self {
        Self {
            #[cfg(feature = "pretrained")]
            minilm: None,
            #[cfg(feature = "pretrained")]
            smollm2: None,
            last: None,
        }
    }

    /// Runs `text`; `now_ms` is the clock of whoever calls (performance.now()
    /// in the browser), so the timing is what the user actually waited.
    pub fn run(&mut self, id: u64, model: ModelId, text: &str, options: RunOptions, now_ms: &dyn Fn() -> f64) -> Result<RunSummary> {
        self.run_with_cache(id, model, text, options, now_ms, true)
    }

    /// As [`Session::run`]; `cached` says whether SmolLM2 reads and refills
    /// its key/value cache. A comparison text does not, so that it never
    /// displaces the text being typed (whose next keystroke would otherwise
    /// recompute from the first token the two texts do not share).
    #[cfg_attr(not(feature = "pretrained"), allow(unused_variables))]
    fn run_with_cache(
        &mut self,
        id: u64,
        model: ModelId,
        text: &str,
        options: RunOptions,
        now_ms: &dyn Fn() -> f64,
        cached: bool,
    ) -> Result<RunSummary> {
        let start = now_ms();
        let scale = if options.unscaled { Scale::Factor(options.temperature_factor) } else { Scale::InvSqrtDk };
        let (mut latest, head_notes) = match model {
            ModelId::Teaching => {
                let teaching = TeachingModel::with_options(TeachingOptions {
                    positional_encoding: options.positional_encoding,
                    mask: Mask::None,
                    scale,
                });
                let notes = teaching.heads.iter().map(|h| format!("{}: {}", h.name, h.behaviour)).collect();
                let mut t = teaching.run(text)?;
                if !options.unscaled && options.temperature_factor != 1.0 {
                    rescale(&mut t, options.temperature_factor);
                }
                (Latest::Here(Box::new(t)), notes)
            }
            #[cfg(feature = "pretrained")]
            ModelId::MiniLm => (Latest::Here(Box::new(self.minilm.as_ref().ok_or_else(|| not_loaded(model))?.run(text)?)), Vec::new()),
            #[cfg(feature = "pretrained")]
            ModelId::SmolLm2 => {
                let session = self.smollm2.as_mut().ok_or_else(|| not_loaded(model))?;
                let latest = if text.is_empty() {
                    // An emptied box: shown as empty, as with the other
                    // models, and the cache is kept for the text typed next.
                    Latest::Here(Box::new(ModelTrace::empty(session.model().info())))
                } else if cached {
                    session.run_with_temperature(text, options.next_token_temperature)?;
                    Latest::InSmolLm2Cache
                } else {
                    Latest::Here(Box::new(session.model().run_with_temperature(text, options.next_token_temperature)?))
                };
                (latest, Vec::new())
            }
            #[cfg(not(feature = "pretrained"))]
            _ => return Err(not_built(model)),
        };
        if model != ModelId::Teaching && (options.unscaled || options.temperature_factor != 1.0) {
            // A what-if on the numbers shown. A trace of our own is rescaled
            // where it is; SmolLM2's cache keeps the model's numbers, so its
            // trace is copied first.
            #[allow(clippy::infallible_destructuring_match)] // one variant without the pretrained models
            let mut trace = match latest {
                Latest::Here(t) => t,
                #[cfg(feature = "pretrained")]
                Latest::InSmolLm2Cache => Box::new(
                    self.smollm2.as_ref().and_then(|s| s.latest()).ok_or_else(|| Error::Invalid("the run left no trace".into()))?.clone(),
                ),
            };
            let d_k = trace.info.d_head;
            let base = if options.unscaled { 1.0 } else { Scale::InvSqrtDk.factor(d_k) };
            set_scale(&mut trace, base * options.temperature_factor);
            latest = Latest::Here(trace);
        }
        self.last = Some((id, latest));
        let compute_ms = now_ms() - start;
        #[cfg(feature = "pretrained")]
        let threads = match (model, &self.smollm2) {
            (ModelId::SmolLm2, Some(s)) if cached => s.threads(),
            (ModelId::SmolLm2, Some(s)) => s.model().threads_for(self.latest().map_or(0, |(_, t)| t.tokens.len())),
            _ => 1,
        };
        #[cfg(not(feature = "pretrained"))]
        let threads = 1;
        let (_, trace) = self.latest().ok_or_else(|| Error::Invalid("the run left no trace".into()))?;
        Ok(RunSummary {
            id,
            info: trace.info.clone(),
            tokens: trace.tokens.clone(),
            token_ids: trace.token_ids.clone(),
            notice: trace.notice.clone(),
            overview: trace
                .layers
                .iter()
                .map(|l| l.attention.heads.iter().map(|h| Thumbnail::new(&pool(&h.weights, THUMB_MAX))).collect())
                .collect(),
            kv_head_of: trace.layers.first().map(|l| l.attention.kv_head_of.clone()).unwrap_or_default(),
            catalog: catalog(trace),
            head_notes,
            top_next: trace.top_next.clone(),
            sentence_embedding_norm: trace.sentence_embedding.as_ref().map(|e| e.iter().map(|x| x * x).sum::<f32>().sqrt()),
            compute_ms,
            memory_bytes: None,
            memory_workers: 1,
            threads,
        })
    }

    /// The latest run and its trace.
    fn latest(&self) -> Option<(u64, &ModelTrace)> {
        let (id, latest) = self.last.as_ref()?;
        let trace = match latest {
            Latest::Here(t) => &**t,
            #[cfg(feature = "pretrained")]
            Latest::InSmolLm2Cache => self.smollm2.as_ref()?.latest()?,
        };
        Some((*id, trace))
    }

    /// The detail of one head of the latest run.
    pub fn head(&self, layer: usize, head: usize) -> Result<HeadDetail> {
        let (id, trace) = self.latest().ok_or_else(|| Error::Invalid("nothing has been computed yet".into()))?;
        let l = trace.layers.get(layer).ok_or_else(|| Error::Invalid(format!("no layer {layer}")))?;
        let h = l.attention.heads.get(head).ok_or_else(|| Error::Invalid(format!("no head {head}")))?;
        let kv = l.attention.kv_head_of[head];
        let what_if_mask = if h.mask == Mask::None { Mask::Causal } else { Mask::None };
        Ok(HeadDetail {
            id,
            layer,
            head,
            kv_head: kv,
            scale: h.scale,
            mask: h.mask,
            what_if_mask,
            scores: h.scores.clone(),
            weights: h.weights.clone(),
            what_if_weights: h.reweighed(what_if_mask, h.scale),
            q: l.attention.q[head].clone(),
            k: l.attention.k[kv].clone(),
            v: l.attention.v[kv].clone(),
            output: h.output.clone(),
            input: l.input.clone(),
            residual: l.residual.clone(),
            delta: l.delta.clone(),
        })
    }

    /// Parses downloaded model files (in `ModelId::files()` order) and keeps the model.
    pub fn install(&mut self, model: ModelId, files: Vec<Vec<u8>>) -> Result<()> {
        #[cfg_attr(not(feature = "pretrained"), allow(unused_variables))]
        let file = |i: usize| {
            files.get(i).map(Vec::as_slice).ok_or_else(|| Error::ModelFile(format!("{} needs {} files", model.slug(), model.files().len())))
        };
        match model {
            ModelId::Teaching => {}
            #[cfg(feature = "pretrained")]
            ModelId::MiniLm => self.minilm = Some(MiniLm::from_bytes(file(0)?, file(1)?, file(2)?)?),
            #[cfg(feature = "pretrained")]
            ModelId::SmolLm2 => self.smollm2 = Some(SmolLm2Session::new(SmolLm2::from_gguf_bytes(file(0)?)?)),
            #[cfg(not(feature = "pretrained"))]
            _ => return Err(not_built(model)),
        }
        Ok(())
    }

    /// Keeps a SmolLM2 built elsewhere (the worker splits it between two
    /// threads first, `models::split`).
    #[cfg(feature = "pretrained")]
    pub fn install_smollm2(&mut self, model: SmolLm2) {
        self.smollm2 = Some(SmolLm2Session::new(model));
    }

    /// How many tokens of SmolLM2's latest typed run came from its key/value
    /// cache (0 before any).
    #[cfg(feature = "pretrained")]
    pub fn smollm2_reused_tokens(&self) -> usize {
        self.smollm2.as_ref().map_or(0, SmolLm2Session::reused_tokens)
    }

    pub fn is_loaded(&self, model: ModelId) -> bool {
        match model {
            ModelId::Teaching => true,
            #[cfg(feature = "pretrained")]
            ModelId::MiniLm => self.minilm.is_some(),
            #[cfg(feature = "pretrained")]
            ModelId::SmolLm2 => self.smollm2.is_some(),
            #[cfg(not(feature = "pretrained"))]
            _ => false,
        }
    }

    /// One message in, one message out: the worker's whole job.
    pub fn handle(&mut self, msg: ToWorker, now_ms: &dyn Fn() -> f64) -> FromWorker {
        match msg {
            ToWorker::Run { id, model, text, options } => match self.run(id, model, &text, options, now_ms) {
                Ok(s) => FromWorker::Result(Box::new(s)),
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            ToWorker::Head { id, layer, head } => match self.head(layer, head) {
                Ok(d) => FromWorker::Head(Box::new(d)),
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            ToWorker::Export { id } => match self.latest() {
                Some((_, trace)) => FromWorker::Export { id, json: crate::export::AttentionExport::from_trace(trace).to_json() },
                None => FromWorker::Failed { id, message: "nothing to export yet".into() },
            },
            ToWorker::FindHeads { id, query, key } => match self.latest() {
                Some((_, trace)) if query < trace.tokens.len() && key < trace.tokens.len() => {
                    FromWorker::Heads { id, query, key, heads: crate::analysis::find_heads(trace, query, key) }
                }
                Some(_) => FromWorker::Failed { id, message: format!("no token {} in this text", query.max(key)) },
                None => FromWorker::Failed { id, message: "nothing has been computed yet".into() },
            },
            ToWorker::Compare { id, model, text, options, layer, head } => {
                let latest = self.last.take();
                let answer =
                    self.run_with_cache(id, model, &text, options, now_ms, false).and_then(|s| Ok((s.tokens, self.head(layer, head)?)));
                self.last = latest;
                match answer {
                    Ok((tokens, d)) => FromWorker::Compared { id, tokens, detail: Box::new(d) },
                    Err(e) => FromWorker::Failed { id, message: e.to_string() },
                }
            }
            // Loading needs the network: the worker shell fetches the files and calls `install`.
            ToWorker::Load { model } => FromWorker::LoadFailed { model, message: "loading is done by the worker shell".into() },
        }
    }
}

#[cfg(not(feature = "pretrained"))]
fn not_built(model: ModelId) -> Error {
    Error::Invalid(format!("the {} model is not part of this build (feature `pretrained`)", model.slug()))
}

#[cfg(feature = "pretrained")]
fn not_loaded(model: ModelId) -> Error {
    Error::Invalid(format!("the {} model is not loaded yet", model.slug()))
}

/// Multiplies every head's scaled scores by `factor` and recomputes A (the
/// temperature lesson), keeping the same Q and K.
fn rescale(trace: &mut ModelTrace, factor: f32) {
    for layer in &mut trace.layers {
        for head in &mut layer.attention.heads {
            head.scale *= factor;
        }
    }
    reweigh_all(trace);
}

/// Sets every head's scale factor and recomputes A, as a what-if on each
/// head (later layers are not re-run).
fn set_scale(trace: &mut ModelTrace, scale: f32) {
    for layer in &mut trace.layers {
        for head in &mut layer.attention.heads {
            head.scale = scale;
        }
    }
    reweigh_all(trace);
}

fn reweigh_all(trace: &mut ModelTrace) {
    for layer in &mut trace.layers {
        let att = &mut layer.attention;
        for (h, head) in att.heads.iter_mut().enumerate() {
            head.weights = head.reweighed(head.mask, head.scale);
            head.output = head.weights.matmul(&att.v[att.kv_head_of[h]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> f64 {
        0.0
    }

    #[test]
    fn run_then_head_round_trips_through_json() {
        let mut s = Session::new();
        let msg = ToWorker::Run { id: 7, model: ModelId::Teaching, text: "a fluffy blue creature".into(), options: RunOptions::default() };
        let msg: ToWorker = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        let FromWorker::Result(r) = s.handle(msg, &clock) else { panic!("expected a result") };
        assert_eq!((r.id, r.tokens.len(), r.overview.len(), r.overview[0].len()), (7, 4, 1, 5));
        let FromWorker::Head(d) = s.handle(ToWorker::Head { id: 7, layer: 0, head: 0 }, &clock) else { panic!("expected a head") };
        assert_eq!(d.weights.shape(), (4, 4));
        assert_eq!(d.what_if_mask, Mask::Causal);
        assert_eq!(d.what_if_weights[(0, 1)], 0.0);
        assert!(matches!(s.handle(ToWorker::Head { id: 7, layer: 3, head: 0 }, &clock), FromWorker::Failed { .. }));
    }

    #[test]
    fn temperature_factor_scales_scores_exactly_as_the_formula_says() {
        let mut s = Session::new();
        let text = "the quick brown fox";
        s.run(1, ModelId::Teaching, text, RunOptions::default(), &clock).unwrap();
        let base = s.head(0, 0).unwrap();
        s.run(2, ModelId::Teaching, text, RunOptions { temperature_factor: 10.0, ..Default::default() }, &clock).unwrap();
        let hot = s.head(0, 0).unwrap();
        assert_eq!(hot.scores, base.scores);
        assert!((hot.scale - base.scale * 10.0).abs() < 1e-6);
        let want = crate::attention::softmax_rows(base.scores.map(|x| x * base.scale * 10.0));
        assert!(hot.weights.max_abs_diff(&want) < 1e-6);
        s.run(3, ModelId::Teaching, text, RunOptions { unscaled: true, ..Default::default() }, &clock).unwrap();
        assert_eq!(s.head(0, 0).unwrap().scale, 1.0);
    }

    #[test]
    fn find_heads_message_ranks_every_head_from_full_weights() {
        let mut s = Session::new();
        let text = "a fluffy blue creature roamed the verdant forest";
        s.run(4, ModelId::Teaching, text, RunOptions::default(), &clock).unwrap();
        let (q, k) = (3, 1); // "creature" → "fluffy"
        let msg = ToWorker::FindHeads { id: 4, query: q, key: k };
        let msg: ToWorker = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        let FromWorker::Heads { id, query, key, heads } = s.handle(msg, &clock) else { panic!("expected heads") };
        assert_eq!((id, query, key, heads.len()), (4, q, k, 5));
        assert!(heads.windows(2).all(|w| w[0].weight >= w[1].weight));
        for m in &heads {
            assert_eq!(m.weight, s.head(m.layer, m.head).unwrap().weights[(q, k)]);
        }
        assert_eq!((heads[0].layer, heads[0].head), (0, 0));
        // Out-of-range tokens are an answer, not a panic.
        assert!(matches!(s.handle(ToWorker::FindHeads { id: 4, query: 99, key: 0 }, &clock), FromWorker::Failed { .. }));
        assert!(matches!(Session::new().handle(ToWorker::FindHeads { id: 1, query: 0, key: 0 }, &clock), FromWorker::Failed { .. }));
    }

    #[test]
    fn compare_runs_another_text_and_keeps_the_latest_run() {
        let mut s = Session::new();
        s.run(5, ModelId::Teaching, "the cat sat", RunOptions::default(), &clock).unwrap();
        let before = s.head(0, 1).unwrap();
        let other = "a fluffy blue creature";
        let msg =
            ToWorker::Compare { id: 5, model: ModelId::Teaching, text: other.into(), options: RunOptions::default(), layer: 0, head: 1 };
        let FromWorker::Compared { id, tokens, detail } = s.handle(msg, &clock) else { panic!("expected a comparison") };
        let want = crate::models::teaching::TeachingModel::new().run(other).unwrap();
        assert_eq!((id, &tokens), (5, &want.tokens));
        assert_eq!(&detail.weights, want.weights(0, 1).unwrap());
        assert_eq!(s.head(0, 1).unwrap().weights, before.weights);
        let bad =
            ToWorker::Compare { id: 5, model: ModelId::Teaching, text: other.into(), options: RunOptions::default(), layer: 0, head: 9 };
        assert!(matches!(s.handle(bad, &clock), FromWorker::Failed { .. }));
        assert_eq!(s.head(0, 1).unwrap().weights, before.weights);
    }

    #[test]
    fn pooling_keeps_short_texts_exact_and_averages_long_ones() {
        let a = Matrix::identity(4);
        assert_eq!(pool(&a, 48), a);
        let big = Matrix::from_vec(100, 100, vec![0.01; 10_000]);
        let p = pool(&big, 48);
        assert_eq!(p.shape(), (48, 48));
        assert!(p.data.iter().all(|x| (x - 0.01).abs() < 1e-6));
        // Each cell is the mean of the entries that fall in it.
        let ramp = Matrix::from_vec(100, 70, (0..7000).map(|k| (k / 70 * 1000 + k % 70) as f32).collect());
        let p = pool(&ramp, 48);
        assert_eq!(p.shape(), (48, 48));
        let ramp = &ramp;
        for (pi, pj) in [(0, 0), (5, 31), (47, 47)] {
            let members: Vec<f32> = (0..100)
                .filter(|i| i * 48 / 100 == pi)
                .flat_map(|i| (0..70).filter(move |j| j * 48 / 70 == pj).map(move |j| ramp[(i, j)]))
                .collect();
            let mean = members.iter().sum::<f32>() / members.len() as f32;
            assert!((p[(pi, pj)] - mean).abs() <= 1e-6 * mean, "{pi} {pj}");
        }
    }

    #[test]
    fn thumbnails_cross_as_levels_within_half_a_step() {
        // A causal softmax-like matrix: rows sum to 1, zeros above the diagonal.
        let n = 7;
        let a = Matrix::from_vec(n, n, (0..n * n).map(|k| if k % n <= k / n { 1.0 / (k / n + 1) as f32 } else { 0.0 }).collect());
        let t = Thumbnail::new(&a);
        let text = serde_json::to_string(&t).unwrap();
        let back: Thumbnail = serde_json::from_str(&text).unwrap();
        assert_eq!(back, t);
        for i in 0..n {
            for j in 0..n {
                let w = back.weight(i, j).unwrap();
                assert!((w - a[(i, j)]).abs() <= 0.5 / Thumbnail::ONE, "{i} {j}: {w}");
            }
        }
        // A weight of exactly 1 or 0 stays exact.
        assert_eq!((back.weight(0, 0), back.weight(0, 1)), (Some(1.0), Some(0.0)));
        assert_eq!(back.weight(n, 0), None);
        // Out-of-range weights are clamped, NaN becomes 0.
        assert_eq!(Thumbnail::new(&Matrix::from_vec(1, 3, vec![-0.5, 2.0, f32::NAN])).levels, vec![0, 65535, 0]);
        // A message whose shape claims more than its levels hold draws only what is there.
        let short: Thumbnail = serde_json::from_str(r#"{"rows":3,"cols":2,"levels":"AAD//w=="}"#).unwrap();
        assert_eq!(short.rows().collect::<Vec<_>>(), vec![&[0u16, 65535][..]]);
        assert_eq!(short.weight(2, 1), None);
        assert!(serde_json::from_str::<Thumbnail>(r#"{"rows":1,"cols":1,"levels":"AAA"}"#).is_err());
        assert!(serde_json::from_str::<Thumbnail>(r#"{"rows":1,"cols":1,"levels":"AA=="}"#).is_err());
    }

    #[test]
    fn manifest_lists_the_pinned_files() {
        assert!(ModelId::Teaching.files().is_empty());
        assert_eq!(ModelId::MiniLm.files().len(), 3);
        assert_eq!(ModelId::SmolLm2.download_bytes(), 98_362_432);
        let f = &ModelId::MiniLm.files()[0];
        assert_eq!(ModelId::MiniLm.url(f), "models/minilm/model.safetensors");
        assert_eq!(f.sha256.len(), 64);
    }

    #[test]
    fn unloaded_models_and_slugs() {
        let mut s = Session::new();
        assert!(s.run(1, ModelId::MiniLm, "x", RunOptions::default(), &clock).is_err());
        assert_eq!(ModelId::from_slug("smollm2"), Some(ModelId::SmolLm2));
        assert_eq!(ModelId::from_slug("<script>"), None);
    }
}
