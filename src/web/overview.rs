//! Every layer × head as a small heatmap, on one canvas painted from a
//! single pixel buffer (hundreds of heads redraw in a few milliseconds).
//! Click a tile, or focus the canvas and use the arrow keys, to select.

use crate::heatmap::{cell_color, prepare, use_look, Look};
use attnscope::session::{RunSummary, Thumbnail};
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

const GAP: f64 = 6.0;
/// Room for the labels at zoom 1, left and top.
const MARGIN: f64 = 34.0;

/// The tiles keep their size at any zoom (a whole model is already a long
/// page); the labels and the margins that hold them grow with the type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub tile: f64,
    pub layers: usize,
    pub heads: usize,
    pub zoom: f64,
}

impl Grid {
    pub fn new(layers: usize, heads: usize, zoom: f64) -> Self {
        let tile = ((760.0 / heads.max(1) as f64) - GAP).floor().clamp(24.0, 72.0);
        Self { tile, layers, heads, zoom }
    }

    /// Room for the layer labels on the left and the head labels on top.
    fn margin(&self) -> f64 {
        (MARGIN * self.zoom).ceil()
    }

    pub fn size(&self) -> (f64, f64) {
        (self.margin() + self.heads as f64 * (self.tile + GAP), self.margin() + self.layers as f64 * (self.tile + GAP))
    }

    pub fn origin(&self, layer: usize, head: usize) -> (f64, f64) {
        (self.margin() + head as f64 * (self.tile + GAP), self.margin() + layer as f64 * (self.tile + GAP))
    }

    pub fn tile_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (h, l) = ((x - self.margin()) / (self.tile + GAP), (y - self.margin()) / (self.tile + GAP));
        (h >= 0.0 && l >= 0.0 && (l as usize) < self.layers && (h as usize) < self.heads).then_some((l as usize, h as usize))
    }
}

/// Paints all thumbnails; `kv_head_of` brackets grouped-query heads.
pub fn draw(
    canvas: &HtmlCanvasElement,
    overview: &[Vec<Thumbnail>],
    kv_head_of: &[usize],
    selected: (usize, usize),
    look: &Look,
) -> Result<(), JsValue> {
    let layers = overview.len();
    let heads = overview.first().map_or(0, |l| l.len());
    if layers == 0 || heads == 0 || overview[0][0].rows == 0 {
        canvas.set_width(0);
        canvas.set_height(0);
        return Ok(());
    }
    let grid = Grid::new(layers, heads, look.zoom);
    let (width, height) = grid.size();
    let ctx = prepare(canvas, width, height)?;
    // One RGBA buffer with one pixel per cell of every head, which the canvas
    // then scales up to tiles (nearest neighbour): the work grows with the
    // cells (≤ 48 × 48 a head), not with the pixels on screen.
    let (cell_rows, cell_cols) = overview.iter().flatten().fold((1, 1), |(r, c), a| (r.max(a.rows), c.max(a.cols)));
    let (w_px, h_px) = (heads * cell_cols, layers * cell_rows);
    let mut rgba = vec![0u8; w_px * h_px * 4];
    for (l, layer) in overview.iter().enumerate() {
        for (h, a) in layer.iter().enumerate() {
            for (i, levels) in a.rows().enumerate() {
                let row = (l * cell_rows + i) * w_px + h * cell_cols;
                for (j, &level) in levels.iter().take(cell_cols).enumerate() {
                    let [r, g, b] = cell_color(level as f32 / Thumbnail::ONE);
                    rgba[(row + j) * 4..(row + j) * 4 + 4].copy_from_slice(&[r, g, b, 255]);
                }
            }
        }
    }
    let packed = crate::heatmap::image_canvas(&rgba, w_px, h_px)?;
    ctx.set_image_smoothing_enabled(false);
    for (l, layer) in overview.iter().enumerate() {
        for (h, a) in layer.iter().enumerate() {
            let (x, y) = grid.origin(l, h);
            ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
                &packed,
                (h * cell_cols) as f64,
                (l * cell_rows) as f64,
                a.cols.max(1) as f64,
                a.rows.max(1) as f64,
                x,
                y,
                grid.tile,
                grid.tile,
            )?;
        }
    }
    let (ink, z, top) = (look.ink.as_str(), look.zoom, grid.margin());
    ctx.set_fill_style_str(ink);
    ctx.set_font(&look.font());
    ctx.set_text_baseline("middle");
    ctx.set_text_align("right");
    for l in 0..layers {
        let (x, y) = grid.origin(l, 0);
        ctx.fill_text(&format!("L{l}"), x - 6.0 * z, y + grid.tile / 2.0)?;
    }
    ctx.set_text_align("center");
    let grouped =
        kv_head_of.iter().any(|&g| g != kv_head_of[0]) && kv_head_of.len() == heads && kv_head_of.windows(2).any(|w| w[0] == w[1]);
    #[allow(clippy::needless_range_loop)] // kv_head_of is read only when it has one entry per head
    for h in 0..heads {
        let (x, _) = grid.origin(0, h);
        let label = if grouped { format!("H{h}·kv{}", kv_head_of[h]) } else { format!("H{h}") };
        ctx.fill_text(&label, x + grid.tile / 2.0, top - 20.0 * z)?;
    }
    if grouped {
        // A bracket over each group of query heads that share one key/value head.
        ctx.set_stroke_style_str(ink);
        ctx.set_line_width(1.5);
        let mut start = 0;
        for h in 1..=heads {
            if h == heads || kv_head_of[h] != kv_head_of[start] {
                let (x0, _) = grid.origin(0, start);
                let (x1, _) = grid.origin(0, h - 1);
                ctx.begin_path();
                ctx.move_to(x0 + 2.0, top - 6.0 * z);
                ctx.line_to(x1 + grid.tile - 2.0, top - 6.0 * z);
                ctx.stroke();
                start = h;
            }
        }
    }
    let (l, h) = selected;
    if l < layers && h < heads {
        let (x, y) = grid.origin(l, h);
        ctx.set_stroke_style_str("#ff2d78");
        ctx.set_line_width(3.0);
        ctx.stroke_rect(x - 2.5, y - 2.5, grid.tile + 5.0, grid.tile + 5.0);
    }
    Ok(())
}

