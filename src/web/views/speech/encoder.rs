//! `canvas#speech-encoder`: the encoder's self-attention among the clip's
//! frames, for one encoder layer and head. Every frame of sound is a query
//! over every frame (no mask: the encoder reads the whole clip both ways).
//! The worker sends it in blocks of frames (`SpeechSummary::encoder_block`),
//! so a 30 s clip is 125 × 125 cells rather than 1,500 × 1,500. Hovering a
//! cell reads its exact value out.

use super::Speech;
use crate::canvas::{blank, prepare, use_canvas_box, CanvasBox};
use crate::views::common::format::fixed;
use leptos::prelude::*;

/// Where the square is drawn, in CSS pixels.
#[derive(Clone, Copy)]
struct Square {
    left: f64,
    top: f64,
    side: f64,
    cells: usize,
}

#[component]
pub fn EncoderMap() -> impl IntoView {
    let speech = expect_context::<Speech>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<Square>);
    let hover = RwSignal::new(None::<(usize, usize)>);
    let (layer, head) = (speech.encoder_layer, speech.encoder_head);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let Some(h) = speech.heard.get() else { return blank(&el) };
        let Some(w) = h.encoder.get(layer.get()).and_then(|l| l.get(head.get())) else {
            placed.set_value(None);
            return blank(&el);
        };
        if w.rows == 0 || w.rows != w.cols {
            placed.set_value(None);
            return blank(&el);
        }
        let width = room.get().0.max(240.0);
        let drawn = look.with(|look| -> Result<Square, wasm_bindgen::JsValue> {
            let (left, top) = (44.0, 6.0);
            let side = (width - left - 8.0).clamp(120.0, 520.0);
            let ctx = prepare(&el, width, top + side + 34.0)?;
            ctx.set_font(&look.font_scaled(0.85, false));
            // A frame's query spreads over many frames.
            let image = super::rows_to_their_peaks(w)?;
            ctx.set_image_smoothing_enabled(false);
            ctx.draw_image_with_html_canvas_element_and_dw_and_dh(&image, left, top, side, side)?;
            ctx.set_fill_style_str(&look.muted);
            ctx.set_text_baseline("middle");
            ctx.set_text_align("right");
            ctx.fill_text("0 s", left - 4.0, top + 6.0)?;
            let end = format!("{} s", fixed(h.seconds as f64, 1));
            ctx.fill_text(&end, left - 4.0, top + side - 6.0)?;
            ctx.set_text_align("left");
            let bottom = top + side + 11.0;
            ctx.fill_text("0 s", left, bottom)?;
            ctx.set_text_align("right");
            ctx.fill_text(&end, left + side, bottom)?;
            ctx.set_text_align("center");
            ctx.fill_text(&tr!("speech-encoder-axis"), left + side / 2.0, bottom + 14.0)?;
            let _ = el.set_attribute("data-cells", &w.rows.to_string());
            let _ = el.set_attribute("data-block", &h.encoder_block.to_string());
            Ok(Square { left, top, side, cells: w.rows })
        });
        match drawn {
            Ok(square) => placed.set_value(Some(square)),
            Err(e) => web_sys::console::error_2(&"encoder map: drawing failed:".into(), &e),
        }
    });
    let cell_at = move |ev: &web_sys::MouseEvent| {
        let s = placed.get_value()?;
        let at = |offset: f64, start: f64| {
            let c = ((offset - start) / s.side * s.cells as f64).floor();
            (c >= 0.0 && (c as usize) < s.cells).then_some(c as usize)
        };
        Some((at(f64::from(ev.offset_y()), s.top)?, at(f64::from(ev.offset_x()), s.left)?))
    };
    let readout = move || {
        let h = speech.heard.get()?;
        let w = h.encoder.get(layer.get())?.get(head.get())?;
        let block = h.encoder_block.max(1);
        let ms =
            |c: usize| ((c * block * 20) as f64 / 1000.0, ((c + 1) * block * 20) as f64 / 1000.0);
        Some(match hover.get().filter(|&(i, j)| i < w.rows && j < w.cols) {
            Some((i, j)) => {
                let ((q0, q1), (k0, k1)) = (ms(i), ms(j));
                let stayed: f32 = w.row(i).iter().sum();
                tr!(
                    "speech-encoder-readout",
                    q0 = fixed(q0, 2),
                    q1 = fixed(q1, 2),
                    k0 = fixed(k0, 2),
                    k1 = fixed(k1, 2),
                    weight = fixed(w[(i, j)] as f64, 4),
                    stayed = fixed((100.0 * stayed) as f64, 1),
                )
            }
            None => tr!("speech-encoder-hover"),
        })
    };
    let layers = move || speech.heard.with(|h| h.as_ref().map_or(0, |h| h.encoder.len()));
    let heads = move || {
        speech.heard.with(|h| h.as_ref().and_then(|h| h.encoder.first()).map_or(0, Vec::len))
    };
    view! {
        <Show when=move || { layers() > 0 }>
            <h3 class="speech-subhead">{tr!("speech-encoder-title")}</h3>
            <p class="speech-caption">
                {move || {
                    let block = speech.heard.with(|h| h.as_ref().map_or(1, |h| h.encoder_block));
                    let cell = if block == 1 {
                        tr!("speech-encoder-cell-frame")
                    } else {
                        tr!("speech-encoder-cell-block", block = block, ms = block * 20)
                    };
                    tr!("speech-encoder-caption", cell = cell)
                }}
            </p>
            <div class="speech-encoder-choice">
                {super::numbered_pick(
                    "speech-encoder-layer",
                    format!("{} ", tr!("speech-encoder-layer")),
                    Signal::derive(layers),
                    layer,
                )}
                {super::numbered_pick(
                    "speech-encoder-head",
                    format!(" {} ", tr!("speech-encoder-head")),
                    Signal::derive(heads),
                    head,
                )}
            </div>
            <div class="canvas-box speech-box natural" node_ref=boxed>
                <canvas
                    id="speech-encoder"
                    node_ref=canvas
                    role="img"
                    aria-label=tr!("speech-encoder-aria")
                    on:mousemove=move |ev| hover.set(cell_at(&ev))
                    on:mouseleave=move |_| hover.set(None)
                ></canvas>
            </div>
            <p class="readout" id="speech-encoder-readout" aria-live="polite">
                {readout}
            </p>
        </Show>
    }
}
