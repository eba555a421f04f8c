//! The dot grid of the "a fluffy blue creature roamed the verdant forest"
//! diagrams: one circle per (query, key) whose area is proportional to the
//! value, words along both axes; the unmasked and the causally masked grid of
//! the same head side by side, at any step from QKᵀ to the softmax. Between
//! steps the dots grow, shrink and change colour, and hidden keys fade in
//! as crosses. A long text is drawn whole and zooms in, both grids together
//! ([`Zoomer`]), only the dots in sight drawn.

use crate::canvas::{
    blank, cell_color, cell_image, css, draw_labels, label_width, mix, on_wheel, outline_cell,
    outline_token, paint_image, prepare, signed_color, use_canvas_box, CanvasBox, Focus, KeptImage,
    Layout, Look, Rgb, Room, Thumbs, ZoomBar, Zoomer,
};
use crate::state::{Appearance, Results, Selection};
use crate::url_state::Stage;
use crate::views::common::axes::Axes;
use crate::views::common::cells::{cell_handlers, cell_keys};
use crate::views::common::readout::Readout;
use crate::views::common::stages::{score_range, values, CellsOf, Frame, StageMotion, StagePicker};
use attnscope::attention::Mask;
use attnscope::Matrix;
use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

/// Cells smaller than this (CSS pixels) show their dot as their shade: a
/// circle would be a pixel or two.
pub const SMALL_DOT: f64 = 4.0;

/// How one cell looks at one stage.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Dot {
    /// Share of the cell's full circle area, 0…1.
    area: f64,
    colour: Rgb,
    /// 1 for a key the mask hides (drawn as a cross).
    hidden: f64,
}

fn dot(v: f32, stage: Stage, range: f32) -> Dot {
    match stage {
        Stage::Weights => {
            Dot { area: v.clamp(0.0, 1.0) as f64, colour: cell_color(v), hidden: 0.0 }
        }
        _ if v == f32::NEG_INFINITY => Dot { area: 0.0, colour: [128, 128, 128], hidden: 1.0 },
        _ => {
            let share = if range > 0.0 { (v.abs() / range).min(1.0) } else { 0.0 };
            // The area carries the size; the colour only the sign, strong enough to see on a small
            // dot.
            Dot {
                area: share as f64,
                colour: signed_color(v.signum() * (0.5 + 0.5 * share) * range, range),
                hidden: 0.0,
            }
        }
    }
}

fn blend(a: Dot, b: Dot, t: f64) -> Dot {
    Dot {
        area: a.area + (b.area - a.area) * t,
        colour: mix(a.colour, b.colour, t),
        hidden: a.hidden + (b.hidden - a.hidden) * t,
    }
}

/// What one grid shows: its labels, the stage (or the move between two),
/// the scores' range, and the token and cell picked out.
pub struct Grid<'a> {
    pub rows: &'a [String],
    pub cols: &'a [String],
    pub frame: Frame,
    pub range: f32,
    pub focus: Focus,
    pub cell: Option<(usize, usize)>,
    /// A vision trace's patches, labelled with their pictures.
    pub thumbs: Option<&'a Thumbs>,
}

