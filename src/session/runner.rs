//! What the session asks of a model: the [`Runner`] trait, implemented once
//! per model kind in `runners/` (the teaching model, an encoder, a cached
//! decoder, a translator, a trace file). The session holds runners by
//! [`ModelId`] and runs whichever is asked for without knowing its kind.

use std::borrow::Cow;

use super::messages::{
    AnalysisRequest, FromWorker, Recording, RunOptions, RunSummary, SpeechStep, SpeechSummary,
    ToWorker, TranslationSummary, WriteReply, WriteRequest,
};
use crate::attention::Scale;
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use crate::trace::{LayerTrace, ModelId, ModelInfo, ModelTrace, KEEP_WEIGHTS_UP_TO};

/// One model kind, as the session runs it.
pub trait Runner {
    /// The model, as the page describes it.
    fn info(&self) -> ModelInfo;

    /// Runs `text` (already cut to the page's limit) with `options` applied
    /// (scale, temperature, mask: a what-if on the scores is part of the run,
    /// never patched on afterwards). `cached`: whether a model that keeps a
    /// key/value cache reads and refills it (typing at the end then computes
    /// only the new tokens); a comparison text does not.
    fn run(&mut self, text: &str, options: &RunOptions, cached: bool) -> Result<Ran>;

    /// The trace a cached run left in the runner ([`Held::Kept`]).
    fn latest(&self) -> Option<&ModelTrace> {
        None
    }

    /// How many tokens of the latest cached run came from the cache.
    fn reused_tokens(&self) -> usize {
        0
    }

    /// Forgets the cache (after a run whose numbers were refused).
    fn clear(&mut self) {}

    /// One step of writing ([`WriteRequest`]); the step's trace is then the
    /// latest. Only decoders write.
    fn write(&mut self, _request: &WriteRequest) -> Result<WriteReply> {
        Err(Error::Invalid(format!(
            "Writing is offered for decoders (SmolLM2, or a GPT-2, Llama, Qwen2 or Gemma 3 you open): {} {}",
            self.info().name,
            "reads the whole text at once and has no next token to choose."
        )))
    }

    /// Transcribes a clip (speech models only); the session's latest run
    /// stays what it was: the Speech tab draws the reply itself.
    fn listen(&mut self, _recording: &Recording) -> Result<SpeechSummary> {
        Err(Error::Invalid(format!(
            "{} reads text; a clip is transcribed by the speech model (Whisper).",
            self.info().name
        )))
    }

    /// Token `token` of the latest clip through cross-attention head `head`
    /// of decoder layer `layer`, step by step (speech models only).
    fn speech_step(&self, _layer: usize, _head: usize, _token: usize) -> Result<SpeechStep> {
        Err(Error::Invalid(format!(
            "{} hears no clips: step by step over sound is the speech model's (Whisper).",
            self.info().name
        )))
    }

    /// The latest cached trace cut to its first `n` tokens (an earlier
    /// step of a generation); None where the runner keeps no such trace.
    fn latest_upto(&self, _n: usize) -> Option<ModelTrace> {
        None
    }

    /// The threads the latest run computed on (`cached`: a typed run; else a
    /// run aside of `tokens` tokens), and why one where two were asked for.
    fn threads(&self, _cached: bool, _tokens: usize) -> (usize, Option<String>) {
        (1, None)
    }

    /// The model run layer by layer, for the analyses beyond the weights
    /// (knockout, logit lens, value norms, the importance map, detectors).
    fn layered(&self) -> Result<&dyn Layered>;

    /// Every two heads of the run compared (the catalog's similar heads),
    /// for a runner that keeps its run out of the session's memory (a trace
    /// file reads every head); None where the session's trace serves.
    fn similar(
        &mut self,
        _clusters: usize,
    ) -> Option<Result<crate::analysis::geometry::SimilarJob<'static>>> {
        None
    }

    /// Whether this runner can answer `request`: rollout, the Q·K space and similar heads read the trace
    /// alone, the others need [`Runner::layered`].
    fn can_analyse(&self, request: &AnalysisRequest) -> bool {
        matches!(
            request,
            AnalysisRequest::Rollout
                | AnalysisRequest::QkSpace { .. }
                | AnalysisRequest::QkTsne { .. }
                | AnalysisRequest::SimilarHeads { .. }
                | AnalysisRequest::CancelSimilar
                | AnalysisRequest::CancelCorpus
                | AnalysisRequest::CancelImportance
                | AnalysisRequest::CancelPatch
        ) || self.layered().is_ok()
    }

    /// E of `layer` computed again (a long text's layer keeps h, not E):
    /// None where the model has no such hook.
    fn layer_input<'a>(
        &self,
        _l: usize,
        _layer: &'a LayerTrace,
    ) -> Option<Result<Cow<'a, Matrix>>> {
        None
    }

    /// Whether the files `ToWorker::Load` asks for (`exact`: the published
    /// weights, not a smaller copy) are the ones loaded.
    fn loaded_as(&self, _exact: bool) -> bool {
        true
    }

    /// Whether the runner can run at all (a trace file: whether one is open).
    fn is_open(&self) -> bool {
        true
    }

    /// A message this runner answers itself: about its model (`shown` None),
    /// or about the latest run when it made it (`shown` its id) and keeps its
    /// trace out of memory (a trace file, read a head at a time).
    fn answer(&mut self, _msg: &ToWorker, _shown: Option<u64>) -> Option<FromWorker> {
        None
    }

    /// Rollout after every layer of the latest run, for a runner that keeps
    /// that run out of the session's memory (a trace file reads it a layer
    /// at a time); None where the session holds the trace.
    fn rollout(&mut self) -> Option<Result<Vec<Matrix>>> {
        None
    }
}

