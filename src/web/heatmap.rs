//! One head's attention as a heatmap on a canvas: row i is query token i,
//! column j key token j (or the transpose, in the orientation of
//! 3Blue1Brown's videos where each column is a query). One canvas, not one
//! DOM node per cell, so a 256-token text stays cheap to redraw.

use attnscope::draw::colormap::{diverging, viridis};
use attnscope::Matrix;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Label type size at zoom 1, in CSS pixels.
const FONT_PX: f64 = 12.0;
/// Rough width of one character of the label font at zoom 1, to size the margins.
const CHAR_WIDTH: f64 = 7.0;
/// Labels longer than this are cut with an ellipsis.
const LABEL_CHARS: usize = 14;

/// The colour of a weight (viridis, colour-blind safe, 0…1).
pub fn cell_color(w: f32) -> [u8; 3] {
    viridis(w)
}

/// The colour of a signed score, relative to the largest |score| shown.
pub fn signed_color(s: f32, range: f32) -> [u8; 3] {
    diverging(if range > 0.0 { s / range } else { 0.0 })
}

pub fn css(rgb: [u8; 3]) -> String {
    format!("rgb({},{},{})", rgb[0], rgb[1], rgb[2])
}

/// What every canvas takes from the page's style: the theme's ink, and how
/// much larger than normal the page's type is (presentation mode). The page
/// sets it after restyling itself, so that every canvas redraws in the new
/// look; a canvas only reading the style when it happens to redraw kept its
/// old ink (dark labels on a dark page) and its small type.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    pub ink: String,
    /// The page's root font size over the browser's usual 16 px.
    pub zoom: f64,
}

impl Default for Look {
    fn default() -> Self {
        Look { ink: "#1b1f24".into(), zoom: 1.0 }
    }
}

impl Look {
    /// Read from the page's computed style (the default where there is none).
    pub fn current() -> Look {
        let style = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .and_then(|el| web_sys::window()?.get_computed_style(&el).ok().flatten());
        let property = |name: &str| {
            style.as_ref().and_then(|s| s.get_property_value(name).ok()).map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
        };
        let default = Look::default();
        let zoom = property("font-size")
            .and_then(|px| px.strip_suffix("px")?.parse::<f64>().ok())
            .filter(|px| px.is_finite() && *px > 0.0)
            .map_or(1.0, |px| (px / 16.0).clamp(0.5, 4.0));
        Look { ink: property("--ink").unwrap_or(default.ink), zoom }
    }

    /// The label font at this zoom.
    pub fn font(&self) -> String {
        format!("{}px system-ui, sans-serif", (FONT_PX * self.zoom).round())
    }
}

/// The page's look for a canvas component to track: provided by the page,
/// read once from the style where a component is mounted on its own (tests).
pub fn use_look() -> Signal<Look> {
    use_context::<ReadSignal<Look>>().map_or_else(|| Signal::stored(Look::current()), Signal::from)
}

/// Where things go on the canvas, in CSS pixels. Integer positions keep
/// every cell one flat colour (no anti-aliased edges).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub cell: f64,
    /// Width of the row labels on the left.
    pub left: f64,
    /// Height of the column labels on top.
    pub top: f64,
    pub rows: usize,
    pub cols: usize,
    /// Everything, type included, is this much larger than at zoom 1.
    pub zoom: f64,
}

impl Layout {
    pub fn new(tokens: &[String], rows: usize, cols: usize, zoom: f64) -> Self {
        Self::sized(tokens, rows, cols, 480.0, zoom)
    }

    /// A layout whose grid is about `span` pixels across at zoom 1.
    pub fn sized(tokens: &[String], rows: usize, cols: usize, span: f64, zoom: f64) -> Self {
        let longest = tokens.iter().map(|t| t.chars().count().min(LABEL_CHARS + 1)).max().unwrap_or(0);
        let margin = ((longest as f64 * CHAR_WIDTH + 10.0) * zoom).ceil();
        let cell = (span * zoom / rows.max(cols).max(1) as f64).floor().clamp(4.0, (40.0 * zoom).floor());
        Self { cell, left: margin, top: margin, rows, cols, zoom }
    }

    pub fn size(&self) -> (f64, f64) {
        (self.left + self.cell * self.cols as f64 + 4.0, self.top + self.cell * self.rows as f64 + 4.0)
    }

    /// Top-left corner of cell (i, j).
    pub fn cell_origin(&self, i: usize, j: usize) -> (f64, f64) {
        (self.left + self.cell * j as f64, self.top + self.cell * i as f64)
    }

    /// The cell under a point, if any.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (j, i) = ((x - self.left) / self.cell, (y - self.top) / self.cell);
        (i >= 0.0 && j >= 0.0 && (i as usize) < self.rows && (j as usize) < self.cols).then_some((i as usize, j as usize))
    }

    /// Show every n-th label so that labels never overlap.
    pub fn label_every(&self) -> usize {
        ((FONT_PX + 2.0) * self.zoom / self.cell).ceil().max(1.0) as usize
    }
}

