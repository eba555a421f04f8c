//! Two sentences side by side for the same head: the worker runs the second
//! text through the same model and options (`ToWorker::Compare`) and the page
//! draws that head next to the main heatmap.

use crate::heatmap::{draw, use_look};
use attnscope::session::HeadDetail;
use leptos::html::Canvas;
use leptos::prelude::*;

/// The second text's tokens and the selected head on it.
pub type Compared = (Vec<String>, HeadDetail);

/// `textarea#compare-text`: empty means no comparison.
#[component]
pub fn CompareText(text: ReadSignal<String>, set_text: WriteSignal<String>) -> impl IntoView {
    view! {
        <label for="compare-text">"Compare with another sentence (same head)"</label>
        <textarea id="compare-text" rows="1" spellcheck="false" placeholder="e.g. the same words in another order"
            prop:value=move || text.get()
            on:input=move |ev| set_text.set(event_target_value(&ev))></textarea>
    }
}

/// `canvas#compare-heatmap`: the selected head on the second text.
#[component]
pub fn CompareMap(compared: ReadSignal<Option<Compared>>, #[prop(into)] columns_are_queries: Signal<bool>) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let look = use_look();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let drawn = look.with(|look| {
            compared.with(|c| match c {
                Some((tokens, d)) => draw(&el, tokens, Some(&d.weights), columns_are_queries.get(), None, look),
                None => draw(&el, &[], None, false, None, look),
            })
        });
        if let Err(e) = drawn {
            web_sys::console::error_2(&"compare: drawing failed:".into(), &e);
        }
    });
    view! {
        <figure class="heatmap compare" hidden=move || compared.with(Option::is_none)>
            <canvas id="compare-heatmap" node_ref=canvas role="img" aria-label="Attention weights of the same head on the other sentence"></canvas>
            <figcaption>{move || compared.with(|c| c.as_ref().map(|(t, d)| format!("The other sentence ({} tokens), layer {} head {}", t.len(), d.layer, d.head)))}</figcaption>
        </figure>
    }
}
