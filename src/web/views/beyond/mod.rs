//! "Beyond weights": what attention weights alone do not say. Value-weighted
//! attention of the selected head, attention rollout, the logit lens
//! (decoders), head knockout and the importance map, activation patching
//! (decoders); each quantity with its
//! one-line definition. The numbers come from the worker (`session/analysis.rs`).

pub mod knockout;
pub mod logit_lens;
pub mod patching;
pub mod rollout;

use crate::canvas::{
    blank, cell_color, draw_labels, label_width, outline_cell, paint_cells, prepare,
    use_canvas_box, CanvasBox, Focus, Layout,
};
use crate::compute::Engine;
use crate::state::{Compared, Results, Selection};
use attnscope::analysis::detectors::Detectors;
use attnscope::analysis::geometry::corpus::{CorpusSpace, CorpusTokens, PooledHead};
use attnscope::analysis::geometry::{QkSpace, SimilarHeads};
use attnscope::analysis::knockout::{Ablation, HeadRef, Importance, Knockout};
use attnscope::analysis::logit_lens::LogitLens;
use attnscope::analysis::value_norms::{self, per_row};
use attnscope::session::{AnalysisReply, AnalysisRequest, HeadDetail, Thumbnail, ToWorker};
use attnscope::Matrix;
use knockout::{ImportancePanel, KnockoutPanel};
use leptos::prelude::*;
use logit_lens::LogitLensPanel;
use patching::{OpenCell, PatchForm, PatchState, PatchingPanel};
use rollout::RolloutPanel;

/// Where the importance map stands.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportanceState {
    Idle,
    Running { done: usize, total: usize },
    Done(Box<Importance>),
    Cancelled,
}

/// Where the comparison of every two heads stands (`views/catalog/similar.rs`).
#[derive(Clone, Debug, PartialEq)]
pub enum SimilarState {
    Idle,
    Running { done: usize, total: usize },
    Done(Box<SimilarHeads>),
}

/// The analyses' answers and choices, provided by context; each answer keeps
/// the id of the run it is about, so a newer run hides it.
#[derive(Clone, Copy)]
pub struct Analysis {
    /// Show ‖a_ij f(x_j)‖ instead of a_ij.
    pub value_weighted: RwSignal<bool>,
    pub norms: RwSignal<Option<(u64, usize, usize, Matrix)>>,
    /// Every head's norms as overview thumbnails, for run `.0`.
    pub all_norms: RwSignal<Option<(u64, Vec<Vec<Thumbnail>>)>>,
    pub rollout: RwSignal<Option<(u64, Vec<Matrix>, bool)>>,
    pub lens: RwSignal<Option<(u64, LogitLens)>>,
    pub lens_grid: RwSignal<bool>,
    pub knockout: RwSignal<Option<(u64, Knockout, Option<String>)>>,
    /// The heads and ablation of the knockout asked for last; None after Clear, so a late answer is
    /// dropped.
    pub knockout_asked: RwSignal<Option<(Vec<HeadRef>, Ablation)>>,
    pub importance: RwSignal<ImportanceState>,
    pub importance_of: RwSignal<u64>,
    pub detectors: RwSignal<Option<Detectors>>,
    /// The heads chosen for a knockout.
    pub knocked: RwSignal<Vec<HeadRef>>,
    /// "All heads": clicks on a tile choose heads to knock out instead of opening them.
    pub knock_mode: RwSignal<bool>,
    pub ablation: RwSignal<Ablation>,
    /// Activation patching: where it stands, for which run, and the form.
    pub patch: RwSignal<PatchState>,
    pub patch_of: RwSignal<u64>,
    pub patch_form: PatchForm,
    /// The patching request the maps shown answer (its prompts and answers open a cell).
    pub patch_asked: StoredValue<Option<AnalysisRequest>>,
    /// The map cell whose run the head view draws beside the page's.
    pub patch_open: RwSignal<Option<OpenCell>>,
    /// The head view's second map (the page's `Results::compared`).
    pub compared: RwSignal<Option<Compared>>,
    /// The Q·K space of the head asked for last (`views/space/`).
    pub space: RwSignal<Option<Space>>,
    /// Similar heads, and the run it is (or was last asked) about.
    pub similar: RwSignal<SimilarState>,
    pub similar_of: RwSignal<u64>,
    /// The Space view's corpus switch and where the corpus stands.
    pub corpus: RwSignal<CorpusState>,
    /// The head over the corpus asked for last: the run whose sentence it places, the points,
    /// the corpus's tokens.
    pub corpus_space: RwSignal<Option<(u64, CorpusSpace, CorpusTokens)>>,
    /// The latest head's queries and keys placed by t-SNE: (run, layer, head, translated,
    /// queries, keys).
    #[allow(clippy::type_complexity)]
    pub space_tsne: RwSignal<Option<(u64, usize, usize, bool, Vec<[f32; 2]>, Vec<[f32; 2]>)>>,
    /// Every head over the corpus, pooled (the small multiples), and whether translated.
    pub corpus_grid: RwSignal<Option<(bool, Vec<Vec<PooledHead>>)>>,
    /// The last analysis that failed, and why.
    pub error: RwSignal<String>,
}

