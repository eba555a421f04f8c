//! What goes beside the stage (below it on a narrow screen): the run's
//! status, notes on the model and head, the preset's hint, the next tokens,
//! exports; and the token strip that sits by the picture.

use super::controls::Controls;
use super::megabytes;
use super::offline::OfflineBadge;
use super::presets::PresetNote;
use crate::compute::Engine;
use crate::downloads;
use crate::state::{Results, Selection};
use crate::views::common::format::fixed;
use crate::views::explain::switches::NextTokenTemperature;
use crate::views::write::{Ask, Flow};
use attnscope::session::{ModelId, ToWorker};
use leptos::prelude::*;

/// A compute time as the status shows it. The teaching model takes a few
/// microseconds, below the browser clock's step (0.1 ms without cross-origin
/// isolation), and "0.0 ms" would read as if nothing had been computed.
fn milliseconds(ms: f64) -> String {
    if ms < 0.05 {
        tr!("page-under-tenth-ms")
    } else {
        format!("{} ms", fixed(ms, 1))
    }
}

/// `aside.rail`: the controls, then the notes and exports.
#[component]
pub fn Rail() -> impl IntoView {
    view! {
        <aside class="rail" aria-label=tr!("page-rail")>
            <Controls />
            <div class="notes">
                <div class="status-line">
                    <Status />
                    <OfflineBadge />
                </div>
                <NextTokens />
                // A hosted page shows a trace only: nothing to write, no preset.
                {(!crate::hosted::is_hosted())
                    .then(|| {
                        view! {
                            <crate::views::write::card::WriteCard />
                            <PresetNote />
                        }
                    })}
                <HeadNote />
                <ModelNote />
                <Exports />
                <ValuesTable />
            </div>
        </aside>
    }
}

/// `#status`: tokens, time and any notice such as a cut text; `data-run`
/// is the id of the run shown, which tells a new result from an old one even
/// when both read the same (tests/e2e/bench.mjs waits on it).
#[component]
fn Status() -> impl IntoView {
    let res = expect_context::<Results>();
    let status = move || {
        res.summary.with(|s| match s {
            None => tr!("page-computing"),
            Some(s) if s.tokens.is_empty() => tr!("page-status-empty"),
            Some(s) => {
                let (tokens, time) = (s.tokens.len(), milliseconds(s.compute_ms));
                let mut line = match (&s.alone, s.threads) {
                    (Some(why), 1) => tr!(
                        "page-status-one-thread",
                        tokens = tokens,
                        time = time,
                        why = why.as_str()
                    ),
                    (_, 1) => tr!("page-status", tokens = tokens, time = time),
                    (_, n) => tr!("page-status-threads", tokens = tokens, time = time, threads = n),
                };
                if let Some(bytes) = s.memory_bytes {
                    line.push_str(" · ");
                    line.push_str(&if s.memory_workers > 1 {
                        tr!("page-status-memory-both", size = megabytes(bytes))
                    } else {
                        tr!("page-status-memory", size = megabytes(bytes))
                    });
                }
                if let Some(n) = &s.notice {
                    line.push_str(" · ");
                    line.push_str(n);
                }
                line
            }
        })
    };
    let run =
        move || res.summary.with(|s| s.as_ref().map(|s| s.id.to_string()).unwrap_or_default());
    view! {
        <p id="status" aria-live="polite" data-run=run>
            {status}
        </p>
    }
}