/// Draws `grid`'s `rows.len()` × `cols.len()` cells, `cells` giving their
/// numbers at its two stages (oriented as drawn), asked for only when the
/// dots are drawn or their image is not in `kept`.
pub fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    grid: &Grid,
    cells: impl FnOnce() -> (Matrix, Matrix),
    look: &Look,
    room: Room,
    (zoom, kept): (Zoomer, (KeptImage<CellsOf>, CellsOf)),
) -> Result<Option<Layout>, JsValue> {
    let Grid { rows, cols, frame, range, focus, cell, thumbs } = *grid;
    if rows.is_empty() || cols.is_empty() {
        blank(canvas);
        return Ok(None);
    }
    let widest = label_width(&crate::canvas::paint::context(canvas)?, &[rows, cols].concat(), look);
    let layout = zoom.layout(widest, rows.len(), cols.len(), room, look);
    let (width, height) = layout.size();
    let ctx = prepare(canvas, width, height)?;
    // Zoomed in, only the dots in sight, cut at the window's edge.
    let zoomed = layout.zoomed();
    if zoomed {
        layout.clip(&ctx, 3.0);
    }
    if layout.cell < SMALL_DOT {
        // A long text seen whole: a dot is a pixel or two, and its cell's
        // pixel says as much ([`dot_image`]); pointing, zooming and panning
        // draw the same image again.
        let (kept, of) = kept;
        let image = kept.get_or_make(of, || {
            let (from, to) = cells();
            dot_image(&from, &to, frame, range)
        })?;
        paint_image(&ctx, &layout, &image)?;
    } else {
        let (from, to) = cells();
        dots(&ctx, &layout, (&from, &to), frame, range, look)?;
    }
    outline_token(&ctx, &layout, focus, look);
    outline_cell(&ctx, &layout, cell, look);
    if zoomed {
        ctx.restore();
    }
    draw_labels(&ctx, &layout, rows, cols, focus, look)?;
    if let Some(thumbs) = thumbs {
        thumbs.draw(&ctx, &layout, focus, look)?;
    }
    layout.mark(canvas);
    Ok(Some(layout))
}

/// One pixel per cell, the canvas scaling the image in one call: its dot's
/// colour at an opacity of the dot's area, a hidden key grey.
fn dot_image(
    from: &Matrix,
    to: &Matrix,
    frame: Frame,
    range: f32,
) -> Result<web_sys::HtmlCanvasElement, JsValue> {
    let moving = frame.t < 1.0 && from.shape() == to.shape();
    cell_image(to.rows, to.cols, |k| {
        let end = dot(to.data[k], frame.to, range);
        let d =
            if moving { blend(dot(from.data[k], frame.from, range), end, frame.t) } else { end };
        let (c, alpha) =
            if d.hidden > 0.01 { ([128, 128, 128], 0.5 * d.hidden) } else { (d.colour, d.area) };
        [c[0], c[1], c[2], (alpha * 255.0 + 0.5) as u8]
    })
}

/// Each dot in sight as a circle (a cross for a hidden key).
fn dots(
    ctx: &CanvasRenderingContext2d,
    layout: &Layout,
    (from, to): (&Matrix, &Matrix),
    frame: Frame,
    range: f32,
    look: &Look,
) -> Result<(), JsValue> {
    let moving = frame.t < 1.0 && from.shape() == to.shape();
    let half = layout.cell / 2.0;
    let cols_seen = layout.visible_cols();
    for i in layout.visible_rows() {
        for j in cols_seen.clone() {
            let end = dot(to[(i, j)], frame.to, range);
            let d = if moving {
                blend(dot(from[(i, j)], frame.from, range), end, frame.t)
            } else {
                end
            };
            let (x, y) = layout.cell_origin(i, j);
            let (cx, cy) = (x + half, y + half);
            // A faint ring shows each cell's full size, so tiny values still read as "a cell".
            ctx.set_global_alpha(0.35 * (1.0 - d.hidden));
            ctx.set_stroke_style_str(&look.muted);
            ctx.set_line_width(0.75);
            ctx.begin_path();
            ctx.arc(cx, cy, (half - 1.0).max(0.5), 0.0, std::f64::consts::TAU)?;
            ctx.stroke();
            ctx.set_global_alpha(1.0);
            let r = d.area.sqrt() * (half - 1.0);
            if r > 0.3 {
                ctx.set_fill_style_str(&css(d.colour));
                ctx.begin_path();
                ctx.arc(cx, cy, r, 0.0, std::f64::consts::TAU)?;
                ctx.fill();
            }
            if d.hidden > 0.01 {
                // A hidden key (−∞): a grey cross.
                ctx.set_global_alpha(d.hidden);
                ctx.set_stroke_style_str(&look.muted);
                ctx.set_line_width(if layout.cell >= 24.0 { 2.0 } else { 1.0 });
                let r = half * 0.4;
                ctx.begin_path();
                ctx.move_to(cx - r, cy - r);
                ctx.line_to(cx + r, cy + r);
                ctx.move_to(cx + r, cy - r);
                ctx.line_to(cx - r, cy + r);
                ctx.stroke();
                ctx.set_global_alpha(1.0);
            }
        }
    }
    Ok(())
}