/// The Space view's corpus: off, being computed, or computed (for the worker's model).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusState {
    Off,
    Running { done: usize, total: usize },
    Ready,
}

impl CorpusState {
    pub fn is_running(&self) -> bool {
        matches!(self, CorpusState::Running { .. })
    }
}

impl Default for Analysis {
    fn default() -> Self {
        Self::new()
    }
}

impl Analysis {
    pub fn new() -> Self {
        Self {
            value_weighted: RwSignal::new(false),
            norms: RwSignal::new(None),
            all_norms: RwSignal::new(None),
            rollout: RwSignal::new(None),
            lens: RwSignal::new(None),
            lens_grid: RwSignal::new(false),
            knockout: RwSignal::new(None),
            knockout_asked: RwSignal::new(None),
            importance: RwSignal::new(ImportanceState::Idle),
            importance_of: RwSignal::new(0),
            detectors: RwSignal::new(None),
            knocked: RwSignal::new(Vec::new()),
            knock_mode: RwSignal::new(false),
            ablation: RwSignal::new(Ablation::Zero),
            patch: RwSignal::new(PatchState::Idle),
            patch_of: RwSignal::new(0),
            patch_form: PatchForm::new(),
            patch_asked: StoredValue::new(None),
            patch_open: RwSignal::new(None),
            compared: RwSignal::new(None),
            space: RwSignal::new(None),
            similar: RwSignal::new(SimilarState::Idle),
            similar_of: RwSignal::new(0),
            corpus: RwSignal::new(CorpusState::Off),
            corpus_space: RwSignal::new(None),
            corpus_grid: RwSignal::new(None),
            space_tsne: RwSignal::new(None),
            error: RwSignal::new(String::new()),
        }
    }

    /// Provides the analyses' context; a model of another shape drops the chosen heads (once, for
    /// every view).
    pub fn provide(res: Results) -> Self {
        let an = Self { compared: res.compared, ..Self::new() };
        provide_context(an);
        knockout::keep_heads_of_model(res, an);
        an
    }

