//! A run's summary for the page: the latest trace checked for NaN and
//! infinities, then its tokens, overview, catalog and next tokens.

use super::messages::{RunSummary, TranslationSummary};
use super::{cut_notice, Latest, Session};
use crate::analysis::catalog;
use crate::error::{Error, Result};
use crate::trace::{ModelId, Thumbnail, THUMB_MAX};

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
        let (_, trace) =
            self.latest().ok_or_else(|| Error::Invalid("the run left no trace".into()))?;
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
            catalog: catalog(trace),
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
        })
    }
}
