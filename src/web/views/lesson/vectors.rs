//! The vectors of one token as strips of coloured cells: x entering the
//! layer, and q, k and v, its three projections (red positive, blue
//! negative, each strip against its own largest |entry|).

use crate::canvas::{
    blank, css, label_width, prepare, signed_color, use_canvas_box, CanvasBox, Look, Room,
};
use crate::state::{Results, Selection};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// Draws `strips` (name, values) one under the other, fitted to the room's width.
pub fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    strips: &[(String, Vec<f32>)],
    look: &Look,
    room: Room,
) -> Result<(), JsValue> {
    if strips.is_empty() || strips.iter().all(|(_, v)| v.is_empty()) {
        blank(canvas);
        return Ok(());
    }
    let names: Vec<String> = strips.iter().map(|(n, _)| n.clone()).collect();
    let left = label_width(&crate::canvas::paint::context(canvas)?, &names, look) + 12.0;
    let width = if room.0 > 1.0 { room.0 } else { 600.0 };
    let longest = strips.iter().map(|(_, v)| v.len()).max().unwrap_or(1).max(1);
    // Every strip uses one cell width, so q, k and v look as much shorter than x as they are.
    let cell = ((width - left - 4.0) / longest as f64).max(0.5);
    let strip = (look.label_px * 2.4).round();
    let pitch = strip + look.label_px * 1.4;
    let ctx = prepare(canvas, width, pitch * strips.len() as f64 + 4.0)?;
    ctx.set_text_baseline("middle");
    ctx.set_text_align("right");
    for (s, (name, v)) in strips.iter().enumerate() {
        let y = 4.0 + s as f64 * pitch;
        ctx.set_font(&look.font());
        ctx.set_fill_style_str(&look.ink);
        ctx.fill_text(name, left - 8.0, y + strip / 2.0)?;
        let range = v.iter().filter(|x| x.is_finite()).fold(0.0f32, |a, x| a.max(x.abs()));
        for (j, &x) in v.iter().enumerate() {
            ctx.set_fill_style_str(&css(signed_color(x, range)));
            // Cells overlap by a hair so that sub-pixel strips show no seams.
            ctx.fill_rect(left + j as f64 * cell, y, cell + 0.5, strip);
        }
        ctx.set_stroke_style_str(&look.muted);
        ctx.set_line_width(1.0);
        ctx.stroke_rect(left - 0.5, y - 0.5, cell * v.len() as f64 + 1.0, strip + 1.0);
    }
    Ok(())
}

/// `canvas#vectors`: x, q, k and v of the chosen query token in the selected head.
#[component]
pub fn VectorStrips() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let token = move || {
        res.tokens.with(|t| {
            let q = sel.query(t.len());
            (q, t.get(q).cloned().unwrap_or_default())
        })
    };
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let (q, word) = token();
        let strips = res.detail.with(|d| {
            let Some(d) = d.as_ref().filter(|d| d.weights.rows > 0) else { return Vec::new() };
            let offset = d.weights.cols.saturating_sub(d.weights.rows);
            let row = |m: &attnscope::Matrix, r: usize| {
                if r < m.rows {
                    m.row(r).to_vec()
                } else {
                    Vec::new()
                }
            };
            vec![
                (tr!("lesson-strip-x", token = word.as_str()), row(&d.input, q)),
                ("q = x·W_Q".to_string(), row(&d.q, q.saturating_sub(offset))),
                ("k = x·W_K".to_string(), row(&d.k, q)),
                ("v = x·W_V".to_string(), row(&d.v, q)),
            ]
        });
        if let Err(e) = look.with(|look| draw(&el, &strips, look, room.get())) {
            web_sys::console::error_2(&"vectors: drawing failed:".into(), &e);
        }
    });
    view! {
        <figure class="vectors">
            <div class="canvas-box natural" node_ref=boxed>
                <canvas
                    id="vectors"
                    node_ref=canvas
                    role="img"
                    aria-label=move || { tr!("lesson-vectors-label", token = token().1) }
                ></canvas>
            </div>
            <figcaption>{tr!("lesson-vectors-caption")}</figcaption>
        </figure>
    }
}
