//! The translation view (issue #30): the source and its translation, and the
//! decoder's cross-attention (queries from the target words, keys and values
//! from the source words) as a heatmap, as lines between the two sentences,
//! and step by step for one target word. "Generate step by step" shows the
//! words in the order the model produced them, each with its attention row
//! and the words it chose between. The encoder's self-attention is the run's
//! ordinary trace, so the other tabs show it.

use super::heatmap::CrossHeatmap;
use super::lines::CrossLines;
use super::step::CrossStep;
use super::{CrossChoice, Part};
use crate::state::{Results, Selection};
use crate::url_state::View;
use crate::views::common::format::fixed;
use leptos::prelude::*;
use std::time::Duration;

/// The model note beside the stage, in the page's language.
pub fn model_note() -> String {
    tr!("translation-model-note")
}

/// How long each word stays alone on screen while generating step by step.
const STEP_MS: u64 = 700;

/// Puts the Translation tab on the stage when a translation model is chosen,
/// and takes it away when another model is.
pub fn follow_model(sel: Selection) {
    Effect::new(move |prev: Option<bool>| {
        let translating = sel.model.get().is_translation();
        let view = sel.view.get_untracked();
        if prev.is_some_and(|p| p != translating) || prev.is_none() {
            if translating && prev == Some(false) {
                sel.view.set(View::Translate);
            } else if !translating && view == View::Translate {
                sel.view.set(View::Head);
            }
        }
        translating
    });
}

/// `#view-translate`: the whole view.
#[component]
pub fn TranslateView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let choice = CrossChoice::new(res);
    provide_context(choice);
    // A new translation starts with its whole picture and no stale cell.
    Effect::new(move |_| {
        choice.summary.track();
        choice.shown.set(None);
        choice.cell.set(None);
    });
    view! {
        <div class="view-document translate" id="view-translate">
            {move || {
                if sel.model.get().is_translation() {
                    view! {
                        <Sentences />
                        <CrossControls />
                        <Generating />
                        {move || match choice.part.get() {
                            Part::Heatmap => view! { <CrossHeatmap /> }.into_any(),
                            Part::Lines => view! { <CrossLines /> }.into_any(),
                            Part::Step => view! { <CrossStep /> }.into_any(),
                        }}
                        <About />
                    }
                        .into_any()
                } else {
                    view! { <p class="translate-empty">{tr!("translation-empty")}</p> }.into_any()
                }
            }}
        </div>
    }
}

/// The source, its translation and any notice.
#[component]
fn Sentences() -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    let res = expect_context::<Results>();
    let target = move || {
        choice.summary.with(|t| {
            t.as_ref().map(|t| match choice.shown.get() {
                None => t.translation.clone(),
                Some(n) => t
                    .target_tokens
                    .iter()
                    .take(n)
                    .filter(|p| *p != "</s>")
                    .map(|p| p.replace('▁', " "))
                    .collect::<String>()
                    .trim_start()
                    .to_string(),
            })
        })
    };
    let notices = move || {
        choice.summary.with(|t| t.as_ref().map(|t| t.notices.join(" ")).unwrap_or_default())
    };
    let busy = move || res.asked.get() != res.run_id().unwrap_or(0);
    view! {
        <div class="translate-sentences">
            <p id="translation" class="translation" aria-live="polite" class:busy=busy>
                {move || target().unwrap_or_else(|| "…".into())}
            </p>
            <p class="translate-notice" id="translate-notice">
                {notices}
            </p>
        </div>
    }
}