    /// An answer about run `id` (the page's latest).
    pub fn take(&self, id: u64, reply: AnalysisReply) {
        self.error.set(String::new());
        match reply {
            AnalysisReply::ValueNorms { layer, head, norms, .. } => {
                self.norms.set(Some((id, layer, head, norms)))
            }
            AnalysisReply::QkSpace { space, weights } => {
                self.space.set(Some(Space { run: id, space: *space, weights }))
            }
            AnalysisReply::Rollout { layers, grouped_query } => {
                self.rollout.set(Some((id, layers, grouped_query)))
            }
            AnalysisReply::LogitLens(lens) => self.lens.set(Some((id, lens))),
            AnalysisReply::Knockout { result, note } => {
                let asked = self.knockout_asked.with_untracked(|a| {
                    a.as_ref().is_some_and(|(h, ab)| *h == result.heads && *ab == result.ablation)
                });
                if asked {
                    self.knockout.set(Some((id, result, note)))
                }
            }
            // Progress of a map that was cancelled meanwhile is not drawn.
            AnalysisReply::ImportanceProgress { done, total } => {
                if id == self.importance_of.get_untracked()
                    && matches!(self.importance.get_untracked(), ImportanceState::Running { .. })
                {
                    self.importance.set(ImportanceState::Running { done, total })
                }
            }
            AnalysisReply::Importance(map) => {
                if id == self.importance_of.get_untracked()
                    && matches!(self.importance.get_untracked(), ImportanceState::Running { .. })
                {
                    self.importance.set(ImportanceState::Done(Box::new(map)))
                }
            }
            AnalysisReply::ImportanceCancelled
            | AnalysisReply::PatchCancelled
            | AnalysisReply::SimilarCancelled
            | AnalysisReply::CorpusCancelled => {}
            // Another model's corpus may start while one is shown: any progress while the switch is on.
            AnalysisReply::CorpusProgress { done, total } => {
                let state = self.corpus.get_untracked();
                if state != CorpusState::Off && state != (CorpusState::Running { done, total }) {
                    self.corpus.set(CorpusState::Running { done, total })
                }
            }
            AnalysisReply::CorpusSpace { space, tokens } => {
                if !matches!(self.corpus.get_untracked(), CorpusState::Off | CorpusState::Ready) {
                    self.corpus.set(CorpusState::Ready)
                }
                self.corpus_space.set(Some((id, *space, tokens)))
            }
            AnalysisReply::QkTsne { layer, head, translate, queries, keys } => {
                self.space_tsne.set(Some((id, layer, head, translate, queries, keys)))
            }
            AnalysisReply::CorpusGrid { translate, heads } => {
                self.corpus_grid.set(Some((translate, heads)))
            }
            AnalysisReply::SimilarProgress { done, total } => {
                if self.similar_running(id) {
                    self.similar.set(SimilarState::Running { done, total })
                }
            }
            AnalysisReply::SimilarHeads(map) => {
                if self.similar_running(id) {
                    self.similar.set(SimilarState::Done(map))
                }
            }
            AnalysisReply::PatchProgress { done, total } => {
                if id == self.patch_of.get_untracked()
                    && matches!(self.patch.get_untracked(), PatchState::Running { .. })
                {
                    self.patch.set(PatchState::Running { done, total })
                }
            }
            AnalysisReply::Patch(p) => {
                if id == self.patch_of.get_untracked()
                    && matches!(self.patch.get_untracked(), PatchState::Running { .. })
                {
                    self.patch.set(PatchState::Done(Box::new(p)))
                }
            }
            AnalysisReply::PatchedHead { site, cell, tokens, detail, .. } => {
                self.show_patched(site, cell, tokens, *detail)
            }
            AnalysisReply::Detectors(d) => self.detectors.set(Some(d)),
            AnalysisReply::AllValueNorms { overview } => self.all_norms.set(Some((id, overview))),
        }
    }

    /// An analysis failed: say so beside it, and stop waiting for a map.
    pub fn failed(&self, message: &str) {
        self.error.set(message.to_string());
        if matches!(self.importance.get_untracked(), ImportanceState::Running { .. }) {
            self.importance.set(ImportanceState::Idle);
        }
        if matches!(self.patch.get_untracked(), PatchState::Running { .. }) {
            self.patch.set(PatchState::Idle);
        }
        if matches!(self.similar.get_untracked(), SimilarState::Running { .. }) {
            self.similar.set(SimilarState::Idle);
        }
        if self.corpus.get_untracked().is_running() {
            self.corpus.set(CorpusState::Off);
        }
    }

    /// Whether the comparison of heads for run `id` is under way (an answer to a cancelled one is
    /// dropped).
    fn similar_running(&self, id: u64) -> bool {
        id == self.similar_of.get_untracked()
            && matches!(self.similar.get_untracked(), SimilarState::Running { .. })
    }

    /// Asks the worker about the latest run.
    pub fn ask(engine: Engine, sel: Selection, request: AnalysisRequest) {
        engine.send(ToWorker::Analyze {
            id: engine.latest(),
            model: sel.model.get_untracked(),
            text: sel.text.get_untracked(),
            request,
        });
    }
}

/// A Q·K space the page holds (`views/space/` draws it): the run, the head and the
/// translation it answers, and the head's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Space {
    pub run: u64,
    pub space: QkSpace,
    pub weights: Matrix,
}

/// What a [`MatrixMap`] draws: exact values (the readout) and their colour share (0…1).
#[derive(Clone, Debug, PartialEq)]
pub struct MapData {
    pub values: Matrix,
    pub colour: Matrix,
    pub tokens: Vec<String>,
}

