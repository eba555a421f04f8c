//! `#write-card`, in the rail under the next tokens: Write, Step, Pause and
//! Stop, the settings, then the step's distribution and the key/value cache.
//! Its data attributes say where writing stands (the e2e test and the
//! benchmark read them).

use super::bars::{Bars, KvCache};
use super::{offered, Ask, Flow};
use crate::state::{Appearance, WriteState};
use leptos::prelude::*;

/// A number typed into a settings box, or `fallback` when it is not one.
fn number<T: std::str::FromStr>(ev: &leptos::ev::Event, fallback: T) -> T {
    event_target_value(ev).trim().parse().unwrap_or(fallback)
}

#[component]
pub fn WriteCard() -> impl IntoView {
    let flow = Flow::from_context();
    // On a projector the settings start folded, so that the bars are in sight.
    let app = expect_context::<Appearance>();
    let (sel, res, w) = (flow.sel, flow.res, flow.w);
    // A memo: the card is built again only when the model changes kind, not at every run.
    let why = Memo::new(move |_| {
        let mask = res.summary.with(|s| s.as_ref().map(|s| s.info.mask));
        offered(sel.model.get(), mask)
    });
    let state = move || w.state.get();
    let busy = move || state() == WriteState::Writing;
    let ids = move || {
        w.steps.with(|v| {
            v.iter().map(|s| s.written.choice.id.to_string()).collect::<Vec<_>>().join(",")
        })
    };
    // The text written after the prompt.
    let written = move || {
        w.steps.track();
        let prompt = w.prompt.get();
        w.produced.with_value(|t| {
            t.as_deref().map(|t| t.strip_prefix(prompt.as_str()).unwrap_or(t).to_string())
        })
    };
    let card = move || {
        view! {
            <section
                class="card write"
                id="write-card"
                aria-labelledby="write-title"
                data-steps=move || w.steps.with(Vec::len)
                data-state=move || state().slug()
                data-ids=ids
                data-text=written
            >
                <h2 id="write-title">{tr!("write-heading")}</h2>
                <div class="write-buttons">
                    <button
                        id="write-go"
                        class="primary"
                        disabled=busy
                        on:click=move |_| flow.begin(Ask::Write)
                    >
                        {tr!("write-go")}
                    </button>
                    <button id="write-step" disabled=busy on:click=move |_| flow.begin(Ask::Step)>
                        {tr!("write-step")}
                    </button>
                    <button
                        id="write-pause"
                        disabled=move || {
                            !matches!(state(), WriteState::Writing | WriteState::Paused)
                        }
                        on:click=move |_| flow.pause()
                    >
                        {move || {
                            if state() == WriteState::Paused {
                                tr!("write-resume")
                            } else {
                                tr!("write-pause")
                            }
                        }}
                    </button>
                    <button
                        id="write-stop"
                        disabled=move || {
                            !matches!(state(), WriteState::Writing | WriteState::Paused)
                        }
                        on:click=move |_| flow.stop()
                    >
                        {tr!("write-stop")}
                    </button>
                </div>
                <details class="write-settings" prop:open=move || !app.present.get()>
                    <summary>{tr!("write-settings")}</summary>
                    <div class="write-fields">
                        <label>
                            {tr!("write-count")}
                            <input
                                id="write-count"
                                type="number"
                                min="1"
                                max="256"
                                prop:value=move || w.count.get().to_string()
                                on:change=move |ev| w.count.set(number(&ev, 20).clamp(1, 256))
                            />
                        </label>
                        <label>
                            {tr!("write-choose")}
                            <select
                                id="write-mode"
                                on:change=move |ev| {
                                    w.sample.set(event_target_value(&ev) == "sample")
                                }
                            >
                                <option value="greedy" prop:selected=move || !w.sample.get()>
                                    {tr!("write-greedy")}
                                </option>
                                <option value="sample" prop:selected=move || w.sample.get()>
                                    {tr!("write-sample")}
                                </option>
                            </select>
                        </label>
                        <label>
                            {tr!("write-top-k")}
                            <input
                                id="write-top-k"
                                type="number"
                                min="0"
                                prop:value=move || w.top_k.get().to_string()
                                on:change=move |ev| w.top_k.set(number(&ev, 0))
                            />
                        </label>
                        <label>
                            {tr!("write-top-p")}
                            <input
                                id="write-top-p"
                                type="number"
                                min="0"
                                max="1"
                                step="0.05"
                                prop:value=move || w.top_p.get().to_string()
                                on:change=move |ev| w.top_p.set(number(&ev, 1.0))
                            />
                        </label>
                        <label>
                            {tr!("write-seed")}
                            <input
                                id="write-seed"
                                type="number"
                                min="0"
                                prop:value=move || w.seed.get().to_string()
                                on:change=move |ev| w.seed.set(number(&ev, 0))
                            />
                        </label>
                    </div>
                    <p class="note">
                        {move || {
                            if w.sample.get() {
                                tr!("write-hint-sample")
                            } else {
                                tr!("write-hint-greedy")
                            }
                        }}
                    </p>
                </details>

                <p class="note" id="write-message" hidden=move || w.message.with(String::is_empty)>
                    {move || w.message.get()}
                </p>
                <Bars />
                <KvCache />
            </section>
        }
    };
    move || match why.get() {
        Ok(()) => Some(card().into_any()),
        Err(Some(note)) => Some(
            view! {
                <section class="card write" id="write-card" data-state="off">
                    <h2>{tr!("write-heading")}</h2>
                    <p class="note">{note}</p>
                </section>
            }
            .into_any(),
        ),
        Err(None) => None,
    }
}
