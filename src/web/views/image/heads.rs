//! `canvas#image-heads`: every head of the chosen layer side by side, each a
//! small copy of the picture tinted by where the chosen query looks in that
//! head (each scaled to its own largest weight, so that every head's pattern
//! shows). The layer's rows come in one request (`ToWorker::QueryRows`); a
//! click on a copy chooses that head.

use super::{tint_patches, Placed};
use crate::canvas::{blank, prepare, use_canvas_box, CanvasBox};
use crate::compute::Engine;
use crate::state::{Results, Selection};
use attnscope::session::{ToWorker, VisionSummary};
use leptos::prelude::*;
use std::sync::Arc;
use web_sys::HtmlCanvasElement;

/// A copy's longest side, and the room around it (its label below), in CSS pixels.
const SIDE: f64 = 112.0;
const GAP: f64 = 10.0;
const LABEL: f64 = 18.0;

/// Where the copies are: how many across, and each one's box.
#[derive(Clone, Copy)]
struct Tiles {
    across: usize,
    count: usize,
    w: f64,
    h: f64,
}

impl Tiles {
    /// The head under a point.
    fn head_at(&self, x: f64, y: f64) -> Option<usize> {
        let (col, row) = ((x / (self.w + GAP)).floor(), (y / (self.h + LABEL + GAP)).floor());
        if col < 0.0 || row < 0.0 || col as usize >= self.across {
            return None;
        }
        let h = row as usize * self.across + col as usize;
        (h < self.count).then_some(h)
    }
}

#[component]
pub fn HeadsOfLayer(
    vision: Arc<VisionSummary>,
    query: Memo<usize>,
    picture: StoredValue<Option<HtmlCanvasElement>, LocalStorage>,
    tint: RwSignal<f64>,
) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<Tiles>);
    let grid = vision.grid;
    // Folded at first, so the picture above has the room; asked for only when
    // open, and again whenever the run, the layer or the query changes.
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        let (Some(id), layer, q) = (res.run_id(), sel.layer.get(), query.get()) else { return };
        if open.get() {
            engine.send(ToWorker::QueryRows { id, layer, query: q });
        }
    });
    let rows = Memo::new(move |_| {
        let (id, layer, q) = (res.run_id(), sel.layer.get(), query.get());
        res.query_rows.with(|r| {
            r.as_ref()
                .filter(|r| Some(r.id) == id && r.layer == layer && r.query == q)
                .map(|r| r.rows.clone())
        })
    });
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let Some(rows) = rows.get() else { return blank(&el) };
        let (chosen, alpha, width) = (sel.head.get(), tint.get(), room.get().0.max(200.0));
        let scale = SIDE / vision.width.max(vision.height) as f64;
        let (w, h) = (vision.width as f64 * scale, vision.height as f64 * scale);
        let across = (((width + GAP) / (w + GAP)).floor() as usize).clamp(1, rows.rows.max(1));
        let tiles = Tiles { across, count: rows.rows, w, h };
        let lines = rows.rows.div_ceil(across);
        let drawn = look.with(|look| -> Result<(), wasm_bindgen::JsValue> {
            let ctx = prepare(&el, across as f64 * (w + GAP), lines as f64 * (h + LABEL + GAP))?;
            ctx.set_font(&look.font_scaled(0.85, false));
            ctx.set_text_align("center");
            ctx.set_text_baseline("top");
            let image = picture.with_value(|p| p.clone());
            for head in 0..rows.rows {
                let (x, y) = (
                    (head % across) as f64 * (w + GAP),
                    (head / across) as f64 * (h + LABEL + GAP),
                );
                let at = Placed { x, y, w, h };
                if let Some(p) = &image {
                    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(p, x, y, w, h)?;
                }
                if let Some(cells) = grid.over_patches(rows.row(head)) {
                    let top = cells.data.iter().copied().fold(0.0f32, f32::max);
                    tint_patches(&ctx, at, grid, &cells.data, top, alpha);
                }
                let mine = head == chosen;
                ctx.set_fill_style_str(if mine { &look.focus } else { &look.ink });
                ctx.fill_text(&tr!("image-heads-tile", head = head), x + w / 2.0, y + h + 3.0)?;
                if mine {
                    ctx.set_stroke_style_str(&look.focus);
                    ctx.set_line_width(2.5);
                    ctx.stroke_rect(x + 1.25, y + 1.25, w - 2.5, h - 2.5);
                }
            }
            let _ = el.set_attribute("data-heads", &rows.rows.to_string());
            let _ = el.set_attribute("data-across", &across.to_string());
            Ok(())
        });
        match drawn {
            Ok(()) => placed.set_value(Some(tiles)),
            Err(e) => web_sys::console::error_2(&"image heads: drawing failed:".into(), &e),
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(t) = placed.get_value() else { return };
        if let Some(h) = t.head_at(ev.offset_x() as f64, ev.offset_y() as f64) {
            sel.head.set(h);
        }
    };
    let on_toggle = move |ev: web_sys::Event| {
        // `open` is the details' attribute (web-sys's HtmlDetailsElement is not built in).
        open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"));
    };
    view! {
        <details class="image-heads" id="image-heads-details" on:toggle=on_toggle>
            <summary>{move || tr!("image-heads-summary", layer = sel.layer.get())}</summary>
            <p class="image-caption">{tr!("image-heads-caption")}</p>
            <div class="canvas-box natural image-heads-box" node_ref=boxed>
                <canvas
                    id="image-heads"
                    node_ref=canvas
                    role="img"
                    aria-label=move || tr!("image-heads-aria", layer = sel.layer.get())
                    on:click=on_click
                ></canvas>
            </div>
        </details>
    }
}
