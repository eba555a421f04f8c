//! The messages of the analyses beyond the weights: what the page asks
//! (`AnalysisRequest`) and what the worker answers (`AnalysisReply`).
//! `super::super::analysis` computes them.

use super::HeadDetail;
use crate::analysis::detectors::Detectors;
use crate::analysis::geometry::corpus::{CorpusSpace, CorpusTokens, PooledHead};
use crate::analysis::geometry::{QkSpace, SimilarHeads};
use crate::analysis::knockout::{Ablation, HeadRef, Importance, Knockout};
use crate::analysis::logit_lens::LogitLens;
use crate::analysis::patching::{Fit, Patching, Site};
use crate::tensor::Matrix;
use crate::trace::Thumbnail;
use serde::{Deserialize, Serialize};

/// A question about the latest run, or about the page's text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnalysisRequest {
    /// ‖a_ij f(x_j)‖ of one head of the latest run.
    ValueNorms { layer: usize, head: usize },
    /// Rollout after every layer of the latest run.
    Rollout,
    /// The logit lens at `position` (the last token when None); `grid` adds every position's top
    /// token.
    LogitLens { position: Option<usize>, grid: bool },
    /// These heads removed together.
    Knockout { heads: Vec<HeadRef>, ablation: Ablation },
    /// Starts the importance map (replacing one under way).
    Importance { ablation: Ablation },
    /// Stops the importance map under way.
    CancelImportance,
    /// The detectors on `period` random tokens (from `seed`) repeated twice,
    /// or, when `text` is given, on that text's tokens repeated twice.
    Detectors {
        period: usize,
        seed: u64,
        #[serde(default)]
        text: Option<String>,
    },
    /// ‖a_ij f(x_j)‖ of every head of the latest run, as overview thumbnails.
    AllValueNorms,
    /// Starts activation patching with the page's text as the clean prompt
    /// (replacing patching under way): the maps of `sites`.
    Patch {
        corrupt: String,
        right: String,
        wrong: String,
        sites: Vec<Site>,
        /// Heads patched at the last position only.
        last_only: bool,
        /// What is done when the prompts' lengths differ.
        #[serde(default)]
        fit: Fit,
    },
    /// Stops the patching under way.
    CancelPatch,
    /// One head of the run of one cell of a patching map (the `Patch` request's prompts,
    /// answers and choices, the cell's site, layer and column), to draw beside the clean run's.
    PatchedHead {
        corrupt: String,
        right: String,
        wrong: String,
        last_only: bool,
        #[serde(default)]
        fit: Fit,
        site: Site,
        cell: (usize, usize),
        layer: usize,
        head: usize,
    },
    /// One head of the latest run in its Q·K space (`translate`: the keys moved by
    /// mean(Q) − mean(K)).
    QkSpace { layer: usize, head: usize, translate: bool },
    /// Starts comparing every two heads of the latest run (replacing a comparison under way):
    /// their distances, map and `clusters` clusters.
    SimilarHeads { clusters: usize },
    /// Stops the comparison under way.
    CancelSimilar,
    /// One head over the built-in corpus, with the latest run's sentence on the same axes:
    /// at once when the model's corpus is computed, else the corpus is started (or resumed)
    /// and this head answered when it is done.
    Corpus { layer: usize, head: usize, translate: bool },
    /// Stops the corpus under way (what it has computed is let go).
    CancelCorpus,
    /// Every head over the model's computed corpus, pooled (the small multiples).
    CorpusGrid { translate: bool },
    /// One head of the latest run's queries and keys placed by t-SNE (keys translated or not).
    QkTsne { layer: usize, head: usize, translate: bool },
}

impl AnalysisRequest {
    /// Which requests a newer one replaces while they wait (a cancel replaces a start, and the
    /// reverse).
    pub fn kind(&self) -> usize {
        match self {
            AnalysisRequest::ValueNorms { .. } => 0,
            AnalysisRequest::Rollout => 1,
            AnalysisRequest::LogitLens { .. } => 2,
            AnalysisRequest::Knockout { .. } => 3,
            AnalysisRequest::Importance { .. } | AnalysisRequest::CancelImportance => 4,
            AnalysisRequest::Detectors { .. } => 5,
            AnalysisRequest::AllValueNorms => 6,
            AnalysisRequest::Patch { .. } | AnalysisRequest::CancelPatch => 7,
            AnalysisRequest::PatchedHead { .. } => 8,
            AnalysisRequest::QkSpace { .. } => 9,
            AnalysisRequest::SimilarHeads { .. } | AnalysisRequest::CancelSimilar => 10,
            AnalysisRequest::Corpus { .. } | AnalysisRequest::CancelCorpus => 11,
            AnalysisRequest::CorpusGrid { .. } => 12,
            AnalysisRequest::QkTsne { .. } => 13,
        }
    }
}

/// The worker's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnalysisReply {
    /// `norms[(i, j)]` = ‖a_ij f(x_j)‖, and the weights a_ij they scale.
    ValueNorms {
        layer: usize,
        head: usize,
        weights: Matrix,
        norms: Matrix,
    },
    /// `layers[l]`: rollout after layers 1 … l+1 (tokens × tokens).
    Rollout {
        layers: Vec<Matrix>,
        grouped_query: bool,
    },
    LogitLens(LogitLens),
    /// `note` says what an unusual choice means (every head removed).
    Knockout {
        result: Knockout,
        note: Option<String>,
    },
    ImportanceProgress {
        done: usize,
        total: usize,
    },
    Importance(Importance),
    ImportanceCancelled,
    Detectors(Detectors),
    /// `overview[l][h]`: head h of layer l's norms pooled like the overview's
    /// weights, then each row against its largest (the levels pick a colour only).
    AllValueNorms {
        overview: Vec<Vec<Thumbnail>>,
    },
    PatchProgress {
        done: usize,
        total: usize,
    },
    Patch(Patching),
    PatchCancelled,
    /// A head of a patched run: its tokens (the corrupted prompt's), the head, and the run's d
    /// and effect.
    PatchedHead {
        site: Site,
        cell: (usize, usize),
        tokens: Vec<String>,
        detail: Box<HeadDetail>,
        logit_diff: f32,
        effect: f32,
    },
    /// The head's queries and keys as points, and its weights (the lines from a query).
    QkSpace {
        space: Box<QkSpace>,
        weights: Matrix,
    },
    /// Pairs of heads compared so far.
    SimilarProgress {
        done: usize,
        total: usize,
    },
    SimilarHeads(Box<SimilarHeads>),
    SimilarCancelled,
    /// Sentences of the corpus run so far.
    CorpusProgress {
        done: usize,
        total: usize,
    },
    /// A head over the corpus, and the corpus's tokens.
    CorpusSpace {
        space: Box<CorpusSpace>,
        tokens: CorpusTokens,
    },
    CorpusCancelled,
    /// A head's queries and keys (by position) as t-SNE places them.
    QkTsne {
        layer: usize,
        head: usize,
        translate: bool,
        queries: Vec<[f32; 2]>,
        keys: Vec<[f32; 2]>,
    },
    /// `heads[l][h]`: every head over the corpus, pooled.
    CorpusGrid {
        translate: bool,
        heads: Vec<Vec<PooledHead>>,
    },
}
