//! The lesson's second chapter, "How a model writes": why only the last
//! row chooses, the next-token distribution and its temperature, sampling
//! and the seed, and the key/value cache. Its numbers come from the
//! decoder's latest run (and, after a step of writing, from that step).

use super::{Facts, Picture};
use crate::state::{Results, Selection};
use crate::url_state::Stage;
use crate::views::common::format::num;
use crate::views::explain::switches::NextTokenTemperature;
use attnscope::session::{ModelId, RunSummary};
use leptos::prelude::*;

/// The chapter's first step, counted from 0 over the whole lesson.
pub const FIRST: usize = 8;

/// A step of the chapter: its title, picture and stage.
pub fn step(k: usize) -> (&'static str, Picture, Option<Stage>) {
    match k - FIRST {
        0 => ("How a model writes: the last row chooses", Picture::Heatmap, Some(Stage::Weights)),
        1 => ("The next-token distribution and its temperature", Picture::Next, None),
        2 => ("Sampling, and the seed", Picture::Next, None),
        _ => ("The key/value cache", Picture::Heatmap, Some(Stage::Weights)),
    }
}

/// Whether the run is a decoder's, which lists its next tokens.
pub fn writes(s: &RunSummary) -> bool {
    s.top_next.is_some()
}

fn pct(p: f32) -> String {
    format!("{:.1}%", p * 100.0)
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
        let name = &s.info.name;
        if !writes(s) {
            return format!(
                "{name} reads the whole text at once and has no next token to choose. This chapter needs a model that writes: a decoder such as SmolLM2."
            );
        }
        let (top, p) = self.top_next();
        let n = self.tokens.len();
        match k - FIRST {
            0 => format!(
                "{name} writes one token at a time. Under the causal mask, row i of A sees only tokens 0 … i, so every row could predict the token after it; when writing, only the last row counts. After the last layer, the vector of “{}” becomes the logits of the next token: its best guess is “{top}”, {}.",
                self.last(),
                pct(p)
            ),
            1 => format!(
                "A softmax turns the logits z into probabilities, p_i = exp(z_i / T) / Σ exp(z_j / T). T = 1 gives the model's own distribution. A lower T sharpens it: the top token wins more and more often, and the text starts repeating itself. A higher T flattens it: rare tokens come up, and the text rambles. At T = {:.2}, “{top}” gets {}.",
                self.next_temperature(),
                pct(p)
            ),
            2 => match &s.written {
                Some(w) => {
                    let c = &w.written.choice;
                    match c.draw {
                        Some(u) => format!(
                            "Step {} drew u = {u:.4}. It kept {} tokens, {} of the probability, then scaled them up to sum to 1, and took “{}”: the token whose slice of the running total holds u. Its share was {}. The seed fixes every u, so the same link writes the same text.",
                            w.written.step + 1,
                            c.kept,
                            pct(c.kept_mass),
                            w.written.token,
                            pct(c.p_kept)
                        ),
                        None => format!(
                            "Step {} took “{}” ({}) with no draw: greedy decoding always takes the most likely token. Choose “sample” in the Write card to draw instead.",
                            w.written.step + 1,
                            w.written.token,
                            pct(c.p)
                        ),
                    }
                }
                None => "Greedy decoding always takes the most likely token. Sampling draws a number u between 0 and 1 and takes the token whose slice of the running total of the probabilities holds it. Top-k keeps only the k most likely tokens, top-p the fewest whose probabilities add up to p, and what is kept is scaled up to sum to 1. The seed fixes every draw, so the same link writes the same text.".to_string(),
            },
            _ => {
                let (computed, reused, _) = cache_counts(s, n);
                let i = &s.info;
                let shared = if i.n_kv_heads < i.n_heads {
                    format!(
                        " Its {} query heads share {} key/value heads, so the cache holds {} sets of keys and values per layer, not {}.",
                        i.n_heads, i.n_kv_heads, i.n_kv_heads, i.n_heads
                    )
                } else {
                    String::new()
                };
                format!(
                    "The next token's query needs the key and value of every earlier token in every layer. Under the causal mask those never change, so the model keeps them: writing token {} computes one new row of Q, K and V in each of {} layers ({computed} numbers) and reuses the {n} rows of K and V computed before ({reused} numbers).{shared}",
                    n + 1,
                    i.n_layers
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
        let next =
            ("lesson-top-next", "most likely next".to_string(), format!("“{top}” {}", pct(p)));
        match k - FIRST {
            0 => vec![
                (
                    "lesson-last",
                    "the row that chooses".to_string(),
                    format!("{}: {}", n - 1, self.last()),
                ),
                ("lesson-visible", "keys it sees".to_string(), n.to_string()),
                next,
            ],
            1 => {
                let listed: f32 = s.top_next.iter().flatten().map(|(_, p)| p).sum();
                vec![
                    (
                        "lesson-temperature",
                        "T".to_string(),
                        format!("{:.2}", self.next_temperature()),
                    ),
                    next,
                    ("lesson-listed", "the five listed, together".to_string(), pct(listed)),
                ]
            }
            2 => match &s.written {
                Some(w) => {
                    let c = &w.written.choice;
                    vec![
                        (
                            "lesson-chosen",
                            "chosen".to_string(),
                            format!("“{}” {}", w.written.token, pct(c.p)),
                        ),
                        (
                            "lesson-draw",
                            "u".to_string(),
                            c.draw.map_or("none (greedy)".to_string(), |u| format!("{u:.4}")),
                        ),
                        (
                            "lesson-kept",
                            "kept".to_string(),
                            format!("{} tokens, {}", c.kept, pct(c.kept_mass)),
                        ),
                    ]
                }
                None => vec![next],
            },
            _ => {
                let (computed, reused, saved) = cache_counts(s, n);
                vec![
                    (
                        "lesson-cache-new",
                        "computed for the next token".to_string(),
                        computed.to_string(),
                    ),
                    (
                        "lesson-cache-reused",
                        "reused from the cache".to_string(),
                        reused.to_string(),
                    ),
                    (
                        "lesson-cache-saved",
                        "rows of K and V not recomputed".to_string(),
                        num(saved),
                    ),
                ]
            }
        }
    }
}

/// What to try in a step of the chapter.
pub fn try_this(k: usize) -> (&'static str, Option<AnyView>) {
    match k - FIRST {
        0 => ("Type a word at the end: a new last row appears, and the next-token list changes.", Some(view! { <UseWriter /> }.into_any())),
        1 => ("Drag the temperature: the bars sharpen below 1 and flatten above it.", Some(view! { <NextTokenTemperature /> }.into_any())),
        2 => ("In the Write card choose “sample”, set a seed and press Step: the bars show the cut and the token drawn.", Some(view! { <UseWriter /> }.into_any())),
        _ => ("Press Write and watch the heatmap grow by one row per token, each row computed once.", Some(view! { <UseWriter /> }.into_any())),
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
                    "Use SmolLM2, which writes"
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
            return view! { <p class="note">"The distribution appears with a model that writes."</p> }
                .into_any();
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
