//! BertViz-style lines: the tokens twice, queries on the left and keys on
//! the right, a line from query i to key j as opaque as the weight A[i][j].
//! The chosen query's lines are drawn strong, the others faint.

use crate::canvas::{
    blank, label, label_width, now_ms, prepare, use_canvas_box, CanvasBox, Look, Room,
};
use crate::state::{Results, Selection};
use attnscope::Matrix;
use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

/// Where the two columns of words and their rows go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Columns {
    pub row: f64,
    /// Right edge of the query words, left edge of the key words.
    pub x0: f64,
    pub x1: f64,
    pub width: f64,
    /// Label type size.
    pub font_px: f64,
}

impl Columns {
    /// Rows for `n` tokens with labels `label_w` wide (at the look's size).
    /// With `fill`, the rows and their type grow to fill the room's height
    /// (a box sized by the layout); else they keep the label size (a box
    /// as tall as its picture).
    pub fn fit(label_w: f64, n: usize, room: Room, look: &Look, fill: bool) -> Self {
        let base = look.label_px.round();
        let (row, font_px) = if fill && room.1 > 1.0 {
            let row = ((room.1 - 8.0) / n.max(1) as f64).clamp(1.6 * base, 3.2 * base).floor();
            (row, (row * 0.45).clamp(base, 1.5 * base).floor())
        } else {
            ((1.6 * base).round(), base)
        };
        // Scaled to the type size, with room for the chosen word's bold.
        let words = (label_w * font_px / base * 1.1).ceil() + 8.0;
        let gap = if fill { (n as f64 * row).max(12.0 * base) } else { 12.0 * base };
        let natural = 2.0 * words + gap;
        let width = if room.0 > 1.0 { natural.min(room.0) } else { natural };
        Self {
            row,
            x0: words,
            x1: (width - words).max(words + 40.0),
            width: width.max(2.0 * words + 40.0),
            font_px,
        }
    }

    pub fn y(&self, i: usize) -> f64 {
        4.0 + (i as f64 + 0.5) * self.row
    }

    /// The query word under a point on the left, if any.
    pub fn query_at(&self, x: f64, y: f64, n: usize) -> Option<usize> {
        let i = ((y - 4.0) / self.row).floor();
        (x <= self.x0 + 8.0 && i >= 0.0 && (i as usize) < n).then_some(i as usize)
    }
}

/// Draws the lines; `chosen` is the query token whose lines stand out.
pub fn draw(
    canvas: &HtmlCanvasElement,
    tokens: &[String],
    a: Option<&Matrix>,
    chosen: usize,
    look: &Look,
    room: Room,
    fill: bool,
) -> Result<Option<Columns>, JsValue> {
    let Some(a) = a.filter(|a| a.rows > 0 && a.cols > 0) else {
        blank(canvas);
        return Ok(None);
    };
    let n = a.rows.max(a.cols);
    let cols = Columns::fit(
        label_width(&crate::canvas::paint::context(canvas)?, tokens, look),
        n,
        room,
        look,
        fill,
    );
    let ctx = prepare(canvas, cols.width, n as f64 * cols.row + 8.0)?;
    let offset = a.cols.saturating_sub(a.rows);
    let (x0, x1, ink) = (cols.x0, cols.x1, look.ink.as_str());
    ctx.set_line_width(2.0);
    for pass in [false, true] {
        for i in 0..a.rows {
            if (i + offset == chosen) != pass {
                continue;
            }
            ctx.set_stroke_style_str(if pass { &look.focus } else { ink });
            for j in 0..a.cols {
                let w = a[(i, j)] as f64;
                if w < 0.01 {
                    continue;
                }
                ctx.set_global_alpha(if pass {
                    w.clamp(0.05, 1.0)
                } else {
                    (w * 0.25).clamp(0.0, 0.25)
                });
                ctx.begin_path();
                ctx.move_to(x0 + 4.0, cols.y(i + offset));
                ctx.line_to(x1 - 4.0, cols.y(j));
                ctx.stroke();
            }
        }
    }
    ctx.set_global_alpha(1.0);
    ctx.set_text_baseline("middle");
    for (i, t) in tokens.iter().take(n).enumerate() {
        let on = i == chosen;
        ctx.set_font(&look.font_at(cols.font_px, on));
        ctx.set_fill_style_str(if on { &look.focus } else { ink });
        ctx.set_text_align("right");
        ctx.fill_text(&label(t), x0 - 4.0, cols.y(i))?;
        ctx.set_text_align("left");
        ctx.fill_text(&label(t), x1 + 4.0, cols.y(i))?;
    }
    let _ = canvas.set_attribute("data-row", &cols.row.to_string());
    let _ = canvas.set_attribute("data-query", &chosen.to_string());
    Ok(Some(cols))
}

/// `canvas#lines`: click a word on the left to choose the query. With
/// `fill`, the lines fill the box the layout gives them (the lesson's stage).
#[component]
pub fn Lines(#[prop(optional)] fill: bool) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<Columns>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let t0 = now_ms();
        let n = res.tokens.with(Vec::len);
        let chosen = sel.query(n);
        let drawn = res.tokens.with(|t| {
            res.detail.with(|d| {
                look.with(|look| {
                    draw(&el, t, d.as_ref().map(|d| &d.weights), chosen, look, room.get(), fill)
                })
            })
        });
        match drawn {
            Ok(c) => placed.set_value(c),
            Err(e) => web_sys::console::error_2(&"lines: drawing failed:".into(), &e),
        }
        let _ = el.set_attribute("data-draw-ms", &format!("{:.2}", now_ms() - t0));
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let n = res.tokens.with(Vec::len);
        if let Some(i) = placed
            .get_value()
            .and_then(|c| c.query_at(ev.offset_x() as f64, ev.offset_y() as f64, n))
        {
            sel.token.set(Some(i));
        }
    };
    view! {
        <figure class="lines" class:fill=fill>
            <div class="canvas-box" class:natural=!fill node_ref=boxed>
                <canvas
                    id="lines"
                    node_ref=canvas
                    role="img"
                    on:click=on_click
                    aria-label=tr!("explain-lines-label")
                ></canvas>
            </div>
            <figcaption>{tr!("explain-lines-caption")}</figcaption>
        </figure>
    }
}
