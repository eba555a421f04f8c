//! The worker's answers beyond the weights (`crate::analysis`): value-weighted
//! attention and rollout of the latest run, and, on the page's text, the logit
//! lens, head knockout, the importance map and the head detectors.
//!
//! The importance map knocks out every head in turn, activation patching
//! runs the model again for every layer and position, and similar heads
//! compares every two heads row by row, which take seconds on SmolLM2: each
//! is a job the worker advances a slice at a time between other
//! messages ([`Session::continue_analysis`]), so typing is never blocked and a
//! cancel or a newer run stops it.

use super::messages::{AnalysisReply, AnalysisRequest, HeadDetail};
use super::{ModelId, Session, Thumbnail};
use crate::analysis::detectors::{detectors, Prompt};
use crate::analysis::geometry::corpus::{Corpus, CorpusJob};
use crate::analysis::geometry::tsne::{tsne, Tsne};
use crate::analysis::geometry::{qk_space, translate_keys, SimilarJob};
use crate::analysis::knockout::{knockout, ImportanceJob};
use crate::analysis::logit_lens::{logit_lens, logit_lens_of_trace};
use crate::analysis::patching::{PatchJob, PatchedRun};
use crate::analysis::rollout::rollout;
use crate::analysis::value_norms::{head_norms, layer_norms, per_row, value_lengths};
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use crate::trace::KEEP_WEIGHTS_UP_TO;
use crate::trace::{pool, THUMB_MAX};
use crate::url_params::cut_text;

/// How long one slice of the importance map may keep the worker busy.
const SLICE_MS: f64 = 30.0;

/// Queries (and as many keys) per head in the corpus's grid of every head.
const CORPUS_GRID_POINTS: usize = 30;

/// Tokens listed per layer by the logit lens and before/after by a knockout.
const TOP_K: usize = 5;

/// A map under way: the run it belongs to, the model and the job.
pub(super) struct Job {
    id: u64,
    model: ModelId,
    job: Work,
}

/// A patched run kept for the page: the run and model it belongs to, the
/// request that made it (its layer and head aside) and the run.
pub(super) struct KeptRun {
    id: u64,
    model: ModelId,
    request: AnalysisRequest,
    run: PatchedRun,
}

/// `request` with its layer and head set aside: what a kept run is the run of.
fn run_key(request: &AnalysisRequest) -> AnalysisRequest {
    let mut key = request.clone();
    if let AnalysisRequest::PatchedHead { layer, head, .. } = &mut key {
        (*layer, *head) = (0, 0);
    }
    key
}

/// The two jobs that run the model a slice at a time.
enum Work {
    Importance(Box<ImportanceJob>),
    Patch(Box<PatchJob>),
}

/// Similar heads under way: the run it compares (it reads that run's weights
/// alone, so a trace file's too, and the page runs it for the teaching model).
pub(super) struct SimilarRun {
    id: u64,
    job: Box<SimilarJob<'static>>,
}

/// The corpus under way: the run whose sentence it places, its model, the head asked for last
/// and the job.
pub(super) struct CorpusRun {
    id: u64,
    model: ModelId,
    head: (usize, usize, bool),
    job: Box<CorpusJob>,
}

/// The corpus under way, the one a newer run paused (taken up again by the next request for
/// the same model), and each model's corpus once computed.
#[derive(Default)]
pub(super) struct Corpora {
    running: Option<CorpusRun>,
    paused: Option<CorpusRun>,
    done: std::collections::HashMap<ModelId, Corpus>,
}

impl Corpora {
    /// Lets go of `model`'s corpus, computed or under way: its model was replaced (other
    /// weights, or another opened model under the same id).
    pub(super) fn forget(&mut self, model: ModelId) {
        self.done.remove(&model);
        for slot in [&mut self.running, &mut self.paused] {
            if slot.as_ref().is_some_and(|r| r.model == model) {
                *slot = None;
            }
        }
    }
}

impl Work {
    fn step(&mut self, m: &dyn Layered) -> Result<()> {
        match self {
            Work::Importance(j) => j.step(m),
            Work::Patch(j) => j.step(m),
        }
    }

    fn progress(&self) -> (usize, usize) {
        match self {
            Work::Importance(j) => (j.done(), j.total()),
            Work::Patch(j) => (j.done(), j.total()),
        }
    }

    fn is_finished(&self) -> bool {
        let (done, total) = self.progress();
        done >= total
    }

    /// Where the job stands, as the page is told.
    fn progress_reply(&self) -> AnalysisReply {
        let (done, total) = self.progress();
        match self {
            Work::Importance(_) => AnalysisReply::ImportanceProgress { done, total },
            Work::Patch(_) => AnalysisReply::PatchProgress { done, total },
        }
    }

