//! BertViz-style lines: the tokens twice, queries on the left and keys on
//! the right, a line from query i to key j as opaque as the weight A[i][j].
//! The chosen query's lines are drawn strong, the others faint.

use crate::heatmap::{label, prepare, use_look, Look};
use attnscope::Matrix;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

const ROW: f64 = 20.0;
const COLUMN: f64 = 120.0;
const GAP: f64 = 160.0;

/// Draws the lines; `chosen` is the query token whose lines stand out.
pub fn draw(
    canvas: &HtmlCanvasElement,
    tokens: &[String],
    a: Option<&Matrix>,
    chosen: usize,
    look: &Look,
    accent: &str,
) -> Result<(), JsValue> {
    let Some(a) = a.filter(|a| a.rows > 0 && a.cols > 0) else {
        canvas.set_width(0);
        canvas.set_height(0);
        return Ok(());
    };
    let (n, z, ink) = (a.rows.max(a.cols), look.zoom, look.ink.as_str());
    let (width, height) = ((2.0 * COLUMN + GAP) * z, n as f64 * ROW * z + 8.0);
    let ctx = prepare(canvas, width, height)?;
    let offset = a.cols.saturating_sub(a.rows);
    let y = |i: usize| 4.0 + (i as f64 + 0.5) * ROW * z;
    let (x0, x1) = (COLUMN * z, (COLUMN + GAP) * z);
    ctx.set_line_width(2.0);
    for pass in [false, true] {
        for i in 0..a.rows {
            if (i + offset == chosen) != pass {
                continue;
            }
            ctx.set_stroke_style_str(if pass { accent } else { ink });
            for j in 0..a.cols {
                let w = a[(i, j)] as f64;
                if w < 0.01 {
                    continue;
                }
                ctx.set_global_alpha(if pass { w.clamp(0.05, 1.0) } else { (w * 0.25).clamp(0.0, 0.25) });
                ctx.begin_path();
                ctx.move_to(x0 + 4.0, y(i + offset));
                ctx.line_to(x1 - 4.0, y(j));
                ctx.stroke();
            }
        }
    }
    ctx.set_global_alpha(1.0);
    ctx.set_font(&look.font());
    ctx.set_text_baseline("middle");
    for (i, t) in tokens.iter().take(n).enumerate() {
        ctx.set_fill_style_str(if i == chosen { accent } else { ink });
        ctx.set_text_align("right");
        ctx.fill_text(&label(t), x0 - 4.0, y(i))?;
        ctx.set_text_align("left");
        ctx.fill_text(&label(t), x1 + 4.0, y(i))?;
    }
    Ok(())
}

/// `canvas#lines`: click a word on the left to choose the query.
#[component]
pub fn Lines(
    #[prop(into)] tokens: Signal<Vec<String>>,
    #[prop(into)] weights: Signal<Option<Matrix>>,
    query: ReadSignal<usize>,
    set_query: WriteSignal<usize>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let look = use_look();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let drawn = tokens.with(|t| weights.with(|w| look.with(|look| draw(&el, t, w.as_ref(), query.get(), look, "#ff2d78"))));
        if let Err(e) = drawn {
            web_sys::console::error_2(&"lines: drawing failed:".into(), &e);
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let i = ((ev.offset_y() as f64 - 4.0) / (ROW * look.with_untracked(|l| l.zoom))).floor();
        let n = tokens.with(Vec::len);
        if i >= 0.0 && (i as usize) < n {
            set_query.set(i as usize);
        }
    };
    view! {
        <figure class="lines">
            <canvas id="lines" node_ref=canvas role="img" on:click=on_click
                aria-label="Lines from each query token (left) to the keys (right), as strong as the weight; the chosen query's lines in pink. The table below lists the same numbers."></canvas>
            <figcaption>"Left: queries, right: keys. A line is as opaque as its weight; click a word on the left to follow it (or use the buttons above)."</figcaption>
        </figure>
    }
}
