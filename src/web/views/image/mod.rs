//! `#view-image`: a vision trace's attention over its picture. The picture
//! is cut into the model's patches; each patch is tinted by the weight the
//! chosen query gives it in the chosen head (the head's row of A, read from
//! the same `HeadDetail` as the heatmap). A click on a patch, the arrow keys,
//! or a special token's button ([CLS], registers) chooses the query, which is
//! the page's chosen token, so every other view follows it.

mod heads;
mod steps;
#[cfg(test)]
mod tests;

use crate::canvas::paint::image_canvas;
use crate::canvas::{blank, cell_color, css, prepare, use_canvas_box, CanvasBox, PatchPictures};
use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::url_state::View;
use crate::views::beyond::Analysis;
use crate::views::common::format::fixed;
use attnscope::session::{AnalysisRequest, VisionSummary};
use attnscope::trace::PatchGrid;
use leptos::prelude::*;
use std::sync::Arc;

/// The picture's tint at first: how much of a pixel is its patch's colour.
const TINT: f64 = 0.55;

/// The vision trace shown, if the run shown is one.
fn vision_of(res: Results) -> Memo<Option<Arc<VisionSummary>>> {
    Memo::new(move |_| {
        res.summary.with(|s| s.as_ref().and_then(|s| s.vision.as_deref().cloned().map(Arc::new)))
    })
}

/// Puts the Image tab on the stage when a vision trace is shown, and takes it
/// away when another run is.
pub fn follow_vision(sel: Selection, res: Results) {
    let has = has_vision(res);
    Effect::new(move |prev: Option<bool>| {
        let vision = has.get();
        let view = sel.view.get_untracked();
        if vision && prev == Some(false) {
            sel.view.set(View::Image);
        } else if !vision && prev.is_some() && view == View::Image {
            sel.view.set(View::Head);
        }
        vision
    });
}

/// A vision trace's picture and grid, for the patches' labels in the
/// heatmap and the dot grids (`canvas::thumbs`): the picture is drawn onto
/// a canvas once per run, and the same canvas handed out after.
pub fn patch_pictures(res: Results) -> impl Fn() -> Option<PatchPictures> + Copy + 'static {
    let made = StoredValue::new_local(None::<(u64, PatchPictures)>);
    move || {
        res.summary.with(|s| {
            let s = s.as_ref()?;
            let v = s.vision.as_ref()?;
            let kept = made
                .with_value(|m| m.as_ref().filter(|(id, _)| *id == s.id).map(|(_, p)| p.clone()));
            if kept.is_some() {
                return kept;
            }
            let picture = picture_canvas(v)?;
            let pictures = PatchPictures { picture, grid: v.grid };
            made.set_value(Some((s.id, pictures.clone())));
            Some(pictures)
        })
    }
}

/// The trace's picture drawn once onto a canvas of its own size, to be drawn scaled from.
fn picture_canvas(v: &VisionSummary) -> Option<web_sys::HtmlCanvasElement> {
    let rgba: Vec<u8> = v.rgb.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect();
    image_canvas(&rgba, v.width, v.height).ok()
}

/// A token as the Image tab names it: "patch r,c", or its own text (a special token).
fn token_name(grid: PatchGrid, tokens: &[String], t: usize) -> String {
    match grid.patch_of(t) {
        Some((r, c)) => tr!("image-patch", row = r, col = c),
        None => tokens.get(t).cloned().unwrap_or_default(),
    }
}

/// Whether the run shown has a picture (the tab shows only then).
pub fn has_vision(res: Results) -> Memo<bool> {
    Memo::new(move |_| res.summary.with(|s| s.as_ref().is_some_and(|s| s.vision.is_some())))
}

