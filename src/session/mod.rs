//! What the page's Web Worker does, minus the browser: it holds the models
//! and the latest trace, runs text, and answers the views' questions with
//! just the numbers they draw. Messages are plain serde types, so this logic
//! is tested natively and the worker itself is a thin shell.
//!
//! The whole trace stays here: the page receives an overview (every head's
//! A, pooled down when the text is long) and, on request, the full detail of
//! one head. That keeps messages small however many heads a model has.

use crate::analysis::catalog;
use crate::attention::{Mask, Scale};
#[cfg(feature = "pretrained")]
use crate::checkpoint::minilm::MiniLm;
#[cfg(feature = "pretrained")]
use crate::checkpoint::smollm2::{SmolLm2, SmolLm2Session};
use crate::error::{Error, Result};
#[cfg(feature = "pretrained")]
use crate::models::decoder::DecoderSession;
use crate::models::teaching::{TeachingModel, TeachingOptions};
use crate::trace::{ModelTrace, KEEP_WEIGHTS_UP_TO, THUMB_MAX};
use crate::url_params::{cut_text, MAX_TEXT_CHARS};

mod analysis;
pub mod custom;
mod messages;
mod pending;
#[cfg(any(feature = "extras", feature = "tracefile"))]
mod trace_view;
mod translate;
pub mod warm;

pub use messages::{
    AnalysisReply, AnalysisRequest, CrossHead, FromWorker, HeadDetail, RunOptions, RunSummary, ToWorker, TranslationSummary,
};
// The session's messages carry these ground-floor types; the shells name them from here.
pub use crate::trace::{ModelFile, ModelId, Thumbnail};
pub use pending::Pending;
#[cfg(any(feature = "extras", feature = "tracefile"))]
pub use trace_view::OpenTrace;

/// Holds the models and the latest trace.
pub struct Session {
    #[cfg(feature = "pretrained")]
    minilm: Option<MiniLm>,
    /// Keeps a key/value cache, so typing at the end computes only new tokens.
    #[cfg(feature = "pretrained")]
    smollm2: Option<SmolLm2Session>,
    /// A model the visitor opened from their own files (`custom.rs`).
    #[cfg(feature = "extras")]
    custom: Option<Opened>,
    #[cfg(feature = "extras")]
    translators: translate::Translators,
    last: Option<(u64, Latest)>,
    /// The importance map under way (`analysis.rs`).
    importance: Option<analysis::Job>,
    /// A trace file opened from the page (`trace_view`).
    #[cfg(any(feature = "extras", feature = "tracefile"))]
    trace: Option<OpenTrace>,
}

/// Where the latest run's trace is.
enum Latest {
    Here(Box<ModelTrace>),
    /// In the key/value cache of a decoder (SmolLM2 or one opened from
    /// files), which holds it anyway: a copy of every layer on each
    /// keystroke would cost more than the new token.
    #[cfg(feature = "pretrained")]
    InCache(ModelId),
}

