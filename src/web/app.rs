//! The page: a text box, the tokens the model sees, and its attention for
//! every layer and head — overview, heatmap and dot grids — computed in a
//! Web Worker from the built-in teaching model or a downloaded real model.

use crate::catalog::{Catalog, FindHeads, Found};
use crate::compare::{CompareMap, CompareText, Compared};
use crate::compute::{model_name, Compute};
use crate::dotgrid::DotGrids;
use crate::downloads;
use crate::explain::{QueryPicker, StepByStep};
use crate::heatmap::{ColourBar, Heatmap};
use crate::lessons::{NextTokenTemperature, PositionLesson, ScalingLesson};
use crate::lines::Lines;
use crate::overview::Overview;
use crate::url_state::{UrlState, View};
use crate::worked::WorkedExampleView;
use attnscope::session::{FromWorker, HeadDetail, ModelId, RunOptions, RunSummary, ToWorker};
use leptos::prelude::*;
use std::collections::HashMap;
use std::time::Duration;

/// How long typing must pause before the address takes the new text.
const TYPING_PAUSE: Duration = Duration::from_millis(400);

/// Where a downloadable model stands.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadState {
    NotLoaded,
    Loading { loaded: u64, total: u64 },
    Ready,
    Failed(String),
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// A compute time as the status shows it. The teaching model takes a few
/// microseconds, below the browser clock's step (0.1 ms without cross-origin
/// isolation), and "0.0 ms" would read as if nothing had been computed.
fn milliseconds(ms: f64) -> String {
    if ms < 0.05 {
        "under 0.1 ms".to_string()
    } else {
        format!("{ms:.1} ms")
    }
}

/// The whole page, computing in a Web Worker.
#[component]
pub fn App() -> impl IntoView {
    view! { <Page in_page=false /> }
}

