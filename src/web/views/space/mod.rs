//! The Q·K space (AttentionViz): one head's queries and keys as points of one
//! plane, their two principal axes, so that "a query attends to a key that
//! points its way" can be seen. The chosen query's lines go to the keys it may
//! see, as thick as their weights; the readout says which key it weighs most,
//! which is nearest in angle and which is nearest in the picture, since a
//! plane keeps only part of the spread. The points come from the worker
//! (`analysis::geometry`).

#[cfg(test)]
mod tests;

use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::views::beyond::{Analysis, Definition, Space};
use crate::views::common::format::num;
use attnscope::analysis::geometry::{QkSpace, QK_DEFINITION};
use attnscope::session::AnalysisRequest;
use leptos::prelude::*;

/// The plot's box in SVG units; the page scales it to its width.
const WIDTH: f32 = 1000.0;
const HEIGHT: f32 = 620.0;
const MARGIN: f32 = 48.0;
/// Above this many tokens only the chosen query and the keys it weighs are labelled.
const LABEL_ALL_UP_TO: usize = 40;

/// What the points are coloured by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Colour {
    Token,
    Position,
}

/// A colour per token text (the same word, the same colour) or per position (light to dark).
fn fill(colour: Colour, token: &str, i: usize, n: usize) -> String {
    match colour {
        Colour::Token => {
            let hash =
                token.bytes().fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
            format!("hsl({} 62% 48%)", hash % 360)
        }
        Colour::Position => {
            let t = i as f32 / n.saturating_sub(1).max(1) as f32;
            format!("hsl({:.0} 70% {:.0}%)", 200.0 + 80.0 * t, 72.0 - 44.0 * t)
        }
    }
}

/// Maps the points' coordinates onto the plot's box, one scale for both axes
/// (so angles and distances look as they are).
#[derive(Clone, Copy)]
struct Frame {
    centre: (f32, f32),
    scale: f32,
}

impl Frame {
    fn of(s: &QkSpace) -> Frame {
        let all = || s.queries.iter().chain(&s.keys);
        let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for p in all() {
            for a in 0..2 {
                lo[a] = lo[a].min(p[a]);
                hi[a] = hi[a].max(p[a]);
            }
        }
        let span = ((hi[0] - lo[0]) / (WIDTH - 2.0 * MARGIN))
            .max((hi[1] - lo[1]) / (HEIGHT - 2.0 * MARGIN));
        Frame {
            centre: ((lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0),
            scale: if span > 0.0 && span.is_finite() { 1.0 / span } else { 1.0 },
        }
    }

    fn at(&self, p: [f32; 2]) -> (f32, f32) {
        (
            WIDTH / 2.0 + (p[0] - self.centre.0) * self.scale,
            HEIGHT / 2.0 - (p[1] - self.centre.1) * self.scale,
        )
    }
}

/// "Q·K space": the picker, the switches, the plot and the readout.
#[component]
pub fn SpaceView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let translate = RwSignal::new(true);
    let colour = RwSignal::new(Colour::Token);
    // Ask again when the run, the head or the switch changes.
    Effect::new(move |_| {
        let (layer, head, translate) = (sel.layer.get(), sel.head.get(), translate.get());
        let Some(run) = res.run_id() else { return };
        if res.tokens.with(|t| t.len() < 2) {
            return;
        }
        let have = an.space.with_untracked(|s| {
            s.as_ref().is_some_and(|s| {
                (s.run, s.space.layer, s.space.head, s.space.translated)
                    == (run, layer, head, translate)
            })
        });
        if !have {
            Analysis::ask(engine, sel, AnalysisRequest::QkSpace { layer, head, translate });
        }
    });
    let shown = Memo::new(move |_| {
        an.space.get().filter(|s| {
            Some(s.run) == res.run_id()
                && (s.space.layer, s.space.head) == (sel.layer.get(), sel.head.get())
        })
    });
    let one_token = move || res.tokens.with(|t| t.len() == 1);
    view! {
        <div class="view-document" id="view-space">
            <h2>"Queries and keys in one space"</h2>
            <Definition text=QK_DEFINITION />
            <div class="space-controls">
                <QueryChoice />
                <label class="switch">
                    <input
                        type="checkbox"
                        id="space-translate"
                        prop:checked=move || translate.get()
                        on:change=move |ev| translate.set(event_target_checked(&ev))
                    />
                    "Key translation"
                </label>
                <label for="space-colour">"Colour by"</label>
                <select
                    id="space-colour"
                    on:change=move |ev| {
                        colour
                            .set(
                                if event_target_value(&ev) == "position" {
                                    Colour::Position
                                } else {
                                    Colour::Token
                                },
                            )
                    }
                >
                    <option value="token">"token"</option>
                    <option value="position">"position"</option>
                </select>
            </div>
            <p class="note" id="space-translation-note">
                {move || {
                    if translate.get() {
                        "Keys moved by c = mean(Q) − mean(K): each score of a query's row gains the same q·c, which softmax ignores, so A is unchanged; with both clouds around one centre, nearness in the picture says more."
                    } else {
                        "Keys as the model computes them: q·k is large where a query and a key point the same way from the origin, which may lie far from both clouds."
                    }
                }}
            </p>
            <p id="analysis-error" role="status" class="analysis-error">
                {move || {
                    if one_token() {
                        "One token: one query and one key are nothing to project. Type a text of two tokens or more."
                            .to_string()
                    } else {
                        an.error.get()
                    }
                }}
            </p>
            {move || {
                shown
                    .get()
                    .map(|s| {
                        view! {
                            <Plot s=s.clone() colour=colour.into() />
                            <Readout s />
                        }
                            .into_any()
                    })
            }}
        </div>
    }
}