/// A model opened from the visitor's files. A decoder keeps a key/value
/// cache, as SmolLM2 does, so typing at the end computes only new tokens.
#[cfg(feature = "extras")]
enum Opened {
    Encoder(Box<crate::models::encoder::Encoder>),
    Decoder(Box<DecoderSession>),
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
            #[cfg(feature = "extras")]
            custom: None,
            #[cfg(feature = "extras")]
            translators: Default::default(),
            last: None,
            importance: None,
            #[cfg(any(feature = "extras", feature = "tracefile"))]
            trace: None,
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
        // Cut before tokenizing: a pasted book must not freeze the tokenizer.
        let (text, cut) = cut_text(text);
        let scale = if options.unscaled { Scale::Factor(options.temperature_factor) } else { Scale::InvSqrtDk };
        #[cfg_attr(not(feature = "extras"), allow(unused_mut))]
        let mut translation = None;
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
            ModelId::SmolLm2 => (self.run_cached(model, text, options, cached)?, Vec::new()),
            #[cfg(feature = "extras")]
            ModelId::Custom => match self.custom.as_ref().ok_or_else(|| not_loaded(model))? {
                Opened::Encoder(e) => (Latest::Here(Box::new(e.run(text)?)), Vec::new()),
                Opened::Decoder(_) => (self.run_cached(model, text, options, cached)?, Vec::new()),
            },
            ModelId::Trace => return Err(Error::Invalid("a trace file is read, not run: open it with \"Open a trace…\"".into())),
            #[cfg(feature = "extras")]
            ModelId::TranslateEnPt | ModelId::TranslatePtEn => {
                let (trace, t) = self.translators.run(model, text)?;
                translation = Some(Box::new(t));
                (Latest::Here(Box::new(trace)), Vec::new())
            }
            #[cfg(not(feature = "extras"))]
            _ => return Err(not_built(model)),
        };
        let what_if = options.unscaled || options.temperature_factor != 1.0;
        if what_if && self.latest_trace(&latest).is_some_and(|t| t.layers.iter().any(|l| l.summaries.is_some())) {
            return Err(Error::Invalid(format!(
                "The scaling switches recompute every head's weights and work on texts of up to {KEEP_WEIGHTS_UP_TO} tokens; this one has more. Shorten the text or turn the switches off."
            )));
        }
        if model != ModelId::Teaching && what_if {
            // A what-if on the numbers shown. A trace of our own is rescaled
            // where it is; SmolLM2's cache keeps the model's numbers, so its
            // trace is copied first.
            #[allow(clippy::infallible_destructuring_match)] // one variant without the pretrained models
            let mut trace = match latest {
                Latest::Here(t) => t,
                #[cfg(feature = "pretrained")]
                Latest::InCache(model) => Box::new(
                    self.cache(model).and_then(|s| s.latest()).ok_or_else(|| Error::Invalid("the run left no trace".into()))?.clone(),
                ),
            };
            let d_k = trace.info.d_head;
            let base = if options.unscaled { 1.0 } else { Scale::InvSqrtDk.factor(d_k) };
            set_scale(&mut trace, base * options.temperature_factor);
            latest = Latest::Here(trace);
        }
        self.last = Some((id, latest));
        // The rows a cache gave were checked when they were computed.
        #[cfg(feature = "pretrained")]
        let checked = match &self.last {
            Some((_, Latest::InCache(model))) => self.reused_tokens(*model),
            _ => 0,
        };
        #[cfg(not(feature = "pretrained"))]
        let checked = 0;
        if let Err(e) = self.latest().map_or(Ok(()), |(_, t)| t.check_finite_from(checked)) {
            self.last = None;
            // Nor may a later run reuse what this one computed.
            #[cfg(feature = "pretrained")]
            if let Some(cache) = self.cache_mut(model) {
                cache.clear();
            }
            return Err(e);
        }
        let compute_ms = now_ms() - start;
        #[cfg(feature = "pretrained")]
        let (threads, alone) = match (self.cache(model), self.encoder(model)) {
            (Some(s), _) if cached => (s.threads(), s.model().alone()),
            (Some(s), _) => (s.model().threads_for(self.latest().map_or(0, |(_, t)| t.tokens.len())), s.model().alone()),
            (None, Some(e)) => (e.threads(), e.alone()),
            (None, None) => (1, None),
        };
        #[cfg(not(feature = "pretrained"))]
        let (threads, alone) = (1, None);
        let (_, trace) = self.latest().ok_or_else(|| Error::Invalid("the run left no trace".into()))?;
        Ok(RunSummary {
            id,
            info: trace.info.clone(),
            tokens: trace.tokens.clone(),
            token_ids: trace.token_ids.clone(),
            notice: match (cut, &trace.notice) {
                (false, notice) => notice.clone(),
                (true, None) => Some(cut_notice()),
                (true, Some(notice)) => Some(format!("{} {notice}", cut_notice())),
            },
            overview: trace.layers.iter().map(|l| l.thumbnails(THUMB_MAX).iter().map(Thumbnail::new).collect()).collect(),
            kv_head_of: trace.layers.first().map(|l| l.attention.kv_head_of.clone()).unwrap_or_default(),
            catalog: catalog(trace),
            head_notes,
            top_next: trace.top_next.clone(),
            sentence_embedding_norm: trace.sentence_embedding.as_ref().map(|e| e.iter().map(|x| x * x).sum::<f32>().sqrt()),
            compute_ms,
            memory_bytes: None,
            memory_workers: 1,
            threads,
            alone,
            translation,
        })
    }

    /// Runs `text` on the decoder of `model` that keeps a key/value cache;
    /// `cached` says whether it reads and refills that cache.
    #[cfg(feature = "pretrained")]
    fn run_cached(&mut self, model: ModelId, text: &str, options: RunOptions, cached: bool) -> Result<Latest> {
        let session = self.cache_mut(model).ok_or_else(|| not_loaded(model))?;
        Ok(if text.is_empty() {
            // An emptied box: shown as empty, as with the other models, and
            // the cache is kept for the text typed next.
            Latest::Here(Box::new(ModelTrace::empty(session.model().info())))
        } else if cached {
            session.run_with_temperature(text, options.next_token_temperature)?;
            Latest::InCache(model)
        } else {
            Latest::Here(Box::new(session.model().run_with_temperature(text, options.next_token_temperature)?))
        })
    }

    /// The latest run and its trace.
    fn latest(&self) -> Option<(u64, &ModelTrace)> {
        let (id, latest) = self.last.as_ref()?;
        Some((*id, self.latest_trace(latest)?))
    }

    /// The trace a run left, here or in its model's cache.
    fn latest_trace<'a>(&'a self, latest: &'a Latest) -> Option<&'a ModelTrace> {
        match latest {
            Latest::Here(t) => Some(&**t),
            #[cfg(feature = "pretrained")]
            Latest::InCache(model) => self.cache(*model)?.latest(),
        }
    }

    /// The detail of one head of the latest run.
    pub fn head(&self, layer: usize, head: usize) -> Result<HeadDetail> {
        self.detail(layer, head, true)
    }

    /// [`Self::head`], the layer's E, E + ΔE and ΔE left out unless `with_layer`.
    fn detail(&self, layer: usize, head: usize, with_layer: bool) -> Result<HeadDetail> {
        let (id, trace) = self.latest().ok_or_else(|| Error::Invalid("nothing has been computed yet".into()))?;
        let l = trace.layers.get(layer).ok_or_else(|| Error::Invalid(format!("no layer {layer}")))?;
        if head >= l.attention.heads.len() {
            return Err(Error::Invalid(format!("no head {head}")));
        }
        // A long text's head is computed again from its Q and K (and is then
        // moved, not copied, into the detail).
        let h = l.attention.head(head).into_owned();
        let kv = l.attention.kv_head_of[head];
        let what_if_mask = if h.mask == Mask::None { Mask::Causal } else { Mask::None };
        let (input, residual, delta) = match with_layer {
            true => (self.layer_input(trace, layer)?.into_owned(), l.residual_rows(0, l.delta.rows), l.delta.clone()),
            false => (crate::Matrix::zeros(0, 0), crate::Matrix::zeros(0, 0), crate::Matrix::zeros(0, 0)),
        };
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
            layer_left_out: !with_layer,
        })
    }

    /// E of `layer` of `trace`: held, or computed again from its h by the
    /// decoder that made it (a long text's layer keeps h, not E).
    fn layer_input<'a>(&self, trace: &'a ModelTrace, layer: usize) -> Result<std::borrow::Cow<'a, crate::Matrix>> {
        let l = &trace.layers[layer];
        #[cfg(feature = "pretrained")]
        if let Some(decoder) = ModelId::from_slug(&trace.info.id).and_then(|m| self.cache(m)) {
            return decoder.model().layer_input(layer, l).ok_or_else(|| lost_input(layer));
        }
        match l.holds_input() {
            true => Ok(std::borrow::Cow::Borrowed(&l.input)),
            false => Err(lost_input(layer)),
        }
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
            ModelId::Custom => {
                return Err(Error::Invalid("a model of your own is opened from its files (`Session::install_custom`)".into()))
            }
            #[cfg(feature = "extras")]
            ModelId::Trace => return Err(Error::Invalid("a trace file is opened with \"Open a trace…\", not downloaded".into())),
            #[cfg(feature = "extras")]
            ModelId::TranslateEnPt | ModelId::TranslatePtEn => self.translators.install(model, &files)?,
            #[cfg(not(feature = "extras"))]
            _ => return Err(not_built(model)),
        }
        Ok(())
    }

    /// `model`'s encoder, if it is one and loaded (MiniLM, an opened encoder).
    #[cfg(feature = "pretrained")]
    fn encoder(&self, model: ModelId) -> Option<&crate::models::encoder::Encoder> {
        match model {
            ModelId::MiniLm => self.minilm.as_deref(),
            #[cfg(feature = "extras")]
            ModelId::Custom => match self.custom.as_ref()? {
                Opened::Encoder(e) => Some(e),
                Opened::Decoder(_) => None,
            },
            _ => None,
        }
    }

    /// Keeps a MiniLM built elsewhere (the worker gives it a helper thread
    /// first, `models::helper`).
    #[cfg(feature = "pretrained")]
    pub fn install_minilm(&mut self, model: MiniLm) {
        self.minilm = Some(model);
    }

    /// Keeps a SmolLM2 built elsewhere (the worker gives it a helper thread
    /// first, `models::helper`).
    #[cfg(feature = "pretrained")]
    pub fn install_smollm2(&mut self, model: SmolLm2) {
        self.smollm2 = Some(SmolLm2Session::new(model));
    }

    /// Keeps a model opened from the visitor's files (`custom::checkpoint`),
    /// replacing any before it; a decoder with a key/value cache.
    #[cfg(feature = "extras")]
    pub fn install_custom(&mut self, model: crate::checkpoint::Model) {
        if self.last.as_ref().is_some_and(|(_, l)| match l {
            Latest::Here(t) => t.info.id == "custom",
            Latest::InCache(m) => *m == ModelId::Custom,
        }) {
            self.last = None;
        }
        self.custom = Some(match model {
            crate::checkpoint::Model::Encoder(e) => Opened::Encoder(e),
            crate::checkpoint::Model::Decoder(d) => Opened::Decoder(Box::new(DecoderSession::new(*d))),
        });
    }

    /// The decoder of `model` that keeps a key/value cache (SmolLM2, or a
    /// decoder opened from files), if it is loaded.
    #[cfg(feature = "pretrained")]
    fn cache(&self, model: ModelId) -> Option<&DecoderSession> {
        match model {
            ModelId::SmolLm2 => self.smollm2.as_ref(),
            #[cfg(feature = "extras")]
            ModelId::Custom => match self.custom.as_ref()? {
                Opened::Decoder(d) => Some(d),
                Opened::Encoder(_) => None,
            },
            _ => None,
        }
    }

    #[cfg(feature = "pretrained")]
    fn cache_mut(&mut self, model: ModelId) -> Option<&mut DecoderSession> {
        match model {
            ModelId::SmolLm2 => self.smollm2.as_mut(),
            #[cfg(feature = "extras")]
            ModelId::Custom => match self.custom.as_mut()? {
                Opened::Decoder(d) => Some(d),
                Opened::Encoder(_) => None,
            },
            _ => None,
        }
    }

    /// Drops the opened model (forgotten by the visitor).
    #[cfg(feature = "extras")]
    pub fn forget_custom(&mut self) {
        self.custom = None;
    }

    /// How many tokens of `model`'s latest typed run came from its
    /// key/value cache (0 before any, and for a model without one).
    #[cfg(feature = "pretrained")]
    pub fn reused_tokens(&self, model: ModelId) -> usize {
        self.cache(model).map_or(0, DecoderSession::reused_tokens)
    }

    pub fn is_loaded(&self, model: ModelId) -> bool {
        match model {
            ModelId::Teaching => true,
            #[cfg(feature = "pretrained")]
            ModelId::MiniLm => self.minilm.is_some(),
            #[cfg(feature = "pretrained")]
            ModelId::SmolLm2 => self.smollm2.is_some(),
            #[cfg(feature = "extras")]
            ModelId::Custom => self.custom.is_some(),
            #[cfg(feature = "extras")]
            ModelId::Trace => self.trace.is_some(),
            #[cfg(feature = "extras")]
            ModelId::TranslateEnPt | ModelId::TranslatePtEn => self.translators.is_loaded(model),
            #[cfg(not(feature = "extras"))]
            _ => false,
        }
    }

    /// Whether `model` is loaded from the files `ToWorker::Load` asks for:
    /// MiniLM from its exact f32 weights or from the f16 copy.
    #[cfg_attr(not(feature = "pretrained"), allow(unused_variables))]
    pub fn is_loaded_as(&self, model: ModelId, exact: bool) -> bool {
        match model {
            #[cfg(feature = "pretrained")]
            ModelId::MiniLm => self.minilm.as_ref().is_some_and(|m| m.exact() == exact),
            _ => self.is_loaded(model),
        }
    }

    /// One message in, one message out: the worker's whole job.
    pub fn handle(&mut self, msg: ToWorker, now_ms: &dyn Fn() -> f64) -> FromWorker {
        #[cfg(any(feature = "extras", feature = "tracefile"))]
        if let Some(reply) = self.answer_from_trace(&msg, now_ms) {
            return reply;
        }
        match msg {
            ToWorker::Run { id, model, text, options } => match self.run(id, model, &text, options, now_ms) {
                Ok(s) => FromWorker::Result(Box::new(s)),
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            ToWorker::Head { id, layer, head, with_layer } => match self.detail(layer, head, with_layer) {
                Ok(d) => FromWorker::Head(Box::new(d)),
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            ToWorker::Export { id } => match self.latest() {
                Some((_, trace)) if export_weights(trace) > EXPORT_MAX_WEIGHTS => FromWorker::Failed {
                    id,
                    message: format!(
                        "This text's attention is {:.0} million weights, too many for a JSON file in the browser: shorten the text, or export it with the command line (`attnscope attention`).",
                        export_weights(trace) as f64 / 1e6
                    ),
                },
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
            ToWorker::Analyze { id, model, text, request } => match self.analyze(id, model, &text, request) {
                Ok(reply) => FromWorker::Analysis { id, reply: Box::new(reply) },
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            // Loading needs the network: the worker shell fetches the files and calls `install`.
            ToWorker::Load { model, .. } => FromWorker::LoadFailed { model, message: "loading is done by the worker shell".into() },
            // So is reading the visitor's files (src/worker/open_files.rs).
            ToWorker::Custom(_) => {
                FromWorker::Custom(custom::CustomReply::Failed { message: "opening files is done by the worker shell".into() })
            }
        }
    }
}

/// Above this many weights the JSON export is refused: as text it would
/// outgrow a browser tab's memory.
pub const EXPORT_MAX_WEIGHTS: u64 = 16 << 20;

/// The weights a JSON export of `trace` writes: every head's n_q × n_k.
fn export_weights(trace: &ModelTrace) -> u64 {
    let n = trace.tokens.len() as u64;
    trace.layers.iter().map(|l| l.attention.heads.len() as u64 * n * n).sum()
}

fn cut_notice() -> String {
    format!("Text cut to its first {MAX_TEXT_CHARS} characters.")
}

#[cfg(not(feature = "extras"))]
fn not_built(model: ModelId) -> Error {
    Error::Invalid(format!("the {} model is not part of this build (features `pretrained` and `extras`)", model.slug()))
}

/// E of a layer that neither holds it nor has a decoder to compute it again.
fn lost_input(layer: usize) -> Error {
    Error::Invalid(format!("layer {layer}'s input E is no longer at hand: run the text again"))
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
        let FromWorker::Head(d) = s.handle(ToWorker::Head { id: 7, layer: 0, head: 0, with_layer: true }, &clock) else {
            panic!("expected a head")
        };
        assert_eq!(d.weights.shape(), (4, 4));
        assert_eq!(d.what_if_mask, Mask::Causal);
        assert_eq!(d.what_if_weights[(0, 1)], 0.0);
        assert!(matches!(s.handle(ToWorker::Head { id: 7, layer: 3, head: 0, with_layer: true }, &clock), FromWorker::Failed { .. }));
        // Another head of a layer the page holds: the same detail, the layer's E, E + ΔE and ΔE left out.
        let FromWorker::Head(full) = s.handle(ToWorker::Head { id: 7, layer: 0, head: 1, with_layer: true }, &clock) else { panic!() };
        let FromWorker::Head(lean) = s.handle(ToWorker::Head { id: 7, layer: 0, head: 1, with_layer: false }, &clock) else { panic!() };
        assert_eq!(
            (full.input.rows, full.layer_left_out, lean.input.shape(), lean.residual.rows, lean.delta.rows),
            (4, false, (0, 0), 0, 0)
        );
        assert!(lean.layer_left_out);
        assert_eq!((lean.weights, lean.what_if_weights, lean.q), (full.weights, full.what_if_weights, full.q));
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
    fn a_run_that_computes_nan_is_an_error_and_the_next_run_works() {
        let mut s = Session::new();
        let text = "the quick brown fox";
        for factor in [f32::INFINITY, f32::NAN, 1e38] {
            let e = s.run(1, ModelId::Teaching, text, RunOptions { temperature_factor: factor, ..Default::default() }, &clock).unwrap_err();
            assert!(e.to_string().contains("not valid attention"), "{factor}: {e}");
            assert!(s.head(0, 0).is_err(), "nothing of the failed run is left to draw or export");
        }
        s.run(2, ModelId::Teaching, text, RunOptions::default(), &clock).unwrap();
        assert!(s.head(0, 0).unwrap().weights.data.iter().all(|w| w.is_finite()));
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
        assert_eq!(detail.weights, *want.weights(0, 1).unwrap());
        assert_eq!(s.head(0, 1).unwrap().weights, before.weights);
        let bad =
            ToWorker::Compare { id: 5, model: ModelId::Teaching, text: other.into(), options: RunOptions::default(), layer: 0, head: 9 };
        assert!(matches!(s.handle(bad, &clock), FromWorker::Failed { .. }));
        assert_eq!(s.head(0, 1).unwrap().weights, before.weights);
    }

    #[test]
    fn a_huge_paste_is_cut_before_it_is_tokenized() {
        let mut s = Session::new();
        let huge = "word ".repeat(1_000_000); // 5 MB
        let r = s.run(1, ModelId::Teaching, &huge, RunOptions::default(), &clock).unwrap();
        let notice = r.notice.unwrap();
        assert!(notice.starts_with(&format!("Text cut to its first {MAX_TEXT_CHARS} characters.")), "{notice}");
        // Either way the teaching model keeps its own word limit too.
        assert!(notice.contains("words"), "{notice}");
        let short = s.run(2, ModelId::Teaching, "a short text", RunOptions::default(), &clock).unwrap();
        assert_eq!(short.notice, None);
    }

    #[test]
    fn unloaded_models_and_slugs() {
        let mut s = Session::new();
        assert!(s.run(1, ModelId::MiniLm, "x", RunOptions::default(), &clock).is_err());
        assert_eq!(ModelId::from_slug("smollm2"), Some(ModelId::SmolLm2));
        assert_eq!(ModelId::from_slug("<script>"), None);
    }
}
