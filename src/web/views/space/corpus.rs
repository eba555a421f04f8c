//! The Q·K space over the built-in corpus (AttentionViz's view of many
//! sentences): the worker runs the model over a few hundred sentences once per
//! model, with progress, and answers a head at once afterwards; every query
//! and key of the corpus is drawn as two paths (one per kind, so thousands of
//! points are two elements), the visitor's sentence's queries and keys on top,
//! labelled. The points come from `analysis::geometry::corpus`.

use super::{fill, Colour, HEIGHT, MARGIN, WIDTH};
use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::views::beyond::{Analysis, CorpusState};
use crate::views::common::format::{fixed, markup_text};
use crate::views::common::plane::Frame;
use attnscope::analysis::geometry::corpus::{CorpusSpace, CorpusTokens, PooledHead};
use attnscope::session::AnalysisRequest;
use leptos::prelude::*;

/// Asks for the chosen head over the corpus whenever the switch is on and the
/// run, the head or the translation changes (the worker starts the corpus the
/// first time, and answers at once afterwards).
pub fn keep_asking(translate: RwSignal<bool>) {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    // On or off alone: the progress changes the state at every slice, and asking again at each
    // would answer every answer with a request.
    let on = Memo::new(move |_| an.corpus.get() != CorpusState::Off);
    Effect::new(move |_| {
        let (layer, head, translate) = (sel.layer.get(), sel.head.get(), translate.get());
        let Some(run) = res.run_id() else { return };
        if !on.get() {
            return;
        }
        let have = an.corpus_space.with_untracked(|s| {
            s.as_ref().is_some_and(|(id, s, _)| {
                (*id, s.layer, s.head, s.translated) == (run, layer, head, translate)
            })
        });
        if !have {
            Analysis::ask(engine, sel, AnalysisRequest::Corpus { layer, head, translate });
        }
    });
}

/// The corpus switch: on starts (or shows) the corpus, off stops one under way.
#[component]
pub fn CorpusSwitch() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let change = move |ev| {
        if event_target_checked(&ev) {
            an.corpus.set(CorpusState::Running { done: 0, total: 0 });
        } else {
            if an.corpus.get_untracked().is_running() {
                Analysis::ask(engine, sel, AnalysisRequest::CancelCorpus);
            }
            an.corpus.set(CorpusState::Off);
            an.corpus_space.set(None);
        }
    };
    view! {
        <label class="switch">
            <input
                type="checkbox"
                id="space-corpus"
                prop:checked=move || an.corpus.get() != CorpusState::Off
                on:change=change
            />
            {tr!("space-corpus")}
        </label>
    }
}

