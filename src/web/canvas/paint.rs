//! Putting pixels on a canvas: sizing it for the screen's resolution,
//! colours for weights and scores, and many flat cells in one draw call.

use super::grid::Layout;
use super::look::Rgb;
use attnscope::draw::colormap::{diverging, viridis};
use leptos::prelude::{SetValue, StoredValue, WithValue};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The colour of a weight (viridis, colour-blind safe, 0…1).
#[inline]
pub fn cell_color(w: f32) -> Rgb {
    viridis(w)
}

/// The colour of a signed score, relative to the largest |score| shown.
#[inline]
pub fn signed_color(s: f32, range: f32) -> Rgb {
    diverging(if range > 0.0 { s / range } else { 0.0 })
}

pub fn css(rgb: Rgb) -> String {
    format!("rgb({},{},{})", rgb[0], rgb[1], rgb[2])
}

/// The colour `t` of the way from `a` to `b`.
pub fn mix(a: Rgb, b: Rgb, t: f64) -> Rgb {
    let t = t.clamp(0.0, 1.0);
    [0, 1, 2].map(|k| (a[k] as f64 + (b[k] as f64 - a[k] as f64) * t).round() as u8)
}

/// Black or white, whichever reads better on `rgb`.
pub fn text_on(rgb: Rgb) -> &'static str {
    let luminance = 0.2126 * rgb[0] as f64 + 0.7152 * rgb[1] as f64 + 0.0722 * rgb[2] as f64;
    if luminance > 140.0 {
        "#000"
    } else {
        "#fff"
    }
}

/// The page's clock (performance.now()), in milliseconds.
pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A canvas's 2d context.
pub fn context(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, JsValue> {
    canvas
        .get_context("2d")?
        .ok_or_else(|| JsValue::from_str("no 2d canvas context"))?
        .dyn_into()
        .map_err(JsValue::from)
}

/// Sizes the canvas to `width × height` CSS pixels at the screen's
/// resolution and returns its context, cleared.
pub fn prepare(
    canvas: &HtmlCanvasElement,
    width: f64,
    height: f64,
) -> Result<CanvasRenderingContext2d, JsValue> {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (w, h) = ((width * dpr).round() as u32, (height * dpr).round() as u32);
    // Resizing clears a canvas and costs an allocation: only when it changes.
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    canvas.set_attribute("style", &format!("width: {width}px; height: {height}px"))?;
    let ctx = context(canvas)?;
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)?;
    ctx.clear_rect(0.0, 0.0, width, height);
    Ok(ctx)
}

/// Empties a canvas (nothing to show).
pub fn blank(canvas: &HtmlCanvasElement) {
    canvas.set_width(0);
    canvas.set_height(0);
    let _ = canvas.set_attribute("style", "width: 0; height: 0");
}

/// Paints one flat colour per cell of `layout`, `colour(k)` giving cell
/// k's (row by row). The cells go into an image with one pixel each
/// ([`cell_image`]), which the canvas scales up without smoothing: one draw
/// call, however long the text (256 tokens are 65,536 cells). Zoomed in,
/// only the cells seen through the layout's window are drawn, cut at its
/// edges.
pub fn paint_cells(
    ctx: &CanvasRenderingContext2d,
    layout: &Layout,
    colour: impl Fn(usize) -> Rgb,
) -> Result<(), JsValue> {
    if layout.rows == 0 || layout.cols == 0 {
        return Ok(());
    }
    let image = cell_image(layout.rows, layout.cols, |k| {
        let [r, g, b] = colour(k);
        [r, g, b, 255]
    })?;
    paint_image(ctx, layout, &image)
}

/// An image of `rows` × `cols` pixels, one per cell, `rgba(k)` giving cell
/// k's (row by row), for [`paint_image`].
pub fn cell_image(
    rows: usize,
    cols: usize,
    rgba: impl Fn(usize) -> [u8; 4],
) -> Result<HtmlCanvasElement, JsValue> {
    // A pixel written as one word: the page's wasm is built for size, and
    // appending four bytes at a time was a call each (a million per head of
    // a long text).
    let mut pixels = vec![0u32; rows * cols];
    for (k, pixel) in pixels.iter_mut().enumerate() {
        *pixel = u32::from_ne_bytes(rgba(k));
    }
    image_canvas(bytemuck::cast_slice(&pixels), cols, rows)
}

/// A view's cell image ([`cell_image`]) kept with what it was made from:
/// pointing, zooming and panning draw the same cells again, and a
/// 1,000-token text has a million of them to colour.
pub struct KeptImage<K: 'static>(StoredValue<Option<(K, HtmlCanvasElement)>>);

impl<K: 'static> Clone for KeptImage<K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K: 'static> Copy for KeptImage<K> {}

impl<K: PartialEq + Send + Sync + 'static> KeptImage<K> {
    pub fn new() -> Self {
        KeptImage(StoredValue::new(None))
    }

    /// The image made from `of`: the one kept if it was, else `make`'s, kept in its place.
    pub fn get_or_make(
        self,
        of: K,
        make: impl FnOnce() -> Result<HtmlCanvasElement, JsValue>,
    ) -> Result<HtmlCanvasElement, JsValue> {
        if let Some(image) = self.0.with_value(|kept| {
            kept.as_ref().filter(|(o, _)| *o == of).map(|(_, image)| image.clone())
        }) {
            return Ok(image);
        }
        let image = make()?;
        self.0.set_value(Some((of, image.clone())));
        Ok(image)
    }
}

/// [`paint_cells`] from an image already made, one pixel per cell.
pub fn paint_image(
    ctx: &CanvasRenderingContext2d,
    layout: &Layout,
    pixels: &HtmlCanvasElement,
) -> Result<(), JsValue> {
    let (seen_rows, seen_cols) = (layout.visible_rows(), layout.visible_cols());
    if layout.rows == 0 || layout.cols == 0 || seen_rows.is_empty() || seen_cols.is_empty() {
        return Ok(());
    }
    ctx.set_image_smoothing_enabled(false);
    let (i0, j0) = (seen_rows.start, seen_cols.start);
    let (h, w) = (seen_rows.len(), seen_cols.len());
    let (x, y) = layout.cell_origin(i0, j0);
    let zoomed = layout.zoomed();
    if zoomed {
        layout.clip(ctx, 0.0);
    }
    let drawn = ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
        pixels,
        j0 as f64,
        i0 as f64,
        w as f64,
        h as f64,
        x,
        y,
        layout.cell * w as f64,
        layout.cell * h as f64,
    );
    if zoomed {
        ctx.restore();
    }
    drawn
}

/// An offscreen canvas holding `rgba` (width × height pixels).
pub fn image_canvas(
    rgba: &[u8],
    width: usize,
    height: usize,
) -> Result<HtmlCanvasElement, JsValue> {
    let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
        wasm_bindgen::Clamped(rgba),
        width as u32,
        height as u32,
    )?;
    let canvas: HtmlCanvasElement = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("canvas").ok())
        .ok_or_else(|| JsValue::from_str("cannot create a canvas"))?
        .dyn_into()?;
    canvas.set_width(width as u32);
    canvas.set_height(height as u32);
    context(&canvas)?.put_image_data(&image, 0.0, 0.0)?;
    Ok(canvas)
}