    /// The finished map.
    fn finish(self) -> AnalysisReply {
        match self {
            Work::Importance(j) => AnalysisReply::Importance(j.finish()),
            Work::Patch(j) => AnalysisReply::Patch(j.finish()),
        }
    }
}

impl Session {
    /// The model as one run layer by layer.
    fn layered(&self, model: ModelId) -> Result<&dyn Layered> {
        self.runners
            .get(&model)
            .ok_or_else(|| super::runners::missing_for_analyses(model))?
            .layered()
    }

    /// The latest run's trace, if it is run `id` (an answer about another run would be drawn beside
    /// the wrong tokens).
    fn latest_of(&self, id: u64) -> Result<&crate::trace::ModelTrace> {
        match self.latest() {
            Some((last, trace)) if last == id => Ok(trace),
            Some(_) => Err(Error::Invalid("that run has been replaced by a newer one".into())),
            None => Err(Error::Invalid("nothing has been computed yet".into())),
        }
    }

    /// The model of run `id` when it is the latest and its runner keeps it.
    fn shown_in_runner(&self, id: u64) -> Option<ModelId> {
        match self.last {
            Some((last, super::Latest::InRunner(model))) if last == id => Some(model),
            _ => None,
        }
    }

    /// Answers `request` for run `id` of `model` on `text`.
    pub fn analyze(
        &mut self,
        id: u64,
        model: ModelId,
        text: &str,
        request: AnalysisRequest,
    ) -> Result<AnalysisReply> {
        let (text, _) = cut_text(text);
        let nonempty = || {
            if text.trim().is_empty() {
                Err(Error::Invalid("the text is empty: type a sentence first".into()))
            } else {
                Ok(())
            }
        };
        let own_text = matches!(
            request,
            AnalysisRequest::Detectors { text: None, .. }
                | AnalysisRequest::CancelImportance
                | AnalysisRequest::CancelPatch
                | AnalysisRequest::CancelSimilar
        );
        if let Some((_, trace)) =
            self.latest().filter(|(_, t)| !own_text && t.tokens.len() > KEEP_WEIGHTS_UP_TO)
        {
            return Err(Error::Invalid(format!(
                "The analyses beyond the weights run on texts of up to {KEEP_WEIGHTS_UP_TO} tokens (they keep every head's weights, several times over); this one has {}. Shorten the text to use them.",
                trace.tokens.len()
            )));
        }
        match request {
            AnalysisRequest::ValueNorms { layer, head } => {
                let m = self.layered(model)?;
                let trace = self.latest_of(id)?;
                let a = &trace
                    .layers
                    .get(layer)
                    .and_then(|l| l.attention.heads.get(head))
                    .ok_or_else(|| Error::Invalid(format!("no head {layer}.{head} in this model")))?
                    .weights;
                let lengths = value_lengths(trace, m, layer)?;
                Ok(AnalysisReply::ValueNorms {
                    layer,
                    head,
                    weights: a.clone(),
                    norms: head_norms(a, &lengths[head]),
                })
            }
            AnalysisRequest::Rollout => {
                // A trace file's run: its runner reads the layers from the file.
                if self.latest_of(id).is_err() && self.shown_in_runner(id) == Some(model) {
                    if let Some(layers) = self.runners.get_mut(&model).and_then(|r| r.rollout()) {
                        return Ok(AnalysisReply::Rollout {
                            layers: layers?,
                            grouped_query: false,
                        });
                    }
                }
                let trace = self.latest_of(id)?;
                if trace.tokens.is_empty() {
                    return Err(Error::Invalid("the text is empty: type a sentence first".into()));
                }
                let grouped_query = trace
                    .layers
                    .first()
                    .is_some_and(|l| l.attention.k.len() < l.attention.heads.len());
                let layers = rollout(trace).layers.iter().map(|l| Matrix::from_rows(l)).collect();
                Ok(AnalysisReply::Rollout { layers, grouped_query })
            }
            AnalysisRequest::LogitLens { position, grid } => {
                nonempty()?;
                let m = self.layered(model)?;
                // This run's trace, when the session holds it, spares a forward.
                let kept = match self.latest_of(id) {
                    Ok(trace) if !grid => logit_lens_of_trace(m, trace, position, TOP_K)?,
                    _ => None,
                };
                Ok(AnalysisReply::LogitLens(match kept {
                    Some(lens) => lens,
                    None => logit_lens(m, text, position, TOP_K, grid)?,
                }))
            }
            AnalysisRequest::Knockout { heads, ablation } => {
                nonempty()?;
                let m = self.layered(model)?;
                let result = knockout(m, text, &heads, ablation, TOP_K)?;
                let info = m.info();
                let note = (result.heads.len() == info.n_layers * info.n_heads)
                    .then(|| "Every head is removed: what is left is the embeddings, the MLPs and the residual path.".to_string());
                Ok(AnalysisReply::Knockout { result, note })
            }
            AnalysisRequest::Importance { ablation } => {
                self.importance = None;
                nonempty()?;
                let job = ImportanceJob::start(self.layered(model)?, text, ablation)?;
                let total = job.total();
                self.importance = Some(Job { id, model, job: Work::Importance(Box::new(job)) });
                Ok(AnalysisReply::ImportanceProgress { done: 0, total })
            }
            AnalysisRequest::CancelImportance => {
                self.importance = None;
                Ok(AnalysisReply::ImportanceCancelled)
            }
            AnalysisRequest::Patch { corrupt, right, wrong, sites, last_only, fit } => {
                self.patch = None;
                nonempty()?;
                let (corrupt, _) = cut_text(&corrupt);
                let m = self.layered(model)?;
                let job =
                    PatchJob::start(m, (text, corrupt), (&right, &wrong), &sites, last_only, fit)?;
                let total = job.total();
                self.patch = Some(Job { id, model, job: Work::Patch(Box::new(job)) });
                Ok(AnalysisReply::PatchProgress { done: 0, total })
            }
            AnalysisRequest::CancelPatch => {
                self.patch = None;
                Ok(AnalysisReply::PatchCancelled)
            }
            AnalysisRequest::QkSpace { layer, head, translate } => {
                let trace = self.latest_of(id)?;
                let space = qk_space(trace, layer, head, translate)?;
                let weights = trace.layers[layer].attention.head(head).into_owned().weights;
                Ok(AnalysisReply::QkSpace { space: Box::new(space), weights })
            }
            AnalysisRequest::SimilarHeads { clusters } => {
                self.similar = None;
                // A trace file's run: its runner reads every head from the file.
                let from_runner = match self.shown_in_runner(id) {
                    Some(m) if self.latest_of(id).is_err() => {
                        self.runners.get_mut(&m).and_then(|r| r.similar(clusters))
                    }
                    _ => None,
                };
                let job = match from_runner {
                    Some(job) => job?,
                    None => SimilarJob::start(self.latest_of(id)?, clusters)?.into_owned(),
                };
                let total = job.total();
                self.similar = Some(SimilarRun { id, job: Box::new(job) });
                Ok(AnalysisReply::SimilarProgress { done: 0, total })
            }
            AnalysisRequest::CancelSimilar => {
                self.similar = None;
                Ok(AnalysisReply::SimilarCancelled)
            }
            AnalysisRequest::Corpus { layer, head, translate } => {
                if self.corpus.done.contains_key(&model) {
                    return self.corpus_space(id, model, (layer, head, translate));
                }
                self.start_corpus(id, model, (layer, head, translate))
            }
            AnalysisRequest::QkTsne { layer, head, translate } => {
                let trace = self.latest_of(id)?;
                // The same checks and messages as the principal axes (one token, no Q and K).
                qk_space(trace, layer, head, translate)?;
                let at = &trace.layers[layer].attention;
                let (q, k) = (&at.q[head], &at.k[at.kv_head_of[head]]);
                let k = if translate { translate_keys(q, k).0 } else { k.clone() };
                let points: Vec<&[f32]> =
                    (0..q.rows).map(|i| q.row(i)).chain((0..k.rows).map(|j| k.row(j))).collect();
                let mut y = tsne(&points, Tsne::default())?;
                let keys = y.split_off(q.rows);
                Ok(AnalysisReply::QkTsne { layer, head, translate, queries: y, keys })
            }
            AnalysisRequest::CorpusGrid { translate } => {
                let corpus = self.corpus.done.get(&model).ok_or_else(|| {
                    Error::Invalid("the corpus of this model has not been computed yet".into())
                })?;
                let heads = corpus.pooled(translate, CORPUS_GRID_POINTS);
                Ok(AnalysisReply::CorpusGrid { translate, heads })
            }
            AnalysisRequest::CancelCorpus => {
                (self.corpus.running, self.corpus.paused) = (None, None);
                Ok(AnalysisReply::CorpusCancelled)
            }
            AnalysisRequest::PatchedHead { layer, head, .. } => {
                nonempty()?;
                let key = run_key(&request);
                let kept = self
                    .patched
                    .take()
                    .filter(|k| (k.id, k.model, &k.request) == (id, model, &key));
                let kept = match kept {
                    Some(kept) => kept,
                    None => KeptRun {
                        id,
                        model,
                        run: self.patched_run(model, text, &key)?,
                        request: key,
                    },
                };
                let AnalysisRequest::PatchedHead { site, cell, .. } = kept.request else {
                    unreachable!("a PatchedHead key")
                };
                let l = kept
                    .run
                    .layers
                    .get(layer)
                    .ok_or_else(|| Error::Invalid(format!("no layer {layer}")))?;
                let reply = AnalysisReply::PatchedHead {
                    site,
                    cell,
                    tokens: kept.run.tokens.clone(),
                    detail: Box::new(HeadDetail::of(id, l, (layer, head), None)?),
                    logit_diff: kept.run.logit_diff,
                    effect: kept.run.effect,
                };
                self.patched = Some(kept);
                Ok(reply)
            }
            AnalysisRequest::AllValueNorms => {
                let m = self.layered(model)?;
                let trace = self.latest_of(id)?;
                let thumbnail = |n: &Matrix| Thumbnail::new(&per_row(&pool(n, THUMB_MAX)));
                let overview = (0..trace.layers.len())
                    .map(|l| Ok(layer_norms(trace, m, l)?.iter().map(thumbnail).collect()))
                    .collect::<Result<_>>()?;
                Ok(AnalysisReply::AllValueNorms { overview })
            }
            AnalysisRequest::Detectors { period, seed, text } => {
                let m = self.layered(model)?;
                let prompt = match text {
                    Some(text) => Prompt::from_text(m, &text)?,
                    None => Prompt::random(m, period, seed)?,
                };
                Ok(AnalysisReply::Detectors(detectors(m, &prompt)?))
            }
        }
    }