/// The corpus's points as two paths (queries, keys) and the visitor's on top.
fn markup(s: &CorpusSpace, tokens: &[String], colour: Colour) -> String {
    use std::fmt::Write;
    let frame = Frame::fit(
        s.queries.iter().chain(&s.keys).chain(&s.visitor_queries).chain(&s.visitor_keys),
        (WIDTH, HEIGHT),
        MARGIN,
    );
    let mut svg = String::new();
    for (class, points) in [("space-corpus-keys", &s.keys), ("space-corpus-queries", &s.queries)] {
        let _ = write!(svg, r#"<path class="{class}" data-points="{}" d=""#, points.len());
        for p in points.iter() {
            let (x, y) = frame.at(*p);
            let _ = write!(svg, "M{x:.1} {y:.1}h0");
        }
        svg.push_str(r#""/>"#);
    }
    let n = tokens.len().min(s.visitor_queries.len());
    let label_all = n <= super::LABEL_ALL_UP_TO;
    for (j, token) in tokens.iter().enumerate().take(n.min(s.visitor_keys.len())) {
        let ((x, y), t) = (frame.at(s.visitor_keys[j]), markup_text(token));
        let _ = write!(
            svg,
            r#"<g class="space-key" data-position="{j}"><rect x="{:.1}" y="{:.1}" width="12" height="12" fill="{}"><title>{}</title></rect>"#,
            x - 6.0,
            y - 6.0,
            fill(colour, token, j, n),
            tr!("space-key-title", position = j, token = t.as_str())
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
    for (q, token) in tokens.iter().enumerate().take(n) {
        let ((x, y), t) = (frame.at(s.visitor_queries[q]), markup_text(token));
        let _ = write!(
            svg,
            r#"<g class="space-query" data-position="{q}"><circle cx="{x:.1}" cy="{y:.1}" r="7" fill="{}"><title>{}</title></circle>"#,
            fill(colour, token, q, n),
            tr!("space-visitor-query-title", position = q, token = t.as_str())
        );
        if label_all {
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

/// The progress while the corpus runs, then the chosen head's corpus plot.
#[component]
pub fn CorpusView(colour: Signal<Colour>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let an = expect_context::<Analysis>();
    let shown = Memo::new(move |_| {
        an.corpus_space.get().filter(|(run, s, _)| {
            Some(*run) == res.run_id() && (s.layer, s.head) == (sel.layer.get(), sel.head.get())
        })
    });
    move || match (an.corpus.get(), shown.get()) {
        (CorpusState::Running { done, total }, _) => view! {
            <div class="progress" id="space-corpus-running">
                <progress id="space-corpus-progress" max=total.max(1) value=done></progress>
                <span>{tr!("space-corpus-progress", done = done, total = total)}</span>
            </div>
        }
        .into_any(),
        (CorpusState::Ready, Some((_, s, tokens))) => {
            view! { <CorpusPlot s=s corpus=tokens colour=colour /> }.into_any()
        }
        _ => ().into_any(),
    }
}

#[component]
fn CorpusPlot(s: CorpusSpace, corpus: CorpusTokens, colour: Signal<Colour>) -> impl IntoView {
    let res = expect_context::<Results>();
    let tokens = res.tokens.get_untracked();
    let [x_share, y_share] = s.explained.map(|e| 100.0 * e);
    let caption = tr!(
        "space-corpus-caption",
        layer = s.layer,
        head = s.head,
        points = s.queries.len() + s.keys.len(),
        sentences = corpus.sentences(),
        share = fixed((x_share + y_share) as f64, 1)
    );
    let points = move || markup(&s, &tokens, colour.get());
    view! {
        <figure class="space-figure">
            <svg
                id="space-corpus-plot"
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label=tr!("space-corpus-plot-label")
            >
                <text class="space-axis-label" x=WIDTH - MARGIN y=HEIGHT - 12.0 text-anchor="end">
                    {tr!("space-axis-1", share = fixed(x_share as f64, 1))}
                </text>
                <text class="space-axis-label" x=MARGIN y=MARGIN - 12.0>
                    {tr!("space-axis-2", share = fixed(y_share as f64, 1))}
                </text>
                <g id="space-corpus-points" inner_html=points></g>
            </svg>
            <figcaption id="space-corpus-caption">{caption}</figcaption>
        </figure>
    }
}

/// One tile's box in SVG units.
const TILE: f32 = 100.0;

/// Every head's pooled corpus as a tile (two paths on the head's own axes), a
/// row per layer; the chosen head's tile is marked.
fn grid_markup(heads: &[Vec<PooledHead>], chosen: (usize, usize)) -> String {
    use std::fmt::Write;
    let mut html = String::new();
    for (l, layer) in heads.iter().enumerate() {
        for (h, head) in layer.iter().enumerate() {
            let frame = Frame::fit(head.queries.iter().chain(&head.keys), (TILE, TILE), 6.0);
            let _ = write!(
                html,
                r#"<button type="button" class="space-tile" data-layer="{l}" data-head="{h}" aria-pressed="{}" title="{}"><svg viewBox="0 0 {TILE} {TILE}" aria-hidden="true">"#,
                (l, h) == chosen,
                tr!("space-grid-tile", layer = l, head = h)
            );
            for (class, points) in
                [("space-corpus-keys", &head.keys), ("space-corpus-queries", &head.queries)]
            {
                let _ = write!(html, r#"<path class="{class}" d=""#);
                for p in points.iter() {
                    let (x, y) = frame.at(*p);
                    let _ = write!(html, "M{x:.1} {y:.1}h0");
                }
                html.push_str(r#""/>"#);
            }
            html.push_str("</svg></button>");
        }
    }
    html
}

/// "Every head": a small plot of every head over the corpus (pooled); a click
/// chooses that head in every view.
#[component]
pub fn CorpusGrid(translate: RwSignal<bool>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let on = RwSignal::new(false);
    let ready = Memo::new(move |_| an.corpus.get() == CorpusState::Ready);
    Effect::new(move |_| {
        let (translate, _model) = (translate.get(), sel.model.get());
        if !on.get() || !ready.get() {
            return;
        }
        Analysis::ask(engine, sel, AnalysisRequest::CorpusGrid { translate });
    });
    let choose = move |ev: web_sys::MouseEvent| {
        use wasm_bindgen::JsCast;
        let tile = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("button.space-tile").ok().flatten());
        let at = |name: &str| tile.as_ref()?.get_attribute(name)?.parse::<usize>().ok();
        if let (Some(l), Some(h)) = (at("data-layer"), at("data-head")) {
            sel.select_head((l, h));
        }
    };
    let tiles = move || {
        let chosen = (sel.layer.get(), sel.head.get());
        an.corpus_grid.with(|g| g.as_ref().map(|(_, heads)| grid_markup(heads, chosen)))
    };
    let columns = move || {
        an.corpus_grid.with(|g| {
            let n = g.as_ref().and_then(|(_, h)| h.first()).map_or(1, Vec::len);
            format!("--tiles: {n}")
        })
    };
    view! {
        <Show when=move || ready.get()>
            <label class="switch">
                <input
                    type="checkbox"
                    id="space-grid"
                    prop:checked=move || on.get()
                    on:change=move |ev| on.set(event_target_checked(&ev))
                />
                {tr!("space-grid")}
            </label>
            <Show when=move || on.get() && an.corpus_grid.with(Option::is_some)>
                <p class="note" id="space-grid-note">
                    {tr!("space-grid-note")}
                </p>
                <div id="space-grid-tiles" style=columns on:click=choose inner_html=tiles></div>
            </Show>
        </Show>
    }
}
