//! The guided lesson: eight steps through attention with the live model
//! and the sentence in the box, four on how a model writes (`writing.rs`)
//! and two on cross-attention with speech (`listening.rs`). Each step shows the view it talks about,
//! puts a light on the part that matters, says it in a sentence or two with
//! numbers from the model's trace, and offers one thing to try. Next and
//! Back (or the arrow keys) move through it; the URL keeps the step.

pub mod listening;
#[cfg(test)]
mod tests;
pub mod vectors;
pub mod writing;

use crate::state::{Results, Selection};
use crate::url_state::{Stage, View};
use crate::views::common::format::num;
use crate::views::common::readout::Readout;
use crate::views::common::stages::{values, StagePicker};
use crate::views::explain::lines::Lines;
use crate::views::explain::switches::{TemperatureSlider, UnscaledSwitch};
use crate::views::grid::dotgrid::DotGrids;
use crate::views::head::heatmap::{Heatmap, Legend};
use crate::views::model::overview::Overview;
use crate::views::speech::Speech;
use attnscope::attention::Mask;
use attnscope::session::{HeadDetail, RunSummary};
use leptos::prelude::*;
use vectors::VectorStrips;

/// Eight steps through attention, four of the chapter on writing, two on listening.
pub const STEPS: usize = 14;

/// What a step shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    Heatmap,
    Vectors,
    Grids,
    Lines,
    Overview,
    /// The next-token distribution as bars (the chapter on writing).
    Next,
    /// The spectrogram with a token's cross-attention, and the token × time map (listening).
    Listen,
    Timing,
}

/// A step: its title, its picture and the stage that picture starts at.
pub fn step(k: usize) -> (String, Picture, Option<Stage>) {
    match k {
        0 => (tr!("lesson-step-tokens"), Picture::Heatmap, Some(Stage::Weights)),
        1 => (tr!("lesson-step-qkv"), Picture::Vectors, None),
        2 => (tr!("lesson-step-scores"), Picture::Heatmap, Some(Stage::Scores)),
        3 => (tr!("lesson-step-scale"), Picture::Grids, Some(Stage::Scaled)),
        4 => (tr!("lesson-step-softmax"), Picture::Heatmap, Some(Stage::Weights)),
        5 => (tr!("lesson-step-mask"), Picture::Grids, Some(Stage::Masked)),
        6 => (tr!("lesson-step-sum"), Picture::Lines, None),
        7 => (tr!("lesson-step-heads"), Picture::Overview, None),
        k if k >= listening::FIRST => listening::step(k),
        _ => writing::step(k),
    }
}

/// The first `k` numbers of a vector, and how many there are (parted like
/// `format::vector`: by semicolons where a comma is the decimal sign).
fn preview(v: &[f32], k: usize) -> String {
    let parted = if crate::i18n::decimal_comma() { "; " } else { ", " };
    let shown: Vec<String> = v.iter().take(k).map(|&x| num(x)).collect();
    if v.len() > k {
        tr!("lesson-preview", numbers = format!("{}{parted}…", shown.join(parted)), count = v.len())
    } else {
        format!("[{}]", shown.join(parted))
    }
}

fn variance(xs: &[f32]) -> f32 {
    let n = xs.len().max(1) as f32;
    let mean = xs.iter().sum::<f32>() / n;
    xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / n
}

/// Everything a step says about query token `query`, from one head's trace.
pub struct Facts<'a> {
    pub summary: &'a RunSummary,
    pub detail: &'a HeadDetail,
    pub tokens: &'a [String],
    /// Query token, and its row of A.
    pub query: usize,
    pub row: usize,
}

impl<'a> Facts<'a> {
    pub fn new(
        summary: &'a RunSummary,
        detail: &'a HeadDetail,
        tokens: &'a [String],
        query: usize,
    ) -> Option<Self> {
        let (n_q, n_k) = (detail.weights.rows, detail.weights.cols);
        if n_q == 0 || n_k == 0 || tokens.len() < n_k {
            return None;
        }
        let offset = n_k - n_q.min(n_k);
        let row = query.saturating_sub(offset).min(n_q - 1);
        Some(Self { summary, detail, tokens, query: row + offset, row })
    }

