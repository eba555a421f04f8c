//! The four steps from scores to weights, S = QKᵀ → S·(1/√d_k) → + M →
//! softmax, which the heatmap and the dot grids can show, picked by hand
//! or played one after the other with a short transition between them.

use crate::canvas::Transition;
use crate::state::Selection;
use crate::url_state::Stage;
use attnscope::attention::{apply_mask, Mask};
use attnscope::session::HeadDetail;
use attnscope::Matrix;
use leptos::prelude::*;
use std::borrow::Cow;
use std::time::Duration;

/// The values a picture shows for `mask` at `stage`, from one head's detail.
pub fn values(d: &HeadDetail, mask: Mask, stage: Stage) -> Cow<'_, Matrix> {
    // A trace file without queries and keys has no scores, only the weights.
    if d.scores.shape() != d.weights.shape() {
        return Cow::Borrowed(&d.weights);
    }
    let scaled = || d.scores.map(|s| s * d.scale);
    match stage {
        Stage::Scores => Cow::Borrowed(&d.scores),
        Stage::Scaled => Cow::Owned(scaled()),
        Stage::Masked => Cow::Owned(apply_mask(scaled(), mask)),
        Stage::Weights if mask == d.mask => Cow::Borrowed(&d.weights),
        Stage::Weights => Cow::Borrowed(&d.what_if_weights),
    }
}

/// The largest |raw score| of a head: every score stage is coloured and
/// sized against it, so that the scaling visibly shrinks the scores.
pub fn score_range(d: &HeadDetail) -> f32 {
    d.scores.data.iter().filter(|v| v.is_finite()).fold(0.0f32, |a, v| a.max(v.abs()))
}

/// Two stages and how far the picture has gone from the first to the second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub from: Stage,
    pub to: Stage,
    pub t: f64,
}

/// What a picture of a head's cells shows, the key of its kept image
/// (`canvas::KeptImage`): which head of which run, at which frame, which
/// way round, and whether coloured by value-weighted norms.
#[derive(Clone, Copy, PartialEq)]
pub struct CellsOf {
    run: (u64, usize, usize),
    frame: (Stage, Stage, u64),
    transposed: bool,
    norms: bool,
    /// The theme's grey for hidden keys ([`crate::canvas::Look::hidden`]),
    /// where the picture draws them ([`CellsOf::in_grey`]).
    grey: Option<[u8; 3]>,
}

impl CellsOf {
    pub fn new(d: &HeadDetail, frame: Frame, transposed: bool, norms: bool) -> CellsOf {
        CellsOf {
            run: (d.id, d.layer, d.head),
            frame: (frame.from, frame.to, frame.t.to_bits()),
            transposed,
            norms,
            grey: None,
        }
    }

    /// The same cells with hidden keys drawn in `grey`.
    pub fn in_grey(self, grey: [u8; 3]) -> CellsOf {
        CellsOf { grey: Some(grey), ..self }
    }
}

/// The stage transition and the play control, shared by every picture.
#[derive(Clone, Copy)]
pub struct StageMotion {
    from: RwSignal<Stage>,
    transition: Transition,
    pub playing: RwSignal<bool>,
    timer: StoredValue<Option<IntervalHandle>>,
}

/// Time between the steps of a play-through.
const STEP: Duration = Duration::from_millis(1600);

impl StageMotion {
    /// Follows `sel.stage`: each change starts a transition from the stage before.
    pub fn new(sel: Selection) -> Self {
        let motion = Self {
            from: RwSignal::new(sel.stage.get_untracked()),
            transition: Transition::new(700.0),
            playing: RwSignal::new(false),
            timer: StoredValue::new(None),
        };
        Effect::new(move |previous: Option<Stage>| {
            let now = sel.stage.get();
            if let Some(p) = previous.filter(|&p| p != now) {
                motion.from.set(p);
                motion.transition.start();
            }
            now
        });
        on_cleanup(move || motion.stop());
        motion
    }

    /// The frame to draw now (tracked: redraws during a transition).
    pub fn frame(&self, to: Stage) -> Frame {
        let t = self.transition.progress();
        Frame { from: if t >= 1.0 { to } else { self.from.get() }, to, t }
    }

    /// Plays QKᵀ → ×1/√d_k → +M → softmax, one step every STEP.
    pub fn play(&self, sel: Selection) {
        self.stop();
        self.playing.set(true);
        sel.stage.set(Stage::Scores);
        let this = *self;
        let handle = set_interval_with_handle(
            move || match sel.stage.get_untracked().next() {
                Some(next) => sel.stage.set(next),
                None => this.stop(),
            },
            STEP,
        );
        self.timer.set_value(handle.ok());
    }

    pub fn stop(&self) {
        if let Some(Some(handle)) = self.timer.try_update_value(Option::take) {
            handle.clear();
        }
        let _ = self.playing.try_set(false);
    }
}

/// What a step does, in the stage picker's tooltip.
pub fn title(stage: Stage) -> String {
    match stage {
        Stage::Scores => tr!("stage-title-scores"),
        Stage::Scaled => tr!("stage-title-scaled"),
        Stage::Masked => tr!("stage-title-masked"),
        Stage::Weights => tr!("stage-title-weights"),
    }
}

/// `.stage-picker`: the four steps as radio buttons, and Play.
#[component]
pub fn StagePicker() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let motion = expect_context::<StageMotion>();
    view! {
        <div class="stage-picker">
            <button
                class="play"
                id="play"
                aria-label=move || {
                    if motion.playing.get() {
                        tr!("stage-stop-label")
                    } else {
                        tr!("stage-play-label")
                    }
                }
                title=tr!("stage-play-title")
                on:click=move |_| {
                    if motion.playing.get_untracked() { motion.stop() } else { motion.play(sel) }
                }
            >
                {move || if motion.playing.get() { tr!("stage-stop") } else { tr!("stage-play") }}
            </button>
            <div class="stages" role="radiogroup" aria-label=tr!("stage-picker-label")>
                {Stage::ALL
                    .into_iter()
                    .enumerate()
                    .map(|(k, s)| {
                        view! {
                            <button
                                class="stage"
                                data-stage=s.slug()
                                role="radio"
                                title=title(s)
                                aria-checked=move || (sel.stage.get() == s).to_string()
                                on:click=move |_| {
                                    motion.stop();
                                    sel.stage.set(s)
                                }
                            >
                                <span class="num">{(k + 1).to_string()}</span>
                                {s.label()}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        </div>
    }
}
