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

/// A detector's name (the core's, `previous_token`) in the page's language.
fn label(name: &str) -> String {
    match name {
        "induction" => tr!("catalog-detector-induction"),
        "duplicate_token" => tr!("catalog-detector-duplicate"),
        "previous_token" => tr!("catalog-detector-previous"),
        "first_token" => tr!("catalog-detector-first"),
        other => other.replace('_', " "),
    }
}

/// A detector's definition (the core's `DEFINITIONS`) in the page's language.
fn definition(name: &str, core: &str) -> String {
    match name {
        "induction" => tr!("catalog-detector-induction-definition"),
        "duplicate_token" => tr!("catalog-detector-duplicate-definition"),
        "previous_token" => tr!("catalog-detector-previous-definition"),
        "first_token" => tr!("catalog-detector-first-definition"),
        _ => core.to_string(),
    }
}

/// One detector's layers × heads map, 0 to 1; a click opens the head.
fn map(
    name: &'static str,
    definition: String,
    scores: &[Vec<f32>],
    sel: Selection,
) -> impl IntoView {
    let heads = scores.first().map_or(0, Vec::len);
    view! {
        <figure>
            <figcaption title=definition>
                <strong>{label(name)}</strong>
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
                                        aria-label=tr!(
                                            "catalog-detector-cell",
                                            layer = l,
                                            head = h,
                                            score = num(v),
                                        )
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
            {tr!("catalog-detector-prompt", tokens = d.tokens.len(), prompt = d.tokens.join(" "))}
        </p>
        <div class="detector-maps">
            {DEFINITIONS
                .iter()
                .zip(by)
                .map(|(&(name, def), scores)| map(name, definition(name, def), scores, sel))
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
    let choice = move |mine: bool, id: &'static str, label: String| {
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
            <h2>{tr!("catalog-detectors-title")}</h2>
            {DEFINITIONS
                .iter()
                .map(|&(name, d)| view! { <p class="definition">{definition(name, d)}</p> })
                .collect_view()}
            <div class="switch-row" role="group" aria-label=tr!("catalog-detector-repeats")>
                {choice(false, "detector-random", tr!("catalog-detector-random"))}
                {choice(true, "detector-mine", tr!("catalog-detector-mine"))}
            </div>
            <div class="switch-row">
                {move || {
                    if typed.get() {
                        view! {
                            <label class="detector-text">
                                {format!("{} ", tr!("catalog-detector-text"))}
                                <input
                                    type="text"
                                    id="detector-text"
                                    placeholder=tr!("catalog-detector-placeholder")
                                    prop:value=move || phrase.get()
                                    on:input=move |ev| phrase.set(event_target_value(&ev))
                                />
                            </label>
                        }
                            .into_any()
                    } else {
                        view! {
                            <label>
                                {format!("{} ", tr!("catalog-detector-period"))}
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
                                {format!("{} ", tr!("catalog-detector-seed"))}
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
                    {tr!("catalog-detector-run")}
                </button>
            </div>
            <p class="analysis-error" id="detector-error" role="status">
                {move || an.error.get()}
            </p>
            {move || an.detectors.with(|d| d.as_ref().map(|d| maps(d, sel)))}
        </section>
    }
}
