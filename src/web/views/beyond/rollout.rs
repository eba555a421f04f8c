//! Attention rollout (Abnar & Zuidema 2020) of the latest run: a tokens ×
//! tokens map after layers 1 … l, with a layer slider.

use super::{Analysis, Definition, MapData, MatrixMap};
use crate::compute::Engine;
use crate::state::{Results, Selection};
use attnscope::analysis::rollout;
use attnscope::analysis::value_norms::per_row;
use attnscope::session::AnalysisRequest;
use leptos::prelude::*;

#[component]
pub fn RolloutPanel() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    // Layers 1 … L, counted from 1 as the paper does; L (all of them) until moved.
    let upto = RwSignal::new(usize::MAX);
    Effect::new(move |_| {
        let run = res.run_id();
        let have = an.rollout.with_untracked(|r| r.as_ref().map(|r| r.0));
        if run.is_some() && have != run && res.tokens.with(|t| !t.is_empty()) {
            Analysis::ask(engine, sel, AnalysisRequest::Rollout);
        }
    });
    let current = move || {
        an.rollout
            .with(|r| r.as_ref().filter(|r| Some(r.0) == res.run_id()).map(|r| (r.1.len(), r.2)))
    };
    let data = Signal::derive(move || {
        let tokens = res.tokens.get();
        an.rollout.with(|r| {
            let r = r.as_ref().filter(|r| Some(r.0) == res.run_id())?;
            let m = r.1.get(upto.get().min(r.1.len()).max(1) - 1)?;
            Some(MapData { colour: per_row(m), values: m.clone(), tokens })
        })
    });
    view! {
        <section class="analysis" id="rollout">
            <h2>{tr!("beyond-rollout-title")}</h2>
            <Definition text=rollout::DEFINITION />
            {move || {
                current()
                    .map(|(layers, grouped)| {
                        let shown = upto.get().min(layers).max(1);
                        view! {
                            <label class="slider">
                                <span id="rollout-layer">
                                    {tr!("beyond-rollout-layers", shown = shown, layers = layers)}
                                </span>
                                <input
                                    type="range"
                                    id="rollout-slider"
                                    min="1"
                                    max=layers.to_string()
                                    step="1"
                                    prop:value=shown.to_string()
                                    aria-label=tr!("beyond-rollout-slider")
                                    on:input=move |ev| {
                                        if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                                            upto.set(v)
                                        }
                                    }
                                />
                            </label>
                            {grouped
                                .then(|| {
                                    view! { <p class="note">{tr!("beyond-rollout-grouped")}</p> }
                                })}
                        }
                    })
            }}
            <MatrixMap id="rollout-map" label=tr!("beyond-rollout-map-label") data />
        </section>
    }
}
