//! A grid of cells with a token along each axis (the heatmap and the dot
//! grids): where each cell goes so that the grid and its labels fill the
//! room they are given, and the labels themselves.

use super::look::Look;
use super::room::Room;
use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

/// Labels longer than this are cut with an ellipsis.
const LABEL_CHARS: usize = 14;
/// The smallest cell: a long text scrolls inside its box rather than shrink further.
pub const MIN_CELL: f64 = 4.0;
/// Room assumed before the box is measured (and in a box that has none).
const FALLBACK: f64 = 480.0;
/// Label size per cell size, where cells are large enough for labels to grow.
const LABEL_PER_CELL: f64 = 0.3;
/// The largest cell, as a share of the room's shorter side: a few tokens
/// fill most of their box, while two tokens make two cells of a quarter
/// each rather than a wall of colour.
const MAX_CELL_SHARE: f64 = 0.25;

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
    /// Label type size.
    pub font_px: f64,
    /// How far the grid is scrolled inside its window (zoomed in), in pixels.
    pub pan: (f64, f64),
    /// The part of the canvas the grid is seen through, beside the labels: the
    /// whole grid when it fits, the fitted grid's size when zoomed in.
    pub window: (f64, f64),
}

impl Layout {
    /// The largest cells that fit `rows × cols` and labels `label_width`
    /// wide into `room`, no larger than [`MAX_CELL_SHARE`] of its shorter
    /// side. Big cells take labels up to half as large again as the page's,
    /// so that the words keep in proportion with the picture.
    pub fn fit(label_width: f64, rows: usize, cols: usize, room: Room, look: &Look) -> Self {
        let base = look.label_px.round();
        let side = if room.0 > 1.0 && room.1 > 1.0 { room.0.min(room.1) } else { FALLBACK };
        let max_cell = (side * MAX_CELL_SHARE).floor();
        let first = Self::fit_at(base, label_width, rows, cols, room, max_cell);
        let grown = (first.cell * LABEL_PER_CELL).min(base * 1.5).floor();
        if grown <= base {
            return first;
        }
        // Text widths scale with the type size.
        Self::fit_at(grown, (label_width * grown / base).ceil(), rows, cols, room, max_cell)
    }

    /// Like [`Layout::fit`], but the whole grid always fits `room`: below
    /// [`MIN_CELL`] the cells shrink further (to a fraction of a pixel if
    /// need be) instead of scrolling, for a picture that zooms in
    /// (`zoom.rs`) to show them large.
    pub fn fit_all(label_width: f64, rows: usize, cols: usize, room: Room, look: &Look) -> Self {
        let base = look.label_px.round();
        let side = if room.0 > 1.0 && room.1 > 1.0 { room.0.min(room.1) } else { FALLBACK };
        let max_cell = (side * MAX_CELL_SHARE).floor();
        let first = Self::fit_within(base, label_width, (rows, cols), room, (0.1, max_cell));
        let grown = (first.cell * LABEL_PER_CELL).min(base * 1.5).floor();
        if grown <= base {
            return first;
        }
        Self::fit_within(
            grown,
            (label_width * grown / base).ceil(),
            (rows, cols),
            room,
            (0.1, max_cell),
        )
    }

    fn fit_at(
        font_px: f64,
        label_width: f64,
        rows: usize,
        cols: usize,
        room: Room,
        max_cell: f64,
    ) -> Self {
        Self::fit_within(font_px, label_width, (rows, cols), room, (MIN_CELL, max_cell))
    }

    /// Whole pixels per cell from [`MIN_CELL`] up (every cell one flat
    /// colour), fractions below it, never less than `min_cell` nor more than `max_cell`.
    fn fit_within(
        font_px: f64,
        label_width: f64,
        (rows, cols): (usize, usize),
        room: Room,
        (min_cell, max_cell): (f64, f64),
    ) -> Self {
        let margin = (label_width + 0.6 * font_px + 4.0).ceil();
        let (w, h) = if room.0 > 1.0 && room.1 > 1.0 {
            room
        } else {
            (FALLBACK + margin, FALLBACK + margin)
        };
        let across = (w - margin - 4.0) / cols.max(1) as f64;
        let down = (h - margin - 4.0) / rows.max(1) as f64;
        let raw = across.min(down);
        let cell =
            if raw >= MIN_CELL { raw.floor() } else { raw }.clamp(min_cell, max_cell.max(MIN_CELL));
        let window = (cell * cols as f64, cell * rows as f64);
        Self { cell, left: margin, top: margin, rows, cols, font_px, pan: (0.0, 0.0), window }
    }

