//! One head as a heatmap on a canvas: row i is query token i, column j key
//! token j (or the transpose), at any step from QKᵀ to the softmax. One
//! canvas, not one DOM node per cell, so a 256-token text stays cheap to
//! redraw; the map grows to fill the room its box has, and big cells carry
//! their number. A long text is drawn whole and zooms in ([`Zoomer`]): the
//! canvas keeps its box's size and shows the cells in sight.

use super::compare::{CompareMap, CompareText};
use super::picture::{cell_pixels, draw_zoomed, Picture};
use crate::canvas::{
    blank, cell_color, css, now_ms, on_wheel, signed_color, use_canvas_box, CanvasBox, KeptImage,
    Layout, ZoomBar, Zoomer,
};
use crate::state::{Appearance, Results, Selection};
use crate::url_state::Stage;
use crate::views::common::axes::Axes;
use crate::views::common::cells::{cell_handlers, cell_keys};
use crate::views::common::format::fixed;
use crate::views::common::readout::Readout;
use crate::views::common::stages::{score_range, values, CellsOf, StageMotion, StagePicker};
use attnscope::attention::Mask;
use attnscope::Matrix;
use leptos::prelude::*;

/// `canvas#heatmap`: the selected head at the selected stage, in a box it
/// fills. Pointing at a cell describes it in the readout; a click or tap
/// keeps it there and chooses its query token in every view. A long text
/// zooms and pans, with a [`ZoomBar`] in the corner the labels leave; with
/// the map focused the arrow keys move the described cell, the map
/// following it, and Enter chooses its query.
#[component]
pub fn Heatmap() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let app = expect_context::<Appearance>();
    let res = expect_context::<Results>();
    let motion = expect_context::<StageMotion>();
    let zoomer = Zoomer::new();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<(Layout, Axes)>);
    let made = KeptImage::<CellsOf>::new();
    let pictures = crate::views::image::patch_pictures(res);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let t0 = now_ms();
        let (transposed, highlight, cell) =
            (app.columns_are_queries.get(), sel.highlight(), sel.cell());
        let frame = motion.frame(sel.stage.get());
        let drawn = res.detail.with(|d| {
            let Some(d) = d.as_ref().filter(|d| d.weights.rows > 0) else {
                blank(&el);
                return Ok(None);
            };
            let axes = Axes::of(&d.weights, transposed);
            let (rows, cols, thumbs) = res.tokens.with(|t| axes.labels_with(t, pictures()));
            let norms = crate::views::beyond::shown_norms(d)
                .filter(|_| frame.t >= 1.0 && frame.to == Stage::Weights);
            // Between two stages both are drawn; at rest only the one reached.
            let still = frame.t >= 1.0;
            let mut pic = Picture {
                from: if still {
                    Matrix::zeros(0, 0)
                } else {
                    axes.orient(&values(d, d.mask, frame.from))
                },
                to: axes.orient(&values(d, d.mask, frame.to)),
                frame,
                range: score_range(d),
                focus: axes.focus(highlight),
                cell: cell.filter(|c| c.mask.is_none()).and_then(|c| axes.place(&c)),
                values: None,
                hidden: Some((d.mask, axes)),
                grey: look.with(|l| l.hidden),
                thumbs,
            };
            let of = CellsOf::new(d, frame, transposed, norms.is_some()).in_grey(pic.grey);
            if let Some(norms) = norms {
                pic.to = axes.orient(&attnscope::analysis::value_norms::per_row(&norms));
                pic.values = Some(axes.orient(&norms));
            }
            let pixels = made.get_or_make(of, || cell_pixels(&pic))?;
            let drawn = look.with(|look| {
                draw_zoomed(&el, &rows, &cols, (&pic, &pixels), look, room.get(), Some(zoomer))
            })?;
            Ok(drawn.map(|layout| (layout, axes)))
        });
        match drawn {
            Ok(p) => placed.set_value(p),
            Err(e) => web_sys::console::error_2(&"heatmap: drawing failed:".into(), &e),
        }
        let _ =
            el.set_attribute("data-token", &highlight.map(|t| t.to_string()).unwrap_or_default());
        let _ = el.set_attribute("data-zoom", &zoomer.scale_untracked().to_string());
        let _ = el.set_attribute("data-draw-ms", &format!("{:.2}", now_ms() - t0));
    });
    let at = move |ev: &web_sys::MouseEvent| {
        let (x, y) = crate::canvas::offset(ev);
        placed
            .get_value()
            .and_then(|(layout, axes)| layout.cell_at(x, y).map(|rc| axes.cell(rc, None)))
    };
    on_wheel(canvas, move |ev| {
        if let Some((layout, axes)) = placed.get_value() {
            zoomer.wheel(&ev, &layout);
            // The cell under the pointer after the zoom.
            let (x, y) = crate::canvas::offset(&ev);
            sel.hovered_cell
                .set(zoomer.relayout(&layout).cell_at(x, y).map(|rc| axes.cell(rc, None)));
        }
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some((layout, axes)) = placed.get_value() else { return };
        if zoomer.key(&ev, Some(&layout))
            || cell_keys(&ev, sel, &layout, |rc| axes.cell(rc, None), |c| axes.place(c), zoomer)
        {
            ev.prevent_default();
            // The lesson's own arrow keys must not also move.
            ev.stop_propagation();
        }
    };
    let (on_move, on_up, on_click) = cell_handlers(zoomer, sel, at);
    let zoomed = move || zoomer.current().scale > 1.0;
    view! {
        <div class="canvas-box" node_ref=boxed>
            <div class="zoom-stack">
                <canvas
                    id="heatmap"
                    node_ref=canvas
                    tabindex="0"
                    role="img"
                    class:zoomable=move || zoomer.zoomable()
                    class:zoomed=zoomed
                    aria-label=tr!("head-heatmap-label")
                    on:pointerdown=move |ev| zoomer.pointer_down(&ev)
                    on:pointermove=on_move
                    on:pointerup=on_up
                    on:pointercancel=move |ev| {
                        zoomer.pointer_up(&ev);
                    }
                    on:pointerleave=move |_| sel.hovered_cell.set(None)
                    on:keydown=on_key
                    on:click=on_click
                ></canvas>
                <ZoomBar zoomer=zoomer id="heatmap-zoom".to_string() />
            </div>
        </div>
    }
}