/// One captioned grid of the selected head, with `mask`.
#[component]
pub fn Grid(id: &'static str, mask: Mask, zoom: Zoomer, small: RwSignal<bool>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let app = expect_context::<Appearance>();
    let res = expect_context::<Results>();
    let motion = expect_context::<StageMotion>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<(Layout, Axes)>);
    let kept = KeptImage::<CellsOf>::new();
    let pictures = crate::views::image::patch_pictures(res);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
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
            let norms = crate::views::beyond::shown_norms(d).filter(|_| mask == d.mask);
            let of = CellsOf::new(d, frame, transposed, norms.is_some());
            let cells = || {
                let (mut from, mut to) = (
                    axes.orient(&values(d, mask, frame.from)),
                    axes.orient(&values(d, mask, frame.to)),
                );
                // The norms replace the weights of the model's own mask only: the scores have met
                // no value vector yet.
                if let Some(norms) = norms {
                    let shown = axes.orient(&attnscope::analysis::value_norms::per_row(&norms));
                    if frame.from == Stage::Weights {
                        from = shown.clone();
                    }
                    if frame.to == Stage::Weights {
                        to = shown;
                    }
                }
                (from, to)
            };
            let cell = cell.filter(|c| c.mask == Some(mask)).and_then(|c| axes.place(&c));
            let grid = Grid {
                rows: &rows,
                cols: &cols,
                frame,
                range: score_range(d),
                focus: axes.focus(highlight),
                cell,
                thumbs: thumbs.as_ref(),
            };
            look.with(|look| draw(&el, &grid, cells, look, room.get(), (zoom, (kept, of))))
                .map(|l| l.map(|l| (l, axes)))
        });
        match drawn {
            Ok(p) => {
                let tiny = p.as_ref().is_some_and(|(layout, _)| layout.cell < SMALL_DOT);
                if small.get_untracked() != tiny {
                    small.set(tiny);
                }
                placed.set_value(p);
            }
            Err(e) => web_sys::console::error_2(&"dot grid: drawing failed:".into(), &e),
        }
        let _ =
            el.set_attribute("data-token", &highlight.map(|t| t.to_string()).unwrap_or_default());
        let _ = el.set_attribute("data-zoom", &zoom.scale_untracked().to_string());
    });
    let at = move |ev: &web_sys::MouseEvent| {
        let (x, y) = crate::canvas::offset(ev);
        placed
            .get_value()
            .and_then(|(layout, axes)| layout.cell_at(x, y).map(|rc| axes.cell(rc, Some(mask))))
    };
    on_wheel(canvas, move |ev| {
        if let Some((layout, axes)) = placed.get_value() {
            zoom.wheel(&ev, &layout);
            // The cell under the pointer after the zoom.
            let (x, y) = crate::canvas::offset(&ev);
            sel.hovered_cell
                .set(zoom.relayout(&layout).cell_at(x, y).map(|rc| axes.cell(rc, Some(mask))));
        }
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some((layout, axes)) = placed.get_value() else { return };
        let place = |c: &crate::state::Cell| axes.place(c).filter(|_| c.mask == Some(mask));
        if zoom.key(&ev, Some(&layout))
            || cell_keys(&ev, sel, &layout, |rc| axes.cell(rc, Some(mask)), place, zoom)
        {
            ev.prevent_default();
            ev.stop_propagation();
        }
    };
    let (on_move, on_up, on_click) = cell_handlers(zoom, sel, at);
    let zoomed = move || zoom.current().scale > 1.0;
    let caption = move || {
        let Some(real) = res.detail.with(|d| d.as_ref().map(|d| d.mask)) else {
            return String::new();
        };
        let name = res
            .summary
            .with(|s| s.as_ref().map(|s| crate::compute::run_name(&s.info)).unwrap_or_default());
        let name = name.as_str();
        match (mask, mask == real) {
            (Mask::None, true) => tr!("grid-caption-unmasked", model = name),
            (Mask::None, false) => tr!("grid-caption-unmasked-what-if", model = name),
            (Mask::Causal, true) => tr!("grid-caption-causal", model = name),
            (Mask::Causal, false) => tr!("grid-caption-causal-what-if", model = name),
            (Mask::SlidingWindow(w), _) => {
                tr!("grid-caption-window", before = w.saturating_sub(1))
            }
        }
    };
    view! {
        <figure
            class="dotgrid"
            class:real=move || res.detail.with(|d| d.as_ref().is_some_and(|d| d.mask == mask))
        >
            // The caption names the grid, so it goes first.
            <figcaption>{caption}</figcaption>
            <div class="canvas-box" node_ref=boxed>
                <div class="zoom-stack">
                    <canvas
                        id=id
                        node_ref=canvas
                        tabindex="0"
                        role="img"
                        aria-label=caption
                        class:zoomable=move || zoom.zoomable()
                        class:zoomed=zoomed
                        on:pointerdown=move |ev| zoom.pointer_down(&ev)
                        on:pointermove=on_move
                        on:pointerup=on_up
                        on:pointercancel=move |ev| {
                            zoom.pointer_up(&ev);
                        }
                        on:pointerleave=move |_| sel.hovered_cell.set(None)
                        on:keydown=on_key
                        on:click=on_click
                    ></canvas>
                    <ZoomBar zoomer=zoom id=format!("{id}-zoom") />
                </div>
            </div>
        </figure>
    }
}