/// The page; `in_page` computes on the page's own thread (component tests).
#[component]
pub fn Page(
    /// Compute without a worker.
    in_page: bool,
) -> impl IntoView {
    let start = UrlState::current();
    let (text, set_text) = signal(start.text.clone());
    let (model, set_model) = signal(start.model);
    let (layer, set_layer) = signal(start.layer);
    let (head, set_head) = signal(start.head);
    let (view, set_view) = signal(start.view);
    let (columns_are_queries, set_columns_are_queries) = signal(false);
    // The canvases' ink and type size (heatmap::Look), kept by the settings,
    // which read the page's style once they mount.
    let (look, set_look) = signal(crate::heatmap::Look::default());
    provide_context(look);
    let (hovered_token, set_hovered_token) = signal(None::<usize>);
    let (summary, set_summary) = signal(None::<RunSummary>);
    let (detail, set_detail) = signal(None::<HeadDetail>);
    let (error, set_error) = signal(String::new());
    let (loads, set_loads) = signal(HashMap::<ModelId, LoadState>::new());
    let (worker_ready, set_worker_ready) = signal(false);
    // What the lessons switch (temperature, 1/√d_k, positional code, next-token temperature).
    let (options, set_options) = signal(RunOptions::default());
    // The query token the step-by-step view follows.
    let (query_token, set_query_token) = signal(0usize);
    let (found, set_found) = signal(None::<Found>);
    // A second sentence for the same head, side by side.
    let (compare_text, set_compare_text) = signal(String::new());
    let (compared, set_compared) = signal(None::<Compared>);
    let latest = StoredValue::new(0u64);

    let compute = StoredValue::new_local(None::<Compute>);
    let send = move |msg: ToWorker| {
        compute.with_value(|c| {
            if let Some(c) = c {
                c.send(msg)
            }
        })
    };

    let on_reply = {
        move |msg: FromWorker| match msg {
            FromWorker::Ready => set_worker_ready.set(true),
            FromWorker::Progress { model, loaded, total } => set_loads.update(|m| {
                m.insert(model, LoadState::Loading { loaded, total });
            }),
            FromWorker::Loaded { model } => set_loads.update(|m| {
                m.insert(model, LoadState::Ready);
            }),
            FromWorker::LoadFailed { model, message } => {
                set_loads.update(|m| {
                    m.insert(model, LoadState::Failed(message.clone()));
                });
                set_error.set(format!("{} could not be loaded: {message}", model_name(model)));
            }
            FromWorker::Result(s) if s.id == latest.get_value() => {
                let (layers, heads) = (s.info.n_layers, s.info.n_heads);
                // Keep the selection inside the model (a URL may ask for more).
                if layer.get_untracked() >= layers {
                    set_layer.set(0);
                }
                if head.get_untracked() >= heads {
                    set_head.set(0);
                }
                set_error.set(String::new());
                send(ToWorker::Head { id: s.id, layer: layer.get_untracked(), head: head.get_untracked() });
                set_summary.set(Some(*s));
            }
            FromWorker::Head(d) if d.id == latest.get_value() => set_detail.set(Some(*d)),
            FromWorker::Heads { id, query, key, heads } if id == latest.get_value() => set_found.set(Some(Found { id, query, key, heads })),
            FromWorker::Compared { id, tokens, detail } if id == latest.get_value() => set_compared.set(Some((tokens, *detail))),
            FromWorker::Export { json, .. } => downloads::save("attention.json", "application/json", &json),
            FromWorker::Failed { id, message } if id == 0 || id == latest.get_value() => set_error.set(message),
            _ => {} // a reply about text that has since changed
        }
    };
    compute.set_value(Some(if in_page { Compute::in_page(on_reply) } else { Compute::start(on_reply) }));

    let load_state = move |m: ModelId| {
        loads.with(|l| l.get(&m).cloned()).unwrap_or(if m == ModelId::Teaching { LoadState::Ready } else { LoadState::NotLoaded })
    };

    // Text, model or readiness changed: compute (or first load the model).
    {
        Effect::new(move |_| {
            if !worker_ready.get() {
                return;
            }
            let m = model.get();
            match load_state(m) {
                LoadState::Ready => {
                    let id = latest.get_value() + 1;
                    latest.set_value(id);
                    send(ToWorker::Run { id, model: m, text: text.get(), options: options.get() });
                }
                LoadState::NotLoaded => {
                    set_loads.update(|l| {
                        l.insert(m, LoadState::Loading { loaded: 0, total: m.download_bytes() });
                    });
                    send(ToWorker::Load { model: m });
                }
                _ => {}
            }
        });
    }
    // Selection changed: fetch that head's detail.
    {
        Effect::new(move |prev: Option<(usize, usize)>| {
            let now = (layer.get(), head.get());
            if prev.is_some() && prev != Some(now) && summary.with_untracked(|s| s.is_some()) {
                send(ToWorker::Head { id: latest.get_value(), layer: now.0, head: now.1 });
            }
            now
        });
    }
    // The comparison follows its text, the model, the options, the head and every new run.
    Effect::new(move |_| {
        let text = compare_text.get();
        let (l, h, options, m) = (layer.get(), head.get(), options.get(), model.get());
        let run = summary.with(|s| s.as_ref().map(|s| s.id));
        if text.trim().is_empty() {
            set_compared.set(None);
        } else if run.is_some() && load_state(m) == LoadState::Ready {
            send(ToWorker::Compare { id: latest.get_value(), model: m, text, options, layer: l, head: h });
        }
    });
    // Keep the URL in step: typing replaces the entry, other changes add one.
    // Typing replaces it only once the typist pauses: each replacement is a
    // navigation to the browser, which commits it and fetches the favicon
    // again, 15–25 ms of work in the browser and the page per keystroke
    // (measured in headless Chromium) that would compete with the worker
    // computing that keystroke.
    let typed_url: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    // Cancels the pending replacement; says whether there was one.
    let cancel_typed_url = move || typed_url.try_update_value(Option::take).flatten().map(|handle| handle.clear()).is_some();
    Effect::new(move |prev: Option<UrlState>| {
        let state = UrlState { text: text.get(), model: model.get(), layer: layer.get(), head: head.get(), view: view.get() };
        if let Some(p) = &prev {
            let only_text = p.text != state.text && UrlState { text: p.text.clone(), ..state.clone() } == *p;
            if only_text {
                cancel_typed_url();
                let typed = state.clone();
                let replace = move || {
                    typed_url.set_value(None);
                    typed.record(false);
                };
                match set_timeout_with_handle(replace, TYPING_PAUSE) {
                    Ok(handle) => typed_url.set_value(Some(handle)),
                    Err(_) => state.record(false),
                }
            } else {
                // The entry being left keeps the text typed into it.
                if cancel_typed_url() {
                    p.record(false);
                }
                state.record(true);
            }
        }
        state
    });
    // Back and forward.
    let on_pop = window_event_listener(leptos::ev::popstate, move |_| {
        // Too late to record text typed just before: the address is already
        // the entry navigated to, which must not take that text.
        cancel_typed_url();
        let s = UrlState::current();
        set_text.set(s.text);
        set_model.set(s.model);
        set_layer.set(s.layer);
        set_head.set(s.head);
        set_view.set(s.view);
    });
    on_cleanup(move || {
        on_pop.remove();
        cancel_typed_url();
    });

    let tokens = Signal::derive(move || summary.with(|s| s.as_ref().map(|s| s.tokens.clone()).unwrap_or_default()));
    let weights = Signal::derive(move || detail.with(|d| d.as_ref().map(|d| d.weights.clone())));
    let scores = Signal::derive(move || detail.with(|d| d.as_ref().map(|d| d.scores.clone())));
    let selected = Signal::derive(move || (layer.get(), head.get()));
    let model_label = Signal::derive(move || summary.with(|s| s.as_ref().map(|s| s.info.name.clone()).unwrap_or_default()));
    let run_id = Signal::derive(move || summary.with(|s| s.as_ref().map(|s| s.id)));
    let find = Callback::new(move |(query, key): (usize, usize)| send(ToWorker::FindHeads { id: latest.get_value(), query, key }));
    let select = Callback::new(move |(l, h): (usize, usize)| {
        set_layer.set(l);
        set_head.set(h);
    });
    let retry = Callback::new(move |m: ModelId| {
        set_loads.update(|l| {
            l.remove(&m);
        });
        set_error.set(String::new());
        set_model.set(m);
    });

    view! {
        <main>
            <header>
                <h1>"attnscope"</h1>
                <p class="tagline">"Type a sentence and watch self-attention happen: A = softmax(QKᵀ/√d_k + M), computed in your browser."</p>
                <Settings columns_are_queries set_columns_are_queries set_look />
            </header>
            <ModelPicker model set_model load_state=Signal::derive(move || load_state(model.get())) retry />
            <TextInput text set_text />
            <Status summary />
            <p id="error" role="alert">{move || error.get()}</p>
            <TokenList tokens hovered=hovered_token set_hovered=set_hovered_token />
            <MaskNote summary />
            <nav class="tabs" role="tablist" aria-label="Views">
                {View::ALL.into_iter().map(|v| view! {
                    <button role="tab" id=format!("tab-{}", v.slug()) aria-selected=move || (view.get() == v).to_string()
                        on:click=move |_| set_view.set(v)>{v.label()}</button>
                }).collect_view()}
            </nav>
            <HeadPicker summary layer set_layer head set_head />
            <HeadNote summary head />
            <section class="view" hidden=move || view.get() != View::Overview>
                <Overview summary selected on_select=select />
            </section>
            <section class="view" hidden=move || view.get() != View::Head>
                <div class="pair">
                    <Heatmap tokens weights scores columns_are_queries highlight=hovered_token />
                    <CompareMap compared columns_are_queries />
                </div>
                <ColourBar />
                <CompareText text=compare_text set_text=set_compare_text />
            </section>
            <section class="view" hidden=move || view.get() != View::Grid>
                <DotGrids tokens detail columns_are_queries model_name=model_label highlight=hovered_token />
            </section>
            // These views build many DOM nodes: only while they are shown.
            <Show when=move || view.get() == View::Explain>
                <section class="view" id="view-explain">
                    <QueryPicker tokens query=query_token set_query=set_query_token />
                    <Lines tokens weights query=query_token set_query=set_query_token />
                    <ScalingLesson options set_options detail tokens query=query_token />
                    <PositionLesson options set_options model />
                    <StepByStep tokens detail query=query_token options model />
                </section>
            </Show>
            <Show when=move || view.get() == View::Catalog>
                <section class="view" id="view-catalog">
                    <Catalog summary selected on_select=select />
                    <FindHeads tokens found run_id on_find=find on_select=select />
                </section>
            </Show>
            <Show when=move || view.get() == View::Worked>
                <section class="view" id="view-worked">
                    <WorkedExampleView />
                </section>
            </Show>
            <NextTokens summary options set_options />
            <Exports summary detail on_json=Callback::new(move |_| send(ToWorker::Export { id: latest.get_value() })) />
            <ValuesTable tokens weights />
        </main>
    }
}

