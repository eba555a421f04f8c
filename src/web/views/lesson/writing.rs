//! The lesson's second chapter, "How a model writes": why only the last
//! row chooses, the next-token distribution and its temperature, sampling
//! and the seed, and the key/value cache. Its numbers come from the
//! decoder's latest run (and, after a step of writing, from that step).

use super::{Facts, Picture};
use crate::state::{Results, Selection};
use crate::url_state::Stage;
use crate::views::common::format::{fixed, num};
use crate::views::explain::switches::NextTokenTemperature;
use attnscope::session::{ModelId, RunSummary};
use leptos::prelude::*;

/// The chapter's first step, counted from 0 over the whole lesson.
pub const FIRST: usize = 8;

/// A step of the chapter: its title, picture and stage.
pub fn step(k: usize) -> (String, Picture, Option<Stage>) {
    match k - FIRST {
        0 => (tr!("lesson-step-last-row"), Picture::Heatmap, Some(Stage::Weights)),
        1 => (tr!("lesson-step-next"), Picture::Next, None),
        2 => (tr!("lesson-step-sampling"), Picture::Next, None),
        _ => (tr!("lesson-step-cache"), Picture::Heatmap, Some(Stage::Weights)),
    }
}

/// Whether the run is a decoder's, which lists its next tokens.
pub fn writes(s: &RunSummary) -> bool {
    s.top_next.is_some()
}

/// A probability as a percentage with one decimal (`50.0%`), in the page's language.
pub fn pct(p: f32) -> String {
    tr!("lesson-percent", p = fixed((p * 100.0) as f64, 1))
}

/// Numbers of the key/value cache for a text of `n` tokens writing the
/// next: (numbers computed for it, numbers reused, the share of the rows
/// of K and V not computed again).
pub fn cache_counts(s: &RunSummary, n: usize) -> (usize, usize, f32) {
    let i = &s.info;
    let computed = i.n_layers * (i.n_heads + 2 * i.n_kv_heads) * i.d_head;
    let reused = i.n_layers * 2 * i.n_kv_heads * i.d_head * n;
    (computed, reused, n as f32 / (n + 1) as f32)
}

impl Facts<'_> {
    /// The most likely next token and its probability.
    fn top_next(&self) -> (String, f32) {
        let top = self.summary.top_next.as_ref().and_then(|t| t.first().cloned());
        top.unwrap_or_default()
    }

    fn last(&self) -> String {
        self.tokens.last().cloned().unwrap_or_default()
    }

    /// What a step of the chapter says.
    pub fn writing_says(&self, k: usize) -> String {
        let s = self.summary;
        let name = crate::compute::run_name(&s.info);
        let name = name.as_str();
        if !writes(s) {
            return tr!("lesson-says-no-writer", model = name);
        }
        let (top, p) = self.top_next();
        let n = self.tokens.len();
        match k - FIRST {
            0 => {
                tr!("lesson-says-last-row", model = name, last = self.last(), top = top, p = pct(p))
            }
            1 => tr!(
                "lesson-says-next",
                t = fixed(self.next_temperature() as f64, 2),
                top = top,
                p = pct(p),
            ),
            2 => match &s.written {
                Some(w) => {
                    let c = &w.written.choice;
                    let token = w.written.token.as_str();
                    match c.draw {
                        Some(u) => tr!(
                            "lesson-says-drawn",
                            step = w.written.step + 1,
                            u = fixed(u, 4),
                            kept = c.kept,
                            mass = pct(c.kept_mass),
                            token = token,
                            share = pct(c.p_kept),
                        ),
                        None => tr!(
                            "lesson-says-greedy",
                            step = w.written.step + 1,
                            token = token,
                            p = pct(c.p),
                        ),
                    }
                }
                None => tr!("lesson-says-sampling"),
            },
            _ => {
                let (computed, reused, _) = cache_counts(s, n);
                let i = &s.info;
                let shared = if i.n_kv_heads < i.n_heads {
                    tr!("lesson-says-cache-shared", heads = i.n_heads, kv = i.n_kv_heads)
                } else {
                    String::new()
                };
                tr!(
                    "lesson-says-cache",
                    next = n + 1,
                    layers = i.n_layers,
                    computed = computed,
                    n = n,
                    reused = reused,
                    shared = shared,
                )
            }
        }
    }

    fn next_temperature(&self) -> f32 {
        // The list is at the page's temperature: its ratio of two listed
        // probabilities is exp((z_a − z_b) / T), so the page says the T it asked for.
        use_context::<Selection>().map_or(1.0, |s| s.options.get_untracked().next_token_temperature)
    }

    /// The step's numbers.
    pub fn writing_numbers(&self, k: usize) -> Vec<(&'static str, String, String)> {
        let s = self.summary;
        if !writes(s) {
            return Vec::new();
        }
        let (top, p) = self.top_next();
        let n = self.tokens.len();
        let next = (
            "lesson-top-next",
            tr!("lesson-label-top-next"),
            tr!("lesson-value-token", token = top.as_str(), p = pct(p)),
        );
        match k - FIRST {
            0 => vec![
                ("lesson-last", tr!("lesson-label-last"), format!("{}: {}", n - 1, self.last())),
                ("lesson-visible", tr!("lesson-label-visible"), n.to_string()),
                next,
            ],
            1 => {
                let listed: f32 = s.top_next.iter().flatten().map(|(_, p)| p).sum();
                vec![
                    (
                        "lesson-temperature",
                        "T".to_string(),
                        fixed(self.next_temperature() as f64, 2),
                    ),
                    next,
                    ("lesson-listed", tr!("lesson-label-listed"), pct(listed)),
                ]
            }
            2 => match &s.written {
                Some(w) => {
                    let c = &w.written.choice;
                    vec![
                        (
                            "lesson-chosen",
                            tr!("lesson-label-chosen"),
                            tr!(
                                "lesson-value-token",
                                token = w.written.token.as_str(),
                                p = pct(c.p)
                            ),
                        ),
                        (
                            "lesson-draw",
                            "u".to_string(),
                            c.draw.map_or_else(|| tr!("lesson-draw-none"), |u| fixed(u, 4)),
                        ),
                        (
                            "lesson-kept",
                            tr!("lesson-label-kept"),
                            tr!("lesson-value-kept", kept = c.kept, mass = pct(c.kept_mass)),
                        ),
                    ]
                }
                None => vec![next],
            },
            _ => {
                let (computed, reused, saved) = cache_counts(s, n);
                vec![
                    ("lesson-cache-new", tr!("lesson-label-cache-new"), computed.to_string()),
                    ("lesson-cache-reused", tr!("lesson-label-cache-reused"), reused.to_string()),
                    ("lesson-cache-saved", tr!("lesson-label-cache-saved"), num(saved)),
                ]
            }
        }
    }
}

