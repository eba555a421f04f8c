//! Head knockout: click heads in the layers × heads grid to remove them
//! (zero or mean), run again, and see what changed; the importance map runs
//! the knockout of every head alone, with progress and Cancel, and colours
//! the same grid by the change.

use super::{Analysis, Definition, ImportanceState};
use crate::canvas::{cell_color, css, text_on};
use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::views::common::format::num;
use attnscope::analysis::knockout::{self, Ablation, Effect as Change, HeadRef};
use attnscope::session::AnalysisRequest;
use leptos::prelude::*;

/// The zero / mean switch, one choice shared by the panel and "All heads"; `id` prefixes its
/// buttons' ids.
#[component]
pub fn AblationSwitch(id: &'static str, #[prop(optional)] short: bool) -> impl IntoView {
    let an = expect_context::<Analysis>();
    let button = move |a: Ablation, which: &'static str, long: String, brief: String| {
        let shown = if short { brief } else { long.clone() };
        view! {
            <button
                id=format!("{id}-{which}")
                aria-pressed=move || (an.ablation.get() == a).to_string()
                title=long
                on:click=move |_| an.ablation.set(a)
            >
                {shown}
            </button>
        }
    };
    view! {
        <div
            class="switch-row ablation-switch"
            role="group"
            aria-label=tr!("beyond-ablation-switch")
        >
            {button(
                Ablation::Zero,
                "zero",
                tr!("beyond-ablation-zero-long"),
                tr!("beyond-ablation-zero"),
            )}
            {button(
                Ablation::Mean,
                "mean",
                tr!("beyond-ablation-mean-long"),
                tr!("beyond-ablation-mean"),
            )}
        </div>
    }
}

/// Every head as a button: pressed = knocked out; coloured by the importance map when there is one.
#[component]
fn HeadsGrid() -> impl IntoView {
    let res = expect_context::<Results>();
    let an = expect_context::<Analysis>();
    move || {
        let (layers, heads) =
            res.summary.with(|s| s.as_ref().map_or((0, 0), |s| (s.info.n_layers, s.info.n_heads)));
        let scores = move || match an.importance.get() {
            ImportanceState::Done(m) if Some(an.importance_of.get()) == res.run_id() => {
                Some(m.scores)
            }
            _ => None,
        };
        view! {
            <div
                class="heads-grid"
                id="knockout-grid"
                role="group"
                aria-label=tr!("beyond-knockout-grid")
                style=format!("grid-template-columns: auto repeat({heads}, minmax(1.6em, 1fr))")
            >
                <span></span>
                {(0..heads)
                    .map(|h| view! { <span class="hdr">{format!("H{h}")}</span> })
                    .collect_view()}
                {(0..layers)
                    .map(|l| {
                        view! {
                            <span class="hdr">{format!("L{l}")}</span>
                            {(0..heads)
                                .map(|h| {
                                    let me = HeadRef { layer: l, head: h };
                                    let pressed = move || an.knocked.with(|k| k.contains(&me));
                                    let score = move || {
                                        scores().and_then(|s| s.get(l)?.get(h).copied())
                                    };
                                    let style = move || {
                                        let top = scores()
                                            .map_or(
                                                0.0,
                                                |s| s.iter().flatten().copied().fold(0.0f32, f32::max),
                                            );
                                        score()
                                            .filter(|_| top > 0.0)
                                            .map(|v| {
                                                let c = cell_color((v / top).clamp(0.0, 1.0));
                                                format!("background: {}; color: {}", css(c), text_on(c))
                                            })
                                            .unwrap_or_default()
                                    };
                                    view! {
                                        <button
                                            class="kh"
                                            id=format!("kh-{l}-{h}")
                                            aria-pressed=move || pressed().to_string()
                                            style=style
                                            title=move || match score() {
                                                Some(v) => head_change(l, h, v),
                                                None => format!("L{l} · H{h}"),
                                            }
                                            aria-label=tr!("beyond-knockout-head", layer = l, head = h)
                                            on:click=move |_| toggle_knocked(an, me)
                                        >
                                            {move || if pressed() { "✕" } else { "" }}
                                        </button>
                                    }
                                })
                                .collect_view()}
                        }
                    })
                    .collect_view()}
            </div>
        }
    }
}

/// A head's tile's tooltip when the importance map has coloured it.
fn head_change(layer: usize, head: usize, change: f32) -> String {
    tr!("beyond-knockout-head-change", layer = layer, head = head, change = num(change))
}

/// Scrolls `#knockout-result` into view unless it is already whole on screen (a phone shows it
/// below the fold).
fn reveal_result() {
    let Some(win) = web_sys::window() else { return };
    let Some(el) = win.document().and_then(|d| d.get_element_by_id("knockout-result")) else {
        return;
    };
    let screen = win.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    let r = el.get_bounding_client_rect();
    if r.top() < 0.0 || r.bottom() > screen {
        // Its bottom at the screen's bottom keeps the heads above in sight, unless it is taller
        // than the screen.
        el.scroll_into_view_with_bool(r.height() > screen);
    }
}