    fn word(&self, t: usize) -> String {
        self.tokens.get(t).cloned().unwrap_or_default()
    }

    pub fn d_k(&self) -> usize {
        self.detail.q.cols
    }

    /// The query's visible raw scores (its row of S where the mask lets it see).
    fn visible_scores(&self) -> Vec<f32> {
        let d = self.detail;
        (0..d.scores.cols)
            .filter(|&j| d.mask.allows(self.row, j, d.weights.rows, d.weights.cols))
            .map(|j| d.scores[(self.row, j)])
            .collect()
    }

    /// The key the query attends to most, and its weight.
    fn top(&self) -> (usize, f32) {
        let w = self.detail.weights.row(self.row);
        w.iter()
            .enumerate()
            .fold((0, f32::NEG_INFINITY), |best, (j, &v)| if v > best.1 { (j, v) } else { best })
    }

    /// What the step says, in a sentence or two.
    pub fn says(&self, k: usize) -> String {
        if k >= writing::FIRST {
            return self.writing_says(k);
        }
        let (s, d, q) = (self.summary, self.detail, self.word(self.query));
        let name = crate::compute::run_name(&s.info);
        let (name, q) = (name.as_str(), q.as_str());
        match k {
            0 => tr!("lesson-says-tokens", model = name, tokens = self.tokens.len(), query = q),
            1 => tr!("lesson-says-qkv", query = q, width = d.input.cols, dk = self.d_k()),
            2 => tr!("lesson-says-scores", query = q),
            3 => {
                let raw = self.visible_scores();
                let scaled: Vec<f32> = raw.iter().map(|v| v * d.scale).collect();
                tr!(
                    "lesson-says-scale",
                    dk = self.d_k(),
                    raw = num(variance(&raw)),
                    scaled = num(variance(&scaled)),
                )
            }
            4 => {
                let (j, w) = self.top();
                tr!("lesson-says-softmax", query = q, weight = num(w), key = self.word(j))
            }
            5 => match d.mask {
                Mask::Causal => tr!(
                    "lesson-says-mask-causal",
                    model = name,
                    query = q,
                    seen = self.query + 1,
                    tokens = d.weights.cols,
                ),
                Mask::SlidingWindow(w) => tr!(
                    "lesson-says-mask-window",
                    model = name,
                    back = w.saturating_sub(1),
                    query = q,
                    seen = (self.query + 1).min(w),
                    tokens = d.weights.cols,
                ),
                Mask::None => tr!("lesson-says-mask-none", model = name),
            },
            6 => tr!("lesson-says-sum", query = q),
            _ => {
                let kv = distinct(&s.kv_head_of);
                let (layers, heads) = (s.info.n_layers, s.info.n_heads);
                if kv < s.info.n_heads {
                    tr!(
                        "lesson-says-heads-shared",
                        model = name,
                        layers = layers,
                        heads = heads,
                        kv = kv
                    )
                } else {
                    tr!("lesson-says-heads-own", model = name, layers = layers, heads = heads)
                }
            }
        }
    }

