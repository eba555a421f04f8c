//! Drawing one head's cells: the colour and number of a cell at each step,
//! a whole map from its one-pixel-per-cell image, zoomed or not, and the
//! numbers on big cells. The heatmap and the comparison beside it draw
//! through it.

use crate::canvas::{
    blank, cell_color, cell_image, draw_labels, label_width, mix, outline_cell, outline_token,
    paint_image, prepare, signed_color, text_on, Focus, Layout, Look, Rgb, Room, Thumbs, Zoomer,
};
use crate::url_state::Stage;
use crate::views::common::axes::Axes;
use crate::views::common::format::fixed;
use crate::views::common::stages::Frame;
use attnscope::attention::Mask;
use attnscope::Matrix;
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

/// The colour of a cell holding `v` at `stage`; score stages are coloured
/// against `range` (the largest |raw score|), −∞ in `grey`.
#[inline]
pub fn colour(v: f32, stage: Stage, range: f32, grey: Rgb) -> Rgb {
    match stage {
        Stage::Weights => cell_color(v),
        _ if v == f32::NEG_INFINITY => grey,
        _ => signed_color(v, range),
    }
}

/// How a cell's number is written: weights with two decimals, scores with one.
pub fn cell_text(v: f32, stage: Stage) -> String {
    if v == f32::NEG_INFINITY {
        "−∞".into()
    } else if stage == Stage::Weights {
        fixed(v as f64, 2)
    } else if v.abs() >= 99.95 {
        fixed(v as f64, 0)
    } else {
        fixed(v as f64, 1)
    }
}

/// What one drawing shows: two stages of the same cells (oriented as
/// drawn) and how far the picture has gone from the first to the second.
pub struct Picture {
    pub from: Matrix,
    pub to: Matrix,
    pub frame: Frame,
    pub range: f32,
    pub focus: Focus,
    /// The cell described in the readout, as (row, column).
    pub cell: Option<(usize, usize)>,
    /// The numbers written on the cells when `to` is only their colour (value-weighted attention,
    /// normalized per row).
    pub values: Option<Matrix>,
    /// The head's mask and how its cells lie: the weights of the keys it
    /// hides are 0 by construction, and their colour already says so, so
    /// no "0.00" is written on them.
    pub hidden: Option<(Mask, Axes)>,
    /// The colour of those cells and of −∞ ([`Look::hidden`]).
    pub grey: Rgb,
    /// A vision trace's patches, labelled with their pictures.
    pub thumbs: Option<Thumbs>,
}

/// One pixel per cell of `pic`, coloured for its frame: an image the canvas
/// scales up ([`draw_zoomed`]). A key the mask hides stays grey from the
/// "+ M" step through the softmax: its weight is 0 because it is hidden,
/// which the colour of a weight of 0 alone (viridis' darkest) would not tell
/// from a visible key that gets almost nothing.
pub fn cell_pixels(pic: &Picture) -> Result<HtmlCanvasElement, JsValue> {
    let (to, from) = (&pic.to, &pic.from);
    let moving = pic.frame.t < 1.0 && from.shape() == to.shape();
    cell_image(to.rows, to.cols, |k| {
        let hidden =
            pic.hidden.is_some_and(|(mask, axes)| axes.hides(mask, (k / to.cols, k % to.cols)));
        let at = |v: f32, stage: Stage| {
            if hidden && stage == Stage::Weights {
                pic.grey
            } else {
                colour(v, stage, pic.range, pic.grey)
            }
        };
        let mut c = at(to.data[k], pic.frame.to);
        if moving {
            c = mix(at(from.data[k], pic.frame.from), c, pic.frame.t);
        }
        [c[0], c[1], c[2], 255]
    })
}

/// Draws `pic` with `rows` and `cols` as labels, fitted into `room`.
pub fn draw(
    canvas: &HtmlCanvasElement,
    rows: &[String],
    cols: &[String],
    pic: &Picture,
    look: &Look,
    room: Room,
) -> Result<Option<Layout>, JsValue> {
    if pic.to.rows == 0 || pic.to.cols == 0 {
        blank(canvas);
        return Ok(None);
    }
    draw_zoomed(canvas, rows, cols, (pic, &cell_pixels(pic)?), look, room, None)
}