/// `canvas#overview`.
#[component]
pub fn Overview(
    /// The latest run; its thumbnails are drawn where they are, not copied
    /// (a long text's are megabytes).
    summary: ReadSignal<Option<RunSummary>>,
    /// Selected (layer, head).
    #[prop(into)]
    selected: Signal<(usize, usize)>,
    /// Called with the (layer, head) the user picks.
    on_select: Callback<(usize, usize)>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let look = use_look();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let t0 = crate::heatmap::now_ms();
        let drawn = look.with(|look| {
            summary.with(|s| match s {
                Some(s) => draw(&el, &s.overview, &s.kv_head_of, selected.get(), look),
                None => draw(&el, &[], &[], selected.get(), look),
            })
        });
        if let Err(e) = drawn {
            web_sys::console::error_2(&"overview: drawing failed:".into(), &e);
        }
        // Read by the browser benchmark (scripts/bench.sh): the redraw's own cost.
        let _ = el.set_attribute("data-draw-ms", &format!("{:.2}", crate::heatmap::now_ms() - t0));
    });
    let dims = move || summary.with(|s| s.as_ref().map_or((0, 0), |s| (s.overview.len(), s.overview.first().map_or(0, |l| l.len()))));
    let on_click = move |ev: web_sys::MouseEvent| {
        let (layers, heads) = dims();
        if let Some(t) = Grid::new(layers, heads, look.with_untracked(|l| l.zoom)).tile_at(ev.offset_x() as f64, ev.offset_y() as f64) {
            on_select.run(t);
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let (layers, heads) = dims();
        let (l, h) = selected.get_untracked();
        let next = match ev.key().as_str() {
            "ArrowLeft" => (l, h.saturating_sub(1)),
            "ArrowRight" => (l, (h + 1).min(heads.saturating_sub(1))),
            "ArrowUp" => (l.saturating_sub(1), h),
            "ArrowDown" => ((l + 1).min(layers.saturating_sub(1)), h),
            _ => return,
        };
        ev.prevent_default();
        on_select.run(next);
    };
    view! {
        <figure class="overview">
            <canvas
                id="overview"
                node_ref=canvas
                tabindex="0"
                role="img"
                aria-label="Every layer and head; arrow keys move the selection"
                on:click=on_click
                on:keydown=on_key
            ></canvas>
            <figcaption>"Each tile is one head's attention (rows are queries). Click a tile or use the arrow keys to select it."</figcaption>
        </figure>
    }
}
