//! The page's state, as a few structs of signals provided by context: what
//! the visitor chose ([`Selection`], kept in the URL), how the page looks
//! ([`Appearance`]) and what the model answered ([`Results`]). A component
//! takes the struct it needs with `expect_context` instead of a chain of props.

use crate::canvas::Look;
use crate::url_state::{FollowedWriting, Stage, UrlState, View};
use attnscope::analysis::HeadMatch;
use attnscope::attention::Mask;
use attnscope::session::{HeadDetail, ModelId, RunOptions, RunSummary};
use attnscope::session::{Sampling, Written};
use attnscope::Matrix;
use leptos::prelude::*;
use std::collections::HashMap;

/// Where a downloadable model stands.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadState {
    NotLoaded,
    Loading { loaded: u64, total: u64 },
    Ready,
    Failed(String),
}

/// A cell of a picture: query row, key column, and the mask of the grid it
/// is in (the dot grids draw the model's mask and the other one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    pub query: usize,
    pub key: usize,
    pub mask: Option<Mask>,
}

/// A find-heads answer, for the run `id`.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub id: u64,
    pub query: usize,
    pub key: usize,
    pub heads: Vec<HeadMatch>,
}

/// Row `query` of every head in `layer` of run `id`, [head][key] (the Image tab's heads side by side).
#[derive(Clone, Debug, PartialEq)]
pub struct QueryRows {
    pub id: u64,
    pub layer: usize,
    pub query: usize,
    pub rows: Matrix,
}

/// The selected head on a second run, drawn beside the page's: another
/// sentence, or a run of activation patching.
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    pub tokens: Vec<String>,
    pub detail: HeadDetail,
    /// What the second run is, for the caption ("The other sentence").
    pub what: String,
}

/// What the visitor chose. Selecting a token, head or layer in one view
/// selects it in every view.
#[derive(Clone, Copy)]
pub struct Selection {
    pub text: RwSignal<String>,
    pub model: RwSignal<ModelId>,
    pub layer: RwSignal<usize>,
    pub head: RwSignal<usize>,
    pub view: RwSignal<View>,
    /// The query token chosen in any view (None: the last token).
    pub token: RwSignal<Option<usize>>,
    pub stage: RwSignal<Stage>,
    /// The lesson's step, from 0.
    pub step: RwSignal<usize>,
    /// What the lessons switch (temperature, 1/√d_k, positional code, next-token temperature).
    pub options: RwSignal<RunOptions>,
    /// The exact weights as published, not a model's smaller copy (MiniLM: f32, not f16).
    pub exact: RwSignal<bool>,
    /// A second sentence for the same head (not kept in the URL).
    pub compare_text: RwSignal<String>,
    /// The token under the pointer (not kept in the URL).
    pub hovered: RwSignal<Option<usize>>,
    /// The cell under the mouse, and the one last clicked or tapped.
    pub hovered_cell: RwSignal<Option<Cell>>,
    pub pinned_cell: RwSignal<Option<Cell>>,
}

impl Selection {
    pub fn new(start: &UrlState) -> Self {
        Self {
            text: RwSignal::new(start.text.clone()),
            model: RwSignal::new(start.model),
            layer: RwSignal::new(start.layer),
            head: RwSignal::new(start.head),
            view: RwSignal::new(start.view),
            token: RwSignal::new(start.token),
            stage: RwSignal::new(start.stage),
            step: RwSignal::new(start.step),
            options: RwSignal::new(start.options),
            exact: RwSignal::new(start.exact),
            compare_text: RwSignal::new(String::new()),
            hovered: RwSignal::new(None),
            hovered_cell: RwSignal::new(None),
            pinned_cell: RwSignal::new(None),
        }
    }

    /// Takes every field the URL keeps.
    pub fn apply(&self, s: UrlState) {
        self.text.set(s.text);
        self.model.set(s.model);
        self.layer.set(s.layer);
        self.head.set(s.head);
        self.view.set(s.view);
        self.token.set(s.token);
        self.stage.set(s.stage);
        self.step.set(s.step);
        self.options.set(s.options);
    }

    /// The query token of a text of `n` tokens: the chosen one, else the last.
    pub fn query(&self, n: usize) -> usize {
        self.token.get().filter(|&t| t < n).unwrap_or(n.saturating_sub(1))
    }

    /// The token a picture outlines: the one under the pointer, else the chosen one.
    pub fn highlight(&self) -> Option<usize> {
        self.hovered.get().or(self.token.get())
    }

    /// The cell the readout describes.
    pub fn cell(&self) -> Option<Cell> {
        self.hovered_cell.get().or(self.pinned_cell.get())
    }

    pub fn select_head(&self, (layer, head): (usize, usize)) {
        self.layer.set(layer);
        self.head.set(head);
    }