/// [`draw`] from the picture's [`cell_pixels`], or with `zoom`: the whole
/// map fitted into `room` however small its cells, then zoomed in and
/// panned as `zoom` says.
pub fn draw_zoomed(
    canvas: &HtmlCanvasElement,
    rows: &[String],
    cols: &[String],
    (pic, pixels): (&Picture, &HtmlCanvasElement),
    look: &Look,
    room: Room,
    zoom: Option<Zoomer>,
) -> Result<Option<Layout>, JsValue> {
    let (r, c) = (pic.to.rows, pic.to.cols);
    if r == 0 || c == 0 {
        blank(canvas);
        return Ok(None);
    }
    let widest = label_width(&crate::canvas::paint::context(canvas)?, &[rows, cols].concat(), look);
    let layout = match zoom {
        Some(z) => z.layout(widest, r, c, room, look),
        None => Layout::fit(widest, r, c, room, look),
    };
    let (width, height) = layout.size();
    let ctx = prepare(canvas, width, height)?;
    paint_image(&ctx, &layout, pixels)?;
    if pic.frame.t >= 1.0 {
        let hidden = |i, j| {
            pic.frame.to == Stage::Weights
                && pic.hidden.is_some_and(|(mask, axes)| axes.hides(mask, (i, j)))
        };
        numbers(
            &ctx,
            &layout,
            look,
            pic.values.as_ref().unwrap_or(&pic.to),
            pic.frame.to,
            hidden,
            |i, j| colour(pic.to[(i, j)], pic.frame.to, pic.range, pic.grey),
        )?;
    }
    let zoomed = layout.zoomed();
    if zoomed {
        layout.clip(&ctx, 3.0);
    }
    outline_token(&ctx, &layout, pic.focus, look);
    outline_cell(&ctx, &layout, pic.cell, look);
    if zoomed {
        ctx.restore();
    }
    draw_labels(&ctx, &layout, rows, cols, pic.focus, look)?;
    if let Some(thumbs) = &pic.thumbs {
        thumbs.draw(&ctx, &layout, pic.focus, look)?;
    }
    layout.mark(canvas);
    Ok(Some(layout))
}

/// Each cell's number (but those of the cells `hidden` says), where cells
/// are big enough to hold it legibly, in black or white as reads best on
/// the cell's colour, in the labels' sans-serif (its figures are as wide as
/// a monospace's, its point narrower).
fn numbers(
    ctx: &web_sys::CanvasRenderingContext2d,
    layout: &Layout,
    look: &Look,
    m: &Matrix,
    stage: Stage,
    hidden: impl Fn(usize, usize) -> bool,
    colour_at: impl Fn(usize, usize) -> Rgb,
) -> Result<(), JsValue> {
    // As large as the widest number this stage prints ("0.52", "-20.6")
    // allows in 0.88 of the cell's width and 0.42 of its height: on a
    // projector the cells are large, and so is the type.
    ctx.set_font(&look.font_at(100.0, false));
    let widest =
        ctx.measure_text(if stage == Stage::Weights { "0.00" } else { "-00.0" })?.width().max(1.0);
    let px =
        (layout.cell * 88.0 / widest).min(layout.cell * 0.42).min(layout.font_px * 1.4).floor();
    // Cells under 32 px hold no legible number (and a long text has a million).
    let px = if layout.cell < 32.0 || px < 10.0 { 0.0 } else { px };
    if let Some(canvas) = ctx.canvas() {
        let _ = canvas.set_attribute("data-number-px", &px.to_string());
    }
    if px == 0.0 {
        let _ = ctx.canvas().map(|c| c.set_attribute("data-numbers", "0"));
        return Ok(());
    }
    ctx.set_font(&look.font_at(px, false));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    let half = layout.cell / 2.0;
    // Zoomed in, only the cells in sight, cut at the window's edge.
    let zoomed = layout.zoomed();
    if zoomed {
        layout.clip(ctx, 0.0);
    }
    let (cols, mut written) = (layout.visible_cols(), 0);
    for i in layout.visible_rows().filter(|&i| i < m.rows) {
        for j in cols.clone().filter(|&j| j < m.cols && !hidden(i, j)) {
            let (x, y) = layout.cell_origin(i, j);
            ctx.set_fill_style_str(text_on(colour_at(i, j)));
            ctx.fill_text(&cell_text(m[(i, j)], stage), x + half, y + half)?;
            written += 1;
        }
    }
    if zoomed {
        ctx.restore();
    }
    if let Some(canvas) = ctx.canvas() {
        let _ = canvas.set_attribute("data-numbers", &written.to_string());
    }
    Ok(())
}