/// The query the lines start from (the page's chosen token).
#[component]
fn QueryChoice() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let query = move || sel.query(res.tokens.with(Vec::len));
    view! {
        <label for="space-query">"Query"</label>
        <select
            id="space-query"
            on:change=move |ev| sel.token.set(event_target_value(&ev).parse().ok())
        >
            {move || {
                res.tokens
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| {
                        view! {
                            <option value=i.to_string() prop:selected=move || query() == i>
                                {format!("{i}: {t}")}
                            </option>
                        }
                    })
                    .collect_view()
            }}
        </select>
    }
}

/// The points: queries as circles, keys as squares; the chosen query's lines.
#[component]
fn Plot(s: Space, colour: Signal<Colour>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let tokens = res.tokens.get_untracked();
    let n = tokens.len().min(s.space.queries.len());
    let frame = Frame::of(&s.space);
    let query = move || sel.query(n);
    let [x_share, y_share] = s.space.explained.map(|e| 100.0 * e);
    let (space, weights) = (s.space.clone(), s.weights.clone());
    let lines = {
        let (space, tokens) = (space.clone(), tokens.clone());
        move || {
            let i = query();
            let from = frame.at(space.queries[i]);
            (0..space.keys.len())
                .filter(|&j| weights[(i, j)] >= 0.01)
                .map(|j| {
                    let to = frame.at(space.keys[j]);
                    let w = weights[(i, j)];
                    view! {
                        <line
                            class="space-line"
                            x1=from.0
                            y1=from.1
                            x2=to.0
                            y2=to.1
                            stroke-width=0.8 + 9.0 * w
                            stroke-opacity=0.25 + 0.6 * w
                        >
                            <title>
                                {format!("{} → {}: A = {}", tokens[i], tokens[j], num(w))}
                            </title>
                        </line>
                    }
                })
                .collect_view()
        }
    };
    let points = move || {
        let (i, c) = (query(), colour.get());
        let near = space.nearest[i];
        let label_all = n <= LABEL_ALL_UP_TO;
        let keys = (0..n).map(|j| {
            let (x, y) = frame.at(space.keys[j]);
            let chosen = j == near.weightiest;
            let label = (label_all || chosen).then(|| {
                view! {
                    <text class="space-label" x=x + 9.0 y=y + 4.0>
                        {tokens[j].clone()}
                    </text>
                }
            });
            view! {
                <g class="space-key" data-position=j>
                    <rect
                        x=x - 6.0
                        y=y - 6.0
                        width="12"
                        height="12"
                        fill=fill(c, &tokens[j], j, n)
                        class:weightiest=chosen
                    >
                        <title>{format!("key {j}: {}", tokens[j])}</title>
                    </rect>
                    {label}
                </g>
            }
        });
        let queries = (0..n).map(|q| {
            let (x, y) = frame.at(space.queries[q]);
            let label = (label_all || q == i).then(|| {
                view! {
                    <text class="space-label" x=x + 9.0 y=y - 6.0>
                        {tokens[q].clone()}
                    </text>
                }
            });
            view! {
                <g class="space-query" data-position=q aria-current=(q == i).then_some("true")>
                    <circle
                        cx=x
                        cy=y
                        r=if q == i { 10 } else { 7 }
                        fill=fill(c, &tokens[q], q, n)
                        on:click=move |_| sel.token.set(Some(q))
                    >
                        <title>{format!("query {q}: {} (click to choose)", tokens[q])}</title>
                    </circle>
                    {label}
                </g>
            }
        });
        view! {
            {keys.collect_view()}
            {queries.collect_view()}
        }
    };
    view! {
        <figure class="space-figure">
            <svg
                id="space-plot"
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label="Queries (circles) and keys (squares) of the head on their two principal axes"
            >
                <line
                    class="space-axis"
                    x1=MARGIN
                    y1=HEIGHT / 2.0
                    x2=WIDTH - MARGIN
                    y2=HEIGHT / 2.0
                />
                <line
                    class="space-axis"
                    x1=WIDTH / 2.0
                    y1=MARGIN
                    x2=WIDTH / 2.0
                    y2=HEIGHT - MARGIN
                />
                <text
                    class="space-axis-label"
                    x=WIDTH - MARGIN
                    y=HEIGHT / 2.0 - 8.0
                    text-anchor="end"
                >
                    {format!("axis 1: {x_share:.1} % of the spread")}
                </text>
                <text class="space-axis-label" x=WIDTH / 2.0 + 8.0 y=MARGIN - 12.0>
                    {format!("axis 2: {y_share:.1} %")}
                </text>
                {lines}
                {points}
            </svg>
            <figcaption id="space-caption">
                {format!(
                    "● queries, ■ keys of layer {}, head {}{}. The two axes keep {:.1} % of the points' spread; the rest is out of the picture.",
                    s.space.layer,
                    s.space.head,
                    if s.space.kv_head != s.space.head {
                        format!(" (keys of key/value head {})", s.space.kv_head)
                    } else {
                        String::new()
                    },
                    x_share + y_share,
                )}
            </figcaption>
        </figure>
    }
}