/// A tokens × tokens map on a canvas, rows normalized for the colour; the
/// cell pointed at or tapped is read out with its exact value. The canvas
/// carries its rows' sums (`data-row-sums`), the numbers drawn.
#[component]
pub fn MatrixMap(
    id: &'static str,
    #[prop(into)] label: String,
    data: Signal<Option<MapData>>,
) -> impl IntoView {
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<Layout>);
    let cell = RwSignal::new(None::<(usize, usize)>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let at = cell.get();
        let drawn = data.with(|d| -> Result<Option<Layout>, wasm_bindgen::JsValue> {
            let Some(d) = d.as_ref().filter(|d| d.values.rows > 0 && d.values.cols > 0) else {
                blank(&el);
                return Ok(None);
            };
            look.with(|look| {
                let ctx = crate::canvas::paint::context(&el)?;
                let layout = Layout::fit(
                    label_width(&ctx, &d.tokens, look),
                    d.values.rows,
                    d.values.cols,
                    room.get(),
                    look,
                );
                let (w, h) = layout.size();
                let ctx = prepare(&el, w, h)?;
                paint_cells(&ctx, &layout, |k| {
                    cell_color(d.colour.data.get(k).copied().unwrap_or(0.0))
                })?;
                outline_cell(&ctx, &layout, at, look);
                draw_labels(&ctx, &layout, &d.tokens, &d.tokens, Focus::default(), look)?;
                let sums: Vec<String> = (0..d.values.rows)
                    .map(|i| format!("{:.6}", d.values.row(i).iter().sum::<f32>()))
                    .collect();
                let _ = el.set_attribute("data-row-sums", &sums.join(","));
                layout.mark(&el);
                Ok(Some(layout))
            })
        });
        match drawn {
            Ok(l) => placed.set_value(l),
            Err(e) => web_sys::console::error_2(&"analysis map: drawing failed:".into(), &e),
        }
    });
    let at = move |ev: &web_sys::MouseEvent| {
        placed.get_value().and_then(|l| l.cell_at(ev.offset_x() as f64, ev.offset_y() as f64))
    };
    let readout = move || {
        let (i, j) = cell.get()?;
        data.with(|d| {
            let d = d.as_ref()?;
            (i < d.values.rows && j < d.values.cols).then(|| {
                let word = |t: usize| d.tokens.get(t).cloned().unwrap_or_default();
                format!("“{}” → “{}”: {}", word(i), word(j), exact(d.values[(i, j)]))
            })
        })
    };
    view! {
        <div class="canvas-box analysis-map" node_ref=boxed>
            <canvas
                id=id
                node_ref=canvas
                role="img"
                aria-label=label
                on:pointermove=move |ev| {
                    if ev.pointer_type() == "mouse" {
                        cell.set(at(&ev))
                    }
                }
                on:click=move |ev| cell.set(at(&ev))
            ></canvas>
        </div>
        <p class="readout" id=format!("{id}-readout")>
            {move || { readout().unwrap_or_else(|| tr!("beyond-map-hint")) }}
        </p>
    }
}

/// A number read out exactly (as Rust writes an `f32`), with the page's decimal sign.
fn exact(x: f32) -> String {
    let s = x.to_string();
    if crate::i18n::decimal_comma() {
        s.replace('.', ",")
    } else {
        s
    }
}

/// A quantity's one-line definition, with its paper, in the page's language: a definition of
/// the core (`…::DEFINITION`) is known by its English text (see [`definition`]).
#[component]
pub fn Definition(#[prop(into)] text: String) -> impl IntoView {
    view! { <p class="definition">{definition(&text)}</p> }
}

/// One of the core's definitions in the page's language; any other text as it is.
pub fn definition(text: &str) -> String {
    use attnscope::analysis::{geometry, knockout, logit_lens, patching, rollout};
    match text {
        value_norms::DEFINITION => tr!("beyond-value-weighted-definition"),
        rollout::DEFINITION => tr!("beyond-rollout-definition"),
        logit_lens::DEFINITION => tr!("beyond-lens-definition"),
        knockout::DEFINITION => tr!("beyond-knockout-definition"),
        knockout::IMPORTANCE_DEFINITION => tr!("beyond-importance-definition"),
        patching::DEFINITION => tr!("beyond-patch-definition"),
        geometry::QK_DEFINITION => tr!("beyond-qk-definition"),
        geometry::SIMILAR_DEFINITION => tr!("catalog-similar-definition"),
        other => other.to_string(),
    }
}

/// The norms of the head `d` shows, when the switch asks for them and they have come.
pub fn shown_norms(d: &HeadDetail) -> Option<Matrix> {
    let an = use_context::<Analysis>()?;
    if !an.value_weighted.get() {
        return None;
    }
    an.norms.with(|n| {
        n.as_ref()
            .filter(|n| {
                (n.0, n.1, n.2) == (d.id, d.layer, d.head) && n.3.shape() == d.weights.shape()
            })
            .map(|n| n.3.clone())
    })
}