/// Layer, head, picture and "generate step by step".
#[component]
fn CrossControls() -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    let sizes = move || {
        choice.summary.with(|t| {
            t.as_ref().map_or((0, 0), |t| (t.heads.len(), t.heads.first().map_or(0, Vec::len)))
        })
    };
    let pick = |v: String| v.parse::<usize>().ok();
    let part = move |p: Part, id: &'static str, label: String| {
        view! {
            <button
                id=id
                role="tab"
                aria-selected=move || (choice.part.get() == p).to_string()
                on:click=move |_| choice.part.set(p)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="translate-controls">
            <label>
                {tr!("translation-layer")} " "
                <select
                    id="translate-layer"
                    on:change=move |ev| choice.layer.set(pick(event_target_value(&ev)))
                >
                    <option value="avg" prop:selected=move || choice.layer.get().is_none()>
                        {tr!("translation-mean-layers")}
                    </option>
                    {move || {
                        (0..sizes().0)
                            .map(|l| {
                                view! {
                                    <option
                                        value=l.to_string()
                                        prop:selected=move || choice.layer.get() == Some(l)
                                    >
                                        {tr!("translation-decoder-layer", layer = l + 1)}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <label>
                {tr!("translation-head")} " "
                <select
                    id="translate-head"
                    on:change=move |ev| choice.head.set(pick(event_target_value(&ev)))
                >
                    <option value="avg" prop:selected=move || choice.head.get().is_none()>
                        {tr!("translation-mean-heads")}
                    </option>
                    {move || {
                        (0..sizes().1)
                            .map(|h| {
                                view! {
                                    <option
                                        value=h.to_string()
                                        prop:selected=move || choice.head.get() == Some(h)
                                    >
                                        {tr!("translation-head-n", head = h + 1)}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <div class="translate-parts" role="tablist" aria-label=tr!("translation-parts-aria")>
                {part(Part::Heatmap, "translate-part-heatmap", tr!("translation-part-heatmap"))}
                {part(Part::Lines, "translate-part-lines", tr!("translation-part-lines"))}
                {part(Part::Step, "translate-part-step", tr!("translation-part-step"))}
            </div>
            <GenerateButton />
        </div>
    }
}

/// `#translate-generate`: the target words one by one, as they were produced.
#[component]
fn GenerateButton() -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    let timer = StoredValue::new(None::<IntervalHandle>);
    let stop = move || {
        if let Some(Some(h)) = timer.try_update_value(Option::take) {
            h.clear();
        }
    };
    on_cleanup(stop);
    let start = move |_| {
        stop();
        let n = choice.summary.with_untracked(|t| t.as_ref().map_or(0, |t| t.target_tokens.len()));
        if n == 0 {
            return;
        }
        choice.shown.set(Some(1));
        choice.target.set(Some(0));
        let tick = move || {
            let next = choice.shown.get_untracked().map_or(n, |s| s + 1);
            if next > n {
                choice.shown.set(None);
                stop();
            } else {
                choice.shown.set(Some(next));
                choice.target.set(Some(next - 1));
            }
        };
        if let Ok(h) = set_interval_with_handle(tick, Duration::from_millis(STEP_MS)) {
            timer.set_value(Some(h));
        }
    };
    view! {
        <button
            id="translate-generate"
            class="generate"
            on:click=start
            disabled=move || {
                choice.summary.with(|t| t.as_ref().is_none_or(|t| t.target_tokens.is_empty()))
            }
        >
            {tr!("translation-generate")}
        </button>
    }
}

/// While generating: the word just produced, its probability and the others it was chosen over.
#[component]
fn Generating() -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    move || {
        let n = choice.shown.get()?;
        choice.summary.with(|t| {
            let t = t.as_ref()?;
            let step = n.checked_sub(1)?;
            let token = t.target_tokens.get(step)?.clone();
            let top = t.top.get(step).cloned().unwrap_or_default();
            let others: Vec<String> = top
                .iter()
                .map(|(p, w)| {
                    tr!(
                        "translation-candidate",
                        token = p.replace('▁', "_"),
                        percent = fixed((100.0 * w) as f64, 0),
                    )
                })
                .collect();
            Some(view! {
                <p class="translate-generating" id="translate-generating" aria-live="polite">
                    {tr!(
                        "translation-generating",
                        step = n,
                        total = t.target_tokens.len(),
                        token = token.replace('▁', " ").trim().to_string(),
                        others = others.join(", "),
                    )}
                </p>
            })
        })
    }
}

/// What the decoder is, where the model comes from and its license.
#[component]
fn About() -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    view! {
        <aside class="translate-about">
            <p id="no-self-attention">
                <strong>{tr!("translation-no-self-attention")}</strong>
                {tr!("translation-no-self-attention-why")}
            </p>
            <details id="translate-provenance">
                <summary>
                    {move || {
                        choice
                            .summary
                            .with(|t| {
                                tr!(
                                    "translation-provenance",
                                    license = t.as_ref().map_or("", |t| t.license.as_str()),
                                )
                            })
                    }}
                </summary>
                <p>
                    {move || {
                        choice
                            .summary
                            .with(|t| t.as_ref().map(|t| t.provenance.clone()).unwrap_or_default())
                    }}
                </p>
            </details>
        </aside>
    }
}
