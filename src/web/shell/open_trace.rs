//! "Open a trace…": a trace file (docs/trace-format.md) chosen with a file
//! picker or dropped anywhere on the page. The worker reads it lazily
//! (`src/worker/blob_source.rs`); once its header is read the trace is the
//! model, and every view draws from it.

use crate::compute::Engine;
use crate::state::{LoadState, Results, Selection};
use crate::url_state::Stage;
use attnscope::trace::ModelId;
use leptos::prelude::*;

/// Hands `file` to the worker; the trace becomes the model once it is open.
fn open(
    file: web_sys::File,
    res: Results,
    engine: Engine,
    opening: RwSignal<bool>,
    name: RwSignal<String>,
) {
    name.set(file.name());
    res.loads.update(|l| {
        l.insert(ModelId::Trace, LoadState::Loading { loaded: 0, total: file.size() as u64 });
    });
    opening.set(true);
    engine.open_trace(&file);
}

/// Whether a drop is one lone `.safetensors` file: a trace, since a model's
/// safetensors needs its config.json and tokenizer beside it (anything else
/// dropped goes to "Open a model…").
pub fn is_trace_drop(data: &web_sys::DataTransfer) -> bool {
    data.files().is_some_and(|f| {
        f.length() == 1
            && f.get(0).is_some_and(|f| f.name().to_lowercase().ends_with(".safetensors"))
    })
}

/// `#open-trace`: the picker, the file dropped, and what the trace holds or why it failed.
#[component]
pub fn OpenTrace() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let opening = RwSignal::new(false);
    let name = RwSignal::new(String::new());
    // A failed file leaves nothing open in the worker, so the page goes back to a model that runs.
    Effect::new(move |_| {
        let state = res.load_state(ModelId::Trace);
        if !opening.get_untracked() {
            return;
        }
        match state {
            LoadState::Ready => {
                opening.set(false);
                sel.model.set(ModelId::Trace);
            }
            LoadState::Failed(_) => {
                opening.set(false);
                if sel.model.get_untracked() == ModelId::Trace {
                    sel.model.set(ModelId::Teaching);
                }
            }
            _ => {}
        }
    });
    // A hosted page (a notebook, a standalone HTML file) opens its host's trace at once, and no other.
    let hosted = crate::hosted::host();
    if let Some(host) = &hosted {
        name.set(host.name.clone());
        res.loads.update(|l| {
            l.insert(ModelId::Trace, LoadState::Loading { loaded: 0, total: host.size as u64 });
        });
        opening.set(true);
        engine.open_hosted(host);
    }
    let on_pick = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            open(file, res, engine, opening, name);
        }
        // The same file chosen again must fire `change` again.
        input.set_value("");
    };
    let over = window_event_listener(leptos::ev::dragover, |ev| ev.prevent_default());
    let dropped = window_event_listener(leptos::ev::drop, move |ev| {
        let Some(data) = ev.data_transfer().filter(is_trace_drop) else { return };
        if crate::hosted::is_hosted() {
            return;
        }
        ev.prevent_default();
        if let Some(file) = data.files().and_then(|f| f.get(0)) {
            open(file, res, engine, opening, name);
        }
    });
    on_cleanup(move || {
        over.remove();
        dropped.remove();
    });
    let failure = move || match res.load_state(ModelId::Trace) {
        LoadState::Failed(why) => Some(tr!("files-trace-failed", name = name.get(), why = why)),
        _ => None,
    };
    let picker = hosted.is_none().then(|| {
        view! {
            <label class="button" for="open-trace" title=tr!("files-open-trace-title")>
                {tr!("files-open-trace")}
            </label>
            <input
                type="file"
                id="open-trace"
                class="sr-only"
                accept=".safetensors"
                on:change=on_pick
            />
        }
    });
    view! {
        <div class="field open-trace">
            {picker}
            {move || {
                failure()
                    .map(|f| {
                        view! {
                            <p class="trace-error" id="trace-error" role="alert">
                                {f}
                            </p>
                        }
                    })
            }}
            {move || (sel.model.get() == ModelId::Trace).then(|| view! { <TraceInfo name=name /> })}
        </div>
    }
}

/// `#trace-info`: the trace's model, layers, heads and tokens.
#[component]
fn TraceInfo(name: RwSignal<String>) -> impl IntoView {
    let res = expect_context::<Results>();
    let text = move || {
        res.summary.with(|s| {
            s.as_ref().filter(|s| s.info.id == ModelId::Trace.slug()).map(|s| {
                let i = &s.info;
                let (model, file) = (i.name.as_str(), name.get());
                let (layers, heads, tokens) = (i.n_layers, i.n_heads, s.tokens.len());
                if i.n_kv_heads == i.n_heads {
                    tr!(
                        "files-trace-info",
                        model = model,
                        layers = layers,
                        heads = heads,
                        tokens = tokens,
                        file = file
                    )
                } else {
                    let kv = i.n_kv_heads;
                    tr!(
                        "files-trace-info-grouped",
                        model = model,
                        layers = layers,
                        heads = heads,
                        kv = kv,
                        tokens = tokens,
                        file = file
                    )
                }
            })
        })
    };
    view! {
        <p class="note trace-info" id="trace-info">
            {text}
        </p>
    }
}

/// Whether the run shown is a trace file, and one without queries and keys
/// (weights only: the stage then stays at the softmax).
pub fn trace_shown() -> (Memo<bool>, Memo<bool>) {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let info = move |f: fn(&attnscope::trace::ModelInfo) -> bool| {
        res.summary
            .with(|s| s.as_ref().is_some_and(|s| s.info.id == ModelId::Trace.slug() && f(&s.info)))
    };
    let trace = Memo::new(move |_| info(|_| true));
    let lacking = Memo::new(move |_| info(|i| i.d_head == 0));
    Effect::new(move |_| {
        if lacking.get() && sel.stage.get() != Stage::Weights {
            sel.stage.set(Stage::Weights);
        }
    });
    (trace, lacking)
}

/// In place of step by step, for a trace without queries and keys.
#[component]
pub fn NeedsQueriesKeys() -> impl IntoView {
    view! {
        <div class="view-document needs-live" id="needs-queries-keys">
            <p class="note">{tr!("files-needs-queries-keys")}</p>
        </div>
    }
}

/// In place of the lesson, which runs a live model on the visitor's sentence.
#[component]
pub fn NeedsLiveModel() -> impl IntoView {
    view! {
        <div class="view-document needs-live" id="needs-live-model">
            <p class="note">{tr!("files-needs-live-model")}</p>
        </div>
    }
}