    /// The run of the cell a `PatchedHead` request names, on `text` as the clean prompt.
    fn patched_run(
        &self,
        model: ModelId,
        text: &str,
        request: &AnalysisRequest,
    ) -> Result<PatchedRun> {
        let AnalysisRequest::PatchedHead {
            corrupt, right, wrong, last_only, fit, site, cell, ..
        } = request
        else {
            return Err(Error::Invalid("not a patched run".into()));
        };
        let m = self.layered(model)?;
        let (corrupt, _) = cut_text(corrupt);
        let job = PatchJob::start(m, (text, corrupt), (right, wrong), &[*site], *last_only, *fit)?;
        job.patched_run(m, *site, cell.0, cell.1)
    }

    /// Head `layer`.`head` of `model`'s corpus, with run `id`'s sentence (when it is the
    /// latest and has the head's queries and keys) on the same axes.
    fn corpus_space(
        &self,
        id: u64,
        model: ModelId,
        (layer, head, translate): (usize, usize, bool),
    ) -> Result<AnalysisReply> {
        let corpus = self.corpus.done.get(&model).ok_or_else(|| {
            Error::Invalid("the corpus of this model has not been computed".into())
        })?;
        let visitor = self.latest_of(id).ok().and_then(|t| {
            let at = &t.layers.get(layer)?.attention;
            Some((at.q.get(head)?, at.k.get(*at.kv_head_of.get(head)?)?))
        });
        let space = corpus.space(layer, head, translate, visitor)?;
        Ok(AnalysisReply::CorpusSpace { space: Box::new(space), tokens: corpus.tokens.clone() })
    }

