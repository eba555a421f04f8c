//! The Q·K space (AttentionViz): one head's queries and keys as points of one
//! plane, their two principal axes, so that "a query attends to a key that
//! points its way" can be seen. The chosen query's lines go to the keys it may
//! see, as thick as their weights; the readout says which key it weighs most,
//! which is nearest in angle and which is nearest in the picture, since a
//! plane keeps only part of the spread. "Values too" adds the head's values
//! on their own two axes, with the chosen query's output among them (the
//! weighted mean of the values). The points come from the worker
//! (`analysis::geometry`). "Over the corpus" draws the head's queries and keys
//! over a few hundred built-in sentences, the page's sentence on top (`corpus`).

mod corpus;
#[cfg(test)]
mod tests;

use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::views::beyond::{Analysis, CorpusState, Definition, Space};
use crate::views::common::format::{fixed, markup_text, num};
use crate::views::common::plane::Frame;
use attnscope::analysis::geometry::{ValueSpace, QK_DEFINITION};
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

/// A checkbox bound to `on`.
#[component]
fn Switch(id: &'static str, on: RwSignal<bool>, label: String) -> impl IntoView {
    view! {
        <label class="switch">
            <input
                type="checkbox"
                id=id
                prop:checked=move || on.get()
                on:change=move |ev| on.set(event_target_checked(&ev))
            />
            {label}
        </label>
    }
}

/// "Q·K space": the switches, the plot and the readout (the query is the page's chosen token).
#[component]
pub fn SpaceView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let translate = RwSignal::new(true);
    let colour = RwSignal::new(Colour::Token);
    let values = RwSignal::new(false);
    corpus::keep_asking(translate);
    let tsne = RwSignal::new(false);
    Effect::new(move |_| {
        let (layer, head, translate) = (sel.layer.get(), sel.head.get(), translate.get());
        let Some(run) = res.run_id() else { return };
        if !tsne.get() || res.tokens.with(|t| t.len() < 2) {
            return;
        }
        let have = an.space_tsne.with_untracked(|s| {
            s.as_ref().is_some_and(|s| (s.0, s.1, s.2, s.3) == (run, layer, head, translate))
        });
        if !have {
            Analysis::ask(engine, sel, AnalysisRequest::QkTsne { layer, head, translate });
        }
    });
    let corpus_on = move || an.corpus.get() != CorpusState::Off;
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
        let s = an.space.get().filter(|s| {
            Some(s.run) == res.run_id()
                && (s.space.layer, s.space.head) == (sel.layer.get(), sel.head.get())
        })?;
        if !tsne.get() {
            return Some(s);
        }
        // t-SNE's places, once they are here for this head; the principal axes until then.
        an.space_tsne.with(|t| match t {
            Some((run, layer, head, translated, queries, keys))
                if (*run, *layer, *head, *translated)
                    == (s.run, s.space.layer, s.space.head, s.space.translated) =>
            {
                Some(placed_by_tsne(s.clone(), queries.clone(), keys.clone()))
            }
            _ => Some(s),
        })
    });
    let one_token = move || res.tokens.with(|t| t.len() == 1);
    view! {
        <div class="view-document" id="view-space">
            <h2>{tr!("space-heading")}</h2>
            <Definition text=QK_DEFINITION />
            <div class="space-controls">
                <Switch id="space-translate" on=translate label=tr!("space-translate") />
                <Switch id="space-values" on=values label=tr!("space-values") />
                <corpus::CorpusSwitch />
                <Switch id="space-tsne" on=tsne label=tr!("space-tsne") />
                <label for="space-colour">{tr!("space-colour-by")}</label>
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
                    <option value="token">{tr!("space-colour-token")}</option>
                    <option value="position">{tr!("space-colour-position")}</option>
                </select>
            </div>
            <p class="note" id="space-translation-note">
                {move || {
                    if translate.get() {
                        tr!("space-translated-note")
                    } else {
                        tr!("space-plain-note")
                    }
                }}
            </p>
            <p id="analysis-error" role="status" class="analysis-error">
                {move || { if one_token() { tr!("space-one-token") } else { an.error.get() } }}
            </p>
            <Show when=move || tsne.get()>
                <p class="note" id="space-tsne-note">
                    {tr!("space-tsne-note")}
                </p>
            </Show>
            <Show when=corpus_on>
                <p class="note" id="space-corpus-note">
                    {tr!("space-corpus-note")}
                </p>
                <corpus::CorpusView colour=colour.into() />
                <corpus::CorpusGrid translate=translate />
            </Show>
            {move || {
                shown
                    .get()
                    .filter(|_| !corpus_on())
                    .map(|s| {
                        view! {
                            <Plot s=s.clone() colour=colour.into() />
                            <Show when=move || values.get()>
                                <ValuesPlot s=s.clone() colour=colour.into() />
                            </Show>
                        }
                            .into_any()
                    })
            }}
        </div>
    }
}

