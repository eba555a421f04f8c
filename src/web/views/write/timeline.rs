//! `#write-timeline`, under the tokens once a generation exists: step s
//! shows the text as it was when token s was chosen (every view, the bars
//! and the cache panel follow); the far end is now.

use super::Flow;
use crate::state::WriteState;
use leptos::prelude::*;

#[component]
pub fn Timeline() -> impl IntoView {
    let flow = Flow::from_context();
    let w = flow.w;
    let steps = move || w.steps.with(Vec::len);
    let label = move || match w.at.get() {
        Some(s) => tr!("write-timeline-step", step = s, steps = steps()),
        None => tr!("write-timeline-now", tokens = steps()),
    };
    // A memo: the range is built once per generation, not at every token.
    let shown = Memo::new(move |_| steps() > 0);
    move || {
        shown.get().then(|| {
            view! {
                <div class="write-timeline">
                    <label for="write-timeline">{tr!("write-timeline")}</label>
                    <input
                        id="write-timeline"
                        type="range"
                        min="1"
                        max=move || steps() + 1
                        prop:value=move || w.at.get().unwrap_or(steps() + 1).to_string()
                        disabled=move || w.state.get() == WriteState::Writing
                        on:input=move |ev| {
                            let s = event_target_value(&ev).parse::<usize>().unwrap_or(0);
                            flow.show((s <= steps()).then_some(s));
                        }
                    />
                    <span class="note">{label}</span>
                </div>
            }
        })
    }
}