pub fn label(token: &str) -> String {
    if token.chars().count() > LABEL_CHARS {
        token.chars().take(LABEL_CHARS - 1).chain(['…']).collect()
    } else {
        token.to_string()
    }
}

/// The page's clock (performance.now()), in milliseconds.
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Sizes the canvas for `layout` at device resolution and returns its context.
pub fn prepare(canvas: &HtmlCanvasElement, width: f64, height: f64) -> Result<CanvasRenderingContext2d, JsValue> {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    canvas.set_width((width * dpr).round() as u32);
    canvas.set_height((height * dpr).round() as u32);
    canvas.set_attribute("style", &format!("width: {width}px; height: {height}px"))?;
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d")?.ok_or_else(|| JsValue::from_str("no 2d canvas context"))?.dyn_into()?;
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)?;
    ctx.clear_rect(0.0, 0.0, width, height);
    Ok(ctx)
}

/// Row labels on the left, column labels on top (turned to read upwards).
pub fn draw_labels(ctx: &CanvasRenderingContext2d, layout: &Layout, rows: &[String], cols: &[String], look: &Look) -> Result<(), JsValue> {
    ctx.set_fill_style_str(&look.ink);
    ctx.set_font(&look.font());
    ctx.set_text_baseline("middle");
    let half = layout.cell / 2.0;
    let gap = 6.0 * layout.zoom;
    let every = layout.label_every();
    ctx.set_text_align("right");
    for (i, token) in rows.iter().take(layout.rows).enumerate().filter(|(i, _)| i % every == 0) {
        let (x, y) = layout.cell_origin(i, 0);
        ctx.fill_text(&label(token), x - gap, y + half)?;
    }
    ctx.set_text_align("left");
    for (j, token) in cols.iter().take(layout.cols).enumerate().filter(|(j, _)| j % every == 0) {
        let (x, y) = layout.cell_origin(0, j);
        ctx.save();
        ctx.translate(x + half, y - gap)?;
        ctx.rotate(-std::f64::consts::FRAC_PI_2)?;
        ctx.fill_text(&label(token), 0.0, 0.0)?;
        ctx.restore();
    }
    Ok(())
}

/// Draws `weights` (queries × keys) with `tokens` on both axes; transposed
/// when `columns_are_queries`. `highlight` outlines one token's row and column.
pub fn draw(
    canvas: &HtmlCanvasElement,
    tokens: &[String],
    weights: Option<&Matrix>,
    columns_are_queries: bool,
    highlight: Option<usize>,
    look: &Look,
) -> Result<(), JsValue> {
    let Some(a) = weights.filter(|a| a.rows > 0 && a.cols > 0) else {
        canvas.set_width(0);
        canvas.set_height(0);
        return Ok(());
    };
    let shown = if columns_are_queries { a.transpose() } else { a.clone() };
    let layout = Layout::new(tokens, shown.rows, shown.cols, look.zoom);
    let (width, height) = layout.size();
    let ctx = prepare(canvas, width, height)?;
    paint_cells(&ctx, &layout, &shown, cell_color)?;
    outline_token(&ctx, &layout, highlight, shown.rows, shown.cols);
    draw_labels(&ctx, &layout, tokens, tokens, look)
}

/// Paints `m` onto the grid of `layout`, one flat colour a cell. The cells
/// go into an image with one pixel each, which the canvas scales up without
/// smoothing: one draw call, however long the text (256 tokens are 65,536 cells).
pub fn paint_cells(ctx: &CanvasRenderingContext2d, layout: &Layout, m: &Matrix, colour: impl Fn(f32) -> [u8; 3]) -> Result<(), JsValue> {
    let mut rgba = Vec::with_capacity(m.data.len() * 4);
    for &v in &m.data {
        let [r, g, b] = colour(v);
        rgba.extend_from_slice(&[r, g, b, 255]);
    }
    let pixels = image_canvas(&rgba, m.cols, m.rows)?;
    ctx.set_image_smoothing_enabled(false);
    let (x, y) = layout.cell_origin(0, 0);
    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(&pixels, x, y, layout.cell * m.cols as f64, layout.cell * m.rows as f64)
}

/// An offscreen canvas holding `rgba` (width × height pixels).
pub fn image_canvas(rgba: &[u8], width: usize, height: usize) -> Result<HtmlCanvasElement, JsValue> {
    let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(wasm_bindgen::Clamped(rgba), width as u32, height as u32)?;
    let canvas: HtmlCanvasElement = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("canvas").ok())
        .ok_or_else(|| JsValue::from_str("cannot create a canvas"))?
        .dyn_into()?;
    canvas.set_width(width as u32);
    canvas.set_height(height as u32);
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d")?.ok_or_else(|| JsValue::from_str("no 2d canvas context"))?.dyn_into()?;
    ctx.put_image_data(&image, 0.0, 0.0)?;
    Ok(canvas)
}