    pub fn size(&self) -> (f64, f64) {
        (self.left + self.window.0 + 4.0, self.top + self.window.1 + 4.0)
    }

    /// Top-left corner of cell (i, j).
    pub fn cell_origin(&self, i: usize, j: usize) -> (f64, f64) {
        (
            self.left + self.cell * j as f64 - self.pan.0,
            self.top + self.cell * i as f64 - self.pan.1,
        )
    }

    /// The cell under a point, if any (only where the grid is seen).
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (wx, wy) = (x - self.left, y - self.top);
        if wx < 0.0 || wy < 0.0 || wx >= self.window.0 || wy >= self.window.1 {
            return None;
        }
        let (j, i) = ((wx + self.pan.0) / self.cell, (wy + self.pan.1) / self.cell);
        (i >= 0.0 && j >= 0.0 && (i as usize) < self.rows && (j as usize) < self.cols)
            .then_some((i as usize, j as usize))
    }

    /// The rows seen (wholly or in part) through the window.
    pub fn visible_rows(&self) -> std::ops::Range<usize> {
        Self::seen(self.pan.1, self.window.1, self.cell, self.rows)
    }

    /// The columns seen (wholly or in part) through the window.
    pub fn visible_cols(&self) -> std::ops::Range<usize> {
        Self::seen(self.pan.0, self.window.0, self.cell, self.cols)
    }

    fn seen(pan: f64, window: f64, cell: f64, n: usize) -> std::ops::Range<usize> {
        let first = ((pan / cell).floor().max(0.0) as usize).min(n);
        let end = (((pan + window) / cell - 1e-9).ceil().max(0.0) as usize).clamp(first, n);
        first..end
    }

    /// Whether the grid is larger than its window (zoomed in).
    pub fn zoomed(&self) -> bool {
        self.cell * self.cols as f64 > self.window.0 + 0.5
            || self.cell * self.rows as f64 > self.window.1 + 0.5
    }

    /// Restricts drawing to the window, `pad` pixels beyond it (for
    /// outlines); undone by `ctx.restore()`.
    pub fn clip(&self, ctx: &CanvasRenderingContext2d, pad: f64) {
        ctx.save();
        ctx.begin_path();
        ctx.rect(
            self.left - pad,
            self.top - pad,
            self.window.0 + 2.0 * pad,
            self.window.1 + 2.0 * pad,
        );
        ctx.clip();
    }

    /// Show every n-th label so that labels never overlap (a label is
    /// about as tall as its type size, so a cell that tall holds it).
    pub fn label_every(&self) -> usize {
        (self.font_px / self.cell).ceil().max(1.0) as usize
    }

    /// Written on the canvas, for tests and tools that locate cells.
    pub fn mark(&self, canvas: &web_sys::HtmlCanvasElement) {
        let _ = canvas.set_attribute("data-cell", &self.cell.to_string());
        let _ = canvas.set_attribute("data-left", &self.left.to_string());
        let _ = canvas.set_attribute("data-top", &self.top.to_string());
        let _ = canvas.set_attribute("data-label-px", &self.font_px.to_string());
        // Zoomed in: cell (i, j) starts at left + j·cell − pan-x, top + i·cell − pan-y.
        let _ = canvas.set_attribute("data-pan-x", &self.pan.0.to_string());
        let _ = canvas.set_attribute("data-pan-y", &self.pan.1.to_string());
    }
}

/// A token as a label: cut with an ellipsis when long.
pub fn label(token: &str) -> String {
    if token.chars().count() > LABEL_CHARS {
        token.chars().take(LABEL_CHARS - 1).chain(['…']).collect()
    } else {
        token.to_string()
    }
}

/// The width of the widest label in the label font.
pub fn label_width(ctx: &CanvasRenderingContext2d, tokens: &[String], look: &Look) -> f64 {
    ctx.set_font(&look.font());
    tokens
        .iter()
        .filter_map(|t| ctx.measure_text(&label(t)).ok())
        .map(|m| m.width())
        .fold(0.0, f64::max)
}

/// A row and a column to stand out (a chosen token's), by index.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Focus {
    pub row: Option<usize>,
    pub col: Option<usize>,
}

