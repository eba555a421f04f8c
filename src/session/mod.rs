//! What the page's Web Worker does, minus the browser: it holds the models
//! and the latest trace, runs text, and answers the views' questions with
//! just the numbers they draw. Messages are plain serde types, so this logic
//! is tested natively and the worker itself is a thin shell.
//!
//! The whole trace stays here: the page receives an overview (every head's
//! A, pooled down when the text is long) and, on request, the full detail of
//! one head. That keeps messages small however many heads a model has.

use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::{ModelTrace, KEEP_WEIGHTS_UP_TO};
use crate::url_params::{cut_text, MAX_TEXT_CHARS};
use runner::{Held, Runners};

mod analysis;
pub mod custom;
mod messages;
mod pending;
pub mod runner;
mod runners;
mod summary;
pub mod warm;
mod writing;

pub use crate::models::sampling::{Sampling, Written};
pub use messages::{
    AnalysisReply, AnalysisRequest, CrossHead, FromWorker, HeadDetail, HeardWord, Recording,
    RunOptions, RunSummary, SpeechStep, SpeechSummary, StepFrame, ToWorker, TranslationSummary,
    VisionSummary, WriteReply, WriteRequest, MAX_SECONDS, STEP_FRAMES,
};
// The session's messages carry these ground-floor types; the shells name them from here.
pub use crate::trace::{ModelFile, ModelId, Thumbnail};
pub use pending::Pending;
pub use runner::Runner;
#[cfg(any(feature = "extras", feature = "tracefile"))]
pub use runners::trace_file::OpenTrace;

/// Holds the models, one runner each (`runners/`), and the latest trace.
pub struct Session {
    runners: Runners,
    last: Option<(u64, Latest)>,
    /// The importance map under way (`analysis.rs`).
    importance: Option<analysis::Job>,
    /// The activation patching under way (`analysis.rs`).
    patch: Option<analysis::Job>,
    /// The comparison of every two heads under way (`analysis.rs`).
    similar: Option<analysis::SimilarRun>,
    /// The corpus under way, one paused by a newer run, and every model's corpus computed
    /// (`analysis.rs`).
    corpus: analysis::Corpora,
    /// The patched run of the map's cell the page shows (`analysis.rs`), kept while the
    /// visitor picks its layers and heads.
    patched: Option<analysis::KeptRun>,
    /// The latest catalog's sums, for a run that appends to it.
    sums: summary::KeptSums,
}

/// Where the latest run's trace is.
enum Latest {
    Here(Box<ModelTrace>),
    /// In its runner: a decoder's key/value cache, or a trace file that
    /// answers the views itself ([`Runner::answer`]).
    InRunner(ModelId),
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

impl Session {
    pub fn new() -> Self {
        Self {
            runners: runners::built_in(),
            last: None,
            importance: None,
            patch: None,
            similar: None,
            corpus: Default::default(),
            patched: None,
            sums: Default::default(),
        }
    }

    /// Runs `text`; `now_ms` is the clock of whoever calls (performance.now()
    /// in the browser), so the timing is what the user actually waited.
    pub fn run(
        &mut self,
        id: u64,
        model: ModelId,
        text: &str,
        options: RunOptions,
        now_ms: &dyn Fn() -> f64,
    ) -> Result<RunSummary> {
        self.run_with_cache(id, model, text, options, now_ms, true)
    }

