//! A run's summary for the page: the latest trace checked for NaN and
//! infinities, then its tokens, overview, catalog and next tokens.

use super::messages::{RunSummary, TranslationSummary};
use super::{cut_notice, Latest, Session};
use crate::analysis::catalog;
use crate::attention::Mask;
use crate::error::{Error, Result};
use crate::trace::summary::RowSums;
use crate::trace::{HeadStats, ModelId, ModelTrace, Thumbnail, THUMB_MAX};

/// The catalog's sums of the latest summary's heads, kept so that a run
/// that only appends tokens to it (a step of writing, a word typed at the
/// end) adds the new rows' share rather than measuring every row again. A
/// causal model's earlier rows do not change when tokens are appended, and
/// the rows a key/value cache kept are those rows, bit for bit; the sums
/// are added a row at a time in order either way, so the catalog is the
/// same numbers as measured afresh.
#[derive(Default)]
pub(super) struct KeptSums {
    model: Option<ModelId>,
    ids: Vec<u32>,
    /// [layer][head], over the rows of `ids`.
    heads: Vec<Vec<RowSums>>,
}

impl KeptSums {
    /// The catalog of `trace`, which `model` computed reusing its first
    /// `reused` tokens from the run before; the sums are kept for the next.
    fn catalog(&mut self, model: ModelId, trace: &ModelTrace, reused: usize) -> Vec<HeadStats> {
        let causal = |m: Mask| matches!(m, Mask::Causal | Mask::SlidingWindow(_));
        let rows_kept = trace
            .layers
            .iter()
            .all(|l| l.summaries.is_none() && l.attention.heads.iter().all(|h| causal(h.mask)));
        let Some(ids) = trace.token_ids.as_ref().filter(|_| rows_kept) else {
            *self = KeptSums::default();
            return catalog(trace);
        };
        let shape: Vec<usize> = trace.layers.iter().map(|l| l.attention.heads.len()).collect();
        let reusable = self.model == Some(model)
            && self.ids.len() <= reused
            && ids.starts_with(&self.ids)
            && self.heads.iter().map(Vec::len).eq(shape.iter().copied());
        let from = if reusable { self.ids.len() } else { 0 };
        if !reusable {
            self.heads = shape.iter().map(|&h| vec![RowSums::default(); h]).collect();
        }
        let mut out = Vec::new();
        for (l, (layer, sums)) in trace.layers.iter().zip(&mut self.heads).enumerate() {
            for (h, (head, sums)) in layer.attention.heads.iter().zip(sums).enumerate() {
                let a = &head.weights;
                if from < a.rows {
                    sums.add(&a.rows_range(from, a.rows - from));
                }
                out.push(sums.stats(l, h));
            }
        }
        (self.model, self.ids) = (Some(model), ids.clone());
        out
    }
}

/// What a run leaves for its summary, beside the trace the session holds.
pub(super) struct Summarize {
    pub id: u64,
    /// The session's clock when the run began.
    pub start: f64,
    /// Whether the text was cut to the page's limit.
    pub cut: bool,
    /// Whether the run read and refilled a key/value cache.
    pub cached: bool,
    pub ran_head_notes: Vec<String>,
    pub translation: Option<Box<TranslationSummary>>,
}

impl Summarize {
    /// A run on a key/value cache that the session made itself (a step of
    /// writing, a step shown again): no text cut, no notes.
    pub fn cached(id: u64, start: f64) -> Summarize {
        Summarize {
            id,
            start,
            cut: false,
            cached: true,
            ran_head_notes: Vec::new(),
            translation: None,
        }
    }
}

impl Session {
    /// The summary of the latest run, which `model` computed. A trace with a
    /// NaN or an infinity is refused (and its cache forgotten).
    pub(super) fn summarize(
        &mut self,
        model: ModelId,
        run: Summarize,
        now_ms: &dyn Fn() -> f64,
    ) -> Result<RunSummary> {
        // The rows a cache gave were checked when they were computed.
        let checked = match &self.last {
            Some((_, Latest::InRunner(m))) => self.runners.get(m).map_or(0, |r| r.reused_tokens()),
            _ => 0,
        };
        if let Err(e) = self.latest().map_or(Ok(()), |(_, t)| t.check_finite_from(checked)) {
            self.last = None;
            // Nor may a later run reuse what this one computed.
            if let Some(runner) = self.runners.get_mut(&model) {
                runner.clear();
            }
            return Err(e);
        }
        let compute_ms = now_ms() - run.start;
        let tokens = self.latest().map_or(0, |(_, t)| t.tokens.len());
        let (threads, alone) =
            self.runners.get(&model).map_or((1, None), |r| r.threads(run.cached, tokens));
        let mut sums = std::mem::take(&mut self.sums);
        let catalog = self.latest().map(|(_, trace)| sums.catalog(model, trace, checked));
        self.sums = sums;
        let (Some(catalog), Some((_, trace))) = (catalog, self.latest()) else {
            return Err(Error::Invalid("the run left no trace".into()));
        };
        Ok(RunSummary {
            id: run.id,
            info: trace.info.clone(),
            tokens: trace.tokens.clone(),
            token_ids: trace.token_ids.clone(),
            notice: match (run.cut, &trace.notice) {
                (false, notice) => notice.clone(),
                (true, None) => Some(cut_notice()),
                (true, Some(notice)) => Some(format!("{} {notice}", cut_notice())),
            },
            overview: trace
                .layers
                .iter()
                .map(|l| l.thumbnails(THUMB_MAX).iter().map(Thumbnail::new).collect())
                .collect(),
            kv_head_of: trace
                .layers
                .first()
                .map(|l| l.attention.kv_head_of.clone())
                .unwrap_or_default(),
            catalog,
            head_notes: run.ran_head_notes,
            top_next: trace.top_next.clone(),
            sentence_embedding_norm: trace
                .sentence_embedding
                .as_ref()
                .map(|e| e.iter().map(|x| x * x).sum::<f32>().sqrt()),
            compute_ms,
            memory_bytes: None,
            memory_workers: 1,
            threads,
            alone,
            translation: run.translation,
            written: None,
            vision: None,
        })
    }
}