/// Orientation, theme and presentation mode.
#[component]
fn Settings(
    columns_are_queries: ReadSignal<bool>,
    set_columns_are_queries: WriteSignal<bool>,
    /// Told the canvases' new look once the page is restyled.
    set_look: WriteSignal<crate::heatmap::Look>,
) -> impl IntoView {
    let (dark, set_dark) = signal(false);
    let (present, set_present) = signal(false);
    Effect::new(move |_| {
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.class_list().toggle_with_force("dark", dark.get());
            let _ = root.class_list().toggle_with_force("present", present.get());
        }
        let now = crate::heatmap::Look::current();
        // Only a changed look redraws the canvases.
        set_look.maybe_update(|look| {
            let changed = *look != now;
            *look = now;
            changed
        });
    });
    view! {
        <div class="settings">
            <label class="toggle"><input type="checkbox" id="orientation" prop:checked=move || columns_are_queries.get()
                on:change=move |ev| set_columns_are_queries.set(event_target_checked(&ev)) />" columns are queries (3Blue1Brown)"</label>
            <label class="toggle"><input type="checkbox" id="dark" prop:checked=move || dark.get()
                on:change=move |ev| set_dark.set(event_target_checked(&ev)) />" dark"</label>
            <label class="toggle"><input type="checkbox" id="present" prop:checked=move || present.get()
                on:change=move |ev| set_present.set(event_target_checked(&ev)) />" presentation"</label>
        </div>
    }
}