/// The switch "weights A / value-weighted ‖a·f(x)‖"; while on, the selected
/// head's norms follow the run and the head.
#[component]
pub fn ValueSwitch() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    Effect::new(move |_| {
        let (on, layer, head, run) =
            (an.value_weighted.get(), sel.layer.get(), sel.head.get(), res.run_id());
        let real = res.has_tokens();
        let have = an.norms.with_untracked(|n| n.as_ref().map(|n| (n.0, n.1, n.2)));
        if on && real && run.is_some() && have != run.map(|r| (r, layer, head)) {
            Analysis::ask(engine, sel, AnalysisRequest::ValueNorms { layer, head });
        }
    });
    view! {
        <div class="switch-row value-switch" role="group" aria-label=tr!("beyond-vw-switch")>
            <button
                id="vw-weights"
                aria-pressed=move || (!an.value_weighted.get()).to_string()
                on:click=move |_| an.value_weighted.set(false)
            >
                <span class="long">{format!("{} ", tr!("beyond-vw-weights-button"))}</span>
                "A"
            </button>
            <button
                id="vw-norms"
                aria-pressed=move || an.value_weighted.get().to_string()
                title=definition(value_norms::DEFINITION)
                on:click=move |_| an.value_weighted.set(true)
            >
                <span class="long">{format!("{} ", tr!("beyond-vw-norms-button"))}</span>
                "‖a·f(x)‖"
            </button>
        </div>
    }
}

/// Under the heatmap while the switch is on: the definition, and the exact norm of the cell read
/// out.
#[component]
pub fn NormReadout() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let an = expect_context::<Analysis>();
    move || {
        an.value_weighted.get().then(|| {
            let value = res.detail.with(|d| {
                let d = d.as_ref()?;
                // A cell of a what-if grid (dot grids) has no norm.
                let c = sel.cell().filter(|c| c.mask.is_none_or(|m| m == d.mask))?;
                let norms = shown_norms(d)?;
                let offset = d.weights.cols.saturating_sub(d.weights.rows);
                let i = c.query.checked_sub(offset).filter(|&i| i < norms.rows)?;
                (c.key < norms.cols).then(|| format!("‖a·f(x)‖ = {}", exact(norms[(i, c.key)])))
            });
            view! {
                <p class="readout" id="norm-readout">
                    {value.unwrap_or_else(|| tr!("beyond-norm-colour"))}
                </p>
                <Definition text=value_norms::DEFINITION />
            }
        })
    }
}

/// The selected head as A or as ‖a_ij f(x_j)‖ (Kobayashi et al. 2020).
#[component]
fn ValueWeighted() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let an = expect_context::<Analysis>();
    let data = Signal::derive(move || {
        let tokens = res.tokens.get();
        res.detail.with(|d| {
            let d = d
                .as_ref()
                .filter(|d| d.weights.rows == tokens.len() && d.weights.cols == tokens.len())?;
            let values = if an.value_weighted.get() { shown_norms(d)? } else { d.weights.clone() };
            Some(MapData { colour: per_row(&values), values, tokens })
        })
    });
    view! {
        <section class="analysis" id="value-weighted">
            <h2>
                {move || {
                    let (layer, head) = (sel.layer.get(), sel.head.get());
                    if an.value_weighted.get() {
                        tr!("beyond-vw-title-norms", layer = layer, head = head)
                    } else {
                        tr!("beyond-vw-title-weights", layer = layer, head = head)
                    }
                }}
            </h2>
            <ValueSwitch />
            <Definition text=value_norms::DEFINITION />
            <MatrixMap id="vw-map" label=tr!("beyond-vw-map-label") data />
            <p class="caption">{tr!("beyond-vw-caption")}</p>
        </section>
    }
}

/// The "Beyond weights" view.
#[component]
pub fn BeyondView() -> impl IntoView {
    let an = expect_context::<Analysis>();
    view! {
        <div class="view-document" id="view-beyond">
            <p id="analysis-error" role="status" class="analysis-error">
                {move || an.error.get()}
            </p>
            <ValueWeighted />
            <RolloutPanel />
            <LogitLensPanel />
            <KnockoutPanel />
            <ImportancePanel />
            <PatchingPanel />
        </div>
    }
}
