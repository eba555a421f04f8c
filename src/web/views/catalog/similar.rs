//! Heads that resemble each other, in the catalog: every head on one map,
//! placed so that heads attending alike over the text are near (classical
//! multidimensional scaling of the mean Jensen–Shannon distance of their
//! rows), coloured by group (average linkage), and the heads most like the
//! selected one. The worker compares every two heads a slice at a time
//! (`analysis::geometry::SimilarJob`); a click on a head selects it in every view.

use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::views::beyond::{Analysis, Definition, SimilarState};
use crate::views::common::format::{markup_text, num};
use crate::views::common::plane::Frame;
use attnscope::analysis::geometry::{
    average_linkage, SimilarHeads, MAX_SIMILAR_TOKENS, SIMILAR_DEFINITION,
};
use attnscope::session::AnalysisRequest;
use leptos::prelude::*;

/// The map's box in SVG units; the page scales it to its width.
const WIDTH: f32 = 800.0;
const HEIGHT: f32 = 440.0;
const MARGIN: f32 = 30.0;
/// How many of the heads most like the selected one are listed and joined to it.
pub const LIKE: usize = 5;
/// One colour per group (Tableau 10: told apart in light and dark themes alike).
const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
];
/// The most groups offered.
pub const MAX_GROUPS: usize = PALETTE.len();

/// The groups first drawn for `heads` heads: a few for a small model, six for a large one.
pub fn groups_for(heads: usize) -> usize {
    (heads / 4).clamp(2, 6).min(heads.max(1))
}

/// The heads most like head `of` (indices of `map.heads`), nearest first, never itself.
pub fn most_like(map: &SimilarHeads, of: usize, k: usize) -> Vec<usize> {
    let Some(row) = map.distance.get(of) else { return Vec::new() };
    let mut others: Vec<usize> = (0..row.len()).filter(|&g| g != of).collect();
    others.sort_by(|&a, &b| row[a].total_cmp(&row[b]).then(a.cmp(&b)));
    others.truncate(k);
    others
}

/// `map`'s heads grouped into `k` groups (the worker's grouping when `k` is its own).
pub fn regroup(map: &SimilarHeads, k: usize) -> Vec<usize> {
    let d: Vec<Vec<f64>> =
        map.distance.iter().map(|r| r.iter().map(|&x| x as f64).collect()).collect();
    average_linkage(&d, k)
}

/// The map as SVG markup: lines from the selected head to the heads most like
/// it, then every head as a dot of its group's colour, the selected one ringed
/// and labelled with its neighbours (drawn last, so on top). One string for all the heads (270 for
/// SmolLM2), as the Q·K space draws its points.
pub fn markup(map: &SimilarHeads, groups: &[usize], selected: Option<usize>) -> String {
    use std::fmt::Write;
    let frame = Frame::fit(map.map.iter(), (WIDTH, HEIGHT), MARGIN);
    let at = |p| frame.at(p);
    let like = selected.map(|s| most_like(map, s, LIKE)).unwrap_or_default();
    let mut svg = String::new();
    if let Some(s) = selected {
        let from = at(map.map[s]);
        for &g in &like {
            let to = at(map.map[g]);
            let _ = write!(
                svg,
                r#"<line class="similar-line" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
                from.0, from.1, to.0, to.1
            );
        }
    }
    let label = |[l, h]: [usize; 2]| format!("L{l} · H{h}");
    // The selected head and its neighbours last, on top of any dot they overlap.
    let rank = |i: usize| match () {
        _ if selected == Some(i) => 2,
        _ if like.contains(&i) => 1,
        _ => 0,
    };
    let mut order: Vec<usize> = (0..map.heads.len()).collect();
    order.sort_by_key(|&i| rank(i));
    for i in order {
        let [l, h] = map.heads[i];
        let ((x, y), group) = (at(map.map[i]), groups.get(i).copied().unwrap_or(0));
        let chosen = selected == Some(i);
        let _ = write!(
            svg,
            r#"<g class="similar-head" data-layer="{l}" data-head="{h}" data-group="{group}" data-xy="{},{}"{}><circle cx="{x:.1}" cy="{y:.1}" r="{}" fill="{}"><title>{}</title></circle>"#,
            map.map[i][0],
            map.map[i][1],
            if chosen { r#" aria-current="true""# } else { "" },
            if chosen { 9 } else { 6 },
            PALETTE[group % PALETTE.len()],
            markup_text(&tr!("catalog-similar-dot", head = label([l, h]), group = group + 1)),
        );
        if chosen || like.contains(&i) {
            let _ = write!(
                svg,
                r#"<text class="similar-label" x="{:.1}" y="{:.1}">{}</text>"#,
                x + 9.0,
                y - 7.0,
                label([l, h])
            );
        }
        svg.push_str("</g>");
    }
    svg
}

/// "Heads that resemble each other": the comparison's progress, then the map and the list.
#[component]
pub fn SimilarHeadsPanel() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let heads =
        move || res.summary.with(|s| s.as_ref().map_or(0, |s| s.info.n_layers * s.info.n_heads));
    let tokens = move || res.tokens.with(Vec::len);
    let too_long = move || tokens() > MAX_SIMILAR_TOKENS;
    let start = move || {
        let Some(run) = res.run_id() else { return };
        if heads() < 2 || tokens() == 0 || too_long() {
            return;
        }
        an.similar_of.set(run);
        an.similar.set(SimilarState::Running { done: 0, total: 0 });
        Analysis::ask(engine, sel, AnalysisRequest::SimilarHeads { clusters: groups_for(heads()) });
    };
    // Every new run is compared while the catalog is open (the worker yields between slices, and
    // a newer run drops the comparison under way).
    Effect::new(move |_| {
        if res.run_id().is_some_and(|run| run != an.similar_of.get_untracked()) {
            start();
        }
    });
    let stop = move || {
        if matches!(an.similar.get_untracked(), SimilarState::Running { .. }) {
            Analysis::ask(engine, sel, AnalysisRequest::CancelSimilar);
            an.similar.set(SimilarState::Idle);
        }
    };
    // Leaving the catalog stops the comparison; coming back starts it again.
    on_cleanup(move || {
        if matches!(an.similar.get_untracked(), SimilarState::Running { .. }) {
            stop();
            an.similar_of.set(0);
        }
    });
    let body = move || {
        if too_long() {
            return view! {
                <p class="note" id="similar-note">
                    {tr!("catalog-similar-too-long", most = MAX_SIMILAR_TOKENS, tokens = tokens())}
                </p>
            }
            .into_any();
        }
        let current = an.similar_of.get() == res.run_id().unwrap_or(0);
        match an.similar.get() {
            SimilarState::Running { done, total } => view! {
                <div class="similar-progress">
                    <progress id="similar-progress" max=total.max(1) value=done></progress>
                    <span>{tr!("catalog-similar-running", done = done, total = total)}</span>
                    <button id="similar-stop" on:click=move |_| stop()>
                        {tr!("catalog-similar-stop")}
                    </button>
                </div>
            }
            .into_any(),
            SimilarState::Done(map) if current => view! { <SimilarMap map=*map /> }.into_any(),
            _ => view! {
                <p class="note">
                    <button id="similar-start" on:click=move |_| start()>
                        {tr!("catalog-similar-start")}
                    </button>
                    {format!(" {}", tr!("catalog-similar-start-after"))}
                </p>
            }
            .into_any(),
        }
    };
    view! {
        <fieldset class="lesson" id="similar">
            <legend>{tr!("catalog-similar-title")}</legend>
            <Definition text=SIMILAR_DEFINITION />
            {body}
        </fieldset>
    }
}