    /// The step's numbers, as (id, label, value), all from the trace.
    pub fn numbers(&self, k: usize) -> Vec<(&'static str, String, String)> {
        if k >= writing::FIRST {
            return self.writing_numbers(k);
        }
        let (s, d, q) = (self.summary, self.detail, self.word(self.query));
        let row = |m: &attnscope::Matrix, r: usize| {
            if r < m.rows {
                m.row(r).to_vec()
            } else {
                Vec::new()
            }
        };
        match k {
            0 => {
                let mut out = vec![(
                    "lesson-tokens",
                    tr!("lesson-label-tokens"),
                    self.tokens.len().to_string(),
                )];
                out.push((
                    "lesson-query",
                    tr!("lesson-label-query"),
                    format!("{}: {q}", self.query),
                ));
                if let Some(ids) = &s.token_ids {
                    let shown: Vec<String> = ids.iter().take(12).map(u32::to_string).collect();
                    out.push((
                        "lesson-ids",
                        tr!("lesson-label-ids"),
                        format!("{}{}", shown.join(" "), if ids.len() > 12 { " …" } else { "" }),
                    ));
                }
                out
            }
            1 => vec![
                (
                    "lesson-x",
                    tr!("lesson-label-x", query = q.as_str()),
                    preview(&row(&d.input, self.query), 4),
                ),
                ("lesson-q", "q = x · W_Q".to_string(), preview(&row(&d.q, self.row), 4)),
                ("lesson-k", "k = x · W_K".to_string(), preview(&row(&d.k, self.query), 4)),
                ("lesson-v", "v = x · W_V".to_string(), preview(&row(&d.v, self.query), 4)),
            ],
            3 => {
                let raw = self.visible_scores();
                let scaled: Vec<f32> = raw.iter().map(|v| v * d.scale).collect();
                vec![
                    ("lesson-dk", "d_k".to_string(), self.d_k().to_string()),
                    ("lesson-scale", tr!("lesson-label-scale"), num(d.scale)),
                    ("lesson-var-raw", tr!("lesson-label-var-raw"), num(variance(&raw))),
                    ("lesson-var-scaled", tr!("lesson-label-var-scaled"), num(variance(&scaled))),
                ]
            }
            4 => {
                let w = row(&d.weights, self.row);
                let (j, top) = self.top();
                vec![
                    ("lesson-sum", "Σ a_j".to_string(), num(w.iter().sum())),
                    (
                        "lesson-top",
                        tr!("lesson-label-top"),
                        tr!("lesson-value-top", weight = num(top), key = self.word(j)),
                    ),
                ]
            }
            5 => {
                let causal = values(d, Mask::Causal, Stage::Masked);
                let hidden = causal
                    .row(self.row.min(causal.rows.saturating_sub(1)))
                    .iter()
                    .filter(|v| **v == f32::NEG_INFINITY)
                    .count();
                let mask = match d.mask {
                    Mask::None => tr!("lesson-mask-none"),
                    Mask::Causal => tr!("lesson-mask-causal"),
                    Mask::SlidingWindow(_) => tr!("lesson-mask-window"),
                };
                vec![
                    ("lesson-mask", tr!("lesson-label-mask"), mask),
                    (
                        "lesson-hidden",
                        tr!("lesson-label-hidden", query = q.as_str()),
                        hidden.to_string(),
                    ),
                ]
            }
            6 => vec![
                ("lesson-z", "z = Σ a_j v_j".to_string(), preview(&row(&d.output, self.row), 4)),
                ("lesson-delta", "ΔE".to_string(), preview(&row(&d.delta, self.query), 4)),
                (
                    "lesson-residual",
                    "E + ΔE".to_string(),
                    preview(&row(&d.residual, self.query), 4),
                ),
            ],
            7 => vec![
                (
                    "lesson-heads",
                    tr!("lesson-label-heads"),
                    format!("{} × {}", s.info.n_layers, s.info.n_heads),
                ),
                ("lesson-kv", tr!("lesson-label-kv"), distinct(&s.kv_head_of).to_string()),
                (
                    "lesson-group",
                    tr!("lesson-label-group", head = d.head),
                    sharing(&s.kv_head_of, d.head),
                ),
            ],
            _ => Vec::new(),
        }
    }

    /// A row of numbers a step lists key by key: scores (step 3), weights
    /// (5) or masked scores (6).
    pub fn row_list(&self, k: usize) -> Option<(&'static str, Vec<(String, String)>)> {
        let d = self.detail;
        let (id, values): (&str, Vec<f32>) = match k {
            2 => ("lesson-scores", d.scores.row(self.row).to_vec()),
            4 => ("lesson-weights", d.weights.row(self.row).to_vec()),
            5 => ("lesson-masked", values(d, Mask::Causal, Stage::Masked).row(self.row).to_vec()),
            _ => return None,
        };
        Some((id, values.iter().enumerate().map(|(j, &v)| (self.word(j), num(v))).collect()))
    }
}