/// `#tokens`: the tokens the model sees. Hovering one, or focusing it,
/// outlines its row and column in every picture; a click or tap chooses it
/// as the query everywhere (again to let go).
#[component]
pub fn TokenList() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let list = NodeRef::<leptos::html::Ol>::new();
    // The strip shows a few rows and scrolls down past them: the token chosen
    // (in a picture, or by the lesson) is scrolled into sight.
    Effect::new(move |_| {
        let (Some(t), _) = (sel.token.get(), res.tokens.track()) else { return };
        let Some(ol) = list.get() else { return };
        let Some(chip) =
            ol.query_selector(&format!("li:nth-child({}) .token", t + 1)).ok().flatten()
        else {
            return;
        };
        let (chip, strip) = (chip.get_bounding_client_rect(), ol.get_bounding_client_rect());
        let scroll = ol.scroll_top() as f64;
        // Where the chip is down the strip's scrolled content.
        let top = chip.top() - strip.top() + scroll;
        if top < scroll || top + chip.height() > scroll + ol.client_height() as f64 {
            ol.set_scroll_top((top - 4.0).max(0.0) as i32);
        }
    });
    view! {
        <ol id="tokens" class="tokens" node_ref=list aria-label=tr!("page-tokens-label")>
            {move || {
                res.tokens
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| {
                        view! {
                            <li>
                                <button
                                    class="token"
                                    class:hovered=move || sel.hovered.get() == Some(i)
                                    aria-pressed=move || (sel.token.get() == Some(i)).to_string()
                                    on:mouseenter=move |_| sel.hovered.set(Some(i))
                                    on:mouseleave=move |_| sel.hovered.set(None)
                                    on:focus=move |_| sel.hovered.set(Some(i))
                                    on:blur=move |_| sel.hovered.set(None)
                                    on:click=move |_| {
                                        sel.token
                                            .update(|t| *t = if *t == Some(i) { None } else { Some(i) })
                                    }
                                >
                                    {t}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ol>
    }
}

/// What the model is, and which mask it really uses.
#[component]
fn ModelNote() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let about = move || match sel.model.get() {
        ModelId::Teaching => tr!("page-note-teaching"),
        ModelId::MiniLm if sel.exact.get() => tr!("page-note-minilm-exact"),
        ModelId::MiniLm => tr!("page-note-minilm"),
        ModelId::SmolLm2 => tr!("page-note-smollm2"),
        ModelId::Custom => tr!("page-note-custom"),
        ModelId::Trace => tr!("page-note-trace"),
        m if m.is_translation() => crate::views::translation::translate::model_note(),
        _ => String::new(),
    };
    // The model's mask, and the shown layer's where that one differs (Gemma 3's local layers).
    let mask = move || {
        let layer = res.detail.with(|d| d.as_ref().map(|d| (d.layer, d.mask)));
        res.summary.with(|s| {
            let s = s.as_ref()?;
            let name = crate::compute::run_name(&s.info);
            let name = name.as_str();
            let window = |w: usize| tr!("page-mask-window", before = w.saturating_sub(1));
            let said = match s.info.mask {
                attnscope::Mask::None => tr!("page-mask-none", name = name),
                attnscope::Mask::Causal => tr!("page-mask-causal", name = name),
                attnscope::Mask::SlidingWindow(w) => {
                    tr!("page-mask-sliding", name = name, window = window(w))
                }
            };
            Some(match layer {
                Some((l, attnscope::Mask::SlidingWindow(w)))
                    if s.info.mask != attnscope::Mask::SlidingWindow(w) =>
                {
                    tr!("page-mask-local", said = said, layer = l, window = window(w))
                }
                _ => said,
            })
        })
    };
    view! {
        <section class="card" aria-label=tr!("page-model-card")>
            <p class="note">{about}</p>
            <p class="note" id="mask-note">
                {mask}
            </p>
        </section>
    }
}

/// What the selected head of the teaching model was designed to do.
#[component]
fn HeadNote() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    move || {
        let h = sel.head.get();
        res.summary.with(|s| s.as_ref().and_then(|s| s.head_notes.get(h).cloned())).map(|n| {
            let n = crate::compute::head_note(&n);
            // A note reads "name: what the head does".
            let (name, what) = crate::compute::note_parts(&n);
            view! {
                <section class="card" id="head-note" aria-labelledby="head-note-title">
                    <h2 id="head-note-title">
                        {if name.is_empty() {
                            tr!("page-head-note", head = h)
                        } else {
                            tr!("page-head-note-named", head = h, name = name.as_str())
                        }}
                    </h2>
                    <p class="note">{what}</p>
                </section>
            }
        })
    }
}

/// The decoder's most likely next tokens after the text, with the
/// temperature of their softmax (the slider stays put while runs replace the list).
#[component]
fn NextTokens() -> impl IntoView {
    let res = expect_context::<Results>();
    let flow = Flow::from_context();
    let has = move || res.summary.with(|s| s.as_ref().is_some_and(|s| s.top_next.is_some()));
    let list = move || {
        let offered = flow.offered();
        res.summary.with(|s| {
            let top = s.as_ref().and_then(|s| s.top_next.clone()).unwrap_or_default();
            top.into_iter()
                .take(5)
                .enumerate()
                .map(|(rank, (t, p))| {
                    view! {
                        <li>
                            <button
                                class="pick"
                                disabled=!offered
                                title=tr!("page-append-token")
                                on:click=move |_| flow.begin(Ask::Pick(rank))
                            >
                                {format!("{t:?}")}
                            </button>
                            <span class="bar" style=format!("width: {:.1}%", p * 60.0)></span>
                            <span class="pct">{format!("{}%", fixed(p as f64 * 100.0, 1))}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <Show when=has>
            <section class="card next" id="next-tokens">
                <h2>{tr!("page-next-tokens")}</h2>
                <p class="note" hidden=move || !flow.offered()>
                    {tr!("page-next-click")}
                </p>
                <ol>{list}</ol>
                <NextTokenTemperature />
            </section>
        </Show>
    }
}

/// PNG, SVG (drawn with plotters), JSON (the CLI's fields) and CSV, of
/// one run as a whole: the buttons wait while a newer run computes or the
/// selected head's numbers are on their way.
#[component]
pub fn Exports() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let ready = Memo::new(move |_| res.exportable((sel.layer.get(), sel.head.get())));
    let figure = move || {
        if !ready.get_untracked() {
            return None;
        }
        Some((res.summary.get_untracked()?, res.detail.get_untracked()?))
    };
    let svg = move || {
        figure().and_then(|(s, d)| {
            let mask = match d.mask {
                attnscope::Mask::None => tr!("page-mask-name-none"),
                attnscope::Mask::Causal => tr!("page-mask-name-causal"),
                attnscope::Mask::SlidingWindow(_) => tr!("page-mask-name-sliding"),
            };
            let title = format!(
                "{}\n{}",
                crate::compute::run_name(&s.info),
                tr!("page-export-title", layer = d.layer, head = d.head, mask = mask)
            );
            let h = attnscope::draw::Heatmap {
                title,
                row_labels: &s.tokens,
                col_labels: &s.tokens,
                values: &d.weights,
                kind: attnscope::draw::ValueKind::Weights,
                mask: d.mask,
                axes: (&tr!("page-axis-keys"), &tr!("page-axis-queries")),
            };
            attnscope::draw::heatmap_svg(&h).ok()
        })
    };
    let busy = move || (!ready.get()).then(|| tr!("page-export-busy"));
    view! {
        <section class="card exports" aria-labelledby="exports-title">
            <h2 id="exports-title">{tr!("page-export-heading")}</h2>
            <div class="buttons" title=busy>
                <button
                    id="export-png"
                    disabled=move || !ready.get()
                    on:click=move |_| {
                        if let Some(s) = svg() {
                            downloads::svg_to_png("attention.png", &s)
                        }
                    }
                >
                    "PNG"
                </button>
                <button
                    id="export-svg"
                    disabled=move || !ready.get()
                    on:click=move |_| {
                        if let Some(s) = svg() {
                            downloads::save("attention.svg", "image/svg+xml", &s)
                        }
                    }
                >
                    "SVG"
                </button>
                <button
                    id="export-json"
                    disabled=move || !ready.get()
                    on:click=move |_| {
                        if let Some((s, _)) = figure() {
                            engine.send(ToWorker::Export { id: s.id })
                        }
                    }
                >
                    "JSON"
                </button>
                <button
                    id="export-csv"
                    disabled=move || !ready.get()
                    on:click=move |_| {
                        if let Some((s, d)) = figure() {
                            downloads::save(
                                "attention.csv",
                                "text/csv",
                                &attnscope::export::head_csv(&s.tokens, &d.weights),
                            )
                        }
                    }
                >
                    "CSV"
                </button>
            </div>
        </section>
    }
}

/// The selected head's numbers as a table, for screen readers (visually hidden).
#[component]
fn ValuesTable() -> impl IntoView {
    const MAX: usize = 40;
    let res = expect_context::<Results>();
    move || {
        let toks = res.tokens.get();
        res.detail.with(|d| {
            let w = &d.as_ref()?.weights;
            if toks.len() > MAX || w.rows != toks.len() {
                return Some(
                    view! { <p class="sr-only">{tr!("page-table-too-long", max = MAX)}</p> }
                        .into_any(),
                );
            }
            // A table is never narrower than its cells: the wrapper hides it.
            Some(view! {
                <div class="sr-only">
                    <table id="weights-table">
                        <caption>{tr!("page-table-caption")}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{tr!("page-table-corner")}</th>
                                {toks
                                    .iter()
                                    .map(|t| view! { <th scope="col">{t.clone()}</th> })
                                    .collect_view()}
                            </tr>
                        </thead>
                        <tbody>
                            {(0..w.rows)
                                .map(|i| {
                                    view! {
                                        <tr>
                                            <th scope="row">{toks[i].clone()}</th>
                                            {w
                                                .row(i)
                                                .iter()
                                                .map(|v| view! { <td>{fixed(*v as f64, 3)}</td> })
                                                .collect_view()}
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }.into_any())
        })
    }
}