/// The chosen query's keys: weightiest, nearest in angle, nearest in the picture.
#[component]
fn Readout(s: Space) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let tokens = res.tokens.get_untracked();
    let n = tokens.len().min(s.space.queries.len());
    move || {
        let i = sel.query(n);
        let near = s.space.nearest[i];
        let w = |j: usize| num(s.weights[(i, j)]);
        let name = |j: usize| format!("“{}” ({j})", tokens[j]);
        let angle = if near.angle == near.weightiest {
            "the same key: it points most nearly the query's way.".to_string()
        } else {
            format!(
                "{}, A = {}: a longer key can win with a wider angle, since A follows q·k = ‖q‖‖k‖cos θ.",
                name(near.angle),
                w(near.angle)
            )
        };
        let plane = if near.plane == near.weightiest {
            "the same key: here the picture tells the truth.".to_string()
        } else {
            format!(
                "{}, A = {}: here the picture misleads, as a plane keeps only part of the spread; the numbers are exact.",
                name(near.plane),
                w(near.plane)
            )
        };
        view! {
            <dl class="space-readout" id="space-readout">
                <dt>"Query"</dt>
                <dd>{name(i)}</dd>
                <dt>"Weighs most"</dt>
                <dd id="space-weightiest">
                    {format!("{}, A = {}", name(near.weightiest), w(near.weightiest))}
                </dd>
                <dt>"Nearest in angle (all dimensions)"</dt>
                <dd id="space-angle">{angle}</dd>
                <dt>"Nearest in the picture"</dt>
                <dd id="space-plane">{plane}</dd>
            </dl>
        }
    }
}