/// The colour scale of the stage shown: weights 0…1, or scores −r…r.
#[component]
pub fn Legend() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    move || {
        let stage = sel.stage.get();
        let (low, high, ramp) = if stage.is_score() {
            let r = res.detail.with(|d| d.as_ref().map_or(0.0, score_range));
            let stops: Vec<String> = (0..=10)
                .map(|i| {
                    format!("{} {}%", css(signed_color(-r + 2.0 * r * i as f32 / 10.0, r)), i * 10)
                })
                .collect();
            (fixed(-r as f64, 1), fixed(r as f64, 1), stops)
        } else {
            let stops: Vec<String> = (0..=10)
                .map(|i| format!("{} {}%", css(cell_color(i as f32 / 10.0)), i * 10))
                .collect();
            ("0".to_string(), "1".to_string(), stops)
        };
        view! {
            <div class="legend" aria-hidden="true">
                <span>{low}</span>
                <span
                    class="ramp"
                    style=format!("background: linear-gradient(to right, {})", ramp.join(", "))
                ></span>
                <span>{high}</span>
            </div>
        }
    }
}

/// What the picture's rows and columns mean at this stage; `masked`: the
/// head's mask hides some keys, whose weights are drawn grey.
fn caption(stage: Stage, transposed: bool, masked: bool) -> String {
    match (stage, transposed, masked) {
        (Stage::Weights, false, false) => tr!("head-caption-weights-rows"),
        (Stage::Weights, false, true) => tr!("head-caption-weights-rows-masked"),
        (Stage::Weights, true, false) => tr!("head-caption-weights-columns"),
        (Stage::Weights, true, true) => tr!("head-caption-weights-columns-masked"),
        (Stage::Masked, _, _) => tr!("head-caption-masked"),
        (_, false, _) => tr!("head-caption-scores-rows"),
        (_, true, _) => tr!("head-caption-scores-columns"),
    }
}

/// The heatmap view: the steps and Play, the map (and a second sentence's
/// beside it), the readout and what the picture means.
#[component]
pub fn HeadView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let app = expect_context::<Appearance>();
    let res = expect_context::<Results>();
    let masked = move || res.detail.with(|d| d.as_ref().is_some_and(|d| d.mask != Mask::None));
    view! {
        <div class="view-picture" id="view-head">
            <div class="toolbar">
                <StagePicker />
                <Legend />
                <crate::views::beyond::ValueSwitch />
            </div>
            <div class="pictures">
                <Heatmap />
                <CompareMap />
            </div>
            <Readout />
            <crate::views::beyond::NormReadout />
            <p class="caption">
                {move || caption(sel.stage.get(), app.columns_are_queries.get(), masked())}
            </p>
            {(!app.embed).then(|| view! { <CompareText /> })}
        </div>
    }
}
