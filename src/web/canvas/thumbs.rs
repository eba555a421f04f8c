//! A vision trace's patches as labels: where a grid of cells has a patch's
//! token along an axis, its square of the picture stands in for the text
//! "row,col" (the heatmap and the dot grids). The text labels keep room for
//! it ([`THUMB_ROOM`]), so the grid's layout is made as for any label.

use super::grid::{Focus, Layout};
use super::look::Look;
use attnscope::trace::PatchGrid;
use wasm_bindgen::JsValue;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A patch token's text label: two em spaces, the room its picture takes.
pub const THUMB_ROOM: &str = "\u{2003}\u{2003}";

/// The picture a vision trace was made from, and its patch grid.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchPictures {
    /// The picture, drawn once onto a canvas of its own size.
    pub picture: HtmlCanvasElement,
    pub grid: PatchGrid,
}

/// Where a grid's rows and columns start among the tokens (a cut view's
/// queries start later), and which way round it is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Thumbs {
    pub pictures: PatchPictures,
    /// The token of row 0 and of column 0.
    pub first: (usize, usize),
}

impl Thumbs {
    /// The labels with every patch token's text replaced by room for its picture.
    pub fn labels(&self, rows: &mut [String], cols: &mut [String]) {
        for (labels, first) in [(rows, self.first.0), (cols, self.first.1)] {
            for (i, label) in labels.iter_mut().enumerate() {
                if self.pictures.grid.patch_of(first + i).is_some() {
                    *label = THUMB_ROOM.into();
                }
            }
        }
    }

    /// The part of the picture patch (r, c) covers: x, y, width, height.
    fn source(&self, r: usize, c: usize) -> (f64, f64, f64, f64) {
        let g = &self.pictures.grid;
        let (w, h) = (self.pictures.picture.width() as f64, self.pictures.picture.height() as f64);
        let (pw, ph) = (w / g.cols as f64, h / g.rows as f64);
        (c as f64 * pw, r as f64 * ph, pw, ph)
    }

    /// Draws each labelled patch's picture where its text label would be,
    /// as large as its row (or the labels' margin) allows, the focus
    /// token's framed in the focus colour.
    pub fn draw(
        &self,
        ctx: &CanvasRenderingContext2d,
        layout: &Layout,
        focus: Focus,
        look: &Look,
    ) -> Result<(), JsValue> {
        let every = layout.label_every();
        let gap = (0.4 * layout.font_px).round();
        let side = (every as f64 * layout.cell)
            .min(2.0 * layout.font_px)
            .min(layout.left - gap)
            .min(layout.top - gap)
            .floor()
            - 1.0;
        if side < 4.0 {
            return Ok(());
        }
        ctx.set_image_smoothing_enabled(false);
        let half = layout.cell / 2.0;
        let frame = |x: f64, y: f64, on: bool| {
            ctx.set_stroke_style_str(if on { &look.focus } else { &look.ink });
            ctx.set_line_width(if on { 2.0 } else { 0.5 });
            ctx.stroke_rect(x, y, side, side);
        };
        let inside = |from: f64, mid: f64, size: f64| mid >= from - 0.5 && mid <= from + size + 0.5;
        for i in layout.visible_rows().filter(|&i| i < layout.rows) {
            let Some((r, c)) = self.pictures.grid.patch_of(self.first.0 + i) else { continue };
            if i % every != 0 && focus.row != Some(i) {
                continue;
            }
            let (_, y) = layout.cell_origin(i, 0);
            if !inside(layout.top, y + half, layout.window.1) {
                continue;
            }
            let (x, y) = ((layout.left - gap - side).round(), (y + half - side / 2.0).round());
            self.blit(ctx, (r, c), x, y, side)?;
            frame(x, y, focus.row == Some(i));
        }
        for j in layout.visible_cols().filter(|&j| j < layout.cols) {
            let Some((r, c)) = self.pictures.grid.patch_of(self.first.1 + j) else { continue };
            if j % every != 0 && focus.col != Some(j) {
                continue;
            }
            let (x, _) = layout.cell_origin(0, j);
            if !inside(layout.left, x + half, layout.window.0) {
                continue;
            }
            let (x, y) = ((x + half - side / 2.0).round(), (layout.top - gap - side).round());
            self.blit(ctx, (r, c), x, y, side)?;
            frame(x, y, focus.col == Some(j));
        }
        Ok(())
    }

    fn blit(
        &self,
        ctx: &CanvasRenderingContext2d,
        (r, c): (usize, usize),
        x: f64,
        y: f64,
        side: f64,
    ) -> Result<(), JsValue> {
        let (sx, sy, sw, sh) = self.source(r, c);
        ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
            &self.pictures.picture,
            sx,
            sy,
            sw,
            sh,
            x,
            y,
            side,
            side,
        )
    }
}
