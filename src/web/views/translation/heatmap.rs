//! `canvas#cross-heatmap`: the cross-attention of the chosen decoder layer
//! and head (or their mean), one row per target word, one column per source
//! word. Pointing at a cell reads it out; a click keeps it and chooses its
//! target word for the other pictures.

use super::CrossChoice;
use crate::canvas::{
    blank, cell_color, draw_labels, label_width, outline_cell, outline_token, paint_cells, prepare,
    text_on, use_canvas_box, CanvasBox, Focus, Layout, Rgb,
};
use crate::views::common::format::fixed;
use leptos::prelude::*;

#[component]
pub fn CrossHeatmap() -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<Layout>);
    let hovered = RwSignal::new(None::<(usize, usize)>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let (layer, head, target) = (choice.layer.get(), choice.head.get(), choice.target.get());
        let cell = hovered.get().or(choice.cell.get());
        let drawn = choice.summary.with(|t| {
            let Some(t) = t.as_ref() else { return Ok(None) };
            let Some(w) = t.weights(layer, head) else { return Ok(None) };
            let rows = choice.rows(t).min(w.rows);
            if rows == 0 || w.cols == 0 {
                return Ok(None);
            }
            let ctx = crate::canvas::paint::context(&el)?;
            look.with(|look| {
                let widest = label_width(
                    &ctx,
                    &[t.target_tokens.clone(), t.source_tokens.clone()].concat(),
                    look,
                );
                let layout = Layout::fit(widest, rows, w.cols, room.get(), look);
                let (width, height) = layout.size();
                let ctx = prepare(&el, width, height)?;
                let colours: Vec<Rgb> =
                    w.data[..rows * w.cols].iter().map(|&v| cell_color(v)).collect();
                paint_cells(&ctx, &layout, |k| colours[k])?;
                let px = (layout.cell * 0.3).min(layout.font_px * 1.4).floor();
                if px >= 10.0 {
                    ctx.set_font(&format!("{px}px ui-monospace, SFMono-Regular, Menlo, monospace"));
                    ctx.set_text_align("center");
                    ctx.set_text_baseline("middle");
                    for i in 0..rows {
                        for j in 0..w.cols {
                            let (x, y) = layout.cell_origin(i, j);
                            ctx.set_fill_style_str(text_on(colours[i * w.cols + j]));
                            ctx.fill_text(
                                &fixed(w[(i, j)] as f64, 2),
                                x + layout.cell / 2.0,
                                y + layout.cell / 2.0,
                            )?;
                        }
                    }
                }
                let focus = Focus { row: target.filter(|&r| r < rows), col: None };
                outline_token(&ctx, &layout, focus, look);
                outline_cell(&ctx, &layout, cell, look);
                draw_labels(
                    &ctx,
                    &layout,
                    &t.target_tokens[..rows],
                    &t.source_tokens,
                    focus,
                    look,
                )?;
                layout.mark(&el);
                let _ = el.set_attribute("data-rows", &rows.to_string());
                let _ = el.set_attribute("data-cols", &w.cols.to_string());
                Ok::<_, wasm_bindgen::JsValue>(Some(layout))
            })
        });
        match drawn {
            Ok(Some(l)) => placed.set_value(Some(l)),
            Ok(None) => {
                blank(&el);
                placed.set_value(None);
            }
            Err(e) => web_sys::console::error_2(&"cross-attention: drawing failed:".into(), &e),
        }
    });
    let at = move |ev: &web_sys::MouseEvent| {
        placed.get_value().and_then(|l| l.cell_at(ev.offset_x() as f64, ev.offset_y() as f64))
    };
    view! {
        <p class="translate-caption">
            {move || tr!("translation-heatmap-caption", which = choice.which())}
        </p>
        <div class="canvas-box translate-box" node_ref=boxed>
            <canvas
                id="cross-heatmap"
                node_ref=canvas
                role="img"
                aria-label=tr!("translation-heatmap-aria")
                on:pointermove=move |ev| {
                    if ev.pointer_type() == "mouse" {
                        hovered.set(at(&ev))
                    }
                }
                on:pointerleave=move |_| hovered.set(None)
                on:click=move |ev| {
                    if let Some(c) = at(&ev) {
                        choice.cell.set(Some(c));
                        choice.target.set(Some(c.0));
                    }
                }
            ></canvas>
        </div>
        <CrossReadout hovered=hovered />
        <super::export::CrossExports />
    }
}

/// `#translate-readout`: the weight of the cell pointed at or clicked.
#[component]
fn CrossReadout(hovered: RwSignal<Option<(usize, usize)>>) -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    let text = move || {
        let (i, j) = hovered.get().or(choice.cell.get())?;
        choice.summary.with(|t| {
            let t = t.as_ref()?;
            let w = t.weights(choice.layer.get(), choice.head.get())?;
            (i < w.rows && j < w.cols).then(|| {
                tr!(
                    "translation-readout",
                    target = t.target_tokens[i].replace('▁', " ").trim().to_string(),
                    source = t.source_tokens[j].replace('▁', " ").trim().to_string(),
                    weight = fixed(w[(i, j)] as f64, 4),
                    which = choice.which(),
                )
            })
        })
    };
    view! {
        <p class="readout translate-readout" id="translate-readout" aria-live="polite">
            {move || { text().unwrap_or_else(|| tr!("translation-readout-none")) }}
        </p>
    }
}
