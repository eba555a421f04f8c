//! The Translation tab: a translation model's cross-attention
//! (`translate.rs`: the view), drawn as a heatmap (`heatmap.rs`, with its
//! exports in `export.rs`), as lines between the two sentences (`lines.rs`)
//! and step by step for one target word (`step.rs`). The choice they share,
//! [`CrossChoice`], is here, and each of them takes it from here.

pub mod export;
pub mod heatmap;
pub mod lines;
pub mod step;
pub mod translate;

use crate::state::Results;
use attnscope::session::TranslationSummary;
use leptos::prelude::*;

/// Which picture of the cross-attention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Heatmap,
    Lines,
    Step,
}

/// The translation view's own choices (the decoder's layers and heads are
/// not the encoder's, which the other views select).
#[derive(Clone, Copy)]
pub struct CrossChoice {
    /// None: the mean over layers.
    pub layer: RwSignal<Option<usize>>,
    /// None: the mean over heads.
    pub head: RwSignal<Option<usize>>,
    pub part: RwSignal<Part>,
    /// The chosen target word (row).
    pub target: RwSignal<Option<usize>>,
    /// The cell described in the readout, (target, source).
    pub cell: RwSignal<Option<(usize, usize)>>,
    /// While generating: how many target words are out; None: all.
    pub shown: RwSignal<Option<usize>>,
    /// The latest run's translation.
    pub summary: Memo<Option<TranslationSummary>>,
}

impl CrossChoice {
    fn new(res: Results) -> Self {
        Self {
            layer: RwSignal::new(None),
            head: RwSignal::new(None),
            part: RwSignal::new(Part::Heatmap),
            target: RwSignal::new(None),
            cell: RwSignal::new(None),
            shown: RwSignal::new(None),
            summary: Memo::new(move |_| {
                res.summary.with(|s| s.as_ref().and_then(|s| s.translation.as_deref().cloned()))
            }),
        }
    }

    /// The target rows on screen.
    pub fn rows(&self, t: &TranslationSummary) -> usize {
        self.shown.get().map_or(t.target_tokens.len(), |n| n.min(t.target_tokens.len()))
    }

    /// What a picture's title says of the layer and head.
    pub fn which(&self) -> String {
        self.layer.track();
        self.head.track();
        self.which_untracked()
    }

    /// [`Self::which`], read without subscribing (in an event handler).
    pub fn which_untracked(&self) -> String {
        match (self.layer.get_untracked(), self.head.get_untracked()) {
            (Some(l), Some(h)) => tr!("translation-which-head", layer = l + 1, head = h + 1),
            (Some(l), None) => tr!("translation-which-layer", layer = l + 1),
            (None, Some(h)) => tr!("translation-which-head-mean", head = h + 1),
            (None, None) => tr!("translation-which-mean"),
        }
    }
}
