//! The head catalog: what every head does, measured from its full weights
//! (`RunSummary::catalog`): one layers × heads map per measure, clickable,
//! and the sortable table below for exact values; and "find heads": which
//! heads make one chosen token attend to another (ranked by the worker from
//! the full A); heads that resemble each other (`similar`).

pub mod detectors;
pub mod similar;
#[cfg(test)]
mod tests;

use crate::canvas::{blank, cell_color, css, prepare, use_canvas_box, CanvasBox, Look, Room};
use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::views::common::format::num;
use attnscope::analysis::HeadStats;
use attnscope::session::ToWorker;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Head,
    Entropy,
    Distance,
    Previous,
    First,
    SelfToken,
}

impl Column {
    pub const ALL: [Column; 6] = [
        Column::Head,
        Column::Entropy,
        Column::Distance,
        Column::Previous,
        Column::First,
        Column::SelfToken,
    ];

    pub fn slug(self) -> &'static str {
        match self {
            Column::Head => "head",
            Column::Entropy => "entropy",
            Column::Distance => "distance",
            Column::Previous => "previous",
            Column::First => "first",
            Column::SelfToken => "self",
        }
    }

    /// The column's name, in the page's language.
    pub fn label(self) -> String {
        match self {
            Column::Head => tr!("catalog-column-head"),
            Column::Entropy => tr!("catalog-column-entropy"),
            Column::Distance => tr!("catalog-column-distance"),
            Column::Previous => tr!("catalog-column-previous"),
            Column::First => tr!("catalog-column-first"),
            Column::SelfToken => tr!("catalog-column-self"),
        }
    }

    /// What the column measures, in the page's language.
    pub fn title(self) -> String {
        match self {
            Column::Head => tr!("catalog-column-head-title"),
            Column::Entropy => tr!("catalog-column-entropy-title"),
            Column::Distance => tr!("catalog-column-distance-title"),
            Column::Previous => tr!("catalog-column-previous-title"),
            Column::First => tr!("catalog-column-first-title"),
            Column::SelfToken => tr!("catalog-column-self-title"),
        }
    }

    pub fn value(self, s: &HeadStats) -> f32 {
        match self {
            Column::Head => (s.layer * 10_000 + s.head) as f32,
            Column::Entropy => s.entropy_bits,
            Column::Distance => s.mean_distance,
            Column::Previous => s.previous_token,
            Column::First => s.first_token,
            Column::SelfToken => s.self_token,
        }
    }
}

/// Sorts the catalog by `column`, largest first when `descending`.
pub fn sorted(stats: &[HeadStats], column: Column, descending: bool) -> Vec<HeadStats> {
    let mut out = stats.to_vec();
    out.sort_by(|a, b| {
        let o = column
            .value(a)
            .total_cmp(&column.value(b))
            .then((a.layer, a.head).cmp(&(b.layer, b.head)));
        if descending {
            o.reverse()
        } else {
            o
        }
    });
    out
}