/// Which model computes (`select#model`), with download size and progress.
#[component]
fn ModelPicker(
    model: ReadSignal<ModelId>,
    set_model: WriteSignal<ModelId>,
    /// How the chosen model's download stands.
    #[prop(into)]
    load_state: Signal<LoadState>,
    retry: Callback<ModelId>,
) -> impl IntoView {
    let option_label = |m: ModelId| match m {
        ModelId::Teaching => "Teaching model — built in, hand-designed heads".to_string(),
        ModelId::MiniLm => format!("MiniLM — encoder, bidirectional, 6 layers × 12 heads ({} download)", megabytes(m.download_bytes())),
        ModelId::SmolLm2 => format!(
            "SmolLM2-135M — decoder, causal, 30 layers × 9 heads over 3 key/value heads ({} download)",
            megabytes(m.download_bytes())
        ),
    };
    view! {
        <label for="model">"Model"</label>
        <select id="model" on:change=move |ev| {
            if let Some(m) = ModelId::from_slug(&event_target_value(&ev)) { set_model.set(m) }
        }>
            {ModelId::ALL.into_iter().map(|m| view! {
                <option value=m.slug() prop:selected=move || model.get() == m>{option_label(m)}</option>
            }).collect_view()}
        </select>
        {move || match load_state.get() {
            LoadState::Loading { loaded, total } => view! {
                <div class="progress" id="progress">
                    <progress max=total.to_string() value=loaded.to_string()></progress>
                    <span>{format!("Downloading {}: {} of {}", model_name(model.get()), megabytes(loaded), megabytes(total))}</span>
                </div>
            }.into_any(),
            LoadState::Failed(_) => view! {
                <div class="progress failed">
                    <button id="retry" on:click=move |_| retry.run(model.get_untracked())>"Retry download"</button>
                    <button on:click=move |_| set_model.set(ModelId::Teaching)>"Use the teaching model"</button>
                </div>
            }.into_any(),
            _ => ().into_any(),
        }}
        {move || (model.get() == ModelId::Teaching).then(|| view! {
            <p class="note">"The teaching model's heads were designed by hand, not learned: each does one thing you can explain."</p>
        })}
    }
}

/// The text the model reads (`textarea#text`).
#[component]
pub fn TextInput(
    /// Current text.
    text: ReadSignal<String>,
    /// Set on every edit, so the view follows each keystroke.
    set_text: WriteSignal<String>,
) -> impl IntoView {
    view! {
        <label for="text">"Text"</label>
        <textarea
            id="text"
            rows="2"
            spellcheck="false"
            placeholder="Type a sentence…"
            prop:value=move || text.get()
            on:input=move |ev| set_text.set(event_target_value(&ev))
        ></textarea>
    }
}