/// Where the picture is on the canvas: its origin and its size, in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Placed {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Placed {
    /// The picture fitted into `room`, centred across.
    fn fit(width: usize, height: usize, room: (f64, f64)) -> Self {
        let (rw, rh) = (room.0.max(120.0), if room.1 > 40.0 { room.1 } else { room.0 });
        let scale = (rw / width as f64).min(rh / height as f64);
        let (w, h) = (width as f64 * scale, height as f64 * scale);
        Placed { x: ((rw - w) / 2.0).floor(), y: 0.0, w, h }
    }

    /// The patch (row, column) under a point, if the point is on the picture.
    fn patch_at(&self, px: f64, py: f64, rows: usize, cols: usize) -> Option<(usize, usize)> {
        let (u, v) = ((px - self.x) / self.w, (py - self.y) / self.h);
        if !(0.0..1.0).contains(&u) || !(0.0..1.0).contains(&v) {
            return None;
        }
        Some(((v * rows as f64) as usize, (u * cols as f64) as usize))
    }

    /// Patch (r, c)'s rectangle: x, y, width, height.
    fn patch(&self, r: usize, c: usize, rows: usize, cols: usize) -> (f64, f64, f64, f64) {
        let (x0, x1) = (
            self.x + self.w * c as f64 / cols as f64,
            self.x + self.w * (c + 1) as f64 / cols as f64,
        );
        let (y0, y1) = (
            self.y + self.h * r as f64 / rows as f64,
            self.y + self.h * (r + 1) as f64 / rows as f64,
        );
        (x0, y0, x1 - x0, y1 - y0)
    }
}

/// Each patch of the picture at `at` tinted by its weight over `top`, `alpha` of the colour.
fn tint_patches(
    ctx: &web_sys::CanvasRenderingContext2d,
    at: Placed,
    grid: PatchGrid,
    cells: &[f32],
    top: f32,
    alpha: f64,
) {
    ctx.set_global_alpha(alpha);
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            let w = cells[r * grid.cols + c];
            let t = if top > 0.0 { w / top } else { 0.0 };
            let (x, y, pw, ph) = at.patch(r, c, grid.rows, grid.cols);
            ctx.set_fill_style_str(&css(cell_color(t)));
            ctx.fill_rect(x, y, pw, ph);
        }
    }
    ctx.set_global_alpha(1.0);
}

/// The query's weights on the patches (rows × cols), their largest, and
/// the share of the row that went to patches; None when the head shown is
/// not this run's yet.
fn on_patches(v: &VisionSummary, row: &[f32]) -> Option<(Vec<f32>, f32, f32)> {
    let m = v.grid.over_patches(row)?;
    let top = m.data.iter().copied().fold(0.0f32, f32::max);
    let share = m.data.iter().sum::<f32>();
    Some((m.data, top, share))
}

/// The tab's whole view.
#[component]
pub fn ImageView() -> impl IntoView {
    let res = expect_context::<Results>();
    let vision = vision_of(res);
    move || match vision.get() {
        None => view! {
            <div class="view-document" id="view-image">
                <p class="view-note" id="image-none">
                    {tr!("image-none")}
                </p>
            </div>
        }
        .into_any(),
        Some(v) => view! { <Overlay vision=v /> }.into_any(),
    }
}