fn distinct(kv_head_of: &[usize]) -> usize {
    let mut seen: Vec<usize> = kv_head_of.to_vec();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// The query heads that use the same key/value head as `head`.
fn sharing(kv_head_of: &[usize], head: usize) -> String {
    let Some(&kv) = kv_head_of.get(head) else { return String::new() };
    let group: Vec<String> = kv_head_of
        .iter()
        .enumerate()
        .filter(|(_, &g)| g == kv)
        .map(|(h, _)| h.to_string())
        .collect();
    if group.len() == 1 {
        tr!("lesson-sharing-none")
    } else {
        group.join(", ")
    }
}

/// What the visitor is invited to try, and the control to try it with.
fn try_this(k: usize) -> (String, Option<AnyView>) {
    match k {
        0 => (tr!("lesson-try-tokens"), None),
        1 => (tr!("lesson-try-qkv"), None),
        2 => (tr!("lesson-try-scores"), None),
        3 => (tr!("lesson-try-scale"), Some(view! { <UnscaledSwitch /> }.into_any())),
        4 => (tr!("lesson-try-softmax"), Some(view! { <TemperatureSlider /> }.into_any())),
        5 => (tr!("lesson-try-mask"), None),
        6 => (tr!("lesson-try-sum"), None),
        k if k >= listening::FIRST => listening::try_this(k),
        k if k >= writing::FIRST => writing::try_this(k),
        _ => (tr!("lesson-try-heads"), None),
    }
}

/// The lesson card: where we are, what it says, the numbers, what to try, and the way on.
#[component]
fn LessonCard() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let k = move || sel.step.get().min(STEPS - 1);
    let facts = move |f: &dyn Fn(&Facts) -> AnyView| -> Option<AnyView> {
        res.summary.with(|s| {
            res.detail.with(|d| {
                res.tokens.with(|t| {
                    let (s, d) = (s.as_ref()?, d.as_ref()?);
                    let facts = Facts::new(s, d, t, sel.query(t.len()))?;
                    Some(f(&facts))
                })
            })
        })
    };
    // The chapter on listening reads the clip the Speech tab heard last.
    let speech = expect_context::<Speech>();
    let heard = move |f: &dyn Fn(&listening::Heard) -> AnyView| -> Option<AnyView> {
        speech.heard.with(|h| {
            let heard = listening::Heard::new(h.as_ref()?, speech.token.get(), speech.pick.get())?;
            Some(f(&heard))
        })
    };
    let says = move || {
        let k = k();
        if k >= listening::FIRST {
            return heard(&|h| view! { <p class="lesson-says">{h.says(k)}</p> }.into_any())
                .unwrap_or_else(|| {
                    view! { <p class="lesson-says">{listening::no_clip()}</p> }.into_any()
                });
        }
        facts(&|f| view! { <p class="lesson-says">{f.says(k)}</p> }.into_any()).unwrap_or_else(
            || {
                let waiting = res.summary.with(Option::is_none)
                    || res.detail.with(Option::is_none) && !res.tokens.with(Vec::is_empty);
                let text =
                    if waiting { tr!("lesson-computing") } else { tr!("lesson-type-sentence") };
                view! { <p class="lesson-says">{text}</p> }.into_any()
            },
        )
    };
    let numbers = move || {
        let k = k();
        let listed = move |rows: Vec<(&'static str, String, String)>| {
            view! {
                <dl class="lesson-numbers" id="lesson-numbers">
                    {rows
                        .into_iter()
                        .map(|(id, label, value)| {
                            view! {
                                <div>
                                    <dt>{label}</dt>
                                    <dd id=id>{value}</dd>
                                </div>
                            }
                        })
                        .collect_view()}
                </dl>
            }
        };
        if k >= listening::FIRST {
            return heard(&|h| listed(h.numbers(k)).into_any());
        }
        facts(&|f| {
            let list = f.row_list(k);
            view! {
                {listed(f.numbers(k))}
                {list
                    .map(|(id, items)| {
                        view! {
                            <ol class="lesson-row" id=id>
                                {items
                                    .into_iter()
                                    .map(|(w, v)| {
                                        view! {
                                            <li>
                                                <span class="tok">{w}</span>
                                                <span class="val">{v}</span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                        }
                    })}
            }
            .into_any()
        })
    };
    let go = move |to: usize| sel.step.set(to.min(STEPS - 1));
    view! {
        <article class="lesson-card" aria-labelledby="lesson-title">
            <p class="lesson-count" id="lesson-count">
                {move || tr!("lesson-count", step = k() + 1, steps = STEPS)}
            </p>
            <h2 id="lesson-title">{move || step(k()).0}</h2>
            {says}
            {numbers}
            <div class="lesson-try">
                {move || {
                    let (text, control) = try_this(k());
                    view! {
                        <p>
                            <strong>{tr!("lesson-try")}</strong>
                            {text}
                        </p>
                        {control}
                    }
                }}
            </div>
            <nav class="lesson-nav" aria-label=tr!("lesson-steps")>
                <button
                    id="lesson-back"
                    disabled=move || k() == 0
                    on:click=move |_| go(k().saturating_sub(1))
                >
                    {tr!("lesson-back")}
                </button>
                <ol class="lesson-dots">
                    {(0..STEPS)
                        .map(|s| {
                            view! {
                                <li>
                                    <button
                                        class="lesson-dot"
                                        aria-label=tr!(
                                            "lesson-dot", step = s + 1, title = step(s).0
                                        )
                                        aria-current=move || if k() == s { "step" } else { "false" }
                                        on:click=move |_| go(s)
                                    >
                                        {(s + 1).to_string()}
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()}
                </ol>
                <button
                    id="lesson-next"
                    disabled=move || { k() + 1 >= STEPS }
                    on:click=move |_| go(k() + 1)
                >
                    {tr!("lesson-next")}
                </button>
            </nav>
        </article>
    }
}

/// The "Lesson" view: the card beside (or above) the step's picture.
#[component]
pub fn LessonView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    // Each step opens its picture at its stage, and follows a query the
    // pictures outline (the last token, until one is chosen).
    Effect::new(move |prev: Option<usize>| {
        let k = sel.step.get().min(STEPS - 1);
        if prev != Some(k) {
            if let Some(stage) = step(k).2 {
                sel.stage.set(stage);
            }
        }
        k
    });
    Effect::new(move |_| {
        let n = res.tokens.with(Vec::len);
        if n > 0 && sel.token.get_untracked().is_none_or(|t| t >= n) {
            sel.token.set(Some(n - 1));
        }
    });
    // The arrow keys move through the steps, unless they are moving something else.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if sel.view.get_untracked() != View::Lesson
            || ev.default_prevented()
            || ev.alt_key()
            || ev.ctrl_key()
            || ev.meta_key()
        {
            return;
        }
        let typing = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if typing {
            return;
        }
        let k = sel.step.get_untracked();
        match ev.key().as_str() {
            "ArrowRight" if k + 1 < STEPS => sel.step.set(k + 1),
            "ArrowLeft" if k > 0 => sel.step.set(k - 1),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || keys.remove());
    // Only a step with another kind of picture rebuilds it.
    let kind = Memo::new(move |_| step(sel.step.get().min(STEPS - 1)).1);
    let picture = move || match kind.get() {
        Picture::Heatmap => view! {
            <div class="toolbar">
                <StagePicker />
                <Legend />
            </div>
            <div class="pictures">
                <Heatmap />
            </div>
            <Readout />
        }
        .into_any(),
        Picture::Vectors => view! { <VectorStrips /> }.into_any(),
        Picture::Grids => view! {
            <div class="toolbar">
                <StagePicker />
            </div>
            <DotGrids />
            <Readout />
        }
        .into_any(),
        Picture::Lines => view! { <Lines fill=true /> }.into_any(),
        Picture::Overview => view! { <Overview /> }.into_any(),
        Picture::Next => view! { <writing::NextBars /> }.into_any(),
        Picture::Listen => view! { <listening::ListenPicture timing=false /> }.into_any(),
        Picture::Timing => view! { <listening::ListenPicture timing=true /> }.into_any(),
    };
    view! {
        <div
            class="view-lesson"
            id="view-lesson"
            data-step=move || (sel.step.get().min(STEPS - 1) + 1).to_string()
        >
            <LessonCard />
            <div class="lesson-picture view-picture">{picture}</div>
        </div>
    }
}