/// `#catalog`: one row per head; click a row (or its button) to select that head.
#[component]
pub fn Catalog() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let summary = res.summary;
    let selected = move || (sel.layer.get(), sel.head.get());
    let on_select = move |lh: (usize, usize)| sel.select_head(lh);
    let (sort, set_sort) = signal((Column::Head, false));
    // The teaching model's heads' notes, in the page's language.
    let names = move || -> Vec<String> {
        summary.with(|s| {
            s.as_ref()
                .map(|s| s.head_notes.iter().map(|n| crate::compute::head_note(n)).collect())
                .unwrap_or_default()
        })
    };
    let header = move |c: Column| {
        let aria_sort = move || {
            let (col, desc) = sort.get();
            if col != c {
                "none"
            } else if desc {
                "descending"
            } else {
                "ascending"
            }
        };
        view! {
            <th scope="col" aria-sort=aria_sort title=c.title()>
                <button
                    id=format!("sort-{}", c.slug())
                    on:click=move |_| {
                        set_sort
                            .update(|(col, desc)| {
                                if *col == c {
                                    *desc = !*desc
                                } else {
                                    *col = c;
                                    *desc = c != Column::Head;
                                }
                            })
                    }
                >
                    {c.label()}
                    {move || match sort.get() {
                        (col, true) if col == c => " ▼",
                        (col, false) if col == c => " ▲",
                        _ => "",
                    }}
                </button>
            </th>
        }
    };
    let rows = move || {
        let (col, desc) = sort.get();
        let notes = names();
        summary.with(|s| {
            let stats = s.as_ref().map(|s| sorted(&s.catalog, col, desc)).unwrap_or_default();
            stats
                .into_iter()
                .map(|s| {
                    let (l, h) = (s.layer, s.head);
                    let name = notes
                        .get(h)
                        .map(|n| crate::compute::note_parts(n).0)
                        .filter(|_| l == 0 && !notes.is_empty());
                    view! {
                        <tr
                            class="catalog-row"
                            id=format!("catalog-{l}-{h}")
                            class:selected=move || selected() == (l, h)
                            aria-current=move || (selected() == (l, h)).to_string()
                            on:click=move |_| on_select((l, h))
                        >
                            <th scope="row">
                                <button
                                    class="catalog-select"
                                    aria-label=tr!("catalog-select-head", layer = l, head = h)
                                    on:click=move |ev| {
                                        ev.stop_propagation();
                                        on_select((l, h))
                                    }
                                >
                                    {format!("L{l} · H{h}")}
                                    {name.map(|n| format!(" — {n}"))}
                                </button>
                            </th>
                            <td>{num(s.entropy_bits)}</td>
                            <td>{num(s.mean_distance)}</td>
                            <td>{num(s.previous_token)}</td>
                            <td>{num(s.first_token)}</td>
                            <td>{num(s.self_token)}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="table-wrap">
            <table id="catalog">
                <caption>{tr!("catalog-table-caption")}</caption>
                <thead>
                    <tr>{Column::ALL.into_iter().map(header).collect_view()}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// `#find`: choose a query word and a key word; the worker ranks every head.
#[component]
pub fn FindHeads() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let (tokens, found) = (res.tokens, res.found);
    let run_id = move || res.run_id();
    let on_find = move |(query, key): (usize, usize)| {
        engine.send(ToWorker::FindHeads { id: engine.latest(), query, key })
    };
    let on_select = move |lh: (usize, usize)| sel.select_head(lh);
    let (query, set_query) = signal(0usize);
    let (key, set_key) = signal(0usize);
    let picker = move |id: &'static str, value: ReadSignal<usize>, set: WriteSignal<usize>| {
        view! {
            <select id=id on:change=move |ev| set.set(event_target_value(&ev).parse().unwrap_or(0))>
                {move || {
                    tokens
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, t)| {
                            view! {
                                <option value=i.to_string() prop:selected=move || value.get() == i>
                                    {format!("{i}: {t}")}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        }
    };
    let answer = move || {
        let toks = tokens.get();
        // Only the answer to the pair chosen here (a preset asks about its own pair).
        let f = found
            .get()
            .filter(|f| Some(f.id) == run_id() && (f.query, f.key) == (query.get(), key.get()))?;
        let word = |i: usize| toks.get(i).cloned().unwrap_or_default();
        Some(view! {
            <p class="note">
                {tr!(
                    "catalog-find-ranked",
                    query = word(f.query),
                    key = word(f.key),
                )}
            </p>
            <ol id="found-heads">
                {f
                    .heads
                    .iter()
                    .take(10)
                    .map(|m| {
                        let (l, h) = (m.layer, m.head);
                        view! {
                            <li>
                                <button class="found-head" on:click=move |_| on_select((l, h))>
                                    {format!("L{l} · H{h}: {}", num(m.weight))}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        })
    };
    view! {
        <fieldset class="lesson" id="find">
            <legend>{tr!("catalog-find-title")}</legend>
            <div class="picker">
                <label for="find-query">{tr!("catalog-find-query")}</label>
                {picker("find-query", query, set_query)}
                <label for="find-key">{tr!("catalog-find-key")}</label>
                {picker("find-key", key, set_key)}
                <button
                    id="find-heads"
                    on:click=move |_| {
                        let n = tokens.with(Vec::len);
                        let (q, k) = (query.get_untracked(), key.get_untracked());
                        if q < n && k < n {
                            on_find((q, k))
                        }
                    }
                >
                    {tr!("catalog-find-run")}
                </button>
            </div>
            {answer}
        </fieldset>
    }
}

/// The measures drawn as maps (every column but the head's place).
pub const MEASURES: [Column; 5] =
    [Column::Entropy, Column::Distance, Column::Previous, Column::First, Column::SelfToken];

/// The colour scale of a measure over `stats`: the three weights on their
/// own 0…1 (comparable across maps), entropy and distance over the range found.
pub fn scale_of(column: Column, stats: &[HeadStats]) -> (f32, f32) {
    match column {
        Column::Previous | Column::First | Column::SelfToken => (0.0, 1.0),
        _ => {
            let values = stats.iter().map(|s| column.value(s)).filter(|v| v.is_finite());
            let (lo, hi) = values
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
            if lo.is_finite() && hi > lo {
                (lo, hi)
            } else {
                (0.0, lo.max(0.0) + 1.0)
            }
        }
    }
}

/// Where the cells of a layers × heads map go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapGrid {
    pub cell: f64,
    pub left: f64,
    pub top: f64,
    pub layers: usize,
    pub heads: usize,
}

impl MapGrid {
    pub fn fit(layers: usize, heads: usize, room: Room, look: &Look) -> Self {
        let font = (look.label_px * 0.85).round();
        let (left, top) = ((font * 2.4).ceil(), (font * 1.6).ceil());
        let width = if room.0 > 1.0 { room.0 } else { 240.0 };
        // Tall models keep to about two thirds of a screen.
        let screen = web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .unwrap_or(800.0);
        let cell = ((width - left - 2.0) / heads.max(1) as f64)
            .min(screen * 0.65 / layers.max(1) as f64)
            .min(3.0 * look.label_px)
            .floor()
            .max(5.0);
        Self { cell, left, top, layers, heads }
    }

    pub fn size(&self) -> (f64, f64) {
        (
            self.left + self.cell * self.heads as f64 + 2.0,
            self.top + self.cell * self.layers as f64 + 2.0,
        )
    }

    pub fn at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (h, l) = ((x - self.left) / self.cell, (y - self.top) / self.cell);
        (h >= 0.0 && l >= 0.0 && (l as usize) < self.layers && (h as usize) < self.heads)
            .then_some((l as usize, h as usize))
    }
}

/// Draws one measure of every head as a map, the selected head outlined.
pub fn draw_map(
    canvas: &web_sys::HtmlCanvasElement,
    stats: &[HeadStats],
    column: Column,
    selected: (usize, usize),
    look: &Look,
    room: Room,
) -> Result<Option<MapGrid>, JsValue> {
    let layers = stats.iter().map(|s| s.layer + 1).max().unwrap_or(0);
    let heads = stats.iter().map(|s| s.head + 1).max().unwrap_or(0);
    if layers == 0 || heads == 0 {
        blank(canvas);
        return Ok(None);
    }
    let grid = MapGrid::fit(layers, heads, room, look);
    let (width, height) = grid.size();
    let ctx = prepare(canvas, width, height)?;
    let (lo, hi) = scale_of(column, stats);
    for s in stats {
        let v = column.value(s);
        let share = if v.is_finite() { ((v - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.0 };
        ctx.set_fill_style_str(&css(cell_color(share)));
        ctx.fill_rect(
            grid.left + s.head as f64 * grid.cell,
            grid.top + s.layer as f64 * grid.cell,
            grid.cell,
            grid.cell,
        );
    }
    let font = (look.label_px * 0.85).round();
    ctx.set_font(&look.font_scaled(0.85, false));
    ctx.set_fill_style_str(&look.ink);
    ctx.set_text_baseline("middle");
    let every = ((font + 2.0) / grid.cell).ceil().max(1.0) as usize;
    ctx.set_text_align("right");
    for l in (0..layers).filter(|l| l % every == 0) {
        ctx.fill_text(&l.to_string(), grid.left - 4.0, grid.top + (l as f64 + 0.5) * grid.cell)?;
    }
    ctx.set_text_align("center");
    let every = ((2.0 * font) / grid.cell).ceil().max(1.0) as usize;
    for h in (0..heads).filter(|h| h % every == 0) {
        ctx.fill_text(
            &h.to_string(),
            grid.left + (h as f64 + 0.5) * grid.cell,
            grid.top - 0.8 * font,
        )?;
    }
    let (l, h) = selected;
    if l < layers && h < heads {
        ctx.set_stroke_style_str(&look.focus);
        ctx.set_line_width(2.5);
        ctx.stroke_rect(
            grid.left + h as f64 * grid.cell - 1.0,
            grid.top + l as f64 * grid.cell - 1.0,
            grid.cell + 2.0,
            grid.cell + 2.0,
        );
    }
    let _ = canvas.set_attribute("data-cell", &grid.cell.to_string());
    let _ = canvas.set_attribute("data-left", &grid.left.to_string());
    let _ = canvas.set_attribute("data-top", &grid.top.to_string());
    Ok(Some(grid))
}

/// `canvas#map-<measure>`: one measure of every head; click a head to select it.
#[component]
fn MeasureMap(column: Column, hovered: RwSignal<Option<(usize, usize)>>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<MapGrid>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let selected = (sel.layer.get(), sel.head.get());
        let drawn = res.summary.with(|s| {
            let stats = s.as_ref().map(|s| s.catalog.as_slice()).unwrap_or_default();
            look.with(|look| draw_map(&el, stats, column, selected, look, room.get()))
        });
        match drawn {
            Ok(g) => placed.set_value(g),
            Err(e) => web_sys::console::error_2(&"catalog map: drawing failed:".into(), &e),
        }
    });
    let at = move |ev: &web_sys::MouseEvent| {
        placed.get_value().and_then(|g| g.at(ev.offset_x() as f64, ev.offset_y() as f64))
    };
    let range = move || {
        res.summary.with(|s| {
            let (lo, hi) =
                scale_of(column, s.as_ref().map(|s| s.catalog.as_slice()).unwrap_or_default());
            (num(lo), num(hi))
        })
    };
    view! {
        <figure class="measure-map">
            <figcaption title=column.title()>
                <strong>{column.label()}</strong>
                <span class="range">
                    {move || {
                        let (lo, hi) = range();
                        format!("{lo} → {hi}")
                    }}
                </span>
            </figcaption>
            <div class="canvas-box natural" node_ref=boxed>
                <canvas
                    id=format!("map-{}", column.slug())
                    node_ref=canvas
                    role="img"
                    aria-label=tr!("catalog-map-label", measure = column.label())
                    on:pointermove=move |ev| {
                        if ev.pointer_type() == "mouse" {
                            hovered.set(at(&ev))
                        }
                    }
                    on:pointerleave=move |_| hovered.set(None)
                    on:click=move |ev| {
                        if let Some(lh) = at(&ev) {
                            sel.select_head(lh)
                        }
                    }
                ></canvas>
            </div>
        </figure>
    }
}

/// The five maps, and what the head under the pointer measures.
#[component]
pub fn CatalogMaps() -> impl IntoView {
    let res = expect_context::<Results>();
    let sel = expect_context::<Selection>();
    let hovered = RwSignal::new(None::<(usize, usize)>);
    let readout = move || {
        let (l, h) = hovered.get().unwrap_or((sel.layer.get(), sel.head.get()));
        res.summary.with(|s| {
            let st = s.as_ref()?.catalog.iter().find(|st| (st.layer, st.head) == (l, h))?;
            Some(tr!(
                "catalog-map-readout",
                layer = l,
                head = h,
                entropy = num(st.entropy_bits),
                distance = num(st.mean_distance),
                previous = num(st.previous_token),
                first = num(st.first_token),
                itself = num(st.self_token),
            ))
        })
    };
    view! {
        <div class="maps" id="catalog-maps">
            {MEASURES.into_iter().map(|c| view! { <MeasureMap column=c hovered /> }).collect_view()}
        </div>
        <p class="readout" id="catalog-readout">
            {readout}
        </p>
        <p class="caption">{tr!("catalog-maps-caption")}</p>
    }
}

/// The "Head catalog" view: the maps, the table, similar heads, find heads, the detectors.
#[component]
pub fn CatalogView() -> impl IntoView {
    view! {
        <div class="view-document" id="view-catalog">
            <CatalogMaps />
            <Catalog />
            <similar::SimilarHeadsPanel />
            <FindHeads />
            <detectors::DetectorsPanel />
        </div>
    }
}