/// What a run gives the session.
pub struct Ran {
    pub held: Held,
    /// What each head was designed to do (the teaching model).
    pub head_notes: Vec<String>,
    /// Translation models: the translation and its cross-attention.
    pub translation: Option<Box<TranslationSummary>>,
}

/// Where a run's trace is.
pub enum Held {
    /// Here, for the session to keep.
    Trace(Box<ModelTrace>),
    /// In the runner's key/value cache, which holds it anyway: a copy of every
    /// layer on each keystroke would cost more than the new token.
    Kept,
    /// Out of memory (a trace file): the page's summary, and the runner
    /// answers the views' questions itself ([`Runner::answer`]).
    Summary(Box<RunSummary>),
}

impl Ran {
    pub fn trace(trace: ModelTrace) -> Ran {
        Ran { held: Held::Trace(Box::new(trace)), head_notes: Vec::new(), translation: None }
    }

    pub fn kept() -> Ran {
        Ran { held: Held::Kept, head_notes: Vec::new(), translation: None }
    }
}

/// The runners the session holds, by model: a handful, so a list looked
/// through (a map's code would weigh more in the page's wasm than it saves).
#[derive(Default)]
pub struct Runners(Vec<(ModelId, Box<dyn Runner>)>);

impl Runners {
    pub fn new() -> Runners {
        Runners::default()
    }

    pub fn get(&self, model: &ModelId) -> Option<&dyn Runner> {
        self.0.iter().find(|(m, _)| m == model).map(|(_, r)| &**r)
    }

    pub fn get_mut(&mut self, model: &ModelId) -> Option<&mut Box<dyn Runner>> {
        self.0.iter_mut().find(|(m, _)| m == model).map(|(_, r)| r)
    }

    /// Holds `runner` for `model`, in place of the one it had.
    pub fn insert(&mut self, model: ModelId, runner: Box<dyn Runner>) {
        self.remove(&model);
        self.0.push((model, runner));
    }

    pub fn remove(&mut self, model: &ModelId) {
        self.0.retain(|(m, _)| m != model);
    }
}

/// Whether `options` ask for a what-if on the scores (the scaling switches).
pub fn what_if(options: &RunOptions) -> bool {
    options.unscaled || options.temperature_factor != 1.0
}

/// A what-if needs every head's full weights: refused on a long text's
/// trace, which keeps summaries of them.
pub fn check_what_if(trace: &ModelTrace, options: &RunOptions) -> Result<()> {
    if what_if(options) && trace.layers.iter().any(|l| l.summaries.is_some()) {
        return Err(Error::Invalid(format!(
            "The scaling switches recompute every head's weights and work on texts of up to {KEEP_WEIGHTS_UP_TO} tokens; this one has more. Shorten the text or turn the switches off."
        )));
    }
    Ok(())
}

/// The scaling switches on a learned model's trace, as part of its run: every
/// head's scale set to the options' (1/√d_k or 1, times the temperature
/// factor) and A recomputed from the same Q and K, as a what-if on each head
/// (later layers are not re-run). Checked first ([`check_what_if`]).
pub fn apply_what_if(trace: &mut ModelTrace, options: &RunOptions) -> Result<()> {
    check_what_if(trace, options)?;
    if what_if(options) {
        let base = if options.unscaled { 1.0 } else { Scale::InvSqrtDk.factor(trace.info.d_head) };
        set_scale(trace, base * options.temperature_factor);
    }
    Ok(())
}

/// Multiplies every head's scaled scores by `factor` and recomputes A (the
/// temperature lesson), keeping the same Q and K.
pub fn rescale(trace: &mut ModelTrace, factor: f32) {
    for layer in &mut trace.layers {
        for head in &mut layer.attention.heads {
            head.scale *= factor;
        }
    }
    reweigh_all(trace);
}

/// Sets every head's scale factor and recomputes A.
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

/// E of a layer that neither holds it nor has a decoder to compute it again.
pub fn lost_input(layer: usize) -> Error {
    Error::Invalid(format!("layer {layer}'s input E is no longer at hand: run the text again"))
}

/// A model of this build that is not loaded yet.
pub fn not_loaded(model: ModelId) -> Error {
    Error::Invalid(format!("the {} model is not loaded yet", model.slug()))
}

/// What the analyses beyond the weights say of a model they cannot run on.
pub fn no_analyses(model: ModelId) -> Error {
    Error::Invalid(format!(
        "the analyses beyond the weights run on the models themselves, not on the one chosen ({})",
        model.slug()
    ))
}