    /// A click or tap on a cell: it stays described, and its query becomes the chosen token.
    pub fn pin(&self, cell: Cell) {
        self.pinned_cell.set(Some(cell));
        self.token.set(Some(cell.query));
    }
}

/// How the page looks.
#[derive(Clone, Copy)]
pub struct Appearance {
    pub dark: RwSignal<bool>,
    pub present: RwSignal<bool>,
    /// Draw Aᵀ: each column a query (3Blue1Brown's orientation).
    pub columns_are_queries: RwSignal<bool>,
    /// Only the stage, for an iframe (`?embed=1`).
    pub embed: bool,
    /// The canvases' ink and type size, read from the style once it changed.
    pub look: RwSignal<Look>,
}

impl Appearance {
    pub fn new(start: &UrlState) -> Self {
        let dark = start.dark.unwrap_or_else(|| {
            web_sys::window()
                .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
                .is_some_and(|m| m.matches())
        });
        Self {
            dark: RwSignal::new(dark),
            present: RwSignal::new(start.present),
            columns_are_queries: RwSignal::new(start.columns_are_queries),
            embed: start.embed,
            look: RwSignal::new(Look::default()),
        }
    }
}

/// What the model answered, and how its download stands.
#[derive(Clone, Copy)]
pub struct Results {
    pub summary: RwSignal<Option<RunSummary>>,
    pub detail: RwSignal<Option<HeadDetail>>,
    pub found: RwSignal<Option<Found>>,
    pub query_rows: RwSignal<Option<QueryRows>>,
    pub compared: RwSignal<Option<Compared>>,
    pub error: RwSignal<String>,
    pub loads: RwSignal<HashMap<ModelId, LoadState>>,
    pub worker_ready: RwSignal<bool>,
    /// The id of the newest run asked for: past `summary`'s while that run computes.
    pub asked: RwSignal<u64>,
    /// How far a long run is: (run id, blocks done, blocks, tokens of its text).
    pub computing: RwSignal<Option<(u64, usize, usize, usize)>>,
    /// The latest run's tokens.
    pub tokens: Memo<Vec<String>>,
}

impl Default for Results {
    fn default() -> Self {
        Self::new()
    }
}

impl Results {
    pub fn new() -> Self {
        let summary = RwSignal::new(None::<RunSummary>);
        Self {
            summary,
            detail: RwSignal::new(None),
            found: RwSignal::new(None),
            query_rows: RwSignal::new(None),
            compared: RwSignal::new(None),
            error: RwSignal::new(String::new()),
            loads: RwSignal::new(HashMap::new()),
            worker_ready: RwSignal::new(false),
            asked: RwSignal::new(0),
            computing: RwSignal::new(None),
            tokens: Memo::new(move |_| {
                summary.with(|s| s.as_ref().map(|s| s.tokens.clone()).unwrap_or_default())
            }),
        }
    }

    pub fn load_state(&self, m: ModelId) -> LoadState {
        self.loads.with(|l| l.get(&m).cloned()).unwrap_or(if m == ModelId::Teaching {
            LoadState::Ready
        } else {
            LoadState::NotLoaded
        })
    }

    /// Whether the detail shown holds layer `layer`'s E, E + ΔE and ΔE of run `id`.
    fn holds_layer(shown: &HeadDetail, (id, layer): (u64, usize)) -> bool {
        (shown.id, shown.layer) == (id, layer) && !shown.layer_left_out
    }

    /// [`Self::holds_layer`] for the detail shown now: another head of that
    /// layer is asked for without them.
    pub fn shows_layer(&self, id: u64, layer: usize) -> bool {
        self.detail
            .with_untracked(|d| d.as_ref().is_some_and(|d| Self::holds_layer(d, (id, layer))))
    }

    /// Moves the layer's E, E + ΔE and ΔE from the detail shown into `d`,
    /// which left them out (`HeadDetail::layer_left_out`); false, and `d`
    /// unchanged, unless the detail shown is of the same run and layer.
    pub fn lend_layer(&self, d: &mut HeadDetail) -> bool {
        self.detail
            .try_update_untracked(|shown| {
                let Some(shown) = shown.as_mut().filter(|s| Self::holds_layer(s, (d.id, d.layer)))
                else {
                    return false;
                };
                d.input = std::mem::replace(&mut shown.input, Matrix::zeros(0, 0));
                d.residual = std::mem::replace(&mut shown.residual, Matrix::zeros(0, 0));
                d.delta = std::mem::replace(&mut shown.delta, Matrix::zeros(0, 0));
                // The detail shown is about to be replaced; until then it says what it lent.
                shown.layer_left_out = true;
                d.layer_left_out = false;
                true
            })
            .unwrap_or(false)
    }