    /// Starts the corpus of `model` for run `id`, or takes up the one under way or paused.
    #[cfg(feature = "pretrained")]
    fn start_corpus(
        &mut self,
        id: u64,
        model: ModelId,
        head: (usize, usize, bool),
    ) -> Result<AnalysisReply> {
        let kept = [self.corpus.running.take(), self.corpus.paused.take()]
            .into_iter()
            .flatten()
            .find(|r| r.model == model);
        let job = match kept {
            Some(run) => run.job,
            None => Box::new(CorpusJob::start(self.layered(model)?, None, false, 0)?),
        };
        let (done, total) = job.sentences_done();
        self.corpus.running = Some(CorpusRun { id, model, head, job });
        Ok(AnalysisReply::CorpusProgress { done, total })
    }

    /// The page's own session holds no model to run the corpus through.
    #[cfg(not(feature = "pretrained"))]
    fn start_corpus(
        &mut self,
        _id: u64,
        model: ModelId,
        _head: (usize, usize, bool),
    ) -> Result<AnalysisReply> {
        Err(super::runners::missing_for_analyses(model))
    }

    /// Advances the corpus by one slice: progress, or the head asked for once it is done. A
    /// newer run pauses it (its answer would be about another sentence).
    fn continue_corpus(&mut self, now_ms: &dyn Fn() -> f64) -> Option<super::FromWorker> {
        let CorpusRun { id, model, head, mut job } = self.corpus.running.take()?;
        if self.last.as_ref().map(|(last, _)| *last) != Some(id) {
            self.corpus.paused = Some(CorpusRun { id, model, head, job });
            return None;
        }
        let start = now_ms();
        let step = (|| -> Result<()> {
            let m = self.layered(model)?;
            loop {
                job.step(m)?;
                if job.is_finished() || now_ms() - start >= SLICE_MS {
                    return Ok(());
                }
            }
        })();
        let reply = match step {
            Err(e) => Err(e),
            Ok(()) if job.is_finished() => {
                self.layered(model).and_then(|m| job.finish(m)).and_then(|corpus| {
                    self.corpus.done.insert(model, corpus);
                    self.corpus_space(id, model, head)
                })
            }
            Ok(()) => {
                let (done, total) = job.sentences_done();
                self.corpus.running = Some(CorpusRun { id, model, head, job });
                Ok(AnalysisReply::CorpusProgress { done, total })
            }
        };
        Some(match reply {
            Ok(reply) => super::FromWorker::Analysis { id, reply: Box::new(reply) },
            Err(e) => super::FromWorker::Failed { id, message: e.to_string() },
        })
    }