/// Row labels on the left, column labels on top (turned to read upwards);
/// the focus row's and column's labels in the focus colour and bold.
pub fn draw_labels(
    ctx: &CanvasRenderingContext2d,
    layout: &Layout,
    rows: &[String],
    cols: &[String],
    focus: Focus,
    look: &Look,
) -> Result<(), JsValue> {
    ctx.set_text_baseline("middle");
    let half = layout.cell / 2.0;
    let gap = (0.4 * layout.font_px).round();
    let every = layout.label_every();
    let style = |on: bool| {
        ctx.set_fill_style_str(if on { &look.focus } else { &look.ink });
        ctx.set_font(&look.font_at(layout.font_px, on));
    };
    // Only the rows and columns seen through the window, and of those
    // every n-th counted from the first token, so that panning does not make
    // the labels jump; a cell's label is drawn while its middle is in sight.
    let (rows_seen, cols_seen) = (layout.visible_rows(), layout.visible_cols());
    let inside = |from: f64, mid: f64, size: f64| mid >= from - 0.5 && mid <= from + size + 0.5;
    ctx.set_text_align("right");
    for i in rows_seen.filter(|&i| i < rows.len() && (i % every == 0 || focus.row == Some(i))) {
        let (_, y) = layout.cell_origin(i, 0);
        if !inside(layout.top, y + half, layout.window.1) {
            continue;
        }
        style(focus.row == Some(i));
        ctx.fill_text(&label(&rows[i]), layout.left - gap, y + half)?;
    }
    ctx.set_text_align("left");
    for j in cols_seen.filter(|&j| j < cols.len() && (j % every == 0 || focus.col == Some(j))) {
        let (x, _) = layout.cell_origin(0, j);
        if !inside(layout.left, x + half, layout.window.0) {
            continue;
        }
        let token = &cols[j];
        style(focus.col == Some(j));
        if upright(token.trim()) {
            // Chinese and Japanese stand upright in a column, read downwards, one square
            // character per em: as tall as the turned label would be long.
            ctx.set_text_align("center");
            let text = label(token.trim());
            let n = text.chars().count();
            for (k, c) in text.chars().enumerate() {
                let y = layout.top - gap - (n - k) as f64 * layout.font_px + 0.5 * layout.font_px;
                ctx.fill_text(&c.to_string(), x + half, y)?;
            }
            ctx.set_text_align("left");
            continue;
        }
        ctx.save();
        ctx.translate(x + half, layout.top - gap)?;
        ctx.rotate(-std::f64::consts::FRAC_PI_2)?;
        ctx.fill_text(&label(token), 0.0, 0.0)?;
        ctx.restore();
    }
    Ok(())
}

/// Whether a column's label is written upright: every character of it square (CJK ideographs,
/// kana, hangul, their punctuation and full-width forms), which turned on their side would
/// read lying down.
pub fn upright(token: &str) -> bool {
    let square = |c: char| {
        matches!(c as u32,
            0x3000..=0x30FF // CJK punctuation, hiragana, katakana
            | 0x3400..=0x4DBF // CJK extension A
            | 0x4E00..=0x9FFF // CJK unified ideographs
            | 0xAC00..=0xD7AF // hangul syllables
            | 0xF900..=0xFAFF // CJK compatibility ideographs
            | 0xFF01..=0xFF60 // full-width forms
            | 0x20000..=0x2FFFF) // CJK extensions B and on
    };
    !token.is_empty() && token.chars().all(square)
}

/// Outlines the focus row and column (a chosen token's).
pub fn outline_token(ctx: &CanvasRenderingContext2d, layout: &Layout, focus: Focus, look: &Look) {
    let (rows, cols) = (layout.rows, layout.cols);
    ctx.set_stroke_style_str(&look.focus);
    ctx.set_line_width(if layout.cell >= 16.0 { 3.0 } else { 2.0 });
    if let Some(i) = focus.row.filter(|&i| i < rows && cols > 0) {
        let (x, y) = layout.cell_origin(i, 0);
        ctx.stroke_rect(x, y, layout.cell * cols as f64, layout.cell);
    }
    if let Some(j) = focus.col.filter(|&j| j < cols && rows > 0) {
        let (x, y) = layout.cell_origin(0, j);
        ctx.stroke_rect(x, y, layout.cell, layout.cell * rows as f64);
    }
}

/// Outlines one cell (the one pointed at or tapped).
pub fn outline_cell(
    ctx: &CanvasRenderingContext2d,
    layout: &Layout,
    cell: Option<(usize, usize)>,
    look: &Look,
) {
    if let Some((i, j)) = cell.filter(|&(i, j)| i < layout.rows && j < layout.cols) {
        let (x, y) = layout.cell_origin(i, j);
        ctx.set_stroke_style_str(&look.ink);
        ctx.set_line_width(2.0);
        ctx.stroke_rect(x + 1.0, y + 1.0, layout.cell - 2.0, layout.cell - 2.0);
    }
}