/// What the knockout changed; a new answer is scrolled into view.
#[component]
pub fn KnockoutResult() -> impl IntoView {
    let res = expect_context::<Results>();
    let an = expect_context::<Analysis>();
    Effect::new(move |seen: Option<bool>| {
        let has = an.knockout.with(Option::is_some);
        if seen.is_some() && has {
            request_animation_frame(reveal_result);
        }
        has
    });
    move || {
        an.knockout.with(|k| {
            let (_, k, note) = k.as_ref().filter(|(id, _, _)| Some(*id) == res.run_id())?;
            let heads = k
                .heads
                .iter()
                .map(|h| format!("{}.{}", h.layer, h.head))
                .collect::<Vec<_>>()
                .join(", ");
            let count = k.heads.len();
            let what = match k.ablation {
                Ablation::Zero => {
                    tr!("beyond-knockout-zeroed", heads = heads.as_str(), count = count)
                }
                Ablation::Mean => {
                    tr!("beyond-knockout-meaned", heads = heads.as_str(), count = count)
                }
            };
            let effect = match &k.effect {
                Change::NextToken {
                    before,
                    after,
                    previous_top,
                    previous_top_p_after,
                    previous_top_rank_after,
                } => {
                    let drop = previous_top.p - previous_top_p_after;
                    let list = |l: &Vec<attnscope::analysis::TokenProb>| {
                        l.iter()
                            .map(|t| {
                                view! {
                                    <li>
                                        <span class="tok">{format!("{:?}", t.token)}</span>
                                        " "
                                        {num(t.p)}
                                    </li>
                                }
                            })
                            .collect_view()
                    };
                    view! {
                        <p id="knockout-top">
                            {tr!(
                                "beyond-knockout-top",
                                token = format!("{:?}", previous_top.token),
                                before = num(previous_top.p),
                                after = num(*previous_top_p_after),
                                rank = *previous_top_rank_after,
                            )}
                        </p>
                        <p id="knockout-change">{tr!("beyond-knockout-drop", drop = num(drop))}</p>
                        <div class="before-after">
                            <div>
                                <h3>{tr!("beyond-knockout-before")}</h3>
                                <ol id="knockout-before">{list(before)}</ol>
                            </div>
                            <div>
                                <h3>{tr!("beyond-knockout-after")}</h3>
                                <ol id="knockout-after">{list(after)}</ol>
                            </div>
                        </div>
                    }
                    .into_any()
                }
                Change::Embedding { cosine } => {
                    // The later layers whose attention moved most.
                    let mut moved: Vec<(usize, usize, f32)> = k
                        .attention_change
                        .iter()
                        .enumerate()
                        .flat_map(|(l, row)| row.iter().enumerate().map(move |(h, &c)| (l, h, c)))
                        .filter(|&(_, _, c)| c > 0.0)
                        .collect();
                    moved.sort_by(|a, b| b.2.total_cmp(&a.2));
                    let moved = moved
                        .iter()
                        .take(5)
                        .map(|(l, h, c)| format!("{l}.{h} ({})", num(*c)))
                        .collect::<Vec<_>>()
                        .join(", ");
                    view! {
                        <p id="knockout-cosine">
                            {tr!("beyond-knockout-cosine", cosine = num(*cosine))}
                        </p>
                        <p id="knockout-change">
                            {tr!("beyond-knockout-one-minus-cosine", change = num(1.0 - cosine))}
                        </p>
                        <p class="note">
                            {if moved.is_empty() {
                                tr!("beyond-knockout-none-moved")
                            } else {
                                tr!("beyond-knockout-moved", heads = moved)
                            }}
                        </p>
                    }
                    .into_any()
                }
            };
            Some(view! {
                <div id="knockout-result">
                    <p>{what}</p>
                    {note
                        .as_deref()
                        .map(knockout_note)
                        .map(|n| {
                            view! {
                                <p class="note" id="knockout-note">
                                    {n}
                                </p>
                            }
                        })}
                    {effect}
                </div>
            })
        })
    }
}

/// The worker's note on a knockout in the page's language (one it does not know as it is).
fn knockout_note(note: &str) -> String {
    match note {
        "Every head is removed: what is left is the embeddings, the MLPs and the residual path." => {
            tr!("beyond-knockout-every-head")
        }
        other => other.to_string(),
    }
}

/// A model of another shape keeps no head of the old one (the panel and the overview share the
/// set); registered once, by [`Analysis::provide`].
pub fn keep_heads_of_model(res: Results, an: Analysis) {
    Effect::new(move |_| {
        let shape = res.summary.with(|s| s.as_ref().map(|s| (s.info.n_layers, s.info.n_heads)));
        if let Some((layers, heads)) = shape {
            an.knocked.update(|k| k.retain(|h| h.layer < layers && h.head < heads));
        }
    });
}

/// Adds `head` to the heads to knock out, or takes it away.
pub fn toggle_knocked(an: Analysis, head: HeadRef) {
    an.knocked.update(|k| {
        if let Some(i) = k.iter().position(|x| *x == head) {
            k.remove(i);
        } else {
            k.push(head);
            k.sort();
        }
    });
}