/// What the circles mean at this stage (`norms`: the value-weighted switch is on).
fn hint(stage: Stage, norms: bool) -> String {
    match stage {
        Stage::Weights if norms => tr!("grid-hint-norms"),
        Stage::Weights => tr!("grid-hint-weights"),
        Stage::Masked => tr!("grid-hint-masked"),
        _ => tr!("grid-hint-scores"),
    }
}

/// The dot grid view: the unmasked and the causal grid of the selected head.
#[component]
pub fn GridView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    // Whether the norms are drawn (the switch is on and they came for this head).
    let norms = move || {
        res.detail
            .with(|d| d.as_ref().is_some_and(|d| crate::views::beyond::shown_norms(d).is_some()))
    };
    view! {
        <div class="view-picture" id="view-grid">
            <div class="toolbar">
                <StagePicker />
                <crate::views::beyond::ValueSwitch />
                <p class="hint">{move || hint(sel.stage.get(), norms())}</p>
            </div>
            <DotGrids />
            <Readout />
            <crate::views::beyond::NormReadout />
            {move || {
                norms()
                    .then(|| {
                        view! {
                            <p class="caption" id="grid-norms-caption">
                                {tr!("grid-norms-caption")}
                            </p>
                        }
                    })
            }}
        </div>
    }
}

/// The two grids side by side (one above the other on a narrow screen),
/// zoomed together.
#[component]
pub fn DotGrids() -> impl IntoView {
    let zoom = Zoomer::new();
    // Whether the cells are drawn too small for circles.
    let small = RwSignal::new(false);
    view! {
        <div class="grids">
            <Grid id="grid-unmasked" mask=Mask::None zoom=zoom small=small />
            <Grid id="grid-causal" mask=Mask::Causal zoom=zoom small=small />
        </div>
        {move || {
            small
                .get()
                .then(|| {
                    view! {
                        <p class="caption" id="grid-small-caption">
                            {tr!("grid-small-caption")}
                        </p>
                    }
                })
        }}
    }
}
