//! Two sentences side by side for the same head: the worker runs the second
//! text through the same model and options (`ToWorker::Compare`) and the page
//! draws that head next to the main heatmap.

use super::picture::{draw, Picture};
use crate::canvas::{blank, use_canvas_box, CanvasBox};
use crate::state::{Appearance, Compared, Results, Selection};
use crate::url_state::Stage;
use crate::views::common::axes::Axes;
use crate::views::common::stages::Frame;
use leptos::prelude::*;

/// `textarea#compare-text` in a fold: empty means no comparison.
#[component]
pub fn CompareText() -> impl IntoView {
    let sel = expect_context::<Selection>();
    view! {
        <details class="compare-text" open=move || !sel.compare_text.get_untracked().is_empty()>
            <summary>{tr!("head-compare-summary")}</summary>
            <label for="compare-text" class="sr-only">
                {tr!("head-compare-text-label")}
            </label>
            <textarea
                id="compare-text"
                rows="1"
                spellcheck="false"
                placeholder=tr!("head-compare-placeholder")
                prop:value=move || sel.compare_text.get()
                on:input=move |ev| sel.compare_text.set(event_target_value(&ev))
            ></textarea>
        </details>
    }
}

/// `canvas#compare-heatmap`: the selected head on the second text.
#[component]
pub fn CompareMap() -> impl IntoView {
    let app = expect_context::<Appearance>();
    let res = expect_context::<Results>();
    let an = expect_context::<crate::views::beyond::Analysis>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let transposed = app.columns_are_queries.get();
        let drawn = res.compared.with(|c| match c {
            Some(Compared { tokens, detail: d, .. }) => {
                let axes = Axes::of(&d.weights, transposed);
                let (rows, cols) = axes.labels(tokens);
                let weights = axes.orient(&d.weights);
                let frame = Frame { from: Stage::Weights, to: Stage::Weights, t: 1.0 };
                let (focus, hidden) = (Default::default(), Some((d.mask, axes)));
                look.with(|look| {
                    let grey = look.hidden;
                    let pic = Picture {
                        from: weights.clone(),
                        to: weights,
                        frame,
                        range: 1.0,
                        focus,
                        cell: None,
                        values: None,
                        hidden,
                        grey,
                        thumbs: None,
                    };
                    draw(&el, &rows, &cols, &pic, look, room.get())
                })
                .map(|_| ())
            }
            None => {
                blank(&el);
                Ok(())
            }
        });
        if let Err(e) = drawn {
            web_sys::console::error_2(&"compare: drawing failed:".into(), &e);
        }
    });
    view! {
        <figure class="compare" hidden=move || res.compared.with(Option::is_none)>
            <div class="canvas-box" node_ref=boxed>
                <canvas
                    id="compare-heatmap"
                    node_ref=canvas
                    role="img"
                    aria-label=tr!("head-compare-label")
                ></canvas>
            </div>
            <figcaption>
                {move || {
                    res.compared
                        .with(|c| {
                            c.as_ref()
                                .map(|c| {
                                    tr!(
                                        "head-compare-caption",
                                        what = c.what.as_str(),
                                        tokens = c.tokens.len(),
                                        layer = c.detail.layer,
                                        head = c.detail.head,
                                    )
                                })
                        })
                }}
            </figcaption>
            <button
                id="compare-close"
                hidden=move || an.patch_open.with(Option::is_none)
                on:click=move |_| an.close_patched()
            >
                {tr!("head-compare-close")}
            </button>
        </figure>
    }
}
