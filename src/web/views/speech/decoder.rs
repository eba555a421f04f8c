//! `canvas#speech-decoder`: the decoder's causal self-attention among the
//! transcript's tokens, for one decoder layer and head: each token's query
//! (a row) over the keys of the tokens written so far (columns). The cells
//! above the diagonal are the keys the causal mask hides, grey as the
//! page's other heatmaps draw them, not weights of 0. Hovering a cell reads
//! it out; a click chooses its query token for the tab's other pictures.

use super::{token_text, Speech};
use crate::canvas::{
    blank, cell_color, draw_labels, label_width, outline_cell, outline_token, paint_cells, prepare,
    text_on, use_canvas_box, CanvasBox, Focus, Layout, Rgb,
};
use crate::views::common::format::{fixed, num};
use leptos::prelude::*;

/// Whether the causal mask hides key `j` from query `i` (a token written later).
fn hidden(i: usize, j: usize) -> bool {
    j > i
}

#[component]
pub fn DecoderMap() -> impl IntoView {
    let speech = expect_context::<Speech>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<Layout>);
    let hover = RwSignal::new(None::<(usize, usize)>);
    let (layer, head) = (RwSignal::new(0usize), RwSignal::new(0usize));
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let (token, cell) = (speech.token.get(), hover.get());
        let Some(h) = speech.heard.get() else { return blank(&el) };
        let n = h.tokens.len();
        let w = h.self_attention.get(layer.get()).and_then(|l| l.get(head.get()));
        let Some(w) = w.filter(|w| w.rows > 0 && w.rows == w.cols && w.rows <= n) else {
            placed.set_value(None);
            return blank(&el);
        };
        let n = w.rows;
        let labels: Vec<String> = h.tokens[..n].iter().map(|t| token_text(t)).collect();
        let drawn = look.with(|look| -> Result<Layout, wasm_bindgen::JsValue> {
            let ctx = crate::canvas::paint::context(&el)?;
            let widest = label_width(&ctx, &labels, look);
            let layout = Layout::fit(widest, n, n, room.get(), look);
            let (width, height) = layout.size();
            let ctx = prepare(&el, width, height)?;
            let colours: Vec<Rgb> = (0..n * n)
                .map(|k| if hidden(k / n, k % n) { look.hidden } else { cell_color(w.data[k]) })
                .collect();
            paint_cells(&ctx, &layout, |k| colours[k])?;
            // Big cells carry their weight; the hidden ones stay plain grey.
            let px = (layout.cell * 0.3).min(layout.font_px * 1.4).floor();
            if px >= 10.0 {
                ctx.set_font(&format!("{px}px ui-monospace, SFMono-Regular, Menlo, monospace"));
                ctx.set_text_align("center");
                ctx.set_text_baseline("middle");
                for i in 0..n {
                    for j in 0..=i {
                        let (x, y) = layout.cell_origin(i, j);
                        ctx.set_fill_style_str(text_on(colours[i * n + j]));
                        let (cx, cy) = (x + layout.cell / 2.0, y + layout.cell / 2.0);
                        ctx.fill_text(&fixed(w[(i, j)] as f64, 2), cx, cy)?;
                    }
                }
            }
            let focus = Focus { row: token.filter(|&t| t < n), col: None };
            outline_token(&ctx, &layout, focus, look);
            outline_cell(&ctx, &layout, cell, look);
            draw_labels(&ctx, &layout, &labels, &labels, focus, look)?;
            layout.mark(&el);
            let _ = el.set_attribute("data-cells", &n.to_string());
            Ok(layout)
        });
        match drawn {
            Ok(layout) => placed.set_value(Some(layout)),
            Err(e) => web_sys::console::error_2(&"decoder map: drawing failed:".into(), &e),
        }
    });
    let cell_at = move |ev: &web_sys::MouseEvent| {
        placed.get_value()?.cell_at(f64::from(ev.offset_x()), f64::from(ev.offset_y()))
    };
    let readout = move || {
        let h = speech.heard.get()?;
        let w = h.self_attention.get(layer.get())?.get(head.get())?;
        let word = |t: usize| h.tokens.get(t).map(|t| token_text(t).trim().to_string());
        Some(match hover.get().filter(|&(i, j)| i < w.rows && j < w.cols) {
            Some((i, j)) if hidden(i, j) => {
                tr!("speech-decoder-masked", query = word(i)?, key = word(j)?)
            }
            Some((i, j)) => tr!(
                "speech-decoder-readout",
                query = word(i)?,
                key = word(j)?,
                weight = num(w[(i, j)]),
            ),
            None => tr!("speech-decoder-hover"),
        })
    };
    let layers = move || speech.heard.with(|h| h.as_ref().map_or(0, |h| h.self_attention.len()));
    let heads = move || {
        speech.heard.with(|h| h.as_ref().and_then(|h| h.self_attention.first()).map_or(0, Vec::len))
    };
    view! {
        <Show when=move || { layers() > 0 }>
            <h3 class="speech-subhead">{tr!("speech-decoder-title")}</h3>
            <p class="speech-caption">{tr!("speech-decoder-caption")}</p>
            <div class="speech-decoder-choice">
                {super::numbered_pick(
                    "speech-decoder-layer",
                    format!("{} ", tr!("speech-decoder-layer")),
                    Signal::derive(layers),
                    layer,
                )}
                {super::numbered_pick(
                    "speech-decoder-head",
                    format!(" {} ", tr!("speech-decoder-head")),
                    Signal::derive(heads),
                    head,
                )}
            </div>
            <div class="canvas-box speech-box" node_ref=boxed>
                <canvas
                    id="speech-decoder"
                    node_ref=canvas
                    role="img"
                    aria-label=tr!("speech-decoder-aria")
                    on:mousemove=move |ev| hover.set(cell_at(&ev))
                    on:mouseleave=move |_| hover.set(None)
                    on:click=move |ev| {
                        if let Some((i, j)) = cell_at(&ev) {
                            hover.set(Some((i, j)));
                            speech.token.set(Some(i));
                        }
                    }
                ></canvas>
            </div>
            <p class="readout" id="speech-decoder-readout" aria-live="polite">
                {readout}
            </p>
        </Show>
    }
}
