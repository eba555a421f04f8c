//! `#translate-exports`: the cross-attention on screen as a picture (SVG,
//! PNG) and the whole translation as JSON, in the CLI's `translate --json`
//! fields. The buttons wait while a newer run computes, so an export never
//! pairs a new text with an old translation.

use super::CrossChoice;
use crate::downloads;
use crate::state::{Results, Selection};
use attnscope::attention::Mask;
use attnscope::draw::{heatmap_svg, Heatmap, ValueKind};
use leptos::prelude::*;

#[component]
pub fn CrossExports() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let choice = expect_context::<CrossChoice>();
    let ready = Memo::new(move |_| {
        let current = res.summary.with(|s| s.as_ref().is_some_and(|s| s.id == res.asked.get()));
        current && choice.summary.with(|t| t.as_ref().is_some_and(|t| !t.target_tokens.is_empty()))
    });
    let svg = move || {
        let (layer, head) = (choice.layer.get_untracked(), choice.head.get_untracked());
        choice.summary.with_untracked(|t| {
            let t = t.as_ref()?;
            let values = t.weights(layer, head)?;
            let title = tr!(
                "translation-svg-title",
                model = sel.model.get_untracked().slug(),
                translation = t.translation.as_str(),
                which = choice.which_untracked(),
            );
            let (row_labels, col_labels) = (&t.target_tokens, &t.source_tokens);
            let figure = Heatmap {
                title,
                row_labels,
                col_labels,
                values: &values,
                kind: ValueKind::Weights,
                mask: Mask::None,
                axes: (&tr!("translation-axis-keys"), &tr!("translation-axis-queries")),
            };
            heatmap_svg(&figure).ok()
        })
    };
    let json = move || {
        let text = sel.text.get_untracked();
        choice.summary.with_untracked(|t| t.as_ref()?.export_json(sel.model.get_untracked(), &text))
    };
    view! {
        <div
            class="buttons translate-exports"
            id="translate-exports"
            role="group"
            aria-label=tr!("translation-export-aria")
        >
            <span class="label">{tr!("translation-export")}</span>
            <button
                id="translate-export-png"
                disabled=move || !ready.get()
                on:click=move |_| {
                    if let Some(s) = svg() {
                        downloads::svg_to_png("cross-attention.png", &s)
                    }
                }
            >
                "PNG"
            </button>
            <button
                id="translate-export-svg"
                disabled=move || !ready.get()
                on:click=move |_| {
                    if let Some(s) = svg() {
                        downloads::save("cross-attention.svg", "image/svg+xml", &s)
                    }
                }
            >
                "SVG"
            </button>
            <button
                id="translate-export-json"
                disabled=move || !ready.get()
                title=tr!("translation-export-json-title")
                on:click=move |_| {
                    if let Some(j) = json() {
                        downloads::save("translation.json", "application/json", &j)
                    }
                }
            >
                "JSON"
            </button>
        </div>
    }
}