/// The lines and points as SVG markup: the chosen query's lines to the keys it
/// weighs (at least 1 %), the keys as squares, the queries as circles, each
/// labelled (all of them up to 40 tokens, else the chosen query and its
/// weightiest key). One string for the whole layer: a reactive node per point
/// cost the page's wasm about 30 KB gzipped (docs/performance.md, session 31).
fn markup(s: &Space, tokens: &[String], query: usize, colour: Colour) -> String {
    use std::fmt::Write;
    let (space, n) = (&s.space, tokens.len().min(s.space.queries.len()));
    let frame = Frame::fit(space.queries.iter().chain(&space.keys), (WIDTH, HEIGHT), MARGIN);
    let near = space.nearest[query];
    let label_all = n <= LABEL_ALL_UP_TO;
    let mut svg = String::new();
    let from = frame.at(space.queries[query]);
    for j in (0..space.keys.len()).filter(|&j| s.weights[(query, j)] >= 0.01) {
        let (to, w) = (frame.at(space.keys[j]), s.weights[(query, j)]);
        let _ = write!(
            svg,
            r#"<line class="space-line" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke-width="{:.2}" stroke-opacity="{:.2}"><title>{} → {}: A = {}</title></line>"#,
            from.0,
            from.1,
            to.0,
            to.1,
            0.8 + 9.0 * w,
            0.25 + 0.6 * w,
            markup_text(&tokens[query]),
            markup_text(&tokens[j]),
            num(w)
        );
    }
    for (j, token) in tokens.iter().enumerate().take(n) {
        let ((x, y), t) = (frame.at(space.keys[j]), markup_text(token));
        let chosen = j == near.weightiest;
        let _ = write!(
            svg,
            r#"<g class="space-key" data-position="{j}" data-xy="{},{}"><rect x="{:.1}" y="{:.1}" width="12" height="12" fill="{}"{}><title>{}</title></rect>"#,
            space.keys[j][0],
            space.keys[j][1],
            x - 6.0,
            y - 6.0,
            fill(colour, token, j, n),
            if chosen { r#" class="weightiest""# } else { "" },
            tr!("space-key-title", position = j, token = t.as_str())
        );
        if label_all || chosen {
            let _ = write!(
                svg,
                r#"<text class="space-label" x="{:.1}" y="{:.1}">{t}</text>"#,
                x + 9.0,
                y + 4.0
            );
        }
        svg.push_str("</g>");
    }
    for (q, token) in tokens.iter().enumerate().take(n) {
        let ((x, y), t) = (frame.at(space.queries[q]), markup_text(token));
        let _ = write!(
            svg,
            r#"<g class="space-query" data-position="{q}" data-xy="{},{}"{}><circle cx="{x:.1}" cy="{y:.1}" r="{}" fill="{}"><title>{}</title></circle>"#,
            space.queries[q][0],
            space.queries[q][1],
            if q == query { r#" aria-current="true""# } else { "" },
            if q == query { 10 } else { 7 },
            fill(colour, token, q, n),
            tr!("space-query-title", position = q, token = t.as_str())
        );
        if label_all || q == query {
            let _ = write!(
                svg,
                r#"<text class="space-label" x="{:.1}" y="{:.1}">{t}</text>"#,
                x + 9.0,
                y - 6.0
            );
        }
        svg.push_str("</g>");
    }
    svg
}

/// `s` with its points where t-SNE put them (no axes: `explained` is zero, which the
/// caption reads), and the key nearest each query in the picture found again among the keys
/// it weighs at all.
fn placed_by_tsne(mut s: Space, queries: Vec<[f32; 2]>, keys: Vec<[f32; 2]>) -> Space {
    if queries.len() != s.space.queries.len() || keys.len() != s.space.keys.len() {
        return s;
    }
    for (i, near) in s.space.nearest.iter_mut().enumerate() {
        let d = |j: usize| (queries[i][0] - keys[j][0]).hypot(queries[i][1] - keys[j][1]);
        near.plane = (0..keys.len())
            .filter(|&j| s.weights[(i, j)] > 0.0)
            .min_by(|&a, &b| d(a).total_cmp(&d(b)))
            .unwrap_or(near.plane);
    }
    (s.space.queries, s.space.keys, s.space.explained) = (queries, keys, [0.0, 0.0]);
    s
}

/// The plot: axes, their shares of the spread, and the points' layer.
#[component]
fn Plot(s: Space, colour: Signal<Colour>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let tokens = res.tokens.get_untracked();
    let n = tokens.len().min(s.space.queries.len());
    let [x_share, y_share] = s.space.explained.map(|e| 100.0 * e);
    let (layer, head, share) = (s.space.layer, s.space.head, fixed((x_share + y_share) as f64, 1));
    let by_tsne = s.space.explained == [0.0, 0.0];
    let caption = if by_tsne {
        tr!("space-tsne-caption", layer = layer, head = head)
    } else if s.space.kv_head != s.space.head {
        tr!(
            "space-caption-grouped",
            layer = layer,
            head = head,
            kv = s.space.kv_head,
            share = share
        )
    } else {
        tr!("space-caption", layer = layer, head = head, share = share)
    };
    // A click on a query's circle chooses that query.
    let choose = move |ev: web_sys::MouseEvent| {
        use wasm_bindgen::JsCast;
        let picked = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("g.space-query").ok().flatten())
            .and_then(|g| g.get_attribute("data-position"))
            .and_then(|p| p.parse::<usize>().ok());
        if let Some(q) = picked.filter(|&q| q < n) {
            sel.token.set(Some(q));
        }
    };
    let described = {
        let (s, tokens) = (s.clone(), tokens.clone());
        move || readout(&s, &tokens, sel.query(n))
    };
    let points = move || markup(&s, &tokens, sel.query(n), colour.get());
    view! {
        <figure class="space-figure">
            <svg
                id="space-plot"
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label=tr!("space-plot-label")
                on:click=choose
            >
                <Show when=move || !by_tsne>
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
                        {tr!("space-axis-1", share = fixed(x_share as f64, 1))}
                    </text>
                    <text class="space-axis-label" x=WIDTH / 2.0 + 8.0 y=MARGIN - 12.0>
                        {tr!("space-axis-2", share = fixed(y_share as f64, 1))}
                    </text>
                </Show>
                <g id="space-points" inner_html=points></g>
            </svg>
            <figcaption id="space-caption">{caption}</figcaption>
        </figure>
        <dl class="space-readout" id="space-readout" inner_html=described></dl>
    }
}

/// The chosen query's keys: weightiest, nearest in angle, nearest in the picture (markup, as
/// the points are).
fn readout(s: &Space, tokens: &[String], i: usize) -> String {
    let near = s.space.nearest[i];
    let w = |j: usize| num(s.weights[(i, j)]);
    let name = |j: usize| tr!("space-token-name", token = markup_text(&tokens[j]), position = j);
    let angle = if near.angle == near.weightiest {
        tr!("space-angle-same")
    } else {
        tr!("space-angle-other", key = name(near.angle), weight = w(near.angle))
    };
    let plane = if near.plane == near.weightiest {
        tr!("space-plane-same")
    } else {
        tr!("space-plane-other", key = name(near.plane), weight = w(near.plane))
    };
    format!(
        r#"<dt>{}</dt><dd>{}</dd><dt>{}</dt><dd id="space-weightiest">{}, A = {}</dd><dt>{}</dt><dd id="space-angle">{angle}</dd><dt>{}</dt><dd id="space-plane">{plane}</dd>"#,
        tr!("space-readout-query"),
        name(i),
        tr!("space-readout-weightiest"),
        name(near.weightiest),
        w(near.weightiest),
        tr!("space-readout-angle"),
        tr!("space-readout-plane"),
    )
}

/// The values as SVG markup: the chosen query's lines to the values it weighs
/// (at least 1 %), each value as a triangle, the query's output as a diamond.
fn values_markup(
    v: &ValueSpace,
    weights: &attnscope::Matrix,
    tokens: &[String],
    query: usize,
    colour: Colour,
) -> String {
    use std::fmt::Write;
    let n = tokens.len().min(v.values.len());
    let frame = Frame::fit(v.values.iter().chain(&v.outputs), (WIDTH, HEIGHT), MARGIN);
    let label_all = n <= LABEL_ALL_UP_TO;
    let mut svg = String::new();
    let out = frame.at(v.outputs[query]);
    for j in (0..n).filter(|&j| weights[(query, j)] >= 0.01) {
        let (to, w) = (frame.at(v.values[j]), weights[(query, j)]);
        let _ = write!(
            svg,
            r#"<line class="space-line" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke-width="{:.2}" stroke-opacity="{:.2}"><title>{}</title></line>"#,
            out.0,
            out.1,
            to.0,
            to.1,
            0.8 + 9.0 * w,
            0.25 + 0.6 * w,
            tr!(
                "space-value-line-title",
                query = markup_text(&tokens[query]),
                weight = num(w),
                key = markup_text(&tokens[j])
            )
        );
    }
    for (j, token) in tokens.iter().enumerate().take(n) {
        let ((x, y), t) = (frame.at(v.values[j]), markup_text(token));
        let _ = write!(
            svg,
            r#"<g class="space-value" data-position="{j}" data-xy="{},{}"><path d="M{x:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z" fill="{}"><title>{}</title></path>"#,
            v.values[j][0],
            v.values[j][1],
            y - 8.0,
            x + 7.0,
            y + 5.0,
            x - 7.0,
            y + 5.0,
            fill(colour, token, j, n),
            tr!("space-value-title", position = j, token = t.as_str())
        );
        if label_all {
            let _ = write!(
                svg,
                r#"<text class="space-label" x="{:.1}" y="{:.1}">{t}</text>"#,
                x + 9.0,
                y + 4.0
            );
        }
        svg.push_str("</g>");
    }
    let _ = write!(
        svg,
        r#"<g class="space-output" data-position="{query}" data-xy="{},{}"><path d="M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} Z"><title>{}</title></path><text class="space-label" x="{:.1}" y="{:.1}">o({})</text></g>"#,
        v.outputs[query][0],
        v.outputs[query][1],
        out.0,
        out.1 - 11.0,
        out.0 + 11.0,
        out.1,
        out.0,
        out.1 + 11.0,
        out.0 - 11.0,
        out.1,
        tr!("space-output-title", position = query, token = markup_text(&tokens[query])),
        out.0 + 13.0,
        out.1 - 8.0,
        markup_text(&tokens[query])
    );
    svg
}

/// The head's values on their own two axes and the chosen query's output among them.
#[component]
fn ValuesPlot(s: Space, colour: Signal<Colour>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let Some(v) = s.space.values.clone() else {
        return view! {
            <p class="note" id="space-values-note">
                {tr!("space-no-values")}
            </p>
        }
        .into_any();
    };
    let tokens = res.tokens.get_untracked();
    let n = tokens.len().min(v.values.len());
    let share = 100.0 * (v.explained[0] + v.explained[1]);
    let caption = tr!("space-values-caption", kv = s.space.kv_head, share = fixed(share as f64, 1));
    let points = move || values_markup(&v, &s.weights, &tokens, sel.query(n), colour.get());
    view! {
        <figure class="space-figure">
            <svg
                id="space-values-plot"
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label=tr!("space-values-plot-label")
            >
                <g id="space-values-points" inner_html=points></g>
            </svg>
            <figcaption id="space-values-caption">{caption}</figcaption>
        </figure>
    }
    .into_any()
}