/// Asks the worker to knock out the chosen heads; with none, says how to choose (`how`, in the
/// page's language: "press one or more heads in the grid").
pub fn run_knockout(engine: Engine, sel: Selection, an: Analysis, how: &str) {
    let heads = an.knocked.get_untracked();
    if heads.is_empty() {
        an.error.set(tr!("beyond-knockout-none-chosen", how = how));
        return;
    }
    let ablation = an.ablation.get_untracked();
    let mut asked = heads.clone();
    asked.sort();
    asked.dedup();
    an.knockout_asked.set(Some((asked, ablation)));
    Analysis::ask(engine, sel, AnalysisRequest::Knockout { heads, ablation });
}

/// Empties the set and the readout; an answer still on its way is dropped when it comes.
pub fn clear_knockout(an: Analysis) {
    an.knocked.set(Vec::new());
    an.knockout_asked.set(None);
    an.knockout.set(None);
}

#[component]
pub fn KnockoutPanel() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let run = move |_| run_knockout(engine, sel, an, &tr!("beyond-knockout-how"));
    let all = move |_| {
        let (layers, heads) = res
            .summary
            .with_untracked(|s| s.as_ref().map_or((0, 0), |s| (s.info.n_layers, s.info.n_heads)));
        an.knocked.set(
            (0..layers)
                .flat_map(|layer| (0..heads).map(move |head| HeadRef { layer, head }))
                .collect(),
        );
    };
    view! {
        <section class="analysis" id="knockout">
            <h2>{tr!("beyond-knockout-title")}</h2>
            <Definition text=knockout::DEFINITION />
            <AblationSwitch id="ablation" />
            <HeadsGrid />
            <div class="switch-row">
                <button id="knockout-run" on:click=run>
                    {tr!("beyond-knockout-run")}
                </button>
                <button id="knockout-clear" on:click=move |_| clear_knockout(an)>
                    {tr!("beyond-knockout-clear")}
                </button>
                <button id="knockout-all" on:click=all>
                    {tr!("beyond-knockout-all")}
                </button>
            </div>
            <KnockoutResult />
        </section>
    }
}

#[component]
pub fn ImportancePanel() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let start = move |_| {
        an.importance_of.set(engine.latest());
        an.importance.set(ImportanceState::Running { done: 0, total: 0 });
        Analysis::ask(
            engine,
            sel,
            AnalysisRequest::Importance { ablation: an.ablation.get_untracked() },
        );
    };
    let cancel = move |_| {
        an.importance.set(ImportanceState::Cancelled);
        Analysis::ask(engine, sel, AnalysisRequest::CancelImportance);
    };
    // A newer run makes the map under way stale: the worker drops it, the page stops waiting.
    Effect::new(move |_| {
        let run = res.run_id();
        if matches!(an.importance.get_untracked(), ImportanceState::Running { .. })
            && run != Some(an.importance_of.get_untracked())
        {
            an.importance.set(ImportanceState::Idle);
        }
    });
    let running = move || matches!(an.importance.get(), ImportanceState::Running { .. });
    let status = move || match an.importance.get() {
        ImportanceState::Idle => tr!("beyond-not-computed"),
        ImportanceState::Running { done, total } => {
            tr!("beyond-importance-running", done = done, total = total)
        }
        ImportanceState::Cancelled => tr!("beyond-cancelled"),
        ImportanceState::Done(m) => tr!(
            "beyond-importance-done",
            heads = m.scores.iter().map(Vec::len).sum::<usize>(),
            measure = format!(
                "{}{}",
                measure(&m.measure),
                m.top
                    .as_ref()
                    .map(|t| format!(" ({:?}, p = {})", t.token, num(t.p)))
                    .unwrap_or_default()
            ),
        ),
    };
    let progress = move || match an.importance.get() {
        ImportanceState::Running { done, total } if total > 0 => {
            (done as f64 / total as f64).to_string()
        }
        _ => "0".into(),
    };
    view! {
        <section class="analysis" id="importance">
            <h2>{tr!("beyond-importance-title")}</h2>
            <Definition text=knockout::IMPORTANCE_DEFINITION />
            <div class="switch-row">
                <button id="importance-run" on:click=start disabled=running>
                    {tr!("beyond-importance-run")}
                </button>
                <button id="importance-cancel" on:click=cancel disabled=move || !running()>
                    {tr!("beyond-cancel")}
                </button>
                <progress
                    id="importance-progress"
                    max="1"
                    value=progress
                    aria-label=tr!("beyond-importance-progress")
                ></progress>
            </div>
            <p id="importance-status" role="status">
                {status}
            </p>
            <p class="caption">{tr!("beyond-importance-caption")}</p>
        </section>
    }
}

/// What the importance map measures (the core's `Importance::measure`) in the page's language.
fn measure(core: &str) -> String {
    match core {
        "drop in the probability of the top next token" => tr!("beyond-importance-measure-drop"),
        "1 − cosine of the sentence embeddings" => tr!("beyond-importance-measure-cosine"),
        other => other.to_string(),
    }
}
