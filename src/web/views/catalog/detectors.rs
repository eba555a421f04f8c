//! Head detectors in the catalog: induction, duplicate-token, previous-token
//! and first-token maps (layers × heads) from one run on random tokens
//! repeated twice (Olsson et al. 2022), or on a text typed by the user
//! repeated twice, with the prompt shown and its length and seed editable.

use crate::canvas::{cell_color, css};
use crate::compute::Engine;
use crate::state::Selection;
use crate::views::beyond::Analysis;
use crate::views::common::format::num;
use attnscope::analysis::detectors::{Detectors, DEFINITIONS};
use attnscope::session::AnalysisRequest;
use leptos::prelude::*;

/// One detector's layers × heads map, 0 to 1; a click opens the head.
fn map(
    name: &'static str,
    definition: &'static str,
    scores: &[Vec<f32>],
    sel: Selection,
) -> impl IntoView {
    let heads = scores.first().map_or(0, Vec::len);
    view! {
        <figure>
            <figcaption title=definition>
                <strong>{name.replace('_', " ")}</strong>
            </figcaption>
            <div
                class="heads-grid"
                id=format!("detector-{name}")
                style=format!("grid-template-columns: repeat({heads}, 1.1em)")
            >
                {scores
                    .iter()
                    .enumerate()
                    .flat_map(|(l, row)| {
                        row.iter()
                            .enumerate()
                            .map(move |(h, &v)| {
                                view! {
                                    <button
                                        class="cell"
                                        style=format!(
                                            "background: {}",
                                            css(cell_color(v.clamp(0.0, 1.0))),
                                        )
                                        title=format!("L{l} · H{h}: {}", num(v))
                                        aria-label=format!("Layer {l} head {h}: {}", num(v))
                                        on:click=move |_| sel.select_head((l, h))
                                    ></button>
                                }
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect_view()}
            </div>
        </figure>
    }
}

fn maps(d: &Detectors, sel: Selection) -> impl IntoView {
    let by = [&d.induction, &d.duplicate_token, &d.previous_token, &d.first_token];
    view! {
        <p class="detector-prompt" id="detector-prompt">
            {format!("Prompt ({} tokens): {}", d.tokens.len(), d.tokens.join(" "))}
        </p>
        <div class="detector-maps">
            {DEFINITIONS
                .iter()
                .zip(by)
                .map(|(&(name, def), scores)| map(name, def, scores, sel))
                .collect_view()}
        </div>
    }
}

#[component]
pub fn DetectorsPanel() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let (period, seed) = (RwSignal::new(16usize), RwSignal::new(1u64));
    // "random tokens" or "my text", and the text typed for the latter.
    let (typed, phrase) = (RwSignal::new(false), RwSignal::new(String::new()));
    // Another model's maps would be mislabelled.
    Effect::new(move |_| {
        sel.model.track();
        an.detectors.set(None);
    });
    let run = move |_| {
        let text = typed.get_untracked().then(|| phrase.get_untracked());
        Analysis::ask(
            engine,
            sel,
            AnalysisRequest::Detectors {
                period: period.get_untracked(),
                seed: seed.get_untracked(),
                text,
            },
        );
    };
    let choice = move |mine: bool, id: &'static str, label: &'static str| {
        view! {
            <button
                id=id
                aria-pressed=move || (typed.get() == mine).to_string()
                on:click=move |_| typed.set(mine)
            >
                {label}
            </button>
        }
    };
    view! {
        <section class="analysis" id="detectors">
            <h2>"Head detectors"</h2>
            {DEFINITIONS
                .iter()
                .map(|(_, d)| view! { <p class="definition">{*d}</p> })
                .collect_view()}
            <div class="switch-row" role="group" aria-label="What the prompt repeats">
                {choice(false, "detector-random", "Random tokens")}
                {choice(true, "detector-mine", "My text")}
            </div>
            <div class="switch-row">
                {move || {
                    if typed.get() {
                        view! {
                            <label class="detector-text">
                                "Text, repeated twice "
                                <input
                                    type="text"
                                    id="detector-text"
                                    placeholder="e.g. Mr and Mrs Dursley of number four"
                                    prop:value=move || phrase.get()
                                    on:input=move |ev| phrase.set(event_target_value(&ev))
                                />
                            </label>
                        }
                            .into_any()
                    } else {
                        view! {
                            <label>
                                "Random tokens per copy "
                                <input
                                    type="number"
                                    id="detector-period"
                                    min="2"
                                    max="300"
                                    prop:value=move || period.get().to_string()
                                    on:change=move |ev| {
                                        if let Ok(v) = event_target_value(&ev).parse() {
                                            period.set(v)
                                        }
                                    }
                                />
                            </label>
                            <label>
                                "Seed "
                                <input
                                    type="number"
                                    id="detector-seed"
                                    min="0"
                                    prop:value=move || seed.get().to_string()
                                    on:change=move |ev| {
                                        if let Ok(v) = event_target_value(&ev).parse() {
                                            seed.set(v)
                                        }
                                    }
                                />
                            </label>
                        }
                            .into_any()
                    }
                }} <button id="detector-run" on:click=run>
                    "Run the detectors"
                </button>
            </div>
            <p class="analysis-error" id="detector-error" role="status">
                {move || an.error.get()}
            </p>
            {move || an.detectors.with(|d| d.as_ref().map(|d| maps(d, sel)))}
        </section>
    }
}