/// The map of every head and the heads most like the selected one.
#[component]
fn SimilarMap(map: SimilarHeads) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let first = map.clusters.iter().max().map_or(1, |g| g + 1);
    let count = map.heads.len();
    let groups = RwSignal::new(first);
    let map = StoredValue::new(map);
    // The worker's groups, or the page's own for another count.
    let grouping = Memo::new(move |_| {
        let k = groups.get();
        map.with_value(|m| if k == first { m.clusters.clone() } else { regroup(m, k) })
    });
    let selected = move || {
        let lh = [sel.layer.get(), sel.head.get()];
        map.with_value(|m| m.heads.iter().position(|&x| x == lh))
    };
    let choose = move |ev: web_sys::MouseEvent| {
        use wasm_bindgen::JsCast;
        let g = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("g.similar-head").ok().flatten());
        let at = |name: &str| g.as_ref()?.get_attribute(name)?.parse::<usize>().ok();
        if let (Some(l), Some(h)) = (at("data-layer"), at("data-head")) {
            sel.select_head((l, h));
        }
    };
    let points = move || {
        let (groups, selected) = (grouping.get(), selected());
        map.with_value(|m| markup(m, &groups, selected))
    };
    let like = move || {
        let Some(s) = selected() else {
            return view! { <p class="note">{tr!("catalog-similar-not-on-map")}</p> }.into_any();
        };
        let groups = grouping.get();
        map.with_value(|m| {
            let [l, h] = m.heads[s];
            let items = most_like(m, s, LIKE)
                .into_iter()
                .map(|g| {
                    let [gl, gh] = m.heads[g];
                    let same = if groups.get(g) == groups.get(s) {
                        format!(" · {}", tr!("catalog-similar-same-group"))
                    } else {
                        String::new()
                    };
                    view! {
                        <li>
                            <button
                                class="similar-like"
                                data-layer=gl
                                data-head=gh
                                on:click=move |_| sel.select_head((gl, gh))
                            >
                                {format!("L{gl} · H{gh}")}
                            </button>
                            {format!(" d = {}{same}", num(m.distance[s][g]))}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <p class="similar-like-title">
                    {tr!("catalog-similar-like", head = format!("L{l} · H{h}"))}
                </p>
                <ol id="similar-like">{items}</ol>
            }
            .into_any()
        })
    };
    let caption =
        map.with_value(|m| tr!("catalog-similar-caption", heads = count, tokens = m.rows));
    view! {
        <div class="similar-controls">
            <label for="similar-groups">{tr!("catalog-similar-groups")}</label>
            <select
                id="similar-groups"
                on:change=move |ev| {
                    if let Ok(k) = event_target_value(&ev).parse::<usize>() {
                        groups.set(k.clamp(1, count))
                    }
                }
            >
                {(1..=MAX_GROUPS.min(count))
                    .map(|k| {
                        view! {
                            <option value=k.to_string() prop:selected=move || groups.get() == k>
                                {k.to_string()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
        <figure class="similar-figure">
            <svg
                id="similar-map"
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="img"
                aria-label=tr!("catalog-similar-map-label")
                on:click=choose
            >
                <g id="similar-points" inner_html=points></g>
            </svg>
            <figcaption id="similar-caption">{caption}</figcaption>
        </figure>
        <div class="similar-like-box">{like}</div>
    }
}