/// What to try in a step of the chapter.
pub fn try_this(k: usize) -> (String, Option<AnyView>) {
    match k - FIRST {
        0 => (tr!("lesson-try-last-row"), Some(view! { <UseWriter /> }.into_any())),
        1 => (tr!("lesson-try-next"), Some(view! { <NextTokenTemperature /> }.into_any())),
        2 => (tr!("lesson-try-sampling"), Some(view! { <UseWriter /> }.into_any())),
        _ => (tr!("lesson-try-cache"), Some(view! { <UseWriter /> }.into_any())),
    }
}

/// A button to SmolLM2 where the chosen model does not write.
#[component]
fn UseWriter() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let reads = move || res.summary.with(|s| s.as_ref().is_some_and(|s| !writes(s)));
    move || {
        reads().then(|| {
            view! {
                <button id="lesson-use-smollm2" on:click=move |_| sel.model.set(ModelId::SmolLm2)>
                    {tr!("lesson-use-smollm2")}
                </button>
            }
        })
    }
}

/// The chapter's picture of the next-token distribution: the listed tokens
/// as bars; on the sampling step after a step of writing, that step's
/// candidates, those the cut dropped greyed and the chosen one marked.
#[component]
pub fn NextBars() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let bars = move || {
        let sampling = sel.step.get() == FIRST + 2;
        // (token, probability, kept, chosen)
        let rows: Option<Vec<(String, f32, bool, bool)>> = res.summary.with(|s| {
            let s = s.as_ref()?;
            match (&s.written, sampling) {
                (Some(w), true) => Some(
                    w.written
                        .choice
                        .candidates
                        .iter()
                        .zip(&w.written.candidates)
                        .map(|(c, t)| (t.clone(), c.p, c.kept, c.id == w.written.choice.id))
                        .collect(),
                ),
                _ => Some(
                    s.top_next.clone()?.into_iter().map(|(t, p)| (t, p, true, false)).collect(),
                ),
            }
        });
        let Some(rows) = rows else {
            return view! { <p class="note">{tr!("lesson-no-distribution")}</p> }.into_any();
        };
        view! {
            <ol class="lesson-next-bars" id="lesson-next-bars">
                {rows
                    .into_iter()
                    .map(|(t, p, kept, chosen)| {
                        view! {
                            <li class:cut=!kept class:chosen=chosen>
                                <code>{format!("{t:?}")}</code>
                                <span class="bar" style=format!("width: {:.1}%", p * 80.0)></span>
                                <span class="pct">{pct(p)}{chosen.then_some(" ✓")}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        }
        .into_any()
    };
    view! { <div class="lesson-next">{bars}</div> }
}
