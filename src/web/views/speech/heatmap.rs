//! `canvas#speech-heatmap`: every token's cross-attention over time, one
//! row per token, one column per 20 ms frame of the clip, and at the right
//! a hatched column for the silence padded after the clip (the share of the
//! row's weight that went there). A click chooses the row's token.

use super::{token_text, Speech};
use crate::canvas::{blank, label, label_width, prepare, use_canvas_box, CanvasBox};
use crate::views::common::format::fixed;
use leptos::prelude::*;

/// The padding's column, and the gap before it, in CSS pixels.
const PADDING_PX: f64 = 28.0;
const GAP_PX: f64 = 6.0;

/// Where the rows are: y of row `i` is `top + i · row`.
#[derive(Clone, Copy)]
struct Rows {
    top: f64,
    row: f64,
    count: usize,
}

#[component]
pub fn TokenTime() -> impl IntoView {
    let speech = expect_context::<Speech>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<Rows>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let (token, pick) = (speech.token.get(), speech.pick.get());
        let Some(h) = speech.heard.get() else { return blank(&el) };
        let Some(w) = h.weights(pick) else { return blank(&el) };
        let width = room.get().0.max(280.0);
        let drawn = look.with(|look| -> Result<Option<Rows>, wasm_bindgen::JsValue> {
            if w.rows == 0 || w.cols == 0 {
                return Ok(None);
            }
            // Cut as the other maps cut a long token ("<|startoftranscri…").
            let labels: Vec<String> = h.tokens.iter().map(|t| label(&token_text(t))).collect();
            let ctx = crate::canvas::paint::context(&el)?;
            ctx.set_font(&look.font());
            let left = label_width(&ctx, &labels, look) + 8.0;
            let row = (look.label_px + 6.0).round();
            let rows = Rows { top: 4.0, row, count: w.rows };
            let height = rows.top + row * w.rows as f64 + 22.0;
            // Sizing the canvas resets its state: the font again.
            let ctx = prepare(&el, width, height)?;
            ctx.set_font(&look.font());
            let plot = (width - left - GAP_PX - PADDING_PX - 4.0).max(40.0);
            // A row sums to 1 over 1,500 frames, so its weights are small.
            let image = super::rows_to_their_peaks(w)?;
            ctx.set_image_smoothing_enabled(false);
            ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
                &image,
                left,
                rows.top,
                plot,
                row * w.rows as f64,
            )?;
            // The padding's share, hatched grey, as wide as its share.
            let x_pad = left + plot + GAP_PX;
            for i in 0..w.rows {
                let shown: f32 = w.row(i).iter().sum();
                let share = f64::from((1.0 - shown).clamp(0.0, 1.0));
                let y = rows.top + row * i as f64;
                ctx.set_fill_style_str(&look.muted);
                ctx.set_global_alpha(0.2);
                ctx.fill_rect(x_pad, y + 1.0, PADDING_PX, row - 2.0);
                ctx.set_global_alpha(0.8);
                ctx.fill_rect(x_pad, y + 1.0, PADDING_PX * share, row - 2.0);
                ctx.set_global_alpha(1.0);
            }
            // Labels, the chosen row outlined.
            ctx.set_text_baseline("middle");
            ctx.set_text_align("right");
            for (i, label) in labels.iter().enumerate() {
                let focus = token == Some(i);
                ctx.set_fill_style_str(if focus { &look.focus } else { &look.ink });
                ctx.fill_text(label, left - 6.0, rows.top + row * (i as f64 + 0.5))?;
            }
            if let Some(t) = token.filter(|&t| t < w.rows) {
                ctx.set_stroke_style_str(&look.focus);
                ctx.set_line_width(2.0);
                ctx.stroke_rect(left - 1.0, rows.top + row * t as f64, plot + 2.0, row);
            }
            ctx.set_fill_style_str(&look.muted);
            ctx.set_font(&look.font_scaled(0.85, false));
            ctx.set_text_align("left");
            let bottom = rows.top + row * w.rows as f64 + 11.0;
            ctx.fill_text("0 s", left, bottom)?;
            ctx.set_text_align("right");
            ctx.fill_text(&format!("{} s", fixed(h.seconds as f64, 1)), left + plot, bottom)?;
            ctx.set_text_align("center");
            ctx.fill_text(&tr!("speech-heatmap-pad"), x_pad + PADDING_PX / 2.0, bottom)?;
            let _ = el.set_attribute("data-rows", &w.rows.to_string());
            let _ = el.set_attribute("data-cols", &w.cols.to_string());
            Ok(Some(rows))
        });
        match drawn {
            Ok(rows) => placed.set_value(rows),
            Err(e) => web_sys::console::error_2(&"speech heatmap: drawing failed:".into(), &e),
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(r) = placed.get_value() else { return };
        let i = ((ev.offset_y() as f64 - r.top) / r.row).floor();
        if i >= 0.0 && (i as usize) < r.count {
            speech.token.set(Some(i as usize));
        }
    };
    view! {
        <p class="speech-caption">
            {move || tr!("speech-heatmap-caption", which = speech.which())}
        </p>
        <div class="canvas-box speech-box" node_ref=boxed>
            <canvas
                id="speech-heatmap"
                node_ref=canvas
                role="img"
                aria-label=tr!("speech-heatmap-aria")
                on:click=on_click
            ></canvas>
        </div>
    }
}