/// Outlines token `t`'s row and column (the token hovered in the strip).
pub fn outline_token(ctx: &CanvasRenderingContext2d, layout: &Layout, highlight: Option<usize>, rows: usize, cols: usize) {
    if let Some(t) = highlight.filter(|&t| rows > 0 && cols > 0 && t < rows.max(cols)) {
        ctx.set_stroke_style_str("#ff2d78");
        ctx.set_line_width(2.0);
        let (x, y) = layout.cell_origin(t.min(rows - 1), 0);
        ctx.stroke_rect(x, y, layout.cell * cols as f64, layout.cell);
        let (x, y) = layout.cell_origin(0, t.min(cols - 1));
        ctx.stroke_rect(x, y, layout.cell, layout.cell * rows as f64);
    }
}

/// What the pointer is over: query, key, weight and raw score.
#[derive(Clone, Debug, PartialEq)]
pub struct Hovered {
    pub query: usize,
    pub key: usize,
    pub x: f64,
    pub y: f64,
}

/// `canvas#heatmap`: the attention weights of one head, with a tooltip.
#[component]
pub fn Heatmap(
    /// Token strings, used as row and column labels.
    #[prop(into)]
    tokens: Signal<Vec<String>>,
    /// A = softmax(QKᵀ/√d_k + M) of the head to show, or None to show nothing.
    #[prop(into)]
    weights: Signal<Option<Matrix>>,
    /// Raw scores S = QKᵀ of the same head, for the tooltip.
    #[prop(into)]
    scores: Signal<Option<Matrix>>,
    /// Draw Aᵀ: each column a query (3Blue1Brown's orientation).
    #[prop(into)]
    columns_are_queries: Signal<bool>,
    /// A token to outline (hovered in the token strip).
    #[prop(into)]
    highlight: Signal<Option<usize>>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let (hovered, set_hovered) = signal(None::<Hovered>);
    let look = use_look();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let t0 = now_ms();
        let drawn =
            tokens.with(|t| weights.with(|w| look.with(|look| draw(&el, t, w.as_ref(), columns_are_queries.get(), highlight.get(), look))));
        if let Err(e) = drawn {
            web_sys::console::error_2(&"heatmap: drawing failed:".into(), &e);
        }
        let _ = el.set_attribute("data-draw-ms", &format!("{:.2}", now_ms() - t0));
    });
    let on_move = move |ev: web_sys::MouseEvent| {
        let n = tokens.with(|t| t.len());
        let layout = tokens.with(|t| Layout::new(t, n, n, look.with_untracked(|l| l.zoom)));
        let (x, y) = (ev.offset_x() as f64, ev.offset_y() as f64);
        set_hovered.set(layout.cell_at(x, y).map(|(i, j)| {
            let (query, key) = if columns_are_queries.get_untracked() { (j, i) } else { (i, j) };
            Hovered { query, key, x, y }
        }));
    };
    let tooltip = move || {
        let h = hovered.get()?;
        let toks = tokens.get();
        let w = weights.with(|w| w.as_ref().and_then(|w| (h.query < w.rows && h.key < w.cols).then(|| w[(h.query, h.key)])))?;
        let s = scores.with(|s| s.as_ref().and_then(|s| (h.query < s.rows && h.key < s.cols).then(|| s[(h.query, h.key)])));
        let text = format!(
            "{} → {}: weight {:.4}{}",
            toks.get(h.query).cloned().unwrap_or_default(),
            toks.get(h.key).cloned().unwrap_or_default(),
            w,
            s.map(|s| format!(", raw score {s:.3}")).unwrap_or_default()
        );
        Some(view! { <div class="tooltip" role="tooltip" style=format!("left: {}px; top: {}px", h.x + 14.0, h.y + 14.0)>{text}</div> })
    };
    view! {
        <figure class="heatmap">
            <div class="canvas-wrap">
                <canvas
                    id="heatmap"
                    node_ref=canvas
                    role="img"
                    aria-label="Attention weights of the selected head; the table below lists the same numbers"
                    on:mousemove=on_move
                    on:mouseleave=move |_| set_hovered.set(None)
                ></canvas>
                {tooltip}
            </div>
            <figcaption>
                {move || if columns_are_queries.get() {
                    "Column j: how query token j spreads its attention over the tokens (rows). Brighter means more; each column sums to 1."
                } else {
                    "Row i: how query token i spreads its attention over the tokens (columns). Brighter means more; each row sums to 1."
                }}
            </figcaption>
        </figure>
    }
}

/// A colour bar for weights 0…1.
#[component]
pub fn ColourBar() -> impl IntoView {
    let stops: Vec<String> = (0..=10).map(|i| format!("{} {}%", css(cell_color(i as f32 / 10.0)), i * 10)).collect();
    view! {
        <div class="colourbar" aria-hidden="true">
            <span>"0"</span>
            <span class="ramp" style=format!("background: linear-gradient(to right, {})", stops.join(", "))></span>
            <span>"1"</span>
        </div>
    }
}