/// `#status`: tokens, time and any notice such as a cut text; `data-run`
/// is the id of the run shown, which tells a new result from an old one even
/// when both read the same (tests/e2e/bench.mjs waits on it).
#[component]
fn Status(summary: ReadSignal<Option<RunSummary>>) -> impl IntoView {
    let status = move || {
        summary.with(|s| match s {
            None => "computing…".to_string(),
            Some(s) if s.tokens.is_empty() => "Type some text to see its attention.".to_string(),
            Some(s) => {
                let threads = if s.threads > 1 { format!(" on {} threads", s.threads) } else { String::new() };
                let mut line = format!("{} tokens, computed in {}{threads} in your browser", s.tokens.len(), milliseconds(s.compute_ms));
                if let Some(bytes) = s.memory_bytes {
                    let workers = if s.memory_workers > 1 { " (both workers)" } else { "" };
                    line.push_str(&format!(" · worker memory {}{workers}", megabytes(bytes)));
                }
                if let Some(n) = &s.notice {
                    line.push_str(" · ");
                    line.push_str(n);
                }
                line
            }
        })
    };
    let run = move || summary.with(|s| s.as_ref().map(|s| s.id.to_string()).unwrap_or_default());
    view! { <p id="status" aria-live="polite" data-run=run>{status}</p> }
}

/// The tokens the model sees (`#tokens .token`); hovering one highlights its row and column.
#[component]
pub fn TokenList(
    /// Token strings as the model produced them.
    #[prop(into)]
    tokens: Signal<Vec<String>>,
    hovered: ReadSignal<Option<usize>>,
    set_hovered: WriteSignal<Option<usize>>,
) -> impl IntoView {
    view! {
        <ol id="tokens" aria-label="Tokens">
            {move || tokens.get().into_iter().enumerate().map(|(i, t)| view! {
                <li class="token" class:hovered=move || hovered.get() == Some(i) tabindex="0"
                    on:mouseenter=move |_| set_hovered.set(Some(i))
                    on:focus=move |_| set_hovered.set(Some(i))
                    on:mouseleave=move |_| set_hovered.set(None)
                    on:blur=move |_| set_hovered.set(None)>{t}</li>
            }).collect_view()}
        </ol>
    }
}

/// Which mask the model really uses, and what the other grid is.
#[component]
fn MaskNote(summary: ReadSignal<Option<RunSummary>>) -> impl IntoView {
    move || {
        summary.with(|s| {
            s.as_ref().map(|s| {
                let text = match s.info.mask {
                    attnscope::Mask::None => format!(
                        "{} attends both ways (no mask). A causal grid for it is a what-if, computed from the same Q and K.",
                        s.info.name
                    ),
                    attnscope::Mask::Causal => format!(
                        "{} is causal: each token sees only itself and earlier tokens. An unmasked grid for it is a what-if.",
                        s.info.name
                    ),
                    attnscope::Mask::SlidingWindow(w) => format!(
                        "{} is causal with a sliding window: each token sees only itself and the {} tokens before it.",
                        s.info.name,
                        w.saturating_sub(1)
                    ),
                };
                view! { <p class="note" id="mask-note">{text}</p> }
            })
        })
    }
}

/// `select#layer` and `select#head`.
#[component]
fn HeadPicker(
    summary: ReadSignal<Option<RunSummary>>,
    layer: ReadSignal<usize>,
    set_layer: WriteSignal<usize>,
    head: ReadSignal<usize>,
    set_head: WriteSignal<usize>,
) -> impl IntoView {
    let dims =
        move || summary.with(|s| s.as_ref().map(|s| (s.info.n_layers, s.info.n_heads, s.kv_head_of.clone())).unwrap_or((1, 1, vec![0])));
    view! {
        <div class="picker">
            <label for="layer">"Layer"</label>
            <select id="layer" on:change=move |ev| set_layer.set(event_target_value(&ev).parse().unwrap_or(0))>
                {move || (0..dims().0).map(|l| view! { <option value=l.to_string() prop:selected=move || layer.get() == l>{l.to_string()}</option> }).collect_view()}
            </select>
            <label for="head">"Head"</label>
            <select id="head" on:change=move |ev| set_head.set(event_target_value(&ev).parse().unwrap_or(0))>
                {move || {
                    let (_, heads, kv) = dims();
                    let grouped = kv.iter().any(|&g| g != 0) && kv.len() == heads && kv.windows(2).any(|w| w[0] == w[1]);
                    (0..heads).map(|h| {
                        let name = if grouped { format!("{h} (key/value head {})", kv[h]) } else { h.to_string() };
                        view! { <option value=h.to_string() prop:selected=move || head.get() == h>{name}</option> }
                    }).collect_view()
                }}
            </select>
        </div>
    }
}