#[component]
fn Overlay(vision: Arc<VisionSummary>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let tint = RwSignal::new(TINT);
    let hovered = RwSignal::new(None::<(usize, usize)>);
    let placed = StoredValue::new(None::<Placed>);
    let grid = vision.grid;
    let n_special = res.tokens.with_untracked(|t| t.len()).saturating_sub(grid.patches());
    // The picture as an image once: drawn scaled on every redraw.
    let picture = StoredValue::new_local(picture_canvas(&vision));
    let query = Memo::new(move |_| {
        let n = res.tokens.with(Vec::len);
        sel.token.get().filter(|&t| t < n).unwrap_or(0)
    });
    let heads_vision = vision.clone();
    let an = expect_context::<Analysis>();
    let engine = expect_context::<Engine>();
    let rollout = RwSignal::new(false);
    // Rollout is asked for once per run, when first shown.
    Effect::new(move |_| {
        let run = res.run_id();
        let have = an.rollout.with_untracked(|r| r.as_ref().map(|r| r.0));
        if rollout.get() && run.is_some() && have != run {
            Analysis::ask(engine, sel, AnalysisRequest::Rollout);
        }
    });
    let weights = {
        let vision = vision.clone();
        Memo::new(move |_| {
            let q = query.get();
            let run = res.run_id();
            if rollout.get() {
                // R after the last layer: row q is how much of each token's input reaches q.
                return an.rollout.with(|r| {
                    let (_, layers, _) = r.as_ref().filter(|r| Some(r.0) == run)?;
                    let last = layers.last().filter(|m| q < m.rows)?;
                    on_patches(&vision, last.row(q))
                });
            }
            let (layer, head) = (sel.layer.get(), sel.head.get());
            res.detail.with(|d| {
                // The chosen head of this run only: not the one before while the new one comes.
                let d = d.as_ref().filter(|d| {
                    Some(d.id) == run && (d.layer, d.head) == (layer, head) && q < d.weights.rows
                })?;
                on_patches(&vision, d.weights.row(q))
            })
        })
    };
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let (width, height) = (vision.width, vision.height);
        let at = Placed::fit(width, height, room.get());
        let (q, alpha, shown) = (query.get(), tint.get(), weights.get());
        let drawn = look.with(|look| -> Result<(), wasm_bindgen::JsValue> {
            let ctx = prepare(&el, (at.x * 2.0 + at.w).max(120.0), at.h.max(40.0))?;
            if let Some(p) = picture.with_value(|p| p.clone()) {
                // A small picture blown up stays in sharp pixels, as the model saw it; a
                // larger one is smoothed.
                ctx.set_image_smoothing_enabled(at.w < 4.0 * width as f64);
                ctx.draw_image_with_html_canvas_element_and_dw_and_dh(&p, at.x, at.y, at.w, at.h)?;
            }
            if let Some((cells, top, _)) = &shown {
                tint_patches(&ctx, at, grid, cells, *top, alpha);
            }
            // The grid, where a patch is wide enough for lines not to hide it.
            if at.w / grid.cols as f64 >= 8.0 && at.h / grid.rows as f64 >= 8.0 {
                ctx.set_stroke_style_str("rgba(255,255,255,0.35)");
                ctx.set_line_width(1.0);
                ctx.begin_path();
                for c in 1..grid.cols {
                    let x = (at.x + at.w * c as f64 / grid.cols as f64).round() + 0.5;
                    ctx.move_to(x, at.y);
                    ctx.line_to(x, at.y + at.h);
                }
                for r in 1..grid.rows {
                    let y = (at.y + at.h * r as f64 / grid.rows as f64).round() + 0.5;
                    ctx.move_to(at.x, y);
                    ctx.line_to(at.x + at.w, y);
                }
                ctx.stroke();
            }
            if let Some((r, c)) = grid.patch_of(q) {
                let (x, y, pw, ph) = at.patch(r, c, grid.rows, grid.cols);
                ctx.set_stroke_style_str(&look.focus);
                ctx.set_line_width(2.5);
                ctx.stroke_rect(x + 1.25, y + 1.25, pw - 2.5, ph - 2.5);
            }
            let _ = el.set_attribute("data-query", &q.to_string());
            let _ = el.set_attribute("data-rows", &grid.rows.to_string());
            let _ = el.set_attribute("data-cols", &grid.cols.to_string());
            let box_attr = format!("{:.1},{:.1},{:.1},{:.1}", at.x, at.y, at.w, at.h);
            let _ = el.set_attribute("data-picture", &box_attr);
            Ok(())
        });
        match drawn {
            Ok(()) => placed.set_value(Some(at)),
            Err(e) => {
                blank(&el);
                web_sys::console::error_2(&"image view: drawing failed:".into(), &e);
            }
        }
    });
    let patch_under = move |ev: &web_sys::MouseEvent| {
        placed.get_value()?.patch_at(
            ev.offset_x() as f64,
            ev.offset_y() as f64,
            grid.rows,
            grid.cols,
        )
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(t) = patch_under(&ev).and_then(|(r, c)| grid.token(r, c)) {
            sel.token.set(Some(t));
        }
    };
    let on_move = move |ev: web_sys::MouseEvent| hovered.set(patch_under(&ev));
    // Arrows move the query from patch to patch (from a special token, to the first patch).
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let (r, c) = grid.patch_of(query.get_untracked()).unwrap_or((0, 0));
        let to = match ev.key().as_str() {
            "ArrowLeft" => (r, c.saturating_sub(1)),
            "ArrowRight" => (r, (c + 1).min(grid.cols - 1)),
            "ArrowUp" => (r.saturating_sub(1), c),
            "ArrowDown" => ((r + 1).min(grid.rows - 1), c),
            _ => return,
        };
        ev.prevent_default();
        sel.token.set(grid.token(to.0, to.1));
    };
    let name = move |t: usize| res.tokens.with(|ts| ts.get(t).cloned().unwrap_or_default());
    let describe = move |t: usize| res.tokens.with(|ts| token_name(grid, ts, t));
    let caption = move || {
        let q = query.get();
        if rollout.get() {
            let layers = res.summary.with(|s| s.as_ref().map_or(0, |s| s.info.n_layers));
            return match weights.get() {
                None => tr!("image-rollout-computing"),
                Some((_, top, share)) => tr!(
                    "image-rollout-caption",
                    layers = layers,
                    query = describe(q),
                    top = fixed(top as f64, 3),
                    share = fixed((share * 100.0) as f64, 0),
                    patches = grid.patches(),
                    specials = n_special,
                ),
            };
        }
        let head = tr!("image-layer-head", layer = sel.layer.get(), head = sel.head.get());
        match weights.get() {
            None => tr!("image-head-reading", head = head),
            Some((_, top, share)) => tr!(
                "image-head-caption",
                head = head,
                query = describe(q),
                top = fixed(top as f64, 3),
                share = fixed((share * 100.0) as f64, 0),
                patches = grid.patches(),
                specials = n_special,
            ),
        }
    };
    let readout = move || {
        let Some((cells, _, _)) = weights.get() else { return String::new() };
        let strongest = (0..cells.len()).max_by(|&a, &b| cells[a].total_cmp(&cells[b]));
        let mut parts = Vec::new();
        if let Some(p) = strongest {
            parts.push(tr!(
                "image-readout-most",
                patch = tr!("image-patch", row = p / grid.cols, col = p % grid.cols),
                weight = fixed(cells[p] as f64, 4),
            ));
        }
        if let Some((r, c)) = hovered.get() {
            let rank = cells.iter().filter(|&&w| w > cells[r * grid.cols + c]).count() + 1;
            parts.push(tr!(
                "image-readout-under",
                patch = tr!("image-patch", row = r, col = c),
                weight = fixed(cells[r * grid.cols + c] as f64, 4),
                rank = rank,
                count = cells.len(),
            ));
        }
        parts.join(" · ")
    };
    let specials: Vec<usize> =
        (0..res.tokens.with_untracked(Vec::len)).filter(|&t| grid.patch_of(t).is_none()).collect();
    view! {
        <div class="view-picture image-view" id="view-image">
            <p class="caption image-caption" id="image-caption">
                {caption}
            </p>
            <div class="image-controls">
                <div class="image-queries" role="group" aria-label=tr!("image-queries-aria")>
                    {specials
                        .into_iter()
                        .map(|t| {
                            view! {
                                <button
                                    class="image-special"
                                    id=format!("image-special-{t}")
                                    aria-pressed=move || (query.get() == t).to_string()
                                    on:click=move |_| sel.token.set(Some(t))
                                >
                                    {move || name(t)}
                                </button>
                            }
                        })
                        .collect_view()}
                    <span class="image-hint">{tr!("image-hint")}</span>
                </div>
                <label class="image-source">
                    {tr!("image-show")} " "
                    <select
                        id="image-source"
                        on:change=move |ev| rollout.set(event_target_value(&ev) == "rollout")
                    >
                        <option value="head" selected=move || !rollout.get()>
                            {tr!("image-source-head")}
                        </option>
                        <option value="rollout" selected=move || rollout.get()>
                            {tr!("image-source-rollout")}
                        </option>
                    </select>
                </label>
                <label class="image-tint">
                    {tr!("image-tint")} " "
                    <input
                        type="range"
                        id="image-tint"
                        min="0"
                        max="100"
                        prop:value=move || (tint.get() * 100.0).round().to_string()
                        on:input=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                                tint.set((v / 100.0).clamp(0.0, 1.0));
                            }
                        }
                    />
                </label>
            </div>
            <div class="canvas-box image-box" node_ref=boxed>
                <canvas
                    id="image-overlay"
                    node_ref=canvas
                    tabindex="0"
                    role="img"
                    aria-label=move || {
                        tr!(
                            "image-overlay-aria",
                            rows = grid.rows,
                            cols = grid.cols,
                            query = describe(query.get()),
                        )
                    }
                    on:click=on_click
                    on:mousemove=on_move
                    on:mouseleave=move |_| hovered.set(None)
                    on:keydown=on_key
                ></canvas>
            </div>
            <p class="readout" id="image-readout">
                {readout}
            </p>
            {move || (!rollout.get()).then(|| view! { <steps::QueryKeys grid=grid query=query /> })}
            <heads::HeadsOfLayer vision=heads_vision query=query picture=picture tint=tint />
        </div>
    }
}