    /// Whether an importance map, patching, a comparison of heads or a corpus is under way.
    pub fn analysis_busy(&self) -> bool {
        self.importance.is_some()
            || self.patch.is_some()
            || self.similar.is_some()
            || self.corpus.running.is_some()
    }

    /// Advances the importance map, else the patching, by one slice (at least
    /// one step, then until `SLICE_MS` have passed): progress, or the map when
    /// it is done; with neither under way, similar heads
    /// ([`Session::continue_similar`]). A newer run than the map's drops it
    /// unanswered (its reply would be stale).
    pub fn continue_analysis(&mut self, now_ms: &dyn Fn() -> f64) -> Option<super::FromWorker> {
        if self.importance.is_none() && self.patch.is_none() {
            return self.continue_similar(now_ms);
        }
        let is_patch = self.importance.is_none();
        let slot = if is_patch { &mut self.patch } else { &mut self.importance };
        let Job { id, model, mut job } = slot.take()?;
        if self.last.as_ref().map(|(last, _)| *last) != Some(id) {
            return None;
        }
        let start = now_ms();
        let step = (|| -> Result<()> {
            let m = self.layered(model)?;
            loop {
                job.step(m)?;
                if job.is_finished() || now_ms() - start >= SLICE_MS {
                    return Ok(());
                }
            }
        })();
        if let Err(e) = step {
            return Some(super::FromWorker::Failed { id, message: e.to_string() });
        }
        let reply = if job.is_finished() {
            job.finish()
        } else {
            let progress = job.progress_reply();
            let slot = if is_patch { &mut self.patch } else { &mut self.importance };
            *slot = Some(Job { id, model, job });
            progress
        };
        Some(super::FromWorker::Analysis { id, reply: Box::new(reply) })
    }