    /// As [`Session::run`]; `cached` says whether a decoder reads and refills
    /// its key/value cache. A comparison text does not, so that it never
    /// displaces the text being typed (whose next keystroke would otherwise
    /// recompute from the first token the two texts do not share).
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
        let runner = self.runners.get_mut(&model).ok_or_else(|| runners::missing(model))?;
        let ran = runner.run(text, &options, cached)?;
        let latest = match ran.held {
            Held::Trace(t) => Latest::Here(t),
            Held::Kept => Latest::InRunner(model),
            Held::Summary(mut s) => {
                self.last = Some((id, Latest::InRunner(model)));
                (s.id, s.compute_ms) = (id, now_ms() - start);
                return Ok(*s);
            }
        };
        self.last = Some((id, latest));
        self.summarize(
            model,
            summary::Summarize {
                id,
                start,
                cut,
                cached,
                ran_head_notes: ran.head_notes,
                translation: ran.translation,
            },
            now_ms,
        )
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
            Latest::InRunner(model) => self.runners.get(model)?.latest(),
        }
    }

    /// The detail of one head of the latest run.
    pub fn head(&self, layer: usize, head: usize) -> Result<HeadDetail> {
        self.detail(layer, head, true)
    }

    /// [`Self::head`], the layer's E, E + ΔE and ΔE left out unless `with_layer`.
    fn detail(&self, layer: usize, head: usize, with_layer: bool) -> Result<HeadDetail> {
        let (id, trace) =
            self.latest().ok_or_else(|| Error::Invalid("nothing has been computed yet".into()))?;
        let l =
            trace.layers.get(layer).ok_or_else(|| Error::Invalid(format!("no layer {layer}")))?;
        // Checked before E is computed again for a long text.
        if head >= l.attention.heads.len() {
            return Err(Error::Invalid(format!("no head {head}")));
        }
        let parts = match with_layer {
            true => Some((
                self.layer_input(trace, layer)?.into_owned(),
                l.residual_rows(0, l.delta.rows),
                l.delta.clone(),
            )),
            false => None,
        };
        HeadDetail::of(id, l, (layer, head), parts)
    }

    /// E of `layer` of `trace`: held, or computed again from its h by the
    /// decoder that made it (a long text's layer keeps h, not E).
    fn layer_input<'a>(
        &self,
        trace: &'a ModelTrace,
        layer: usize,
    ) -> Result<std::borrow::Cow<'a, crate::Matrix>> {
        let l = &trace.layers[layer];
        // A decoder computes it again; the model that made the trace is named by its id.
        let runner = ModelId::from_slug(&trace.info.id).and_then(|m| self.runners.get(&m));
        if let Some(input) = runner.and_then(|r| r.layer_input(layer, l)) {
            return input;
        }
        match l.holds_input() {
            true => Ok(std::borrow::Cow::Borrowed(&l.input)),
            false => Err(runner::lost_input(layer)),
        }
    }

    /// Parses downloaded model files (in `ModelId::files()` order) and keeps the model.
    pub fn install(&mut self, model: ModelId, files: Vec<Vec<u8>>) -> Result<()> {
        if let Some(runner) = runners::from_files(model, &files)? {
            self.runners.insert(model, runner);
            self.corpus.forget(model);
        }
        Ok(())
    }

    /// Keeps a MiniLM built elsewhere (the worker gives it a helper thread
    /// first, `models::two_threads`).
    #[cfg(feature = "pretrained")]
    pub fn install_minilm(&mut self, model: crate::checkpoint::minilm::MiniLm) {
        self.runners
            .insert(ModelId::MiniLm, Box::new(runners::encoder::EncoderRunner::minilm(model)));
        self.corpus.forget(ModelId::MiniLm);
    }

    /// Keeps a SmolLM2 built elsewhere (the worker gives it a helper thread
    /// first, `models::two_threads`).
    #[cfg(feature = "pretrained")]
    pub fn install_smollm2(&mut self, model: crate::checkpoint::smollm2::SmolLm2) {
        self.runners
            .insert(ModelId::SmolLm2, Box::new(runners::decoder::DecoderRunner::new(model)));
        self.corpus.forget(ModelId::SmolLm2);
    }

    /// Keeps a model opened from the visitor's files (`custom::checkpoint`),
    /// replacing any before it: an encoder, or a decoder with a key/value cache.
    #[cfg(feature = "extras")]
    pub fn install_custom(&mut self, model: crate::checkpoint::Model) {
        if self.last.as_ref().is_some_and(|(_, l)| match l {
            Latest::Here(t) => t.info.id == "custom",
            Latest::InRunner(m) => *m == ModelId::Custom,
        }) {
            self.last = None;
        }
        let runner: Box<dyn Runner> = match model {
            crate::checkpoint::Model::Encoder(e) => {
                Box::new(runners::encoder::EncoderRunner::opened(e))
            }
            crate::checkpoint::Model::Decoder(d) => {
                Box::new(runners::decoder::DecoderRunner::new(*d))
            }
        };
        self.runners.insert(ModelId::Custom, runner);
        self.corpus.forget(ModelId::Custom);
    }

    /// Drops the opened model (forgotten by the visitor).
    #[cfg(feature = "extras")]
    pub fn forget_custom(&mut self) {
        self.runners.remove(&ModelId::Custom);
        self.corpus.forget(ModelId::Custom);
    }

    /// How many tokens of `model`'s latest typed run came from its
    /// key/value cache (0 before any, and for a model without one).
    pub fn reused_tokens(&self, model: ModelId) -> usize {
        self.runners.get(&model).map_or(0, |r| r.reused_tokens())
    }

    pub fn is_loaded(&self, model: ModelId) -> bool {
        self.runners.get(&model).is_some_and(|r| r.is_open())
    }

    /// Whether `model` is loaded from the files `ToWorker::Load` asks for:
    /// MiniLM from its exact f32 weights or from the f16 copy.
    pub fn is_loaded_as(&self, model: ModelId, exact: bool) -> bool {
        self.runners.get(&model).is_some_and(|r| r.is_open() && r.loaded_as(exact))
    }

    /// The reply of a runner that answers `msg` itself (a trace file), if any.
    fn answered_by_runner(&mut self, msg: &ToWorker) -> Option<FromWorker> {
        match msg {
            ToWorker::Run { model, .. }
            | ToWorker::Compare { model, .. }
            | ToWorker::Load { model, .. } => {
                // A run replaces a latest trace that its runner keeps out of memory.
                if matches!(msg, ToWorker::Run { .. })
                    && self.last.as_ref().is_some_and(|(_, l)| self.latest_trace(l).is_none())
                {
                    self.last = None;
                }
                self.runners.get_mut(model)?.answer(msg, None)
            }
            _ => match self.last {
                Some((id, Latest::InRunner(model))) => {
                    self.runners.get_mut(&model)?.answer(msg, Some(id))
                }
                _ => None,
            },
        }
    }

    /// One message in, one message out: the worker's whole job.
    pub fn handle(&mut self, msg: ToWorker, now_ms: &dyn Fn() -> f64) -> FromWorker {
        if let Some(reply) = self.answered_by_runner(&msg) {
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
                Some((_, trace)) if crate::export::export_weights(trace) > EXPORT_MAX_WEIGHTS => FromWorker::Failed {
                    id,
                    message: format!(
                        "This text's attention is {:.0} million weights, too many for a JSON file in the browser: shorten the text, or export it with the command line (`attnscope attention`).",
                        crate::export::export_weights(trace) as f64 / 1e6
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
            ToWorker::QueryRows { id, layer, query } => match self.latest() {
                Some((_, trace)) => match query_rows(trace, layer, query) {
                    Ok(rows) => FromWorker::QueryRows { id, layer, query, rows },
                    Err(message) => FromWorker::Failed { id, message },
                },
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
            ToWorker::Write { id, model, request } => match self.write(id, model, request, now_ms) {
                Ok(s) => FromWorker::Result(Box::new(s)),
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            ToWorker::Show { id, model, tokens } => match self.show(id, model, tokens, now_ms) {
                Ok(s) => FromWorker::Result(Box::new(s)),
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            ToWorker::Analyze { id, model, text, request } => match self.analyze(id, model, &text, request) {
                Ok(reply) => FromWorker::Analysis { id, reply: Box::new(reply) },
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            ToWorker::Listen { id, model, recording } => match self.listen(model, &recording, now_ms) {
                Ok(speech) => FromWorker::Heard { id, speech: Box::new(speech) },
                Err(e) => FromWorker::Failed { id, message: e.to_string() },
            },
            ToWorker::SpeechStep { id, model, layer, head, token } => {
                match self.runners.get(&model).ok_or_else(|| runners::missing(model)).and_then(|r| r.speech_step(layer, head, token)) {
                    Ok(step) => FromWorker::SpeechStep { id, step: Box::new(step) },
                    Err(e) => FromWorker::Failed { id, message: e.to_string() },
                }
            }
            // Loading needs the network: the worker shell fetches the files and calls `install`.
            ToWorker::Load { model, .. } => FromWorker::LoadFailed { model, message: "loading is done by the worker shell".into() },
            // So is reading the visitor's files (src/worker/open_files.rs).
            ToWorker::Custom(_) => {
                FromWorker::Custom(custom::CustomReply::Failed { message: "opening files is done by the worker shell".into() })
            }
        }
    }
}

/// Row `query` of every head's weights in `layer` of `trace`: [head][key].
fn query_rows(
    trace: &ModelTrace,
    layer: usize,
    query: usize,
) -> std::result::Result<Matrix, String> {
    let l = trace.layers.get(layer).ok_or_else(|| format!("no layer {layer} in this model"))?;
    if query >= trace.tokens.len() {
        return Err(format!("no token {query} in this text"));
    }
    if l.summaries.is_some() {
        return Err(format!(
            "every head's weights are kept for texts of up to {KEEP_WEIGHTS_UP_TO} tokens; this one has {}",
            trace.tokens.len()
        ));
    }
    let rows: Vec<Vec<f32>> =
        l.attention.heads.iter().map(|h| h.weights.row(query).to_vec()).collect();
    Ok(Matrix::from_rows(&rows))
}

/// Above this many weights the JSON export is refused: as text it would
/// outgrow a browser tab's memory.
pub const EXPORT_MAX_WEIGHTS: u64 = 16 << 20;

fn cut_notice() -> String {
    format!("Text cut to its first {MAX_TEXT_CHARS} characters.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mask;

    fn clock() -> f64 {
        0.0
    }

    #[test]
    fn run_then_head_round_trips_through_json() {
        let mut s = Session::new();
        let msg = ToWorker::Run {
            id: 7,
            model: ModelId::Teaching,
            text: "a fluffy blue creature".into(),
            options: RunOptions::default(),
        };
        let msg: ToWorker = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        let FromWorker::Result(r) = s.handle(msg, &clock) else { panic!("expected a result") };
        assert_eq!((r.id, r.tokens.len(), r.overview.len(), r.overview[0].len()), (7, 4, 1, 5));
        let FromWorker::Head(d) =
            s.handle(ToWorker::Head { id: 7, layer: 0, head: 0, with_layer: true }, &clock)
        else {
            panic!("expected a head")
        };
        assert_eq!(d.weights.shape(), (4, 4));
        assert_eq!(d.what_if_mask, Mask::Causal);
        assert_eq!(d.what_if_weights[(0, 1)], 0.0);
        assert!(matches!(
            s.handle(ToWorker::Head { id: 7, layer: 3, head: 0, with_layer: true }, &clock),
            FromWorker::Failed { .. }
        ));
        // Another head of a layer the page holds: the same detail, the layer's E, E + ΔE and ΔE
        // left out.
        let FromWorker::Head(full) =
            s.handle(ToWorker::Head { id: 7, layer: 0, head: 1, with_layer: true }, &clock)
        else {
            panic!()
        };
        let FromWorker::Head(lean) =
            s.handle(ToWorker::Head { id: 7, layer: 0, head: 1, with_layer: false }, &clock)
        else {
            panic!()
        };
        assert_eq!(
            (
                full.input.rows,
                full.layer_left_out,
                lean.input.shape(),
                lean.residual.rows,
                lean.delta.rows
            ),
            (4, false, (0, 0), 0, 0)
        );
        assert!(lean.layer_left_out);
        assert_eq!(
            (lean.weights, lean.what_if_weights, lean.q),
            (full.weights, full.what_if_weights, full.q)
        );
    }

    #[test]
    fn temperature_factor_scales_scores_exactly_as_the_formula_says() {
        let mut s = Session::new();
        let text = "the quick brown fox";
        s.run(1, ModelId::Teaching, text, RunOptions::default(), &clock).unwrap();
        let base = s.head(0, 0).unwrap();
        s.run(
            2,
            ModelId::Teaching,
            text,
            RunOptions { temperature_factor: 10.0, ..Default::default() },
            &clock,
        )
        .unwrap();
        let hot = s.head(0, 0).unwrap();
        assert_eq!(hot.scores, base.scores);
        assert!((hot.scale - base.scale * 10.0).abs() < 1e-6);
        let want = crate::attention::softmax_rows(base.scores.map(|x| x * base.scale * 10.0));
        assert!(hot.weights.max_abs_diff(&want) < 1e-6);
        s.run(
            3,
            ModelId::Teaching,
            text,
            RunOptions { unscaled: true, ..Default::default() },
            &clock,
        )
        .unwrap();
        assert_eq!(s.head(0, 0).unwrap().scale, 1.0);
    }

    #[test]
    fn a_run_that_computes_nan_is_an_error_and_the_next_run_works() {
        let mut s = Session::new();
        let text = "the quick brown fox";
        for factor in [f32::INFINITY, f32::NAN, 1e38] {
            let e = s
                .run(
                    1,
                    ModelId::Teaching,
                    text,
                    RunOptions { temperature_factor: factor, ..Default::default() },
                    &clock,
                )
                .unwrap_err();
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
        let FromWorker::Heads { id, query, key, heads } = s.handle(msg, &clock) else {
            panic!("expected heads")
        };
        assert_eq!((id, query, key, heads.len()), (4, q, k, 5));
        assert!(heads.windows(2).all(|w| w[0].weight >= w[1].weight));
        for m in &heads {
            assert_eq!(m.weight, s.head(m.layer, m.head).unwrap().weights[(q, k)]);
        }
        assert_eq!((heads[0].layer, heads[0].head), (0, 0));
        // Out-of-range tokens are an answer, not a panic.
        assert!(matches!(
            s.handle(ToWorker::FindHeads { id: 4, query: 99, key: 0 }, &clock),
            FromWorker::Failed { .. }
        ));
        assert!(matches!(
            Session::new().handle(ToWorker::FindHeads { id: 1, query: 0, key: 0 }, &clock),
            FromWorker::Failed { .. }
        ));
    }

    #[test]
    fn query_rows_are_each_heads_row_of_the_latest_run() {
        let mut s = Session::new();
        s.run(4, ModelId::Teaching, "a fluffy blue creature", RunOptions::default(), &clock)
            .unwrap();
        let FromWorker::QueryRows { rows, .. } =
            s.handle(ToWorker::QueryRows { id: 4, layer: 0, query: 3 }, &clock)
        else {
            panic!("expected the rows")
        };
        assert_eq!(rows.shape(), (5, 4));
        for h in 0..5 {
            assert_eq!(rows.row(h), s.head(0, h).unwrap().weights.row(3));
        }
        for bad in [(1, 0), (0, 4)] {
            let msg = ToWorker::QueryRows { id: 4, layer: bad.0, query: bad.1 };
            assert!(matches!(s.handle(msg, &clock), FromWorker::Failed { .. }));
        }
    }

    #[test]
    fn compare_runs_another_text_and_keeps_the_latest_run() {
        let mut s = Session::new();
        s.run(5, ModelId::Teaching, "the cat sat", RunOptions::default(), &clock).unwrap();
        let before = s.head(0, 1).unwrap();
        let other = "a fluffy blue creature";
        let msg = ToWorker::Compare {
            id: 5,
            model: ModelId::Teaching,
            text: other.into(),
            options: RunOptions::default(),
            layer: 0,
            head: 1,
        };
        let FromWorker::Compared { id, tokens, detail } = s.handle(msg, &clock) else {
            panic!("expected a comparison")
        };
        let want = crate::models::teaching::TeachingModel::new().run(other).unwrap();
        assert_eq!((id, &tokens), (5, &want.tokens));
        assert_eq!(detail.weights, *want.weights(0, 1).unwrap());
        assert_eq!(s.head(0, 1).unwrap().weights, before.weights);
        let bad = ToWorker::Compare {
            id: 5,
            model: ModelId::Teaching,
            text: other.into(),
            options: RunOptions::default(),
            layer: 0,
            head: 9,
        };
        assert!(matches!(s.handle(bad, &clock), FromWorker::Failed { .. }));
        assert_eq!(s.head(0, 1).unwrap().weights, before.weights);
    }

    #[test]
    fn a_huge_paste_is_cut_before_it_is_tokenized() {
        let mut s = Session::new();
        let huge = "word ".repeat(1_000_000); // 5 MB
        let r = s.run(1, ModelId::Teaching, &huge, RunOptions::default(), &clock).unwrap();
        let notice = r.notice.unwrap();
        assert!(
            notice.starts_with(&format!("Text cut to its first {MAX_TEXT_CHARS} characters.")),
            "{notice}"
        );
        // Either way the teaching model keeps its own word limit too.
        assert!(notice.contains("words"), "{notice}");
        let short =
            s.run(2, ModelId::Teaching, "a short text", RunOptions::default(), &clock).unwrap();
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