/// What the selected head of the teaching model was designed to do.
#[component]
fn HeadNote(summary: ReadSignal<Option<RunSummary>>, head: ReadSignal<usize>) -> impl IntoView {
    move || {
        summary
            .with(|s| s.as_ref().and_then(|s| s.head_notes.get(head.get()).cloned()))
            .map(|n| view! { <p class="note" id="head-note">{n}</p> })
    }
}

/// The decoder's most likely next tokens after the text, with the
/// temperature of their softmax (the slider stays put while runs replace the list).
#[component]
fn NextTokens(
    summary: ReadSignal<Option<RunSummary>>,
    options: ReadSignal<RunOptions>,
    set_options: WriteSignal<RunOptions>,
) -> impl IntoView {
    let has = move || summary.with(|s| s.as_ref().is_some_and(|s| s.top_next.is_some()));
    let list = move || {
        summary.with(|s| {
            let top = s.as_ref().and_then(|s| s.top_next.clone()).unwrap_or_default();
            top.into_iter().take(5).map(|(t, p)| view! {
                <li><code>{format!("{t:?}")}</code><span class="bar" style=format!("width: {:.1}%", p * 100.0)></span>{format!(" {:.1}%", p * 100.0)}</li>
            }).collect_view()
        })
    };
    view! {
        <Show when=has>
            <section class="next" id="next-tokens">
                <h2>"Most likely next tokens"</h2>
                <NextTokenTemperature options set_options />
                <ol>{list}</ol>
            </section>
        </Show>
    }
}

/// PNG, SVG (drawn with plotters), JSON (the CLI's fields) and CSV.
#[component]
fn Exports(summary: ReadSignal<Option<RunSummary>>, detail: ReadSignal<Option<HeadDetail>>, on_json: Callback<()>) -> impl IntoView {
    let figure = move || {
        let s = summary.get_untracked()?;
        let d = detail.get_untracked()?;
        Some((s, d))
    };
    let svg = move || {
        figure().and_then(|(s, d)| {
            let title =
                format!("{}\nlayer {} · head {} · A = softmax(QKᵀ/√d_k + M) · mask: {}", s.info.name, d.layer, d.head, d.mask.name());
            let h = attnscope::draw::Heatmap {
                title,
                row_labels: &s.tokens,
                col_labels: &s.tokens,
                values: &d.weights,
                kind: attnscope::draw::ValueKind::Weights,
            };
            attnscope::draw::heatmap_svg(&h).ok()
        })
    };
    view! {
        <div class="exports" aria-label="Export">
            <button id="export-png" on:click=move |_| if let Some(s) = svg() { downloads::svg_to_png("attention.png", &s) }>"PNG"</button>
            <button id="export-svg" on:click=move |_| if let Some(s) = svg() { downloads::save("attention.svg", "image/svg+xml", &s) }>"SVG"</button>
            <button id="export-json" on:click=move |_| on_json.run(())>"JSON"</button>
            <button id="export-csv" on:click=move |_| if let Some((s, d)) = figure() {
                downloads::save("attention.csv", "text/csv", &attnscope::export::head_csv(&s.tokens, &d.weights))
            }>"CSV"</button>
        </div>
    }
}

/// The selected head's numbers as a table, for screen readers (visually hidden).
#[component]
fn ValuesTable(#[prop(into)] tokens: Signal<Vec<String>>, #[prop(into)] weights: Signal<Option<attnscope::Matrix>>) -> impl IntoView {
    const MAX: usize = 40;
    move || {
        let toks = tokens.get();
        weights.with(|w| {
            let w = w.as_ref()?;
            if toks.len() > MAX || w.rows != toks.len() {
                return Some(view! { <p class="sr-only">"The table of weights is shown for texts up to 40 tokens; export CSV for longer ones."</p> }.into_any());
            }
            Some(view! {
                <table class="sr-only" id="weights-table">
                    <caption>"Attention weights of the selected head: rows are queries, columns are keys"</caption>
                    <thead><tr><th scope="col">"query \\ key"</th>{toks.iter().map(|t| view! { <th scope="col">{t.clone()}</th> }).collect_view()}</tr></thead>
                    <tbody>{(0..w.rows).map(|i| view! {
                        <tr><th scope="row">{toks[i].clone()}</th>{w.row(i).iter().map(|v| view! { <td>{format!("{v:.3}")}</td> }).collect_view()}</tr>
                    }).collect_view()}</tbody>
                </table>
            }.into_any())
        })
    }
}