    /// The run shown and its head `(layer, head)`, when they can be exported
    /// together: the head is of that run and no newer run is computing (an
    /// export must never put one run's tokens beside another's weights, and
    /// the worker answers JSON from its newest run).
    pub fn exportable(&self, (layer, head): (usize, usize)) -> bool {
        let run = self.summary.with(|s| s.as_ref().map(|s| (s.id, s.tokens.len())));
        let shown =
            self.detail.with(|d| d.as_ref().map(|d| (d.id, d.weights.rows, d.layer, d.head)));
        match (run, shown) {
            (Some((id, n)), Some((of, rows, l, h))) => {
                n > 0 && of == id && rows == n && (l, h) == (layer, head) && id == self.asked.get()
            }
            _ => false,
        }
    }

    /// The id of the run shown.
    pub fn run_id(&self) -> Option<u64> {
        self.summary.with(|s| s.as_ref().map(|s| s.id))
    }

    /// The run shown has tokens (an analysis of an empty text has nothing to show).
    pub fn has_tokens(&self) -> bool {
        self.summary.with(|s| s.as_ref().is_some_and(|s| !s.tokens.is_empty()))
    }
}

/// Where a generation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteState {
    Idle,
    Writing,
    Paused,
    Done,
}

impl WriteState {
    pub fn slug(self) -> &'static str {
        match self {
            WriteState::Idle => "idle",
            WriteState::Writing => "writing",
            WriteState::Paused => "paused",
            WriteState::Done => "done",
        }
    }
}

/// One token written: the step's choice, and the text's token count after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub written: Written,
    pub tokens: usize,
}

/// Writing (`views/write/`): the settings, kept in the URL, and the
/// generation, from its prompt to the steps written. Its temperature is
/// the next-token temperature ([`RunOptions::next_token_temperature`]).
#[derive(Clone, Copy)]
pub struct Writing {
    pub sample: RwSignal<bool>,
    pub top_k: RwSignal<usize>,
    pub top_p: RwSignal<f32>,
    pub seed: RwSignal<u64>,
    /// Tokens one press of Write asks for.
    pub count: RwSignal<usize>,
    pub prompt: RwSignal<String>,
    pub prompt_tokens: RwSignal<usize>,
    pub steps: RwSignal<Vec<Step>>,
    pub state: RwSignal<WriteState>,
    /// Why the generation ended (an end-of-text token, Stop, an error).
    pub message: RwSignal<String>,
    /// The timeline's step shown, from 1 (None: now).
    pub at: RwSignal<Option<usize>>,
    /// Writing goes on until this many steps are written; true: a press of
    /// Write (done at the end), false: a single step (paused at the end).
    pub target: StoredValue<(usize, bool)>,
    /// The token ids after the latest step (the next step starts from them).
    pub ids: StoredValue<Vec<u32>>,
    /// The text the latest step wrote into the text box: its run is already
    /// computed, so the text box's change asks for no run.
    pub produced: StoredValue<Option<String>>,
    /// A class's teacher's writing, which this page (a student's) writes again.
    pub following: RwSignal<Option<FollowedWriting>>,
}

impl Writing {
    pub fn new(start: &UrlState) -> Self {
        let w = start.writing;
        Self {
            sample: RwSignal::new(!w.greedy),
            top_k: RwSignal::new(w.top_k),
            top_p: RwSignal::new(w.top_p),
            seed: RwSignal::new(w.seed),
            count: RwSignal::new(start.write_count),
            prompt: RwSignal::new(String::new()),
            prompt_tokens: RwSignal::new(0),
            steps: RwSignal::new(Vec::new()),
            state: RwSignal::new(WriteState::Idle),
            message: RwSignal::new(String::new()),
            at: RwSignal::new(None),
            target: StoredValue::new((0, false)),
            ids: StoredValue::new(Vec::new()),
            produced: StoredValue::new(None),
            following: RwSignal::new(None),
        }
    }

    /// The settings of the next step, at the temperature `temperature`.
    pub fn sampling(&self, temperature: f32) -> Sampling {
        Sampling {
            greedy: !self.sample.get_untracked(),
            temperature,
            top_k: self.top_k.get_untracked(),
            top_p: self.top_p.get_untracked(),
            seed: self.seed.get_untracked(),
        }
    }

    /// The URL's share of the settings (the temperature is the run options').
    pub fn settings(&self) -> Sampling {
        Sampling {
            greedy: !self.sample.get(),
            temperature: 1.0,
            top_k: self.top_k.get(),
            top_p: self.top_p.get(),
            seed: self.seed.get(),
        }
    }

    /// The token ids written so far, in order.
    pub fn written_ids(&self) -> Vec<u32> {
        self.steps.with(|v| v.iter().map(|s| s.written.choice.id).collect())
    }

    /// Forgets the generation (another text or model).
    pub fn clear(&self) {
        self.steps.set(Vec::new());
        self.state.set(WriteState::Idle);
        self.message.set(String::new());
        self.at.set(None);
        self.ids.set_value(Vec::new());
        self.produced.set_value(None);
    }
}