    /// Advances similar heads by one slice: progress, or the map when every
    /// pair is compared. Apart from the model's jobs, so that the page, which
    /// runs it for the teaching model, links none of them.
    pub fn continue_similar(&mut self, now_ms: &dyn Fn() -> f64) -> Option<super::FromWorker> {
        if self.similar.is_none() {
            return self.continue_corpus(now_ms);
        }
        let SimilarRun { id, mut job } = self.similar.take()?;
        if self.last.as_ref().map(|(last, _)| *last) != Some(id) {
            return None;
        }
        let start = now_ms();
        loop {
            job.step();
            if job.is_finished() || now_ms() - start >= SLICE_MS {
                break;
            }
        }
        let reply = if job.is_finished() {
            AnalysisReply::SimilarHeads(Box::new(job.finish()))
        } else {
            let progress = AnalysisReply::SimilarProgress { done: job.done(), total: job.total() };
            self.similar = Some(SimilarRun { id, job });
            progress
        };
        Some(super::FromWorker::Analysis { id, reply: Box::new(reply) })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{FromWorker, RunOptions, ToWorker};
    use super::*;
    use crate::analysis::knockout::{Ablation, HeadRef};

    fn clock() -> f64 {
        0.0
    }

    #[test]
    fn rollout_answers_for_the_teaching_model_and_the_rest_says_why_not() {
        let mut s = Session::new();
        let text = "a fluffy blue creature";
        s.run(3, ModelId::Teaching, text, RunOptions::default(), &clock).unwrap();
        let msg = ToWorker::Analyze {
            id: 3,
            model: ModelId::Teaching,
            text: text.into(),
            request: AnalysisRequest::Rollout,
        };
        let msg: ToWorker = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        let FromWorker::Analysis { id, reply } = s.handle(msg, &clock) else {
            panic!("expected an analysis")
        };
        let AnalysisReply::Rollout { layers, grouped_query } = *reply else {
            panic!("expected rollout")
        };
        assert_eq!((id, layers.len(), grouped_query), (3, 1, false));
        for i in 0..4 {
            assert!((layers[0].row(i).iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
        // The Q·K space reads the trace alone, as rollout does: the teaching model has one.
        let space = |s: &mut Session, head| {
            let request = AnalysisRequest::QkSpace { layer: 0, head, translate: true };
            s.analyze(3, ModelId::Teaching, text, request)
        };
        let Ok(AnalysisReply::QkSpace { space: got, weights }) = space(&mut s, 0) else {
            panic!("expected the Q·K space")
        };
        assert_eq!(*got, qk_space(s.latest().unwrap().1, 0, 0, true).unwrap());
        assert_eq!((got.queries.len(), weights.shape()), (4, (4, 4)));
        let e = space(&mut s, 99).unwrap_err().to_string();
        assert!(e.contains("head 99 is not there"), "{e}");
        // t-SNE of the same points: one place per query and key, none of them NaN.
        let tsne = AnalysisRequest::QkTsne { layer: 0, head: 0, translate: true };
        let Ok(AnalysisReply::QkTsne { queries, keys, .. }) =
            s.analyze(3, ModelId::Teaching, text, tsne)
        else {
            panic!("expected t-SNE")
        };
        assert_eq!((queries.len(), keys.len()), (4, 4));
        assert!(queries.iter().chain(&keys).flatten().all(|x| x.is_finite()));
        // The corpus runs a model's sentences: the teaching model says why not.
        let corpus = AnalysisRequest::Corpus { layer: 0, head: 0, translate: false };
        let e = s.analyze(3, ModelId::Teaching, text, corpus).unwrap_err().to_string();
        assert!(e.contains("choose MiniLM or SmolLM2"), "{e}");
        assert!(!s.analysis_busy());
        let msg = ToWorker::Analyze {
            id: 3,
            model: ModelId::Teaching,
            text: text.into(),
            request: AnalysisRequest::LogitLens { position: None, grid: false },
        };
        let FromWorker::Failed { message, .. } = s.handle(msg, &clock) else {
            panic!("expected a refusal")
        };
        assert!(message.contains("choose MiniLM or SmolLM2"), "{message}");
    }

    #[test]
    fn similar_heads_runs_in_slices_from_the_trace_alone_and_stops_when_cancelled_or_overtaken() {
        let mut s = Session::new();
        let text = "a fluffy blue creature roamed the verdant forest";
        s.run(4, ModelId::Teaching, text, RunOptions::default(), &clock).unwrap();
        let ask = |s: &mut Session, id, request| s.analyze(id, ModelId::Teaching, text, request);
        // The teaching model's five heads: ten pairs.
        let start = AnalysisRequest::SimilarHeads { clusters: 2 };
        let started = ask(&mut s, 4, start.clone()).unwrap();
        assert_eq!(started, AnalysisReply::SimilarProgress { done: 0, total: 10 });
        // Each step takes more than a slice on this clock: one head's pairs per answer.
        let tick = std::cell::Cell::new(0.0);
        let slow = || {
            tick.set(tick.get() + SLICE_MS);
            tick.get()
        };
        let mut seen = Vec::new();
        let map = loop {
            let Some(FromWorker::Analysis { id: 4, reply }) = s.continue_analysis(&slow) else {
                panic!("expected an answer about run 4")
            };
            match *reply {
                AnalysisReply::SimilarProgress { done, total: 10 } => seen.push(done),
                AnalysisReply::SimilarHeads(map) => break map,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(seen, [4, 7, 9, 10]);
        assert!(!s.analysis_busy());
        let at_once =
            crate::analysis::geometry::similar_heads(s.latest().unwrap().1, 2, &mut |_, _| true);
        assert_eq!(*map, at_once.unwrap().unwrap());
        assert_eq!(map.heads.len(), 5);

        ask(&mut s, 4, start.clone()).unwrap();
        assert_eq!(
            ask(&mut s, 4, AnalysisRequest::CancelSimilar).unwrap(),
            AnalysisReply::SimilarCancelled
        );
        assert!(s.continue_analysis(&clock).is_none() && !s.analysis_busy());
        ask(&mut s, 4, start).unwrap();
        s.run(5, ModelId::Teaching, "another text", RunOptions::default(), &clock).unwrap();
        assert!(s.continue_analysis(&clock).is_none() && !s.analysis_busy());
        // A text too long to compare row by row is refused with its reason.
        let long = "word ".repeat(200);
        s.run(6, ModelId::Teaching, &long, RunOptions::default(), &clock).unwrap();
        let e =
            s.analyze(6, ModelId::Teaching, &long, AnalysisRequest::SimilarHeads { clusters: 2 });
        assert!(e.unwrap_err().to_string().contains("texts up to 128 tokens"));
    }

    #[cfg(feature = "pretrained")]
    fn minilm_session() -> Option<Session> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/models/minilm");
        let files: Vec<Vec<u8>> = ModelId::MiniLm
            .files()
            .iter()
            .map(|f| std::fs::read(dir.join(&f.name)))
            .collect::<std::io::Result<_>>()
            .ok()?;
        let mut s = Session::new();
        s.install(ModelId::MiniLm, files).unwrap();
        Some(s)
    }

    #[cfg(feature = "pretrained")]
    #[test]
    fn minilm_corpus_runs_in_slices_pauses_for_a_newer_run_is_cancelled_and_then_answers_at_once() {
        let Some(mut s) = minilm_session() else {
            eprintln!("skipped: MiniLM's files are not in www/models (scripts/fetch_models.py)");
            return;
        };
        let text = "a fluffy blue creature roamed the verdant forest";
        let ask = |s: &mut Session, id, request| s.analyze(id, ModelId::MiniLm, text, request);
        let corpus = |head| AnalysisRequest::Corpus { layer: 1, head, translate: true };
        s.run(1, ModelId::MiniLm, text, RunOptions::default(), &clock).unwrap();
        let total = crate::analysis::geometry::corpus::sentences().len();
        assert_eq!(
            ask(&mut s, 1, corpus(4)).unwrap(),
            AnalysisReply::CorpusProgress { done: 0, total }
        );
        let tick = std::cell::Cell::new(0.0);
        let slow = || {
            tick.set(tick.get() + 10.0);
            tick.get()
        };
        // Cancelled halfway: nothing more is sent, and the next request starts again.
        for _ in 0..5 {
            s.continue_analysis(&slow).unwrap();
        }
        assert_eq!(
            ask(&mut s, 1, AnalysisRequest::CancelCorpus).unwrap(),
            AnalysisReply::CorpusCancelled
        );
        assert!(s.continue_analysis(&slow).is_none() && !s.analysis_busy());
        ask(&mut s, 1, corpus(4)).unwrap();
        let mut seen = Vec::new();
        for _ in 0..3 {
            let Some(FromWorker::Analysis { reply, .. }) = s.continue_analysis(&slow) else {
                panic!("expected progress")
            };
            let AnalysisReply::CorpusProgress { done, .. } = *reply else { panic!("{reply:?}") };
            seen.push(done);
        }
        assert!(seen.windows(2).all(|w| w[0] < w[1]) && seen[0] > 0, "{seen:?}");
        // A newer run pauses it; asking again for that run takes it up where it was.
        s.run(2, ModelId::MiniLm, "the cat sat on the mat", RunOptions::default(), &clock).unwrap();
        assert!(s.continue_analysis(&slow).is_none() && !s.analysis_busy());
        let AnalysisReply::CorpusProgress { done, .. } =
            s.analyze(2, ModelId::MiniLm, "the cat sat on the mat", corpus(4)).unwrap()
        else {
            panic!()
        };
        assert_eq!(done, seen[2]);
        let space = loop {
            let Some(FromWorker::Analysis { id: 2, reply }) = s.continue_analysis(&clock) else {
                panic!("expected an answer about run 2")
            };
            if let AnalysisReply::CorpusSpace { space, tokens } = *reply {
                assert_eq!(tokens.sentences(), total);
                break space;
            }
        };
        assert_eq!((space.layer, space.head, space.visitor_queries.len()), (1, 4, 8));
        assert_eq!(space.queries.len(), space.keys.len());
        assert!(!s.analysis_busy());
        // Computed once per model: another head is answered at once.
        let AnalysisReply::CorpusSpace { space, .. } =
            s.analyze(2, ModelId::MiniLm, "the cat sat on the mat", corpus(7)).unwrap()
        else {
            panic!()
        };
        assert_eq!(space.head, 7);
        let AnalysisReply::CorpusGrid { heads, .. } = s
            .analyze(2, ModelId::MiniLm, "", AnalysisRequest::CorpusGrid { translate: false })
            .unwrap()
        else {
            panic!()
        };
        assert_eq!((heads.len(), heads[0].len()), (6, 12));
        assert!(heads.iter().flatten().all(|h| {
            (20..=CORPUS_GRID_POINTS).contains(&h.queries.len()) && h.keys.len() == h.queries.len()
        }));
        // The model installed again (other weights could be behind the same id): computed anew.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/models/minilm");
        let files: Vec<Vec<u8>> = ModelId::MiniLm
            .files()
            .iter()
            .map(|f| std::fs::read(dir.join(&f.name)).unwrap())
            .collect();
        s.install(ModelId::MiniLm, files).unwrap();
        s.run(3, ModelId::MiniLm, text, RunOptions::default(), &clock).unwrap();
        assert_eq!(
            ask(&mut s, 3, corpus(4)).unwrap(),
            AnalysisReply::CorpusProgress { done: 0, total }
        );
        assert!(space.queries.iter().chain(&space.visitor_keys).flatten().all(|x| x.is_finite()));
    }

    #[cfg(feature = "pretrained")]
    #[test]
    fn minilm_value_norms_knockout_and_an_importance_map_in_slices_that_can_be_cancelled() {
        let Some(mut s) = minilm_session() else {
            eprintln!("skipped: MiniLM's files are not in www/models (scripts/fetch_models.py)");
            return;
        };
        let text = "the cat sat on the mat";
        let ask = |s: &mut Session, id, request| s.analyze(id, ModelId::MiniLm, text, request);
        s.run(1, ModelId::MiniLm, text, RunOptions::default(), &clock).unwrap();
        let AnalysisReply::ValueNorms { weights, norms, .. } =
            ask(&mut s, 1, AnalysisRequest::ValueNorms { layer: 2, head: 5 }).unwrap()
        else {
            panic!()
        };
        let want = crate::analysis::value_norms::value_norms(
            s.latest().unwrap().1,
            s.layered(ModelId::MiniLm).unwrap(),
            Some(&[2]),
        )
        .unwrap();
        assert_eq!(norms.to_rows(), want.layers[0][5]);
        assert_eq!(weights.shape(), norms.shape());
        // Every head's thumbnail is that head's norms, each row topped at 1.
        let AnalysisReply::AllValueNorms { overview } =
            ask(&mut s, 1, AnalysisRequest::AllValueNorms).unwrap()
        else {
            panic!()
        };
        assert_eq!((overview.len(), overview[2].len()), (6, 12));
        let t = &overview[2][5];
        for i in 0..norms.rows {
            let top = norms.row(i).iter().copied().fold(0.0f32, f32::max);
            for j in 0..norms.cols {
                assert!((t.weight(i, j).unwrap() - norms[(i, j)] / top).abs() < 1e-4, "({i}, {j})");
            }
        }
        assert!(ask(&mut s, 2, AnalysisRequest::AllValueNorms)
            .unwrap_err()
            .to_string()
            .contains("newer"));

        // Clear messages rather than panics.
        let none =
            ask(&mut s, 1, AnalysisRequest::Knockout { heads: vec![], ablation: Ablation::Zero })
                .unwrap_err()
                .to_string();
        assert!(none.contains("no head to knock out"), "{none}");
        let empty = s.analyze(
            1,
            ModelId::MiniLm,
            " ",
            AnalysisRequest::Knockout {
                heads: vec![HeadRef { layer: 0, head: 0 }],
                ablation: Ablation::Zero,
            },
        );
        assert!(empty.unwrap_err().to_string().contains("empty"));
        let every: Vec<HeadRef> =
            (0..6).flat_map(|layer| (0..12).map(move |head| HeadRef { layer, head })).collect();
        let AnalysisReply::Knockout { note, .. } =
            ask(&mut s, 1, AnalysisRequest::Knockout { heads: every, ablation: Ablation::Mean })
                .unwrap()
        else {
            panic!()
        };
        assert!(note.unwrap().contains("Every head"));

        // The importance map, slice by slice, equals the one computed at once.
        let AnalysisReply::ImportanceProgress { done: 0, total: 72 } =
            ask(&mut s, 1, AnalysisRequest::Importance { ablation: Ablation::Zero }).unwrap()
        else {
            panic!()
        };
        let tick = std::cell::Cell::new(0.0);
        let clock = || {
            tick.set(tick.get() + 10.0);
            tick.get()
        };
        let mut slices = 0;
        let map = loop {
            match s.continue_analysis(&clock) {
                Some(FromWorker::Analysis { reply, .. }) => match *reply {
                    AnalysisReply::ImportanceProgress { done, total } => assert!(done < total),
                    AnalysisReply::Importance(map) => break map,
                    other => panic!("{other:?}"),
                },
                other => panic!("{other:?}"),
            }
            slices += 1;
        };
        assert!(slices > 10, "{slices} slices");
        assert!(!s.analysis_busy());
        let at_once = crate::analysis::knockout::importance(
            s.layered(ModelId::MiniLm).unwrap(),
            text,
            Ablation::Zero,
            &mut |_, _| true,
        );
        assert_eq!(map, at_once.unwrap().unwrap());

        // Cancelled, or overtaken by a newer run: nothing more is sent.
        ask(&mut s, 1, AnalysisRequest::Importance { ablation: Ablation::Zero }).unwrap();
        assert!(s.continue_analysis(&clock).is_some());
        assert_eq!(
            ask(&mut s, 1, AnalysisRequest::CancelImportance).unwrap(),
            AnalysisReply::ImportanceCancelled
        );
        assert!(s.continue_analysis(&clock).is_none());
        ask(&mut s, 1, AnalysisRequest::Importance { ablation: Ablation::Mean }).unwrap();
        s.run(2, ModelId::MiniLm, "another text", RunOptions::default(), &clock).unwrap();
        assert!(s.continue_analysis(&clock).is_none() && !s.analysis_busy());
    }
}
